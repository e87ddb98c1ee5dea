/**
 * The Redis storage against a real `redis-server` (started and stopped by
 * this file): two storages on one Redis behave as one (a run, a thread
 * version, an event and a side effect each taken by exactly one writer),
 * records of the wrong shape are skipped, and a Redis that is gone, hung or
 * out of memory gives `StorageUnavailable` within a bounded time, never a
 * side effect without its record.
 */
import { type AddressInfo, connect, createServer } from 'node:net';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { openRedisStorage, type RedisStorageOptions } from '../src/storage/redis.js';
import { type EffectRecord, type RunRecord, type Storage, StorageUnavailable, type ThreadRecord } from '../src/storage/types.js';
import { startRedisServer, useRedisServer } from './redisServer.js';
import { storageContract } from './storageContract.js';

const redis = useRedisServer();
const NOW = Date.parse('2026-11-30T12:00:00Z');

let prefixes = 0;

// The contract every storage keeps, each test on a prefix of its own (an empty storage).
storageContract('redis', () => openRedisStorage(redis.url, { keyPrefix: freshPrefix() }));

const opened: Storage[] = [];
const raws: Redis[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
  await Promise.all(raws.splice(0).map((r) => r.quit().catch(() => r.disconnect())));
});

/** A key prefix of its own per test, so tests never see each other's keys. */
function freshPrefix(): string {
  prefixes += 1;
  return `test${prefixes}-${Math.random().toString(36).slice(2, 8)}:`;
}

async function open(prefix: string, options: RedisStorageOptions = {}, url = redis.url): Promise<Storage> {
  const storage = await openRedisStorage(url, { keyPrefix: prefix, ...options });
  opened.push(storage);
  return storage;
}

/** A plain client, to write what a storage never would. */
function raw(): Redis {
  const client = new Redis(redis.url);
  raws.push(client);
  return client;
}

function runRecord(threadId: string, runId: string): RunRecord {
  const input = {
    threadId,
    runId,
    messages: [{ id: `${runId}-user`, role: 'user' as const, content: 'Refund, please.' }],
    tools: [],
    context: [],
  };
  return { runId, threadId, scenarioId: 'refund', input, startedAt: NOW, nonce: 'n0nce' };
}

function threadRecord(threadId: string, open: string[] = []): ThreadRecord {
  return {
    threadId,
    open: open.map((id) => ({ id, reason: 'tool_call' }) as ThreadRecord['open'][number]),
    answered: {},
  };
}

function effect(key: string, runId = 'run-1'): EffectRecord {
  return { kind: 'refund', key, detail: { amount: 42 }, idempotencyKey: `idem-${key}`, runId, at: NOW };
}

async function expectUnavailable(work: Promise<unknown>, withinMs: number) {
  const started = performance.now();
  await expect(work).rejects.toBeInstanceOf(StorageUnavailable);
  expect(performance.now() - started).toBeLessThan(withinMs);
}

