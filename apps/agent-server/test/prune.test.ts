/**
 * Pruning old runs with many of them stored: each step is small (a bounded
 * number of runs, found by when they started without reading their records),
 * so the server goes on answering meanwhile, and every old run is dropped.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { openRedisStorage } from '../src/storage/redis.js';
import { openSqliteStorage } from '../src/storage/sqlite.js';
import type { Storage } from '../src/storage/types.js';
import { useRedisServer } from './redisServer.js';
import { runRecord, threadRecord } from './storageContract.js';
import { NOW, post, readEvents, startServer } from './support.js';

const redis = useRedisServer();

const dirs: string[] = [];
const opened: Storage[] = [];
const raws: Redis[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
  await Promise.all(raws.splice(0).map((r) => r.quit().catch(() => r.disconnect())));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const HOUR = 3_600_000;

/** A run record that started `ago` ms before NOW, its input padded with notes to about `bytes` of JSON. */
function oldRun(runId: string, ago: number, bytes: number) {
  const run = runRecord(runId, `thread-${runId}`, { startedAt: NOW - ago });
  const notes = Array.from({ length: Math.ceil(bytes / 40) }, (_, n) => ({ n, text: 'a few words of a note' }));
  return { ...run, input: { ...run.input, forwardedProps: { notes } } };
}

describe('the SQLite storage', () => {
  it('prunes 2,000 old runs of 50 KB in steps that each hold the event loop briefly, and drops every one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aguikit-prune-'));
    dirs.push(dir);
    // The database as the server makes it, then filled at once (one transaction) as months of traffic would.
    await openSqliteStorage(dir).close();
    const db = new Database(join(dir, 'agent.db'));
    const insertRun = db.prepare('INSERT INTO runs (run_id, record) VALUES (?, ?)');
    const insertEvent = db.prepare('INSERT INTO events (run_id, idx, frame) VALUES (?, ?, ?)');
    db.transaction(() => {
      for (let n = 0; n < 2_000; n++) {
        const run = oldRun(`old-${n}`, 2 * HOUR, 50_000);
        insertRun.run(run.runId, JSON.stringify(run));
        for (let i = 0; i < 20; i++) insertEvent.run(run.runId, i, `id: ${run.runId}:${i}\ndata: {}\n\n`);
      }
      const recent = oldRun('recent', 0, 100);
      insertRun.run(recent.runId, JSON.stringify(recent));
    })();
    db.close();

    const storage = openSqliteStorage(dir);
    opened.push(storage);
    // Each call of `prune` is timed: for SQLite its whole work is done before it returns, a task of the event loop.
    const steps: { ms: number; cpuMs: number }[] = [];
    const prune = storage.prune.bind(storage);
    storage.prune = (...args: Parameters<Storage['prune']>) => {
      const started = performance.now();
      const cpu = process.cpuUsage();
      const answer = prune(...args);
      const used = process.cpuUsage(cpu);
      steps.push({ ms: performance.now() - started, cpuMs: (used.user + used.system) / 1_000 });
      return answer;
    };
    // Started while the runs are an hour old, kept for an hour: nothing to drop yet.
    let clock = NOW - HOUR;
    await startServer({ storage, runRetentionMs: HOUR, pruneEveryMs: 100, now: () => clock });
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    // The histogram samples from the loop's next turn on.
    await new Promise((r) => setTimeout(r, 50));
    // An hour later, every run but the recent one is past the retention: the next prune drops them.
    clock = NOW;
    const count = () => {
      const reader = new Database(join(dir, 'agent.db'), { readonly: true });
      try {
        return reader.prepare('SELECT (SELECT count(*) FROM runs) AS runs, (SELECT count(*) FROM events) AS events').get() as {
          runs: number;
          events: number;
        };
      } finally {
        reader.close();
      }
    };
    await expect.poll(count, { timeout: 60_000, interval: 100 }).toEqual({ runs: 1, events: 0 });
    // A delay is sampled at the turn after it.
    await new Promise((r) => setTimeout(r, 50));
    delay.disable();
    expect(await storage.run('recent')).toBeDefined();
    const longest = Math.max(...steps.map((s) => s.cpuMs));
    console.info(
      `SQLite prune: ${steps.length} steps, the longest ${longest.toFixed(0)} ms of CPU, ${Math.max(...steps.map((s) => s.ms)).toFixed(0)} ms of wall time; event loop held at most ${(delay.max / 1e6).toFixed(0)} ms`,
    );
    // A step is a bounded number of runs, found through an index: a few ms on an idle machine.
    expect(longest).toBeLessThan(250);
    // Generous, for a loaded machine (a few hundred ms there): dropping them all in one task held it for seconds.
    expect(delay.max / 1e6).toBeLessThan(1_000);
  }, 120_000);
});

