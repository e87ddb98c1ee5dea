import { describe, expect, it } from 'vitest';
import { applyJsonPatch, createThreadState, reduceThread, replayEvents } from '../src/engine.js';
import { codes, run } from './support/examples.js';

const snapshot = (value: unknown) => ({ type: 'STATE_SNAPSHOT', snapshot: value });
const delta = (...ops: unknown[]) => ({ type: 'STATE_DELTA', delta: ops });

describe('reduceThread: STATE_SNAPSHOT', () => {
  it('replaces the whole document, never merging into the old one', () => {
    const s = replayEvents(run([snapshot({ form: { a: 1 }, alert: 'old' }), snapshot({ form: { b: 2 } })]));
    expect(s.sharedState.document).toEqual({ form: { b: 2 } });
  });

  it.each([[0], [null], [['only-this']], ['text'], [false]])('replaces with %j', (value) => {
    expect(replayEvents(run([snapshot({ a: 1 }), snapshot(value)])).sharedState.document).toEqual(value);
  });

  it('starts from the initial document', () => {
    expect(createThreadState({ state: { cart: [] } }).sharedState).toEqual({ document: { cart: [] }, sync: 'in-sync', version: 0 });
  });
});

describe('reduceThread: STATE_DELTA', () => {
  it('applies operations in order', () => {
    const s = replayEvents(
      run([
        snapshot({ items: [], total: 0 }),
        delta(
          { op: 'add', path: '/items/-', value: 'a' },
          { op: 'add', path: '/items/-', value: 'b' },
          { op: 'replace', path: '/total', value: 2 },
        ),
        delta(
          { op: 'move', from: '/items/0', path: '/first' },
          { op: 'copy', from: '/total', path: '/copy' },
          { op: 'test', path: '/copy', value: 2 },
        ),
        delta({ op: 'remove', path: '/copy', value: 'leftover is ignored' }),
      ]),
    );
    expect(s.sharedState).toMatchObject({ document: { items: ['b'], total: 2, first: 'a' }, sync: 'in-sync', version: 4 });
    expect(s.sharedState.lastDelta).toEqual([{ op: 'remove', path: '/copy', value: 'leftover is ignored' }]);
    expect(codes(s)).toEqual([]);
  });

  it('is atomic: a failing operation applies nothing, marks the state desynced with the operation, and says so', () => {
    const before = replayEvents(run([snapshot({ plan: { status: 'open' } })]));
    const s = replayEvents(
      run([delta({ op: 'replace', path: '/plan/status', value: 'closed' }, { op: 'replace', path: '/absent/deeper', value: 1 })], 'r2'),
      before,
    );
    expect(s.sharedState.document).toEqual({ plan: { status: 'open' } });
    expect(s.sharedState.document).toBe(before.sharedState.document);
    expect(s.sharedState.sync).toBe('desynced');
    expect(s.sharedState.failure).toMatchObject({ index: 1, operation: { op: 'replace', path: '/absent/deeper' } });
    expect(s.diagnostics).toMatchObject([{ code: 'PATCH_FAILED', index: 1, severity: 'warning' }]);
    expect(s.diagnostics[0]?.message).toContain('/absent/deeper');
    expect(s.run.status).toBe('success');
  });

  it('holds later deltas while desynced and heals on the next snapshot', () => {
    let s = replayEvents(
      run([snapshot({ n: 1 }), delta({ op: 'replace', path: '/missing', value: 1 }), delta({ op: 'replace', path: '/n', value: 2 })]),
    );
    expect(s.sharedState).toMatchObject({ document: { n: 1 }, sync: 'desynced' });
    expect(codes(s)).toEqual(['PATCH_FAILED', 'DELTA_WHILE_DESYNCED']);
    s = replayEvents(run([snapshot({ n: 5 }), delta({ op: 'replace', path: '/n', value: 6 })], 'r2'), s);
    expect(s.sharedState).toMatchObject({ document: { n: 6 }, sync: 'in-sync' });
    expect(s.sharedState.failure).toBeUndefined();
  });

  it('a failed test operation desyncs too', () => {
    expect(
      replayEvents(run([snapshot({ v: 1 }), delta({ op: 'test', path: '/v', value: 2 }, { op: 'replace', path: '/v', value: 3 })]))
        .sharedState,
    ).toMatchObject({
      document: { v: 1 },
      sync: 'desynced',
    });
  });

  it.each([['/__proto__/polluted'], ['/a/__proto__/polluted'], ['/constructor/prototype/polluted']])(
    'refuses the prototype-polluting path %s',
    (path) => {
      const s = replayEvents(run([snapshot({ a: {} }), delta({ op: 'add', path, value: true })]));
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.prototype).not.toHaveProperty('polluted');
      expect(s.sharedState.sync).toBe('desynced');
      expect(s.diagnostics[0]?.message).toMatch(/prototype/);
    },
  );

  it('refuses a move whose from reaches __proto__', () => {
    expect(applyJsonPatch({ a: 1 }, [{ op: 'move', from: '/__proto__', path: '/x' }])).toMatchObject({ ok: false });
  });

  it('applies a 10 MB value, keeping the rest of the document shared', () => {
    const big = 'x'.repeat(10 * 1024 * 1024);
    const before = replayEvents(run([snapshot({ keep: { untouched: true }, blob: '' })]));
    const s = replayEvents(run([delta({ op: 'replace', path: '/blob', value: big })], 'r2'), before);
    expect((s.sharedState.document as { blob: string }).blob.length).toBe(big.length);
    expect((s.sharedState.document as { keep: unknown }).keep).toBe((before.sharedState.document as { keep: unknown }).keep);
  });

  it('never mutates the previous document and shares untouched subtrees', () => {
    const before = replayEvents(run([snapshot({ a: { deep: 1 }, b: { other: 2 } })]));
    const doc = before.sharedState.document as { a: { deep: number }; b: unknown };
    const s = replayEvents(run([delta({ op: 'replace', path: '/a/deep', value: 9 })], 'r2'), before);
    expect(doc.a.deep).toBe(1);
    const next = s.sharedState.document as typeof doc;
    expect(next.a.deep).toBe(9);
    expect(next.b).toBe(doc.b);
  });

  it('ignores an empty delta', () => {
    const base = replayEvents([{ type: 'RUN_STARTED', threadId: 't', runId: 'r' }, snapshot({ a: 1 })], undefined, { open: true });
    expect(reduceThread(base, { type: 'STATE_DELTA', delta: [] }).sharedState).toBe(base.sharedState);
  });
});

