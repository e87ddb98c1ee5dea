/**
 * Memory storage holds its threads and side-effect records within a bound
 * (`maxRecordBytes`), as it holds its runs: a client that starts thread after
 * thread, or has effect after effect done, does not grow the process without
 * limit. Past it, the threads written longest ago are dropped, never one with
 * an open interrupt nor one whose latest run is being produced or read, and
 * the effects of runs no longer held, the oldest first; when what it holds
 * can all not be dropped, a new thread or effect is refused as a full disk
 * refuses it.
 */
import { describe, expect, it } from 'vitest';
import { MAX_LISTED_EFFECTS } from '../src/server.js';
import { openMemoryStorage } from '../src/storage/memory.js';
import { type Storage, StorageUnavailable } from '../src/storage/types.js';
import { effectRecord, runRecord, threadRecord } from './storageContract.js';
import { interruptsOf, NOW, post, readEvents, startServer, userInput } from './support.js';

/** The bytes the threads `ids` hold as the storage counts them (UTF-16 of their JSON), and how many it holds. */
async function held(storage: Storage, ids: string[]): Promise<{ bytes: number; count: number }> {
  let bytes = 0;
  let count = 0;
  for (const id of ids) {
    const { record } = await storage.thread(id);
    if (!record) continue;
    bytes += 2 * JSON.stringify(record).length;
    count++;
  }
  return { bytes, count };
}

describe('memory storage with maxRecordBytes', () => {
  it('drops the threads written longest ago, never one with an open interrupt or whose run is produced or read', async () => {
    const storage = openMemoryStorage({ maxRecordBytes: 20_000, inUse: (runId) => runId === 'run-read' });
    expect(await storage.beginRun(runRecord('run-open', 'open'), threadRecord('open', ['it-1']), 0)).toBe('created');
    await storage.produced('run-open');
    expect(await storage.beginRun(runRecord('run-producing', 'producing'), threadRecord('producing'), 0)).toBe('created');
    expect(await storage.beginRun(runRecord('run-read', 'read'), threadRecord('read'), 0)).toBe('created');
    await storage.produced('run-read');
    const ids = Array.from({ length: 2_000 }, (_, n) => `t-${n}`);
    for (const id of ids) {
      expect(await storage.beginRun(runRecord(`run-${id}`, id), threadRecord(id), 0)).toBe('created');
      await storage.produced(`run-${id}`);
    }
    const kept = await held(storage, ['open', 'producing', 'read', ...ids]);
    expect(kept.bytes).toBeLessThanOrEqual(20_000);
    expect(kept.count).toBeLessThan(2_003);
    // The protected three, and the newest threads.
    for (const id of ['open', 'producing', 'read', 't-1999']) expect((await storage.thread(id)).version, id).toBe(1);
    expect((await storage.thread('t-0')).version).toBe(0);
    // A thread dropped starts anew: its next run is taken at version 0.
    expect(await storage.beginRun(runRecord('run-t-0-again', 't-0'), threadRecord('t-0'), 0)).toBe('created');
    await storage.close();
  });

  it('drops the effects of runs no longer held, oldest first, and pages on from a cursor without repeating one', async () => {
    const storage = openMemoryStorage({ maxRecordBytes: 40_000, maxRunBytes: 5_000 });
    // A run held still: its effects are kept (a retry of it would do them again).
    await storage.beginRun(runRecord('run-kept', 'kept'), threadRecord('kept'), 0);
    const keptEffect = effectRecord('kept-action', { runId: 'run-kept' });
    await storage.performEffect(keptEffect);
    const first = await storage.effectsPage(0, 10);
    expect(first.effects).toHaveLength(1);
    const keys = [];
    for (let n = 0; n < 500; n++) {
      const runId = `run-${n}`;
      await storage.beginRun(runRecord(runId, `t-${n}`), threadRecord(`t-${n}`), 0);
      const effect = effectRecord(`action-${n}`, { runId });
      keys.push(effect.idempotencyKey);
      expect((await storage.performEffect(effect)).fresh).toBe(true);
      await storage.produced(runId);
    }
    const all = await storage.effects();
    expect(2 * JSON.stringify(all).length).toBeLessThanOrEqual(40_000);
    expect(all.map((e) => e.idempotencyKey)).toContain(keptEffect.idempotencyKey);
    expect(all.map((e) => e.idempotencyKey)).toContain(keys.at(-1));
    expect(all.map((e) => e.idempotencyKey)).not.toContain(keys[0]);
    // The effect kept is done once still.
    expect((await storage.performEffect(keptEffect)).fresh).toBe(false);
    // Paged on from the cursor read before the drops: the effects held after it, each once, in order.
    const seen: string[] = [];
    let cursor = first.next;
    for (;;) {
      const page = await storage.effectsPage(cursor, 7);
      seen.push(...page.effects.map((e) => e.idempotencyKey));
      cursor = page.next;
      if (!page.more) break;
    }
    expect(seen).toEqual(all.map((e) => e.idempotencyKey).filter((k) => k !== keptEffect.idempotencyKey));
    await storage.close();
  });

  it('refuses a new thread or effect once what it holds cannot be dropped, and stores nothing of it', async () => {
    const storage = openMemoryStorage({ maxRecordBytes: 3_000 });
    let n = 0;
    // Threads with open interrupts, each kept, until one more does not fit.
    for (;;) {
      try {
        await storage.beginRun(runRecord(`run-${n}`, `t-${n}`), threadRecord(`t-${n}`, [`it-${n}`]), 0);
      } catch (e) {
        expect(e).toBeInstanceOf(StorageUnavailable);
        break;
      }
      n++;
      expect(n).toBeLessThan(100);
    }
    expect(await storage.run(`run-${n}`)).toBeUndefined();
    expect((await storage.thread(`t-${n}`)).version).toBe(0);
    for (let i = 0; i < n; i++) expect((await storage.thread(`t-${i}`)).version).toBe(1);
    // A run's effects are kept while it is held: no room for a new one.
    await expect(storage.performEffect(effectRecord('one-more', { runId: 'run-0' }))).rejects.toBeInstanceOf(StorageUnavailable);
    expect(await storage.effects()).toEqual([]);
    // A thread held goes on: its next run is taken.
    expect(await storage.beginRun(runRecord('run-0-next', 't-0'), threadRecord('t-0'), 1)).toBe('created');
    await storage.close();
  });
});