describe('two storages on one Redis act as one', () => {
  it('lets exactly one of two writers begin a run on the same thread version', async () => {
    const prefix = freshPrefix();
    const [a, b] = [await open(prefix), await open(prefix)];
    for (let i = 0; i < 20; i++) {
      const threadId = `thread-${i}`;
      const { version } = await a.thread(threadId);
      expect(version).toBe(0);
      const answers = await Promise.all([
        a.beginRun(runRecord(threadId, `run-${i}-a`), threadRecord(threadId, ['x']), version),
        b.beginRun(runRecord(threadId, `run-${i}-b`), threadRecord(threadId, ['y']), version),
      ]);
      expect(answers.filter((x) => x === 'created')).toHaveLength(1);
      expect(answers.filter((x) => x === 'conflict')).toHaveLength(1);
      const winner = answers[0] === 'created' ? 'a' : 'b';
      // Both see the winner's run and thread, at version 1; the loser's run was never written.
      for (const s of [a, b]) {
        expect(await s.thread(threadId)).toEqual({ record: threadRecord(threadId, [winner === 'a' ? 'x' : 'y']), version: 1 });
        expect(await s.run(`run-${i}-${winner}`)).toEqual(runRecord(threadId, `run-${i}-${winner}`));
        expect(await s.run(`run-${i}-${winner === 'a' ? 'b' : 'a'}`)).toBeUndefined();
      }
    }
  });

  it('answers exists for a run id already taken, and conflict for a stale version', async () => {
    const prefix = freshPrefix();
    const [a, b] = [await open(prefix), await open(prefix)];
    expect(await a.beginRun(runRecord('t', 'r1'), threadRecord('t'), 0)).toBe('created');
    expect(await b.beginRun(runRecord('t', 'r1'), threadRecord('t'), 1)).toBe('exists');
    expect(await b.beginRun(runRecord('t', 'r2'), threadRecord('t', ['late']), 0)).toBe('conflict');
    expect(await b.beginRun(runRecord('t', 'r2'), threadRecord('t', ['next']), 1)).toBe('created');
    expect(await a.thread('t')).toEqual({ record: threadRecord('t', ['next']), version: 2 });
  });

  it('performs a side effect once when both claim it at the same moment', async () => {
    const prefix = freshPrefix();
    const [a, b] = [await open(prefix), await open(prefix)];
    for (let i = 0; i < 50; i++) {
      const results = await Promise.all([a.performEffect(effect(`k${i}`, 'run-a')), b.performEffect(effect(`k${i}`, 'run-b'))]);
      expect(results.filter((r) => r.fresh)).toHaveLength(1);
      // The loser is told the winner's record.
      expect(results[0]?.record).toEqual(results[1]?.record);
    }
    const [fromA, fromB] = [await a.effects(), await b.effects()];
    expect(fromA).toHaveLength(50);
    expect(fromB).toEqual(fromA);
    expect(new Set(fromA.map((e) => e.idempotencyKey)).size).toBe(50);
  });

  it('keeps each event once, in order, when two writers produce the same run', async () => {
    const prefix = freshPrefix();
    const [a, b] = [await open(prefix), await open(prefix)];
    const frames = Array.from({ length: 200 }, (_, i) => `id: run-1:${i}\ndata: {"n":${i}}\n\n`);
    // A has written up to 60 when B takes over from there (a client reconnected to B); A goes on to 120 meanwhile.
    for (let i = 0; i <= 60; i++) await a.appendEvent('run-1', i, frames[i] as string);
    await Promise.all([
      (async () => {
        for (let i = 61; i < 120; i++) await a.appendEvent('run-1', i, frames[i] as string);
      })(),
      (async () => {
        for (let i = 60; i < 200; i++) await b.appendEvent('run-1', i, frames[i] as string);
      })(),
    ]);
    expect(await a.events('run-1', 0, 1_000)).toEqual(frames);
    expect(await b.events('run-1', 0, 1_000)).toEqual(frames);
    // Writing an index already stored is a no-op, even with other bytes.
    await a.appendEvent('run-1', 5, 'other');
    expect(await b.events('run-1', 5, 1)).toEqual([frames[5]]);
  });

  it('reads a run log from any index, in pages, and nothing past its end', async () => {
    const s = await open(freshPrefix());
    for (let i = 0; i < 30; i++) await s.appendEvent('r', i, `f${i}`);
    expect(await s.events('r', 0, 10)).toEqual(Array.from({ length: 10 }, (_, i) => `f${i}`));
    expect(await s.events('r', 25, 10)).toEqual(['f25', 'f26', 'f27', 'f28', 'f29']);
    expect(await s.events('r', 30, 10)).toEqual([]);
    expect(await s.events('r', 29, 0)).toEqual([]);
    expect(await s.events('r', -5, 2)).toEqual(['f0', 'f1']);
    expect(await s.events('never-ran', 0, 10)).toEqual([]);
    await expect(s.appendEvent('r', -1, 'x')).rejects.toThrow(RangeError);
    await expect(s.appendEvent('r', 1.5, 'x')).rejects.toThrow(RangeError);
  });

  it('keeps prefixes apart, and ids with key-like characters apart', async () => {
    const [a, b] = [await open(freshPrefix()), await open(freshPrefix())];
    await a.performEffect(effect('same'));
    expect((await b.performEffect(effect('same'))).fresh).toBe(true);
    const odd = ['run:x', 'run', 'x*', '{tag}', 'a\nb', 'é🙂', ' ', 'events:x'];
    for (const id of odd) expect(await a.beginRun(runRecord(`t-${id}`, id), threadRecord(`t-${id}`), 0)).toBe('created');
    for (const [i, id] of odd.entries()) await a.appendEvent(id, 0, `frame-${i}`);
    for (const [i, id] of odd.entries()) {
      expect(await a.run(id)).toEqual(runRecord(`t-${id}`, id));
      expect(await a.events(id, 0, 5)).toEqual([`frame-${i}`]);
    }
    expect(await b.run('run:x')).toBeUndefined();
  });

  it('stores a large frame and a large run input unchanged', async () => {
    const s = await open(freshPrefix());
    const frame = `data: ${JSON.stringify({ delta: 'x'.repeat(1024 * 1024) })}\n\n`;
    await s.appendEvent('big', 0, frame);
    expect(await s.events('big', 0, 1)).toEqual([frame]);
    const run = runRecord('t-big', 'big');
    run.input.messages = Array.from({ length: 5_000 }, (_, i) => ({ id: `m${i}`, role: 'user' as const, content: `message ${i}` }));
    expect(await s.beginRun(run, threadRecord('t-big'), 0)).toBe('created');
    expect(await s.run('big')).toEqual(run);
  });
});