describe('reduceThread: activities', () => {
  const activity = { type: 'ACTIVITY_SNAPSHOT', messageId: 'a', activityType: 'PLAN', content: { steps: ['one'] } };

  it('creates an activity message and patches its content', () => {
    const s = replayEvents(
      run([
        activity,
        { type: 'ACTIVITY_DELTA', messageId: 'a', activityType: 'PLAN', patch: [{ op: 'add', path: '/steps/-', value: 'two' }] },
      ]),
    );
    expect(s.messages.byId.get('a')).toMatchObject({ role: 'activity', activityType: 'PLAN', content: { steps: ['one', 'two'] } });
  });

  it('keeps an existing activity when a snapshot says replace: false', () => {
    const s = replayEvents(run([activity, { ...activity, activityType: 'OTHER', content: { steps: [] }, replace: false }]));
    expect(s.messages.byId.get('a')).toMatchObject({ activityType: 'PLAN', content: { steps: ['one'] } });
  });

  it('invents nothing for a delta whose target does not exist', () => {
    const s = replayEvents(run([{ type: 'ACTIVITY_DELTA', messageId: 'ghost', activityType: 'PLAN', patch: [] }]));
    expect(s.messages.ids).toEqual([]);
    expect(codes(s)).toEqual(['ACTIVITY_TARGET_MISSING']);
  });

  it('keeps the activity as it was when its patch fails', () => {
    const s = replayEvents(
      run([
        activity,
        { type: 'ACTIVITY_DELTA', messageId: 'a', activityType: 'PLAN', patch: [{ op: 'replace', path: '/nope/x', value: 1 }] },
      ]),
    );
    expect(s.messages.byId.get('a')?.content).toEqual({ steps: ['one'] });
    expect(codes(s)).toEqual(['ACTIVITY_PATCH_FAILED']);
  });
});

