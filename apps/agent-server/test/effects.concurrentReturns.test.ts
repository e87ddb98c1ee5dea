/**
 * The refund of a run storage failed under is made once, whatever comes for the run at once once storage is back: two
 * reconnects, two retries of its input, and its own try in the background, with each storage.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { openMemoryStorage } from '../src/storage/memory.js';
import { openRedisStorage } from '../src/storage/redis.js';
import { openSqliteStorage } from '../src/storage/sqlite.js';
import { type Storage, StorageUnavailable } from '../src/storage/types.js';
import { useRedisServer } from './redisServer.js';
import { interruptsOf, post, readEvents, startServer, stopServer, userInput } from './support.js';

type Server = Awaited<ReturnType<typeof startServer>>;

const redis = useRedisServer();
const opened: { server: Server; storage: Storage; dir?: string }[] = [];
let prefixes = 0;

afterEach(async () => {
  for (const { server, storage, dir } of opened.splice(0)) {
    await stopServer(server).catch(() => {});
    await storage.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
});

const storages: [string, () => Promise<{ storage: Storage; dir?: string }>][] = [
  ['memory', async () => ({ storage: openMemoryStorage() })],
  [
    'SQLite',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'aguikit-returns-'));
      return { storage: openSqliteStorage(dir), dir };
    },
  ],
  ['Redis', async () => ({ storage: await openRedisStorage(redis.url, { keyPrefix: `returns-${process.pid}-${++prefixes}:` }) })],
];

describe.each(storages)('returns at once to a run storage failed under (%s)', (_, open) => {
  it.each([450, 500, 520])(
    'two reconnects, two retries and the run’s own try make its refund once, and each client read to the run’s end reads one (returns %i ms after the failure)',
    async (after) => {
      const { storage: inner, dir } = await open();
      const storage: Storage = Object.create(inner);
      // The disk is full for run r2 from its beginning until `full` is cleared.
      let full = false;
      storage.beginRun = async (run, ...rest) => {
        const outcome = await inner.beginRun(run, ...rest);
        if (run.runId === 'r2') full = true;
        return outcome;
      };
      storage.appendEvent = async (runId, ...rest) => {
        if (full && runId === 'r2') throw new StorageUnavailable('ENOSPC: no space left on device');
        return inner.appendEvent(runId, ...rest);
      };
      storage.performEffect = async (effect) => {
        if (full && effect.runId === 'r2') throw new StorageUnavailable('ENOSPC: no space left on device');
        return inner.performEffect(effect);
      };
      const server = await startServer({ storage });
      opened.push({ server, storage: inner, ...(dir ? { dir } : {}) });
      const first = await readEvents(await post(server, '/agents/refund?speed=0', userInput('t', 'r1')));
      const id = interruptsOf(first)[0]?.id ?? '';
      const approval = {
        ...userInput('t', 'r2'),
        messages: [],
        resume: [{ interruptId: id, status: 'resolved', payload: { approved: true } }],
      };
      const cut = await post(server, '/agents/refund?speed=0', approval);
      console.info(`cut by the full disk: ${cut.status}`);
      await cut.text();
      full = false;
      // The run's first try is 0.5 s after the failure: the returns come about then.
      await sleep(after);
      const returns = await Promise.all([
        post(server, '/agents/refund?speed=0', approval, { 'Last-Event-ID': 'r2:0' }),
        post(server, '/agents/refund?speed=0', approval, { 'Last-Event-ID': 'r2:0' }),
        post(server, '/agents/refund?speed=0', approval),
        post(server, '/agents/refund?speed=0', approval),
      ]);
      const read = await Promise.all(
        returns.map(async (r) => {
          if (r.status === 200) return readEvents(r);
          await r.text();
          return undefined;
        }),
      );
      // The run's own try, due meanwhile, is done too.
      await sleep(700);
      const refunds = (await inner.effects()).filter((e) => e.kind === 'refund');
      const statuses = returns.map((r) => r.status);
      const ends = read.map((events) => events?.at(-1)?.event.type);
      console.info(`${after} ms: returns: ${statuses.join(', ')}; their last events: ${ends.join(', ')}; refunds made: ${refunds.length}`);
      expect(refunds).toHaveLength(1);
      expect(statuses).toEqual([200, 200, 200, 200]);
      for (const events of read) expect(events?.at(-1)?.event.type).toBe('RUN_FINISHED');
      // Each reconnect reads from the event after its own, each retry from the first.
      expect(read.map((events) => events?.[0]?.id)).toEqual(['r2:1', 'r2:1', 'r2:0', 'r2:0']);
    },
    30_000,
  );
});