describe('memory storage: that a run dropped for room was read', () => {
  it('is kept only while its thread waits on the interrupts the run raised, not for every run read', async () => {
    const storage = openMemoryStorage({ maxRunBytes: 30_000 });
    const frame = (runId: string, i: number) => `id: ${runId}:${i}\ndata: ${'x'.repeat(1_000)}\n\n`;
    const runs: [string, string, string[]][] = [
      ['raised', 't-raised', ['it-1']],
      ['plain', 't-plain', []],
      ['filler', 't-filler', []],
    ];
    for (const [runId, threadId, open] of runs) {
      const thread = { ...threadRecord(threadId, open), ...(open.length ? { raisedBy: runId } : {}) };
      await storage.beginRun(runRecord(runId, threadId), thread, 0);
      for (let i = 0; i < 10; i++) await storage.appendEvent(runId, i, frame(runId, i));
      await storage.produced(runId);
      await storage.markRead(runId);
    }
    expect(await storage.run('raised')).toBeUndefined();
    expect(await storage.run('plain')).toBeUndefined();
    // No thread asks whether the plain run's end was read: a client reading run after run holds nothing for each.
    expect(await storage.wasRead('plain')).toBe(false);
    expect(await storage.wasRead('raised')).toBe(true);
    // Once the thread's interrupts are answered (by its next run), it is not asked of the run that raised them either.
    await storage.beginRun(runRecord('answer', 't-raised'), threadRecord('t-raised'), 1);
    expect(await storage.wasRead('raised')).toBe(false);
    await storage.close();
  });
});

describe("the server's own list of effects (AgentServer.effects)", () => {
  it('holds the newest MAX_LISTED_EFFECTS, however many storage holds or this server does', async () => {
    const storage = openMemoryStorage();
    for (let n = 0; n < MAX_LISTED_EFFECTS + 5; n++)
      await storage.performEffect(effectRecord(`action-${n}`, { runId: `run-${n}`, at: NOW }));
    const server = await startServer({ storage });
    const listed = server.effects();
    expect(listed).toHaveLength(MAX_LISTED_EFFECTS);
    expect(listed[0]?.key).toBe('action-5');
    expect(listed.at(-1)?.key).toBe(`action-${MAX_LISTED_EFFECTS + 4}`);
    // One done by this server is listed, and the oldest listed gives it its place.
    const first = await post(server, '/agents/refund?speed=0', userInput('t', 'r1'));
    const events = await readEvents(first);
    const resume = {
      ...userInput('t', 'r2'),
      resume: [{ interruptId: interruptsOf(events)[0]?.id ?? '', status: 'resolved', payload: { approved: true } }],
    };
    expect((await readEvents(await post(server, '/agents/refund?speed=0', resume))).at(-1)?.event.type).toBe('RUN_FINISHED');
    const after = server.effects();
    expect(after).toHaveLength(MAX_LISTED_EFFECTS);
    expect(after[0]?.key).toBe('action-6');
    expect(after.at(-1)?.runId).toBe('r2');
    await storage.close();
  });
});

describe('a server on memory storage with maxMemoryRecordBytes', () => {
  it('is refused at the start unless a whole number of bytes, 1 or more', async () => {
    for (const bad of [0, -1, 1.5, Number.NaN])
      await expect(startServer({ maxMemoryRecordBytes: bad })).rejects.toThrow(/^maxMemoryRecordBytes must be/u);
  });
});