describe('records of the wrong shape are skipped and reported, never fatal', () => {
  it('reads foreign or corrupt runs, threads, events and effects as absent', async () => {
    const prefix = freshPrefix();
    const client = raw();
    await client.set(`${prefix}run:null`, 'null');
    await client.set(`${prefix}run:effect`, '{"type":"effect"}');
    const noMessages: Record<string, unknown> = { ...runRecord('t', 'no-messages') };
    noMessages.input = { threadId: 't', runId: 'no-messages', tools: [], context: [] };
    await client.set(`${prefix}run:no-messages`, JSON.stringify(noMessages));
    await client.set(`${prefix}run:torn`, JSON.stringify(runRecord('t', 'torn')).slice(0, 40));
    await client.rpush(`${prefix}run:list`, 'a');
    await client.hset(`${prefix}thread:corrupt`, 'version', '3', 'record', '{"threadId":"corrupt","open":"nope"}');
    await client.set(`${prefix}thread:string`, 'hello');
    await client.hset(`${prefix}thread:bad-version`, 'version', 'ten', 'record', JSON.stringify(threadRecord('bad-version')));
    await client.set(`${prefix}events:string`, 'x');
    await client.xadd(`${prefix}events:odd`, '1-0', 'f', 'first');
    await client.xadd(`${prefix}events:odd`, '2-0', 'g', 'wrong field');
    await client.xadd(`${prefix}events:gap`, '1-0', 'f', 'first');
    await client.xadd(`${prefix}events:gap`, '3-0', 'f', 'third');
    await client.hset(`${prefix}effects`, 'idem-a', 'null', 'idem-b', '{"type":"effect"}', 'idem-good', JSON.stringify(effect('good')));
    await client.rpush(`${prefix}effects:order`, 'idem-b', 'idem-missing', 'idem-a');

    const s = await open(prefix);
    for (const id of ['null', 'effect', 'no-messages', 'torn', 'list']) expect(await s.run(id)).toBeUndefined();
    expect(await s.thread('corrupt')).toEqual({ record: undefined, version: 3 });
    expect(await s.thread('string')).toEqual({ record: undefined, version: 0 });
    expect(await s.thread('bad-version')).toEqual({ record: threadRecord('bad-version'), version: 0 });
    expect(await s.events('string', 0, 10)).toEqual([]);
    expect(await s.events('odd', 0, 10)).toEqual(['first']);
    expect(await s.events('gap', 0, 10)).toEqual(['first']);
    expect((await s.effects()).map((e) => e.idempotencyKey)).toEqual(['idem-good']);
    // A key whose record cannot be read is still taken: its effect is not done again.
    expect(await s.performEffect(effect('a'))).toEqual({ record: effect('a'), fresh: false });

    const where = s.skipped.map((x) => x.where);
    for (const key of ['run:null', 'run:effect', 'run:no-messages', 'run:torn', 'run:list', 'thread:corrupt', 'thread:string'])
      expect(where).toContain(`redis ${prefix}${key}`);
    expect(where).toContain(`redis ${prefix}events:string`);
    expect(where).toContain(`redis ${prefix}events:odd`);
    expect(where).toContain(`redis ${prefix}effects`);
    expect(s.skipped.every((x) => x.reason.length > 0)).toBe(true);

    // The next run on a corrupt thread replaces its record, at the version it was stored under.
    expect(await s.beginRun(runRecord('corrupt', 'fresh-1'), threadRecord('corrupt', ['i']), 3)).toBe('created');
    expect(await s.thread('corrupt')).toEqual({ record: threadRecord('corrupt', ['i']), version: 4 });
    expect(await s.beginRun(runRecord('string', 'fresh-2'), threadRecord('string'), 0)).toBe('created');
    expect(await s.thread('string')).toEqual({ record: threadRecord('string'), version: 1 });
    expect(await s.beginRun(runRecord('bad-version', 'fresh-3'), threadRecord('bad-version'), 0)).toBe('created');
  });

  it('reports each bad record once however often it is read', async () => {
    const prefix = freshPrefix();
    await raw().set(`${prefix}run:null`, 'null');
    const s = await open(prefix);
    for (let i = 0; i < 5; i++) await s.run('null');
    expect(s.skipped).toHaveLength(1);
  });
});

