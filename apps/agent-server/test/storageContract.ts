/**
 * The contract every `Storage` keeps (memory, SQLite, Redis), as one suite:
 * `storageContract('sqlite', () => open())` registers it for a storage.
 * `open` gives a new, empty storage each time; the suite closes it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { idempotencyKey } from '../src/storage/idempotency.js';
import type { EffectRecord, RunRecord, Storage, ThreadRecord } from '../src/storage/types.js';

export function runRecord(runId: string, threadId = 'thread-1', extra: Partial<RunRecord> = {}): RunRecord {
  return {
    runId,
    threadId,
    scenarioId: 'refund',
    input: { threadId, runId, messages: [{ id: `${runId}-user`, role: 'user', content: 'A refund, please.' }], tools: [], context: [] },
    startedAt: 1_764_504_000_000,
    nonce: `nonce-${runId}`,
    ...extra,
  };
}

export function threadRecord(threadId = 'thread-1', openIds: string[] = []): ThreadRecord {
  return {
    threadId,
    open: openIds.map((id) => ({ id, reason: 'tool_call', message: `Approve ${id}?` })),
    answered: {},
  };
}

export function effectRecord(businessActionId: string, extra: Partial<EffectRecord> = {}): EffectRecord {
  const detail = { orderId: 'A-1001', amount: 42, currency: 'USD' };
  return {
    kind: 'refund',
    key: businessActionId,
    detail,
    idempotencyKey: idempotencyKey({ threadId: 'thread-1', businessActionId, toolName: 'refund', arguments: detail }),
    runId: 'run-2',
    at: 1_764_504_001_000,
    ...extra,
  };
}

export function storageContract(name: string, open: () => Promise<Storage>): void {
  describe(`the ${name} storage`, () => {
    const opened: Storage[] = [];
    const fresh = async () => {
      const storage = await open();
      opened.push(storage);
      return storage;
    };
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((s) => s.close()));
    });

    describe('beginRun', () => {
      it('creates a run and the thread at version 1, then answers exists for the same run id', async () => {
        const s = await fresh();
        expect(await s.thread('thread-1')).toEqual({ record: undefined, version: 0 });
        expect(await s.beginRun(runRecord('run-1'), threadRecord('thread-1', ['i-1']), 0)).toBe('created');
        expect(await s.run('run-1')).toEqual(runRecord('run-1'));
        expect(await s.thread('thread-1')).toEqual({ record: threadRecord('thread-1', ['i-1']), version: 1 });
        // The same run again (a retried request), even at the current version: taken, nothing changed.
        expect(await s.beginRun(runRecord('run-1'), threadRecord('thread-1'), 1)).toBe('exists');
        expect(await s.thread('thread-1')).toEqual({ record: threadRecord('thread-1', ['i-1']), version: 1 });
      });

      it('answers conflict when the thread changed since it was read, and writes nothing', async () => {
        const s = await fresh();
        expect(await s.beginRun(runRecord('run-1'), threadRecord(), 0)).toBe('created');
        // A second writer that read version 0 before the first run was recorded.
        expect(await s.beginRun(runRecord('run-2'), threadRecord('thread-1', ['x']), 0)).toBe('conflict');
        expect(await s.run('run-2')).toBeUndefined();
        expect(await s.beginRun(runRecord('run-2'), threadRecord('thread-1', ['x']), 5)).toBe('conflict');
        expect(await s.beginRun(runRecord('run-2'), threadRecord('thread-1', ['x']), 1)).toBe('created');
        expect(await s.thread('thread-1')).toEqual({ record: threadRecord('thread-1', ['x']), version: 2 });
      });

      it('keeps threads apart, and a run id is taken across threads', async () => {
        const s = await fresh();
        expect(await s.beginRun(runRecord('run-a', 'thread-a'), threadRecord('thread-a'), 0)).toBe('created');
        expect(await s.beginRun(runRecord('run-b', 'thread-b'), threadRecord('thread-b'), 0)).toBe('created');
        expect(await s.beginRun(runRecord('run-a', 'thread-b'), threadRecord('thread-b'), 1)).toBe('exists');
        expect((await s.thread('thread-a')).version).toBe(1);
        expect((await s.thread('thread-b')).version).toBe(1);
        expect(await s.run('nope')).toBeUndefined();
      });

      it('lets exactly one of many concurrent runs at one version through', async () => {
        const s = await fresh();
        const answers = await Promise.all(
          Array.from({ length: 8 }, (_, i) => s.beginRun(runRecord(`run-${i}`), threadRecord('thread-1', [`i-${i}`]), 0)),
        );
        expect(answers.filter((a) => a === 'created')).toHaveLength(1);
        expect(answers.filter((a) => a === 'conflict')).toHaveLength(7);
        expect((await s.thread('thread-1')).version).toBe(1);
      });

      it('stores a copy: changing the objects afterwards changes nothing stored', async () => {
        const s = await fresh();
        const run = runRecord('run-1');
        const thread = threadRecord('thread-1', ['i-1']);
        await s.beginRun(run, thread, 0);
        run.scenarioId = 'changed';
        thread.open.length = 0;
        expect((await s.run('run-1'))?.scenarioId).toBe('refund');
        expect((await s.thread('thread-1')).record?.open).toHaveLength(1);
      });

      it('keeps ids of any characters and large inputs as they were', async () => {
        const s = await fresh();
        const odd = `run '"; DROP TABLE runs; -- \u0000 ✓ ${'x'.repeat(200)}`;
        const run = runRecord(odd, 'thread-ü', {
          input: { ...runRecord(odd, 'thread-ü').input, forwardedProps: { big: 'y'.repeat(500_000) } },
        });
        expect(await s.beginRun(run, threadRecord('thread-ü'), 0)).toBe('created');
        expect(await s.run(odd)).toEqual(run);
      });
    });

    describe('unfinished', () => {
      it(`lists the runs begun and not produced to their end${name === 'redis' ? ': none on Redis, whose instances cannot tell a dead one from a live one' : ''}`, async () => {
        const s = await fresh();
        expect(await s.unfinished()).toEqual([]);
        await s.beginRun(runRecord('run-1'), threadRecord(), 0);
        await s.beginRun(runRecord('run-2', 'thread-2'), threadRecord('thread-2'), 0);
        await s.produced('run-1');
        await s.produced('run-1');
        await s.produced('never-begun');
        expect(await s.unfinished()).toEqual(name === 'redis' ? [] : [runRecord('run-2', 'thread-2')]);
        // A pruned run is not left to finish.
        await s.prune(Number.MAX_SAFE_INTEGER);
        expect(await s.unfinished()).toEqual([]);
      });
    });

    describe('events', () => {
      it('appends frames by index and reads them in order, from and limit', async () => {
        const s = await fresh();
        for (let i = 0; i < 10; i++) await s.appendEvent('run-1', i, `frame ${i}`);
        const all = Array.from({ length: 10 }, (_, i) => `frame ${i}`);
        expect(await s.events('run-1', 0, 100)).toEqual(all);
        expect(await s.events('run-1', 3, 4)).toEqual(all.slice(3, 7));
        expect(await s.events('run-1', 8, 100)).toEqual(all.slice(8));
        expect(await s.events('run-1', 10, 100)).toEqual([]);
        expect(await s.events('run-1', 0, 0)).toEqual([]);
        expect(await s.events('other-run', 0, 100)).toEqual([]);
      });

      it('writes an index once: a second write of it is a no-op that keeps the first frame, and says so', async () => {
        const s = await fresh();
        expect(await s.appendEvent('run-1', 0, 'first')).toBe(true);
        expect(await s.appendEvent('run-1', 0, 'second')).toBe(false);
        expect(await s.appendEvent('run-1', 1, 'next')).toBe(true);
        expect(await s.appendEvent('run-1', 1, 'next')).toBe(false);
        expect(await s.events('run-1', 0, 10)).toEqual(['first', 'next']);
      });

      it('reads up to the first index not written yet, never past a gap', async () => {
        const s = await fresh();
        await s.appendEvent('run-1', 0, 'a');
        await s.appendEvent('run-1', 1, 'b');
        await s.appendEvent('run-1', 3, 'd');
        expect(await s.events('run-1', 0, 10)).toEqual(['a', 'b']);
        expect(await s.events('run-1', 3, 10)).toEqual(['d']);
      });

      it('keeps runs apart and frames of any text as they were', async () => {
        const s = await fresh();
        const frame = `id: x:0\ndata: ${JSON.stringify({ text: '✓ \u2028 "quoted" \\ ' })}\n\n`;
        await s.appendEvent('run-a', 0, frame);
        await s.appendEvent('run-b', 0, 'other');
        expect(await s.events('run-a', 0, 10)).toEqual([frame]);
        expect(await s.events('run-b', 0, 10)).toEqual(['other']);
      });

      it('refuses an index that is not a count from 0', async () => {
        const s = await fresh();
        for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])
          await expect(s.appendEvent('run-1', bad, 'x')).rejects.toThrow(RangeError);
        expect(await s.events('run-1', 0, 10)).toEqual([]);
      });
    });

    describe('performEffect', () => {
      it('records an effect once: fresh the first time, then the first record, not fresh', async () => {
        const s = await fresh();
        const first = effectRecord('run-1-refund-approval');
        expect(await s.performEffect(first)).toEqual({ record: first, fresh: true });
        const again = { ...first, runId: 'run-3', at: first.at + 5_000 };
        expect(await s.performEffect(again)).toEqual({ record: first, fresh: false });
        expect(await s.effects()).toEqual([first]);
      });

      it('performs one of many concurrent attempts at the same effect', async () => {
        const s = await fresh();
        const attempts = await Promise.all(
          Array.from({ length: 10 }, (_, i) => s.performEffect(effectRecord('run-1-refund-approval', { runId: `run-${i}`, at: 1000 + i }))),
        );
        expect(attempts.filter((a) => a.fresh)).toHaveLength(1);
        const winner = attempts.find((a) => a.fresh)?.record;
        for (const a of attempts) expect(a.record).toEqual(winner);
        expect(await s.effects()).toHaveLength(1);
      });

      it('lists every effect done, each once, in the order done', async () => {
        const s = await fresh();
        expect(await s.effects()).toEqual([]);
        const a = effectRecord('a', { at: 1 });
        const b = effectRecord('b', { at: 2 });
        const c = effectRecord('c', { at: 3 });
        for (const e of [a, b, a, c, b]) await s.performEffect(e);
        expect(await s.effects()).toEqual([a, b, c]);
      });

      it('reads the newest effects up to a limit, in the order done, without the older ones', async () => {
        const s = await fresh();
        expect(await s.latestEffects(2)).toEqual([]);
        const [a, b, c] = ['a', 'b', 'c'].map((key, i) => effectRecord(key, { at: i + 1 })) as EffectRecord[];
        await s.performEffect(a as EffectRecord);
        expect(await s.latestEffects(2)).toEqual([a]);
        for (const e of [b, a, c, b]) await s.performEffect(e as EffectRecord);
        expect(await s.latestEffects(2)).toEqual([b, c]);
        expect(await s.latestEffects(10)).toEqual([a, b, c]);
      });

      it('pages the effects in the order done: a cursor read on from sees each once, those done after it included', async () => {
        const s = await fresh();
        expect(await s.effectsPage(0, 2)).toEqual({ effects: [], next: 0, more: false });
        const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((key, i) => effectRecord(key, { at: i + 1 }));
        for (const e of [a, b, a, c, b]) await s.performEffect(e as EffectRecord);
        const first = await s.effectsPage(0, 2);
        expect(first).toMatchObject({ effects: [a, b], more: true });
        const second = await s.effectsPage(first.next, 2);
        expect(second).toMatchObject({ effects: [c], more: false });
        // Nothing more yet: the cursor stays where it is.
        expect(await s.effectsPage(second.next, 2)).toEqual({ effects: [], next: second.next, more: false });
        await s.performEffect(d as EffectRecord);
        expect(await s.effectsPage(second.next, 2)).toMatchObject({ effects: [d], more: false });
        expect(await s.effectsPage(0, 10)).toMatchObject({ effects: [a, b, c, d], more: false });
      });
    });

    describe('reads', () => {
      it("keeps which runs' ends a client read, once however often told, and drops the mark with its run", async () => {
        const s = await fresh();
        const start = 1_764_504_000_000;
        const thread = { ...threadRecord('thread-1', ['i-1']), raisedBy: 'old' };
        expect(await s.beginRun(runRecord('old', 'thread-1', { startedAt: start }), thread, 0)).toBe('created');
        // The run that raised the open interrupts is kept with them.
        expect(await s.thread('thread-1')).toEqual({ record: thread, version: 1 });
        expect(await s.wasRead('old')).toBe(false);
        await s.markRead('old');
        await s.markRead('old');
        expect(await s.wasRead('old')).toBe(true);
        expect(await s.wasRead('another')).toBe(false);
        expect(await s.prune(start + 5_000)).toBe(1);
        expect(await s.wasRead('old')).toBe(false);
      });
    });

    describe('prune', () => {
      it('drops the runs started before the cut, with their events; later runs, threads and effects stay', async () => {
        const s = await fresh();
        const start = 1_764_504_000_000;
        expect(await s.beginRun(runRecord('old', 'thread-1', { startedAt: start }), threadRecord('thread-1'), 0)).toBe('created');
        expect(await s.beginRun(runRecord('new', 'thread-1', { startedAt: start + 10_000 }), threadRecord('thread-1', ['i-1']), 1)).toBe(
          'created',
        );
        for (const id of ['old', 'new']) for (let i = 0; i < 3; i++) await s.appendEvent(id, i, `${id}-${i}`);
        await s.performEffect(effectRecord('a', { runId: 'old' }));
        expect(await s.prune(start + 5_000)).toBe(1);
        expect(await s.run('old')).toBeUndefined();
        expect(await s.events('old', 0, 10)).toEqual([]);
        expect(await s.run('new')).toEqual(runRecord('new', 'thread-1', { startedAt: start + 10_000 }));
        expect(await s.events('new', 0, 10)).toEqual(['new-0', 'new-1', 'new-2']);
        expect(await s.thread('thread-1')).toEqual({ record: threadRecord('thread-1', ['i-1']), version: 2 });
        expect(await s.effects()).toHaveLength(1);
        expect(await s.prune(start + 5_000)).toBe(0);
        // The id is free again: the same request starts the run anew (its effects, kept, are not done twice).
        expect(await s.beginRun(runRecord('old', 'thread-1', { startedAt: start + 20_000 }), threadRecord('thread-1'), 2)).toBe('created');
      });
    });

    it('has skipped nothing in a new storage', async () => {
      const s = await fresh();
      expect(s.skipped).toEqual([]);
    });

    it('answers a ping while open, and refuses it once closed', async () => {
      const s = await open();
      await expect(s.ping()).resolves.toBeUndefined();
      await s.close();
      await expect(s.ping()).rejects.toMatchObject({ code: 'STORAGE_UNAVAILABLE' });
    });

    it('refuses work once closed, with StorageUnavailable', async () => {
      const s = await open();
      await s.close();
      await s.close();
      await expect(s.run('run-1')).rejects.toMatchObject({ code: 'STORAGE_UNAVAILABLE' });
      await expect(s.performEffect(effectRecord('x'))).rejects.toMatchObject({ code: 'STORAGE_UNAVAILABLE' });
      await expect(s.markRead('run-1')).rejects.toMatchObject({ code: 'STORAGE_UNAVAILABLE' });
      await expect(s.wasRead('run-1')).rejects.toMatchObject({ code: 'STORAGE_UNAVAILABLE' });
    });
  });
}