describe('pruning on SQLite while another process holds the lock', () => {
  it('keeps a run past the retention that began being produced while the prune waited for the lock', async () => {
    const DAY = 24 * HOUR;
    const dir = mkdtempSync(join(tmpdir(), 'aguikit-prune-lock-'));
    dirs.push(dir);
    const storage = openSqliteStorage(dir, { busyTimeoutMs: 20_000 });
    opened.push(storage);
    // A run eight days old, produced to its end once, its log lost (a retry makes it again): kept a week, it is due
    // to be pruned, until a client's retry has it produced again.
    const run = runRecord('old', 'thread-old', { startedAt: NOW - 8 * DAY });
    expect(await storage.beginRun(run, threadRecord('thread-old'), 0)).toBe('created');
    await storage.produced('old');
    // Another process holds the write lock: the prune the server begins with finds the old run, then waits to drop it.
    const other = new Database(join(dir, 'agent.db'));
    other.prepare('BEGIN IMMEDIATE').run();
    // The steps of the prune, as they end.
    const steps: number[] = [];
    const prune = storage.prune.bind(storage);
    storage.prune = async (...args) => {
      const dropped = await prune(...args);
      steps.push(dropped);
      return dropped;
    };
    try {
      const server = await startServer({ storage, runRetentionMs: 7 * DAY, pruneEveryMs: 600_000 });
      await new Promise((r) => setTimeout(r, 100));
      // The client's retry, played in real time: the run is produced again (its writes wait for the lock too), and
      // still is when the prune's step has the lock.
      const response = post(server, '/agents/refund?speed=1', run.input);
      const health = async () => (await (await fetch(`${server.url}/health`)).json()) as { runs: number };
      await expect.poll(async () => (await health()).runs, { timeout: 5_000 }).toBe(1);
      expect(steps).toEqual([]);
      other.prepare('COMMIT').run();
      await expect.poll(() => steps.length, { timeout: 10_000 }).toBeGreaterThan(0);
      expect((await health()).runs).toBe(1);
      // The prune that waited dropped by the cut as it was once it had the lock: the run being produced held it back.
      expect(steps[0]).toBe(0);
      expect(await storage.run('old')).toEqual(run);
      const events = await readEvents(await response);
      expect(events.at(-1)?.event.type).toBe('RUN_FINISHED');
      expect(await storage.events('old', 0, 1_000)).toHaveLength(events.length);
    } finally {
      if (other.inTransaction) other.prepare('ROLLBACK').run();
      other.close();
    }
  }, 60_000);
});

describe('the Redis storage', () => {
  let prefixes = 0;
  const freshPrefix = () => `prune${++prefixes}-${Math.random().toString(36).slice(2, 8)}:`;
  const raw = () => {
    const client = new Redis(redis.url);
    raws.push(client);
    return client;
  };
  /** The bytes Redis has sent its clients so far. */
  const sent = async (client: Redis) => Number(/total_net_output_bytes:(\d+)/.exec(await client.info('stats'))?.[1]);

  it('drops old runs in steps that read no run record, and first indexes the runs an earlier version stored', async () => {
    const prefix = freshPrefix();
    const client = raw();
    // Runs an earlier version stored: their records and logs only.
    for (let n = 0; n < 20; n++) {
      const run = oldRun(`legacy-${n}`, 2 * HOUR, 200_000);
      await client.set(`${prefix}run:${run.runId}`, JSON.stringify(run));
      await client.xadd(`${prefix}events:${run.runId}`, '1-0', 'f', 'frame');
    }
    // And what cannot be read, which is never pruned: what cannot be read is not judged.
    await client.set(`${prefix}run:torn`, '{"runId":"torn","startedAt":1');
    await client.hset(`${prefix}run:hash`, 'startedAt', '1');
    const storage = await openRedisStorage(redis.url, { keyPrefix: prefix });
    opened.push(storage);
    let dropped = 0;
    for (let n = await storage.prune(NOW - HOUR); n > 0; n = await storage.prune(NOW - HOUR)) dropped += n;
    expect(dropped).toBe(20);
    expect(await client.keys(`${prefix}run:legacy-*`)).toEqual([]);
    expect(await client.keys(`${prefix}events:legacy-*`)).toEqual([]);

    for (let n = 0; n < 300; n++) {
      const run = oldRun(`old-${n}`, 2 * HOUR, 200_000);
      expect(await storage.beginRun(run, threadRecord(run.threadId), 0)).toBe('created');
      await storage.appendEvent(run.runId, 0, 'frame');
    }
    const recent = oldRun('recent', 0, 100);
    await storage.beginRun(recent, threadRecord(recent.threadId), 0);
    // What Redis sends back for one step: the INFO that measures it is a few KB; any run record read is 200 KB.
    const steps: number[] = [];
    dropped = 0;
    for (;;) {
      const before = await sent(client);
      const n = await storage.prune(NOW - HOUR);
      steps.push((await sent(client)) - before);
      if (n === 0) break;
      dropped += n;
    }
    console.info(`Redis prune: ${steps.length} steps, the largest reply ${Math.max(...steps)} bytes`);
    expect(dropped).toBe(300);
    expect(Math.max(...steps)).toBeLessThan(100_000);
    expect((await client.keys(`${prefix}run:*`)).sort()).toEqual([`${prefix}run:hash`, `${prefix}run:recent`, `${prefix}run:torn`]);
    expect(await client.keys(`${prefix}events:old-*`)).toEqual([]);
    expect(await storage.run('recent')).toEqual(recent);
  }, 120_000);
});
