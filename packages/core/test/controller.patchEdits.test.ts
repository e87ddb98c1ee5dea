/**
 * `updateSharedState(operations)`: an edit given as JSON Patch operations
 * rather than a recipe. It is what the recipe's patches become (a client
 * `state_edit` entry), without immer's draft, which copies an object it
 * writes into: inside a 100,000-key object, a recipe's edit costs that copy,
 * where operations cost what an agent's delta does.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { replaySession } from '../src/engine.js';
import { createRunController, loadEngine } from '../src/index.js';
import { finished, microScheduler, scripted, started, view } from './support/controllerHarness.js';

beforeAll(() => loadEngine());

type Doc = { rows: Record<string, { done: boolean }>; title?: string };

function make(initialState: Doc = { rows: { a: { done: false } } }) {
  const { source, inputs } = scripted((_n, input, emit) => {
    emit(started(input));
    emit(finished(input));
  });
  const c = createRunController<Doc>({ source, scheduler: microScheduler, initialState });
  return { c, inputs };
}

describe('an edit given as JSON Patch operations', () => {
  it('applies as a client delta the log keeps, the inspector marks, and the next run sends', async () => {
    const { c, inputs } = make();
    const result = await c.updateSharedState([
      { op: 'replace', path: '/rows/a/done', value: true },
      { op: 'add', path: '/title', value: 'Refunds' },
    ]);
    expect(result).toMatchObject({ ok: true });
    const { sharedState } = c.getSnapshot().thread;
    expect(sharedState.document).toEqual({ rows: { a: { done: true } }, title: 'Refunds' });
    expect(sharedState.basis).toBe('client');
    expect(sharedState.lastDelta).toEqual([
      { op: 'replace', path: '/rows/a/done', value: true },
      { op: 'add', path: '/title', value: 'Refunds' },
    ]);
    expect(c.log.entries.filter((e) => e.type === 'state_edit')).toHaveLength(1);
    expect(view(replaySession(c.log.entries))).toEqual(view(c.getSnapshot().thread));
    await c.run('go');
    expect(inputs[0]?.state).toEqual({ rows: { a: { done: true } }, title: 'Refunds' });
  });

  it('keeps the order of edits asked for together, recipes and operations alike', async () => {
    const { c } = make();
    const doc = () => c.getSnapshot().thread.sharedState.document as Doc;
    const results = await Promise.all([
      c.updateSharedState((d) => {
        d.title = 'one';
      }),
      c.updateSharedState([{ op: 'replace', path: '/title', value: 'two' }]),
      c.updateSharedState((d) => {
        d.title = `${d.title} three`;
      }),
    ]);
    expect(results.every((r) => r.ok)).toBe(true);
    expect(doc().title).toBe('two three');
  });

  it('takes values as JSON writes them, copies the app cannot change afterwards', async () => {
    const { c } = make();
    const value = { done: true, at: new Date(0), skip: undefined };
    await c.updateSharedState([{ op: 'add', path: '/rows/b', value }]);
    value.done = false;
    expect((c.getSnapshot().thread.sharedState.document as Doc).rows.b).toEqual({ done: true, at: '1970-01-01T00:00:00.000Z' });
  });

  it.each([
    ['an operation on a path the document does not hold', [{ op: 'replace', path: '/nope/x', value: 1 }], /operation 0/],
    ['a test that fails', [{ op: 'test', path: '/rows/a/done', value: true }], /operation 0/],
    ['no operation at all', [42], /operation 0 is no JSON Patch operation/],
    ['an unknown op', [{ op: 'merge', path: '/title', value: 'x' }], /operation 0/],
    ['a path that is no JSON pointer', [{ op: 'add', path: 'title', value: 'x' }], /operation 0/],
    ['an add without a value', [{ op: 'add', path: '/title' }], /operation 0/],
    ['a BigInt', [{ op: 'add', path: '/title', value: 1n }], /BigInt/],
    ['a path through __proto__', [{ op: 'add', path: '/__proto__/polluted', value: true }], /operation 0/],
    ['a move of the document into itself', [{ op: 'move', from: '', path: '/rows/b' }], /operation 0.*inside itself/],
    ['an escape RFC 6901 does not have', [{ op: 'add', path: '/~2', value: 1 }], /operation 0.*~0 or ~1/],
  ])('refuses %s, EDIT_REFUSED, and applies none of the operations', async (_name, operations, why) => {
    const { c } = make();
    const before = c.getSnapshot().thread.sharedState.document;
    const result = await c.updateSharedState([{ op: 'add', path: '/title', value: 'first' }, ...(operations as never[])]);
    expect(result).toMatchObject({
      ok: false,
      code: 'EDIT_REFUSED',
      message: expect.stringMatching(why.source.replace('operation 0', 'operation 1')),
    });
    expect(c.getSnapshot().thread.sharedState.document).toBe(before);
    expect(c.log.entries.filter((e) => e.type === 'state_edit')).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('an empty list changes nothing and logs nothing', async () => {
    const { c } = make();
    expect(await c.updateSharedState([])).toMatchObject({ ok: true });
    expect(c.log.entries.filter((e) => e.type === 'state_edit')).toEqual([]);
  });

  it('costs inside a 100,000-key object what it costs inside a 100-key one: nothing copies the object', async () => {
    const rows = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`r${i}`, { done: false }]));
    const timed = async (n: number) => {
      const { c } = make({ rows: rows(n) });
      // The first write makes the large object an overlay (as an agent's first delta does).
      await c.updateSharedState([{ op: 'replace', path: '/rows/r0/done', value: true }]);
      const times: number[] = [];
      for (let i = 1; i <= 9; i++) {
        const t = performance.now();
        await c.updateSharedState([{ op: 'replace', path: `/rows/r${i}/done`, value: true }]);
        times.push(performance.now() - t);
      }
      expect((c.getSnapshot().thread.sharedState.document as Doc).rows.r9).toEqual({ done: true });
      return times.sort((a, b) => a - b)[4] as number;
    };
    const small = await timed(100);
    const large = await timed(100_000);
    // A recipe's edit inside the 100,000-key object copies it: 165-270 ms in a probe.
    expect(large, `${large.toFixed(2)} ms at 100,000 keys, ${small.toFixed(2)} ms at 100`).toBeLessThan(Math.max(5 * small, 2));
  }, 30_000);
});