describe('applyJsonPatch: copy-on-write', () => {
  it('never writes into the operations it applies, even when a later operation builds on an earlier one', () => {
    const ops = [
      { op: 'add', path: '/list', value: [] as unknown[] },
      { op: 'add', path: '/list/-', value: { n: 1 } },
      { op: 'replace', path: '/list/0/n', value: 2 },
    ];
    const before = JSON.stringify(ops);
    const r = applyJsonPatch({}, ops);
    expect(r).toEqual({ ok: true, document: { list: [{ n: 2 }] } });
    expect(JSON.stringify(ops)).toBe(before);
  });

  it('refuses to walk through a member the document does not own', () => {
    const r = applyJsonPatch({ a: 1 }, [{ op: 'add', path: '/constructor/polluted', value: true }]);
    expect(r).toMatchObject({ ok: false, operationIndex: 0 });
    expect((Object as unknown as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('copies only the containers on the written path', () => {
    const doc = { a: { b: { c: 1 } }, d: { e: 1 }, list: [{ x: 1 }, { x: 2 }] };
    const r = applyJsonPatch(doc, [
      { op: 'replace', path: '/a/b/c', value: 2 },
      { op: 'test', path: '/d/e', value: 1 },
      { op: 'move', from: '/list/0', path: '/first' },
    ]);
    if (!r.ok) throw new Error(r.message);
    const next = r.document as typeof doc & { first: unknown };
    expect(next.d).toBe(doc.d);
    expect(next.first).toBe(doc.list[0]);
    expect(next.list).toEqual([{ x: 2 }]);
    expect(doc).toEqual({ a: { b: { c: 1 } }, d: { e: 1 }, list: [{ x: 1 }, { x: 2 }] });
  });
});

describe('applyJsonPatch: pointers RFC 6901 does not allow', () => {
  const doc = { arr: ['a', 'b'], obj: { n: 1 } };
  it.each([
    ['an empty array index', { op: 'add', path: '/arr/', value: 'X' }],
    ['an index with a leading zero', { op: 'add', path: '/arr/01', value: 'X' }],
    ['an index that wraps around 2^32', { op: 'add', path: '/arr/4294967297', value: 'X' }],
    ['an index past the end', { op: 'add', path: '/arr/3', value: 'X' }],
    ['a replace past the last element', { op: 'replace', path: '/arr/2', value: 'X' }],
    ['a remove of "-"', { op: 'remove', path: '/arr/-' }],
    ['a move to a wrapped index', { op: 'move', from: '/obj/n', path: '/arr/4294967297' }],
    ['a walk through a non-canonical index', { op: 'replace', path: '/arr/00', value: 'X' }],
    ['a remove of an inherited member', { op: 'remove', path: '/obj/toString' }],
    ['a replace of an inherited member', { op: 'replace', path: '/obj/constructor', value: 1 }],
    ['a replace of a member the object lacks', { op: 'replace', path: '/obj/hasOwnProperty', value: 1 }],
    ['an op that is not one of the six', { op: '_get', path: '/obj/n', value: 0 }],
  ])('refuses %s, changing nothing', (_what, op) => {
    const before = JSON.stringify({ doc, op });
    expect(applyJsonPatch(doc, [op])).toMatchObject({ ok: false, operationIndex: 0 });
    expect(JSON.stringify({ doc, op })).toBe(before);
  });

  it('takes the pointers it allows: "-" to append, an index at the end, an own member', () => {
    const r = applyJsonPatch(doc, [
      { op: 'add', path: '/arr/-', value: 'c' },
      { op: 'add', path: '/arr/3', value: 'd' },
      { op: 'add', path: '/arr/0', value: 'z' },
      { op: 'replace', path: '/arr/4', value: 'D' },
      { op: 'remove', path: '/obj/n' },
      { op: 'add', path: '/obj/toString', value: 'own' },
      { op: 'replace', path: '/obj/toString', value: 'mine' },
    ]);
    expect(r).toEqual({ ok: true, document: { arr: ['z', 'a', 'b', 'c', 'D'], obj: { toString: 'mine' } } });
  });

  it('refuses a value that would make the document deeper than the limit', () => {
    const path = `/${Array.from({ length: 300 }, () => 'a').join('/')}`;
    let document: Record<string, unknown> = {};
    for (let i = 0; i < 300; i++) document = { a: document };
    const value = JSON.parse('['.repeat(300) + ']'.repeat(300)) as unknown;
    expect(applyJsonPatch(document, [{ op: 'add', path, value }])).toMatchObject({
      ok: false,
      message: expect.stringMatching(/deeper than 512/),
    });
  });
});

describe('applyJsonPatch: own __proto__ members', () => {
  it('copies an own __proto__ member as data, never as the prototype', () => {
    const doc = JSON.parse('{"__proto__":{"admin":true},"n":1}') as Record<string, unknown>;
    const r = applyJsonPatch(doc, [{ op: 'replace', path: '/n', value: 2 }]);
    if (!r.ok) throw new Error(r.message);
    const next = r.document as Record<string, unknown>;
    expect(Object.getPrototypeOf(next)).toBe(Object.prototype);
    expect(Object.hasOwn(next, '__proto__')).toBe(true);
    expect((next as { admin?: unknown }).admin).toBeUndefined();
    expect(next.n).toBe(2);
  });
});

describe('applyJsonPatch: why an operation failed, as a code', () => {
  const deep = (levels: number): unknown => (levels === 0 ? 1 : { d: deep(levels - 1) });
  it.each([
    ['not an operation', [null], 'NOT_AN_OPERATION'],
    ['a path through __proto__', [{ op: 'add', path: '/__proto__/polluted', value: 1 }], 'FORBIDDEN_PATH'],
    ['an op RFC 6902 does not have', [{ op: 'frobnicate', path: '/a' }], 'UNKNOWN_OPERATION'],
    ['an add without a value', [{ op: 'add', path: '/b' }], 'INVALID_OPERATION'],
    ['a path that is not a string', [{ op: 'add', path: 5, value: 1 }], 'INVALID_OPERATION'],
    ['a replace of a member that is not there', [{ op: 'replace', path: '/missing', value: 1 }], 'NO_SUCH_PATH'],
    ['a move from a member that is not there', [{ op: 'move', from: '/missing', path: '/b' }], 'NO_SUCH_PATH'],
    ['an index RFC 6901 does not allow', [{ op: 'replace', path: '/list/01', value: 1 }], 'NO_SUCH_PATH'],
    ['a test that does not hold', [{ op: 'test', path: '/a', value: 2 }], 'TEST_FAILED'],
    ['a value too deep', [{ op: 'add', path: '/b', value: deep(600) }], 'TOO_DEEP'],
    // RFC 6902 §4.4: a location cannot be moved into one of its children (the document would hold itself).
    ['a move of the whole document into a member of its own', [{ op: 'move', from: '', path: '/b' }], 'INVALID_OPERATION'],
    [
      'a move of the whole document onto a new member of a list of its own',
      [{ op: 'move', from: '', path: '/list/-' }],
      'INVALID_OPERATION',
    ],
    ['a move of a member into its own child', [{ op: 'move', from: '/o', path: '/o/inner' }], 'INVALID_OPERATION'],
    // RFC 6901: `~` is written only as `~0` or `~1`.
    ['an escape RFC 6901 does not have', [{ op: 'add', path: '/~2', value: 1 }], 'INVALID_OPERATION'],
    ['a lone ~', [{ op: 'add', path: '/a~', value: 1 }], 'INVALID_OPERATION'],
    ['a from with a lone ~', [{ op: 'copy', from: '/~', path: '/b' }], 'INVALID_OPERATION'],
    ['a pointer that does not start with /', [{ op: 'add', path: 'b', value: 1 }], 'INVALID_OPERATION'],
  ])('%s', (_what, operations, code) => {
    const doc = { a: 1, list: [1, 2], o: { x: 1 }, '~': 2 };
    const before = JSON.stringify(doc);
    const result = applyJsonPatch(doc, operations);
    expect(result.ok).toBe(false);
    expect(result.ok ? undefined : result.code).toBe(code);
    // Said in words about the pointer, never a TypeError of the patcher's.
    expect(result.ok ? '' : result.message).not.toMatch(/undefined|Cannot set properties/);
    expect(JSON.stringify(doc)).toBe(before);
  });

  it('ignores a `from` on an operation that takes none, as RFC 6902 ignores members an operation does not define', () => {
    expect(applyJsonPatch({ a: 1 }, [{ op: 'add', path: '/z', value: 1, from: '/~' }])).toEqual({ ok: true, document: { a: 1, z: 1 } });
  });

  it('moves a member to itself, beside itself, and to a sibling whose name starts with its own', () => {
    const result = applyJsonPatch({ o: { x: 1 }, list: [1, 2] }, [
      { op: 'move', from: '/o', path: '/o' },
      { op: 'move', from: '/o', path: '/ox' },
      { op: 'move', from: '/list/0', path: '/list/1' },
      { op: 'add', path: '/~0~1', value: 3 },
    ]);
    expect(result).toEqual({ ok: true, document: { ox: { x: 1 }, list: [2, 1], '~/': 3 } });
  });

  it('an agent whose delta moves the document into itself desyncs the state, which stays plain JSON', () => {
    const state = replayEvents(
      run([
        { type: 'STATE_SNAPSHOT', snapshot: { a: 1 } },
        { type: 'STATE_DELTA', delta: [{ op: 'move', from: '', path: '/b' }] },
      ]),
    );
    expect(state.sharedState).toMatchObject({ sync: 'desynced', document: { a: 1 } });
    expect(state.sharedState.failure).toMatchObject({ code: 'INVALID_OPERATION' });
    expect(JSON.stringify(state.sharedState.document)).toBe('{"a":1}');
  });

  it('gives the desynced state the code, beside the message', () => {
    const state = replayEvents(
      run([
        { type: 'STATE_SNAPSHOT', snapshot: { a: 1 } },
        { type: 'STATE_DELTA', delta: [{ op: 'test', path: '/a', value: 2 }] },
      ]),
    );
    expect(state.sharedState.failure).toMatchObject({ code: 'TEST_FAILED', index: 2 });
    expect(state.sharedState.failure?.message).toMatch(/test/i);
  });
});
