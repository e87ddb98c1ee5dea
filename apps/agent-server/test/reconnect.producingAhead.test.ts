/**
 * A client that comes back for a run this server is producing ahead of its pace (its client went): the log is short
 * only because the run is still being made. A run that ends while the return is looked at is no log that lost its
 * tail: the client reads it at its pace, as one that came after the run’s end would.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { openMemoryStorage } from '../src/storage/memory.js';
import { openRedisStorage } from '../src/storage/redis.js';
import { openSqliteStorage } from '../src/storage/sqlite.js';
import type { Storage } from '../src/storage/types.js';
import { useRedisServer } from './redisServer.js';
import { post, startServer, stopServer, userInput } from './support.js';

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
      const dir = mkdtempSync(join(tmpdir(), 'aguikit-ahead-'));
      return { storage: openSqliteStorage(dir), dir };
    },
  ],
  ['Redis', async () => ({ storage: await openRedisStorage(redis.url, { keyPrefix: `ahead-${process.pid}-${++prefixes}:` }) })],
];

type Server = Awaited<ReturnType<typeof startServer>>;

const health = async (server: Server) => (await (await fetch(`${server.url}/health`)).json()) as { runs: number };

/** The events a response sends within `ms` of its headers (its ids), and whether its run's end was among them. */
async function readFor(response: Response, ms: number): Promise<{ ids: string[]; ended: boolean }> {
  const reader = response.body?.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const deadline = performance.now() + ms;
  for (;;) {
    const left = deadline - performance.now();
    if (left <= 0 || !reader) break;
    const chunk = await Promise.race([reader.read(), sleep(left).then(() => undefined)]);
    if (!chunk || chunk.done) break;
    text += decoder.decode(chunk.value, { stream: true });
  }
  await reader?.cancel().catch(() => {});
  const ids = [...text.matchAll(/^id: (.*)$/gm)].map((m) => m[1] as string);
  return { ids, ended: text.includes('RUN_FINISHED') };
}

/**
 * Run `paced` (20 tokens a second apart), its client gone after its first event, so it is made at once; each of its
 * writes takes a few milliseconds, so it is still being made when its client comes back. The read that tells
 * whether its log holds its end (its last event) answers what the log held as it was read, after the run was made (a
 * slow round trip).
 */
async function producingAhead(open: () => Promise<{ storage: Storage; dir?: string }>) {
  const { storage: inner, dir } = await open();
  const storage: Storage = Object.create(inner);
  const slow = { read: false };
  storage.appendEvent = async (id, index, frame) => {
    if (id === 'paced') await sleep(5);
    return inner.appendEvent(id, index, frame);
  };
  storage.events = async (id, from, limit) => {
    const events = await inner.events(id, from, limit);
    if (id === 'paced' && limit === 1 && from > 0 && slow.read) {
      slow.read = false;
      await expect.poll(async () => (await health(server)).runs, { timeout: 5_000, interval: 10 }).toBe(0);
    }
    return events;
  };
  const server = await startServer({ storage });
  opened.push({ server, storage: inner, ...(dir ? { dir } : {}) });
  const input = { ...userInput('t-paced', 'paced'), forwardedProps: { tokens: 20, tokenDelayMs: 1_000 } };
  const own = await post(server, '/agents/fast-stream', input);
  const reader = own.body?.getReader();
  await reader?.read();
  await reader?.cancel();
  expect((await health(server)).runs).toBe(1);
  slow.read = true;
  return { server, inner, input };
}

describe.each(storages)('a return to a run being made here ahead of its pace, which ends meanwhile (%s)', (_, open) => {
  it('a reconnect from an event the log holds reads the rest at the run’s pace, not at once', async () => {
    const { server, input } = await producingAhead(open);
    const back = await post(server, '/agents/fast-stream', input, { 'Last-Event-ID': 'paced:0' });
    expect(back.status).toBe(200);
    const { ids, ended } = await readFor(back, 1_500);
    console.info(`reconnected while the run was being made: ${ids.length} events in 1.5 s, its end among them: ${ended}`);
    expect(ended).toBe(false);
  }, 30_000);

  it('the same input sent again reads the run at its pace, not at once', async () => {
    const { server, input } = await producingAhead(open);
    const again = await post(server, '/agents/fast-stream', input);
    expect(again.status).toBe(200);
    const { ids, ended } = await readFor(again, 1_500);
    console.info(`sent again while the run was being made: ${ids.length} events in 1.5 s, its end among them: ${ended}`);
    expect(ids[0]).toBe('paced:0');
    expect(ended).toBe(false);
  }, 30_000);
});
