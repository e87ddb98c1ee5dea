/**
 * Many runs posted at once on SQLite: their durable writes (runs, effects, reads) are committed together, one sync
 * for all those waiting, so the event loop keeps answering; each is still acknowledged only once it is on disk.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStorage } from '../src/storage/sqlite.js';
import type { Storage } from '../src/storage/types.js';
import { effectRecord, runRecord, threadRecord } from './storageContract.js';
import { post, readEvents, startServer, userInput } from './support.js';

const dirs: string[] = [];
const opened: Storage[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'aguikit-group-'));
  dirs.push(dir);
  return dir;
}
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('group commit on SQLite', () => {
  it('400 runs posted at once: every one finishes once (the longest /health wait is logged: timing on a shared machine varies too much to bound here)', async () => {
    const server = await startServer({ dataDir: tempDir(), maxRuns: 400 });
    let done = false;
    let worst = 0;
    const probe = (async () => {
      while (!done) {
        const start = performance.now();
        await (await fetch(`${server.url}/health`)).text();
        worst = Math.max(worst, performance.now() - start);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    const runs = await Promise.all(
      Array.from({ length: 400 }, async (_, i) => {
        const response = await post(server, '/agents/refund?speed=0', userInput(`t-${i}`, `r-${i}`));
        return { status: response.status, events: await readEvents(response) };
      }),
    );
    done = true;
    await probe;
    expect(runs.map((r) => r.status)).toEqual(runs.map(() => 200));
    for (const { events } of runs) {
      expect(events.at(-1)?.event.type).toBe('RUN_FINISHED');
      expect(events.filter((e) => e.event.type === 'RUN_STARTED')).toHaveLength(1);
    }
    console.log(`worst /health under 400 runs: ${worst.toFixed(0)} ms`);
  }, 120_000);

  it('400 runs and 400 effects written at once keep the event loop turning: no stall of a second (one sync each had stalled it for seconds)', async () => {
    const storage = openSqliteStorage(tempDir());
    opened.push(storage);
    let last = performance.now();
    let worst = 0;
    const tick = setInterval(() => {
      const now = performance.now();
      worst = Math.max(worst, now - last);
      last = now;
    }, 5);
    try {
      last = performance.now();
      const results = await Promise.all(
        Array.from({ length: 400 }, async (_, i) => {
          const begun = await storage.beginRun(runRecord(`run-${i}`, `thread-${i}`), threadRecord(`thread-${i}`), 0);
          const effect = await storage.performEffect(effectRecord(`action-${i}`, { runId: `run-${i}` }));
          return [begun, effect.fresh];
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(results).toEqual(results.map(() => ['created', true]));
    } finally {
      clearInterval(tick);
    }
    console.log(`longest event loop stall writing 800 durable records at once: ${worst.toFixed(0)} ms`);
    expect(worst).toBeLessThan(1_000);
    expect((await storage.effects()).length).toBe(400);
  }, 60_000);

  it('writes issued together are each settled by their own outcome: a conflict, a duplicate and a fresh effect', async () => {
    const storage = openSqliteStorage(tempDir());
    opened.push(storage);
    const [a, b, c] = await Promise.all([
      storage.beginRun(runRecord('run-1'), threadRecord('thread-1', []), 0),
      storage.beginRun(runRecord('run-1'), threadRecord('thread-1', []), 0),
      storage.beginRun(runRecord('run-2'), threadRecord('thread-1', []), 0),
    ]);
    expect([a, b, c]).toEqual(['created', 'exists', 'conflict']);
    const effect = effectRecord('i-1');
    const [first, second] = await Promise.all([storage.performEffect(effect), storage.performEffect(effect)]);
    expect([first.fresh, second.fresh]).toEqual([true, false]);
    await Promise.all([storage.appendEvent('run-1', 1, 'frame 1'), storage.appendEvent('run-1', 0, 'frame 0'), storage.markRead('run-1')]);
    expect(await storage.wasRead('run-1')).toBe(true);
    expect(await storage.events('run-1', 0, 10)).toEqual(['frame 0', 'frame 1']);
  });

  it('a write that fails half-way is undone alone: the run it had inserted is gone, the writes beside it are kept', async () => {
    const storage = openSqliteStorage(tempDir());
    opened.push(storage);
    // Its thread cannot be written (a BigInt is no JSON) after its run was inserted.
    const broken = { ...threadRecord('thread-2'), extra: 1n } as unknown as ReturnType<typeof threadRecord>;
    const [a, b, c] = await Promise.allSettled([
      storage.beginRun(runRecord('run-1', 'thread-1'), threadRecord('thread-1'), 0),
      storage.beginRun(runRecord('run-2', 'thread-2'), broken, 0),
      storage.performEffect(effectRecord('after')),
    ]);
    expect([a.status, b.status, c.status]).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await storage.run('run-2')).toBeUndefined();
    expect((await storage.thread('thread-2')).version).toBe(0);
    expect((await storage.unfinished()).map((r) => r.runId)).toEqual(['run-1']);
    expect((await storage.run('run-1'))?.runId).toBe('run-1');
    expect((await storage.effects()).map((e) => e.key)).toEqual(['after']);
  });
});
