/**
 * The server reads side effects from its storage a bounded number at a time,
 * however many storage holds: as it starts, the newest `MAX_LISTED_EFFECTS`
 * alone (what it lists); for `GET /effects` without a query (every effect in
 * one array), a page at a time as the answer is written. Its time and memory
 * for either do not grow with everything storage ever recorded at once.
 */
import { describe, expect, it } from 'vitest';
import { MAX_LISTED_EFFECTS } from '../src/server.js';
import { openMemoryStorage } from '../src/storage/memory.js';
import type { EffectRecord, Storage } from '../src/storage/types.js';
import { effectRecord } from './storageContract.js';
import { NOW, startServer } from './support.js';

/** `storage`, counting the effect records its reads hand out. */
function counting(storage: Storage): { storage: Storage; handedOut: () => number } {
  let count = 0;
  const tally = (value: unknown) => {
    if (Array.isArray(value)) count += value.length;
    else if (value && typeof value === 'object' && Array.isArray((value as { effects?: unknown }).effects))
      count += (value as { effects: unknown[] }).effects.length;
    return value;
  };
  const wrapped = new Proxy(storage, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (typeof value !== 'function' || name === 'performEffect') return value;
      return (...args: unknown[]) => {
        const result = value.apply(target, args);
        return result instanceof Promise ? result.then(tally) : tally(result);
      };
    },
  });
  return { storage: wrapped, handedOut: () => count };
}

describe('a server starting on a storage with many effects', () => {
  it(`lists the newest ${MAX_LISTED_EFFECTS} in the order done, reading no older one`, async () => {
    const inner = openMemoryStorage({ maxRecordBytes: 256 * 1024 * 1024 });
    const done: EffectRecord[] = [];
    for (let n = 0; n < MAX_LISTED_EFFECTS + 2_000; n++) {
      const record = effectRecord(`action-${n}`, { at: NOW - 60_000 + n });
      await inner.performEffect(record);
      done.push(record);
    }
    const { storage, handedOut } = counting(inner);
    const server = await startServer({ storage });
    expect(server.effects()).toEqual(done.slice(-MAX_LISTED_EFFECTS));
    expect(handedOut()).toBeLessThanOrEqual(MAX_LISTED_EFFECTS);
  });
});

describe('GET /effects without a query', () => {
  it('answers every effect in the order done in one array, read from storage a page at a time', async () => {
    const inner = openMemoryStorage({ maxRecordBytes: 256 * 1024 * 1024 });
    const done: EffectRecord[] = [];
    for (let n = 0; n < 2_500; n++) {
      const record = effectRecord(`action-${n}`, { at: NOW - 60_000 + n });
      await inner.performEffect(record);
      done.push(record);
    }
    let largest = 0;
    const storage = new Proxy(inner, {
      get(target, name, receiver) {
        const value = Reflect.get(target, name, receiver);
        if (name !== 'effects' && name !== 'effectsPage') return value;
        return async (...args: unknown[]) => {
          const result = await (value as (...a: unknown[]) => Promise<EffectRecord[] | { effects: EffectRecord[] }>).apply(target, args);
          largest = Math.max(largest, Array.isArray(result) ? result.length : result.effects.length);
          return result;
        };
      },
    });
    const server = await startServer({ storage, runRetentionMs: 0 });
    const response = await fetch(`${server.url}/effects`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/u);
    expect(await response.json()).toEqual(done);
    expect(largest).toBeGreaterThan(0);
    expect(largest).toBeLessThanOrEqual(1_000);
  });

  it('answers an empty array for no effect, and 503 when storage cannot be read', async () => {
    const storage = openMemoryStorage();
    const server = await startServer({ storage });
    const empty = await fetch(`${server.url}/effects`);
    expect(empty.status).toBe(200);
    expect(await empty.json()).toEqual([]);
    await storage.close();
    const down = await fetch(`${server.url}/effects`);
    expect(down.status).toBe(503);
    expect(await down.json()).toMatchObject({ error: { code: 'STORAGE_UNAVAILABLE' } });
  });

  it('is cut short, never closed as a whole array, when storage is lost while it is written; the server goes on', async () => {
    const inner = openMemoryStorage({ maxRecordBytes: 256 * 1024 * 1024 });
    for (let n = 0; n < 2_500; n++) await inner.performEffect(effectRecord(`action-${n}`, { at: NOW - 60_000 + n }));
    let pages = 0;
    const storage = new Proxy(inner, {
      get(target, name, receiver) {
        const value = Reflect.get(target, name, receiver);
        if (name !== 'effectsPage') return value;
        return async (after: number, limit: number) => {
          if (++pages === 2) await target.close();
          return target.effectsPage(after, limit);
        };
      },
    });
    const server = await startServer({ storage, runRetentionMs: 0 });
    const response = await fetch(`${server.url}/effects`);
    expect(response.status).toBe(200);
    const body = await response.text().catch(() => undefined);
    if (body !== undefined) expect(() => JSON.parse(body)).toThrow();
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });
});

describe('HEAD /effects without a query', () => {
  it('answers the headers of the array, reading no page of effects past the first, then or after it is answered', async () => {
    const inner = openMemoryStorage({ maxRecordBytes: 256 * 1024 * 1024 });
    for (let n = 0; n < 5_000; n++) await inner.performEffect(effectRecord(`action-${n}`, { at: NOW - 60_000 + n }));
    const { storage, handedOut } = counting(inner);
    const server = await startServer({ storage, runRetentionMs: 0 });
    const before = handedOut();
    const head = await fetch(`${server.url}/effects`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toMatch(/^application\/json/u);
    expect(await head.text()).toBe('');
    // Time for a read left running after the answer to go on through the pages.
    for (let n = 0; n < 5; n++) expect((await fetch(`${server.url}/health`)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(handedOut() - before).toBeLessThanOrEqual(1_000);
  });

  it('is 503 when storage cannot be read, as GET is', async () => {
    const storage = openMemoryStorage();
    const server = await startServer({ storage });
    await storage.close();
    const down = await fetch(`${server.url}/effects`, { method: 'HEAD' });
    expect(down.status).toBe(503);
  });
});
