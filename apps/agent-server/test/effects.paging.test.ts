/**
 * `GET /effects` in pages: `?after=<cursor>&limit=N` answers at most N
 * effects in the order done and the cursor to read on from, so a client reads
 * 10,000 effects a page at a time, each once; a query it cannot mean is a 400.
 * Without a query it is every effect in one array, as before.
 */
import { describe, expect, it } from 'vitest';
import type { AgentServer } from '../src/server.js';
import { openMemoryStorage } from '../src/storage/memory.js';
import type { EffectRecord } from '../src/storage/types.js';
import { effectRecord } from './storageContract.js';
import { startServer } from './support.js';

interface Page {
  effects: EffectRecord[];
  next: string;
  more: boolean;
}

/** A server whose storage holds `count` effects, done in order. */
async function serverWithEffects(count: number): Promise<AgentServer> {
  const storage = openMemoryStorage();
  for (let n = 0; n < count; n++) await storage.performEffect(effectRecord(`action-${n}`, { at: 1_000 + n }));
  return startServer({ storage });
}

const get = (server: AgentServer, query: string) => fetch(`${server.url}/effects${query}`);

describe('GET /effects in pages', () => {
  it('reads 10,000 effects a page at a time, each once and in the order done, to a last page that says there are no more', async () => {
    const server = await serverWithEffects(10_000);
    const seen: string[] = [];
    let cursor = '0';
    let pages = 0;
    for (;;) {
      const response = await get(server, `?after=${cursor}&limit=1000`);
      expect(response.status).toBe(200);
      const page = (await response.json()) as Page;
      expect(page.effects.length).toBeLessThanOrEqual(1000);
      seen.push(...page.effects.map((e) => e.key));
      cursor = page.next;
      pages++;
      if (!page.more) break;
      expect(pages).toBeLessThan(20);
    }
    expect(pages).toBe(10);
    expect(seen).toEqual(Array.from({ length: 10_000 }, (_, n) => `action-${n}`));
    // The last cursor stays valid: nothing more now, and only what is done later, later.
    expect(await (await get(server, `?after=${cursor}`)).json()).toEqual({ effects: [], next: cursor, more: false });
  });

  it('answers 100 effects by default and 1,000 at most, from the first when no cursor is given', async () => {
    const server = await serverWithEffects(1_500);
    const first = (await (await get(server, '?after=0')).json()) as Page;
    expect(first.effects).toHaveLength(100);
    expect(first.effects[0]?.key).toBe('action-0');
    expect(first.more).toBe(true);
    const byDefault = (await (await get(server, `?after=${first.next}`)).json()) as Page;
    expect(byDefault.effects).toHaveLength(100);
    expect(byDefault.effects[0]?.key).toBe('action-100');
    const noCursor = (await (await get(server, '?limit=5')).json()) as Page;
    expect(noCursor.effects.map((e) => e.key)).toEqual(['action-0', 'action-1', 'action-2', 'action-3', 'action-4']);
    const most = (await (await get(server, '?limit=1000')).json()) as Page;
    expect(most.effects).toHaveLength(1000);
  });

  it('refuses a query it cannot mean with 400 BAD_QUERY and a JSON error that says which', async () => {
    const server = await serverWithEffects(3);
    const after = ['-1', 'abc', '1e3', '0x10', '1.5', '%201', '', '9'.repeat(400), '99999999999999999999'].map((value) => [
      `?after=${value}`,
      'after',
    ]);
    const limit = ['', '0', '-5', '1001', 'abc', '1.5', '9'.repeat(400)].map((value) => [`?limit=${value}`, 'limit']);
    const repeated = [
      ['?after=1&after=2', 'after'],
      ['?limit=1&limit=2', 'limit'],
      ['?after=0&limit=10&limit=10', 'limit'],
    ];
    for (const [query, param] of [...after, ...limit, ...repeated] as [string, string][]) {
      const response = await get(server, query);
      expect(response.status, query).toBe(400);
      expect(response.headers.get('content-type'), query).toMatch(/^application\/json/u);
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.code, query).toBe('BAD_QUERY');
      expect(body.error.message, query).toContain(param);
    }
  });

  it('answers every effect in one array without a query, as it always has', async () => {
    const server = await serverWithEffects(250);
    const all = (await (await get(server, '')).json()) as EffectRecord[];
    expect(all).toHaveLength(250);
    expect(all[249]?.key).toBe('action-249');
  });
});
