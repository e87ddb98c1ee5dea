import { describe, expect, it } from 'vitest';
import { openMemoryStorage } from '../src/storage/memory.js';
import { type Storage, StorageUnavailable } from '../src/storage/types.js';
import { useRedisServer } from './redisServer.js';
import { startServer } from './support.js';

/** Memory storage whose ping hangs until `answer` is called (a Redis frozen, its command timeout not yet up). */
function hanging() {
  const storage = openMemoryStorage();
  let pings = 0;
  let most = 0;
  let open = 0;
  let release: ((error?: Error) => void) | undefined;
  let hung = true;
  const wrapped: Storage = new Proxy(storage, {
    get(target, key, receiver) {
      if (key !== 'ping') return Reflect.get(target, key, receiver);
      return () => {
        pings++;
        most = Math.max(most, ++open);
        if (!hung) {
          open--;
          return Promise.resolve();
        }
        return new Promise<void>((resolve, reject) => {
          release = (error) => {
            open--;
            if (error) reject(error);
            else resolve();
          };
        });
      };
    },
  });
  return {
    storage: wrapped,
    stats: () => ({ pings, most }),
    /** Ends the hung ping, failing it or not; later pings answer at once unless `stillHung`. */
    answer(error?: Error, stillHung = false) {
      hung = stillHung;
      release?.(error);
    },
  };
}

function logSink() {
  const lines: Record<string, unknown>[] = [];
  return { lines, stream: { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) } };
}

describe('GET /ready while storage hangs', () => {
  it('answers 503 within about a second, probes sharing one check, and logs the failure once and the recovery once', async () => {
    const log = logSink();
    const h = hanging();
    const server = await startServer({ storage: h.storage, logLevel: 'info', logStream: log.stream });
    const probe = async () => {
      const start = performance.now();
      const response = await fetch(`${server.url}/ready`, { signal: AbortSignal.timeout(4_000) });
      return { status: response.status, body: (await response.json()) as { error?: { code: string } }, ms: performance.now() - start };
    };
    const before = log.lines.length;
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await probe());
    answers.push(...(await Promise.all([probe(), probe(), probe()])));
    for (const a of answers) {
      expect(a.status).toBe(503);
      expect(a.body.error?.code).toBe('STORAGE_UNAVAILABLE');
      expect(a.ms).toBeLessThan(2_000);
    }
    // One check down the hung connection, however many probes came.
    expect(h.stats()).toEqual({ pings: 1, most: 1 });
    const health = performance.now();
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
    expect(performance.now() - health).toBeLessThan(500);
    // The hung check fails at last (the command timeout); the next probe checks afresh, and storage answers.
    h.answer(new StorageUnavailable('command timed out'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await probe()).status).toBe(200);
    expect((await probe()).status).toBe(200);
    const said = log.lines.slice(before).filter((l) => l.msg !== 'incoming request' && l.msg !== 'request completed');
    expect(said.map((l) => [l.level, l.msg])).toEqual([
      [40, 'storage does not answer'],
      [30, 'storage answers again'],
    ]);
  }, 30_000);

  it('answers 200 at once while storage answers', async () => {
    const h = hanging();
    h.answer(undefined, false);
    const server = await startServer({ storage: h.storage });
    expect((await fetch(`${server.url}/ready`)).status).toBe(200);
  });

  describe('on a real Redis, frozen', () => {
    const redis = useRedisServer();
    it('is told 503 within about a second at each probe, and ready again once Redis thaws', async () => {
      const server = await startServer({ redisUrl: redis.url });
      expect((await fetch(`${server.url}/ready`)).status).toBe(200);
      redis.server.pause();
      try {
        for (let i = 0; i < 4; i++) {
          const start = performance.now();
          const response = await fetch(`${server.url}/ready`, { signal: AbortSignal.timeout(4_000) });
          expect(response.status).toBe(503);
          expect(performance.now() - start).toBeLessThan(2_000);
        }
      } finally {
        redis.server.resume();
      }
      await expect.poll(async () => (await fetch(`${server.url}/ready`)).status, { timeout: 15_000, interval: 250 }).toBe(200);
    }, 30_000);
  });
});