describe('an effect record left without its place in the order (a torn write) is put back in order at open', () => {
  it('lists the record at start and in the pages, once, after those in order', async () => {
    const prefix = freshPrefix();
    const first = await open(prefix);
    await first.performEffect(effect('a'));
    await first.performEffect(effect('b'));
    const before = await first.effectsPage(0, 10);
    expect(before.effects.map((e) => e.idempotencyKey)).toEqual(['idem-a', 'idem-b']);
    // The record was written, and its entry in the order list was not.
    await raw().hset(`${prefix}effects`, 'idem-torn', JSON.stringify(effect('torn')));

    // Two servers starting at once, while a third does a new effect.
    const [one, two] = await Promise.all([open(prefix), open(prefix), first.performEffect(effect('c'))]);
    for (const s of [one, two]) {
      const latest = (await s.latestEffects(10)).map((e) => e.idempotencyKey);
      expect(latest.sort()).toEqual(['idem-a', 'idem-b', 'idem-c', 'idem-torn']);
      const all = (await s.effects()).map((e) => e.idempotencyKey);
      expect(all.slice(0, 2)).toEqual(['idem-a', 'idem-b']);
      expect(all.sort()).toEqual(['idem-a', 'idem-b', 'idem-c', 'idem-torn']);
    }
    const paged = await two.effectsPage(0, 10);
    expect(paged.effects.map((e) => e.idempotencyKey).sort()).toEqual(['idem-a', 'idem-b', 'idem-c', 'idem-torn']);
    // A client paging from before reads on to it, and sees nothing twice.
    const after = await first.effectsPage(before.next, 10);
    expect(after.effects.map((e) => e.idempotencyKey).sort()).toEqual(['idem-c', 'idem-torn']);
    expect(after.more).toBe(false);
    expect(await raw().llen(`${prefix}effects:order`)).toBe(4);
    // Nothing of the repair is left behind in Redis.
    expect((await raw().keys(`${prefix}*`)).sort()).toEqual([`${prefix}effects`, `${prefix}effects:order`]);
  });

  it('puts back many such records in the order they were done', async () => {
    const prefix = freshPrefix();
    const client = raw();
    const torn = Array.from({ length: 2_500 }, (_, i) => ({ ...effect(`t${i}`), at: NOW + i }));
    for (let i = 0; i < torn.length; i += 500)
      await client.hset(`${prefix}effects`, ...torn.slice(i, i + 500).flatMap((e) => [e.idempotencyKey, JSON.stringify(e)]));
    const s = await open(prefix);
    expect((await s.latestEffects(3)).map((e) => e.idempotencyKey)).toEqual(['idem-t2497', 'idem-t2498', 'idem-t2499']);
    expect((await s.effectsPage(0, 3)).effects.map((e) => e.idempotencyKey)).toEqual(['idem-t0', 'idem-t1', 'idem-t2']);
    expect(await client.llen(`${prefix}effects:order`)).toBe(2_500);
  });

  it('puts back a torn record though an effect is done as it counts the order list', async () => {
    const prefix = freshPrefix();
    const first = await open(prefix);
    await first.performEffect(effect('a'));
    await raw().hset(`${prefix}effects`, 'idem-torn', JSON.stringify(effect('torn')));
    // The opening server reaches Redis through a relay that, before it passes on the first command to count the order
    // list, lets another server do an effect (which adds a record and an entry to the list).
    let done = false;
    const relay = createServer((inbound) => {
      const outbound = connect(redis.server.port, '127.0.0.1');
      let queue = Promise.resolve();
      inbound.on('data', (chunk: Buffer) => {
        queue = queue.then(async () => {
          if (!done && /llen/i.test(chunk.toString('latin1'))) {
            done = true;
            await first.performEffect(effect('b'));
          }
          outbound.write(chunk);
        });
      });
      outbound.pipe(inbound);
      inbound.on('error', () => outbound.destroy());
      outbound.on('error', () => inbound.destroy());
      inbound.on('close', () => outbound.destroy());
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    try {
      const s = await open(prefix, {}, `redis://127.0.0.1:${(relay.address() as AddressInfo).port}`);
      expect(done).toBe(true);
      expect((await s.effectsPage(0, 10)).effects.map((e) => e.idempotencyKey).sort()).toEqual(['idem-a', 'idem-b', 'idem-torn']);
      await s.close();
    } finally {
      relay.close();
    }
  });

  it('opens a Redis out of memory that holds a torn record, reading what it holds, and puts the record back at a later start', async () => {
    const prefix = freshPrefix();
    const first = await open(prefix);
    await first.performEffect(effect('a'));
    const client = raw();
    await client.hset(`${prefix}effects`, 'idem-torn', JSON.stringify(effect('torn')));
    await client.config('SET', 'maxmemory-policy', 'noeviction');
    await client.config('SET', 'maxmemory', '1');
    try {
      // The repair cannot write; the server starts all the same, as it would on a full Redis without a torn record.
      const full = await open(prefix);
      expect((await full.effects()).map((e) => e.idempotencyKey)).toEqual(['idem-a', 'idem-torn']);
      expect(full.skipped.map((s) => s.where)).toContain(`redis ${prefix}effects`);
    } finally {
      await client.config('SET', 'maxmemory', '0');
    }
    const later = await open(prefix);
    expect((await later.effectsPage(0, 10)).effects.map((e) => e.idempotencyKey)).toEqual(['idem-a', 'idem-torn']);
    expect(await client.keys(`${prefix}effects:listed:*`)).toEqual([]);
  });

  it('appends no key twice when its copy of the order list is lost mid-repair (evicted, expired), and puts the record back', async () => {
    const prefix = freshPrefix();
    const client = raw();
    const listed = 30_000;
    for (let i = 0; i < listed; i += 1_000) {
      const batch = client.pipeline();
      for (let n = i; n < i + 1_000; n++) {
        batch.hset(`${prefix}effects`, `idem-l${n}`, JSON.stringify({ ...effect(`l${n}`), at: NOW + n }));
        batch.rpush(`${prefix}effects:order`, `idem-l${n}`);
      }
      await batch.exec();
    }
    await client.hset(`${prefix}effects`, 'idem-torn', JSON.stringify(effect('torn')));
    // Another client drops the temporary copy once, as soon as it is there (as an eviction under maxmemory would).
    const watcher = raw();
    let dropped = false;
    const dropping = (async () => {
      const deadline = performance.now() + 20_000;
      while (!dropped && performance.now() < deadline) {
        const keys = await watcher.keys(`${prefix}effects:listed:*`);
        if (keys.length > 0) dropped = (await watcher.unlink(...keys)) > 0;
      }
    })();
    await open(prefix);
    await dropping;
    expect(dropped).toBe(true);
    const order = await client.lrange(`${prefix}effects:order`, 0, -1);
    expect(new Set(order).size).toBe(order.length);
    expect(order).toHaveLength(listed + 1);
    expect(order.at(-1)).toBe('idem-torn');
    expect(await client.keys(`${prefix}effects:listed:*`)).toEqual([]);
  }, 60_000);
});

describe('a Redis that is gone, hung or full gives StorageUnavailable, never a silent effect', () => {
  it('refuses to open when nothing listens, within the connect timeout', async () => {
    const gone = await startRedisServer();
    await gone.stop();
    const started = performance.now();
    await expect(openRedisStorage(gone.url, { connectTimeoutMs: 500 })).rejects.toBeInstanceOf(StorageUnavailable);
    expect(performance.now() - started).toBeLessThan(2_000);
    await expect(openRedisStorage('not a url at all', { connectTimeoutMs: 500 })).rejects.toBeInstanceOf(StorageUnavailable);
  });

  it('fails fast when its Redis goes away, and works again when it is back', async () => {
    let own = await startRedisServer();
    try {
      const s = await openRedisStorage(own.url, { keyPrefix: freshPrefix(), connectTimeoutMs: 500 });
      opened.push(s);
      expect(await s.beginRun(runRecord('t', 'r'), threadRecord('t'), 0)).toBe('created');
      await own.stop();
      await expectUnavailable(s.performEffect(effect('while-down')), 1_500);
      await expectUnavailable(s.appendEvent('r', 0, 'f'), 1_500);
      await expectUnavailable(s.events('r', 0, 10), 1_500);
      await expectUnavailable(s.run('r'), 1_500);
      await expectUnavailable(s.thread('t'), 1_500);
      await expectUnavailable(s.beginRun(runRecord('t', 'r2'), threadRecord('t'), 1), 1_500);
      // Back on the same port (empty: it kept nothing on disk), the same storage answers again.
      own = await startRedisServer({ port: own.port });
      await expect.poll(() => s.run('r').catch((e: unknown) => e), { timeout: 5_000 }).toBeUndefined();
      expect((await s.performEffect(effect('after'))).fresh).toBe(true);
    } finally {
      await own.stop();
    }
  }, 20_000);

  it('fails within the command timeout when Redis hangs, and recovers when it answers again', async () => {
    const s = await open(freshPrefix(), { commandTimeoutMs: 300 });
    redis.server.pause();
    try {
      await expectUnavailable(s.performEffect(effect('hung')), 2_000);
      await expectUnavailable(s.run('r'), 2_000);
    } finally {
      redis.server.resume();
    }
    // The effect that timed out may or may not have reached Redis before the hang; either way it is done at most once.
    const after = await s.performEffect(effect('hung'));
    expect(await s.effects()).toEqual([after.record]);
    expect((await s.performEffect(effect('hung'))).fresh).toBe(false);
  });

  it('records no effect when Redis is out of memory, and performs it once when memory is back', async () => {
    const prefix = freshPrefix();
    const s = await open(prefix);
    const admin = raw();
    await admin.config('SET', 'maxmemory-policy', 'noeviction');
    await admin.config('SET', 'maxmemory', '1');
    try {
      await expectUnavailable(s.performEffect(effect('oom')), 2_000);
      await expectUnavailable(s.appendEvent('r', 0, 'f'), 2_000);
      await expectUnavailable(s.beginRun(runRecord('t', 'r'), threadRecord('t'), 0), 2_000);
    } finally {
      await admin.config('SET', 'maxmemory', '0');
    }
    expect(await s.effects()).toEqual([]);
    expect(await s.run('r')).toBeUndefined();
    expect(await s.events('r', 0, 10)).toEqual([]);
    expect((await s.performEffect(effect('oom'))).fresh).toBe(true);
    expect((await s.performEffect(effect('oom'))).fresh).toBe(false);
  });

  it('throws StorageUnavailable after close, and closes twice without error', async () => {
    const s = await openRedisStorage(redis.url, { keyPrefix: freshPrefix() });
    await s.close();
    await s.close();
    await expect(s.run('r')).rejects.toBeInstanceOf(StorageUnavailable);
  });
});
