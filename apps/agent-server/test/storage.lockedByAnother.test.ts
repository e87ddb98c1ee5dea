/**
 * Another process holds the SQLite database's write lock (a backup, an admin's shell, a second server on the same
 * directory): the server waits for it without stopping, answering other requests meanwhile, and tells a client
 * whose write could not be made within the wait to come back, with nothing of it recorded.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { AgentServer } from '../src/server.js';
import { post, readEvents, startServer, userInput } from './support.js';

/** The longest `/health` took to answer, polled every 20 ms until `until` settles. */
async function worstHealth(server: AgentServer, until: Promise<unknown>): Promise<number> {
  let done = false;
  void until.finally(() => {
    done = true;
  });
  let worst = 0;
  while (!done) {
    const start = performance.now();
    await (await fetch(`${server.url}/health`)).text();
    worst = Math.max(worst, performance.now() - start);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return worst;
}

/** Another connection to the server's database, holding its write lock until `release` is called. */
function holdLock(dir: string): { release(): void } {
  const other = new Database(join(dir, 'agent.db'));
  other.exec('BEGIN IMMEDIATE');
  return {
    release() {
      other.exec('ROLLBACK');
      other.close();
    },
  };
}

describe('another connection holds the database write lock', () => {
  it('for 1 s: the server keeps answering (/health within 500 ms) and the run is written once the lock is let go', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aguikit-locked-'));
    const server = await startServer({ dataDir: dir });
    const lock = holdLock(dir);
    const released = new Promise<void>((resolve) =>
      setTimeout(() => {
        lock.release();
        resolve();
      }, 1_000),
    );
    const started = performance.now();
    const run = post(server, '/agents/refund?speed=0', userInput('t-1', 'r-1'));
    const worst = await worstHealth(server, Promise.all([run, released]));
    const response = await run;
    expect(response.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(900);
    expect((await readEvents(response)).at(-1)?.event.type).toBe('RUN_FINISHED');
    expect(worst).toBeLessThan(500);
  }, 20_000);

  it('past the 5 s wait: 503 STORAGE_UNAVAILABLE with Retry-After, the server answering meanwhile; the same request later runs once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aguikit-locked-'));
    const server = await startServer({ dataDir: dir });
    const lock = holdLock(dir);
    const started = performance.now();
    const run = post(server, '/agents/refund?speed=0', userInput('t-1', 'r-1'));
    let worst: number;
    try {
      worst = await worstHealth(server, run);
    } finally {
      lock.release();
    }
    const refused = await run;
    expect(refused.status).toBe(503);
    expect(performance.now() - started).toBeGreaterThanOrEqual(4_900);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({ error: { code: 'STORAGE_UNAVAILABLE' } });
    expect(worst).toBeLessThan(500);
    const again = await post(server, '/agents/refund?speed=0', userInput('t-1', 'r-1'));
    expect(again.status).toBe(200);
    const events = await readEvents(again);
    expect(events.at(-1)?.event.type).toBe('RUN_FINISHED');
    expect(events.filter((e) => e.event.type === 'RUN_STARTED')).toHaveLength(1);
  }, 30_000);
});
