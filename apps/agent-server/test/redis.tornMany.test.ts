/**
 * Many effect records left out of the order list (torn writes, a Redis restored from a copy taken between the two
 * writes): the repair at open puts them all back in linear time; and a record deleted by hand does not hide one.
 */
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { openRedisStorage } from '../src/storage/redis.js';
import type { EffectRecord, Storage } from '../src/storage/types.js';
import { useRedisServer } from './redisServer.js';

const redis = useRedisServer();
const NOW = Date.parse('2026-11-30T12:00:00Z');
const opened: Storage[] = [];
const raws: Redis[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
  await Promise.all(raws.splice(0).map((r) => r.quit().catch(() => r.disconnect())));
});

let prefixes = 0;
function freshPrefix(): string {
  prefixes += 1;
  return `torn${prefixes}-${Math.random().toString(36).slice(2, 8)}:`;
}
async function open(prefix: string): Promise<Storage> {
  const storage = await openRedisStorage(redis.url, { keyPrefix: prefix });
  opened.push(storage);
  return storage;
}
function raw(): Redis {
  const client = new Redis(redis.url);
  raws.push(client);
  return client;
}
function effect(key: string, at = NOW): EffectRecord {
  return { kind: 'refund', key, detail: { amount: 42 }, idempotencyKey: `idem-${key}`, runId: 'run-1', at };
}

describe('the repair of torn effect records at open', () => {
  it('puts back 150,000 torn records in linear time (each step had read the whole tail put back before it: minutes)', async () => {
    const prefix = freshPrefix();
    const client = raw();
    const count = 150_000;
    for (let i = 0; i < count; i += 5_000) {
      const batch = Array.from({ length: Math.min(5_000, count - i) }, (_, j) => effect(`t${i + j}`, NOW + i + j));
      await client.hset(`${prefix}effects`, ...batch.flatMap((e) => [e.idempotencyKey, JSON.stringify(e)]));
    }
    const started = performance.now();
    const s = await open(prefix);
    const took = performance.now() - started;
    console.log(`open with ${count} torn records: ${took.toFixed(0)} ms`);
    expect(await client.llen(`${prefix}effects:order`)).toBe(count);
    expect((await s.effectsPage(0, 2)).effects.map((e) => e.idempotencyKey)).toEqual(['idem-t0', 'idem-t1']);
    expect((await s.latestEffects(1)).map((e) => e.idempotencyKey)).toEqual([`idem-t${count - 1}`]);
    expect(took).toBeLessThan(60_000);
  }, 120_000);

  it('a record deleted by hand from the hash does not hide a torn one from the count', async () => {
    const prefix = freshPrefix();
    const first = await open(prefix);
    await first.performEffect(effect('a'));
    await first.performEffect(effect('b'));
    const client = raw();
    // One record deleted by hand (its entry stays in the list), one written without its entry: as many records as entries.
    await client.hdel(`${prefix}effects`, 'idem-a');
    await client.hset(`${prefix}effects`, 'idem-torn', JSON.stringify(effect('torn', NOW + 1)));
    expect(await client.hlen(`${prefix}effects`)).toBe(await client.llen(`${prefix}effects:order`));
    const s = await open(prefix);
    expect((await s.effectsPage(0, 10)).effects.map((e) => e.idempotencyKey)).toEqual(['idem-b', 'idem-torn']);
  });

  it('a Redis out of memory that holds a torn record behind one deleted by hand: the record left unlisted is counted', async () => {
    const prefix = freshPrefix();
    const first = await open(prefix);
    await first.performEffect(effect('a'));
    await first.performEffect(effect('b'));
    const client = raw();
    await client.hdel(`${prefix}effects`, 'idem-a');
    await client.hset(`${prefix}effects`, 'idem-torn', JSON.stringify(effect('torn', NOW + 1)));
    await client.config('SET', 'maxmemory-policy', 'noeviction');
    await client.config('SET', 'maxmemory', '1');
    try {
      const full = await open(prefix);
      const reasons = full.skipped.filter((s) => s.where === `redis ${prefix}effects`).map((s) => s.reason);
      expect(reasons).toEqual([expect.stringMatching(/^at least 1 records the order list does not name/)]);
    } finally {
      await client.config('SET', 'maxmemory', '0');
    }
  });
});