describe('memory storage with maxRecordBytes: an effect whose thread is held', () => {
  it('is kept after its run is dropped, so a retry of that run, whose answer the thread remembers, does not do it again', async () => {
    // A client reads a later run of the thread: the thread is held, the run that did the refund is not.
    const storage = openMemoryStorage({ maxRecordBytes: 20_000, maxRunBytes: 2_000, inUse: (runId) => runId === 'later' });
    await storage.beginRun(runRecord('ask', 'kept'), threadRecord('kept', ['it-1']), 0);
    await storage.produced('ask');
    await storage.beginRun(runRecord('answer', 'kept'), threadRecord('kept'), 1);
    const refund = effectRecord('refund-kept', { runId: 'answer' });
    expect((await storage.performEffect(refund)).fresh).toBe(true);
    await storage.produced('answer');
    await storage.beginRun(runRecord('later', 'kept'), threadRecord('kept'), 2);
    await storage.produced('later');
    // Other clients' runs and effects fill both bounds: 'answer' is dropped for room.
    for (let n = 0; n < 200; n++) {
      await storage.beginRun(runRecord(`other-${n}`, `other-${n}`), threadRecord(`other-${n}`), 0);
      expect((await storage.performEffect(effectRecord(`other-${n}`, { runId: `other-${n}` }))).fresh).toBe(true);
      await storage.produced(`other-${n}`);
    }
    expect(await storage.run('answer')).toBeUndefined();
    expect((await storage.thread('kept')).version).toBe(3);
    // The run produced again (its client retried it, and the thread takes the answer it remembers): the refund is found done.
    expect((await storage.performEffect(refund)).fresh).toBe(false);
    await storage.close();
  });
});

describe('memory storage with maxRecordBytes: what it counts', () => {
  it('reports as held, after every drop, the bytes of the threads and effects it holds: threads rewritten, runs dropped, effects dropped', async () => {
    let now = NOW;
    let owner = 'a';
    let reported: number | undefined;
    const storage = openMemoryStorage({
      maxRecordBytes: 12_000,
      maxRunBytes: 3_000,
      maxWaitingBytesPerOwner: 5_000,
      now: () => now,
      ownerOf: () => owner,
      onRecordDrop: (_threads, _effects, bytes) => {
        reported = bytes;
      },
    });
    const threadIds = Array.from({ length: 200 }, (_, n) => `t-${n}`);
    /** What the storage holds, counted as it counts (UTF-16 of the JSON of each thread and effect). */
    const actual = async () => {
      let bytes = 0;
      for (const id of threadIds) {
        const { record } = await storage.thread(id);
        if (record) bytes += 2 * JSON.stringify(record).length;
      }
      for (const effect of await storage.effects()) bytes += 2 * JSON.stringify(effect).length;
      return bytes;
    };
    // A fixed sequence of pseudo-random steps (a linear congruential generator).
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    const begun: string[] = [];
    let drops = 0;
    for (let step = 0; step < 3_000; step++) {
      owner = ['a', 'b', 'c'][next(3)] ?? 'a';
      const op = next(10);
      /** What the step stored after the storage reported what it held (the thread or effect it made room for). */
      let stored = 0;
      if (op < 5) {
        const threadId = threadIds[next(threadIds.length)] ?? 't-0';
        const runId = `run-${step}`;
        const open = Array.from({ length: next(3) }, (_, i) => ({
          id: `it-${step}-${i}`,
          reason: 'tool_call',
          message: 'Approve?',
          ...(next(10) ? { expiresAt: new Date(now + next(5) * 1_000).toISOString() } : {}),
        }));
        const { version, record: before } = await storage.thread(threadId);
        const answered = next(2) ? { [`old-${step}`]: { status: 'resolved' as const, payload: 'x'.repeat(next(200)) } } : {};
        const thread = { threadId, open, answered };
        const created = await storage.beginRun(runRecord(runId, threadId), thread, version).catch(() => undefined);
        if (created === 'created') {
          begun.push(runId);
          stored = 2 * (JSON.stringify(thread).length - (before ? JSON.stringify(before).length : 0));
        }
        await storage.produced(runId);
      } else if (op < 8 && begun.length > 0) {
        const effect = effectRecord(`action-${next(400)}`, { runId: begun[next(begun.length)] ?? '' });
        const done = await storage.performEffect(effect).catch(() => undefined);
        if (done?.fresh) stored = 2 * JSON.stringify(effect).length;
      } else if (op === 8) now += next(3) * 1_000;
      else await storage.prune(now - 5_000 + next(10_000));
      if (reported !== undefined) {
        expect(reported, `step ${step}`).toBe((await actual()) - stored);
        reported = undefined;
        drops++;
      }
    }
    expect(drops).toBeGreaterThan(50);
    await storage.close();
  });
});
