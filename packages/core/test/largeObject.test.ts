import fc from 'fast-check';
import jsonPatch from 'fast-json-patch';
import { describe, expect, it, vi } from 'vitest';
import { jsonKeys } from '../src/bindings.js';
import { applyJsonPatch, createEventPipeline, createThreadState } from '../src/engine.js';
import { isLargeObject, toPlainJson } from '../src/index.js';
import { LARGE_OBJECT_KEYS } from '../src/internal.js';
import { noteLargeObjects } from '../src/jsonPatch.js';

type Doc = Record<string, unknown>;

/** A plain object of `n` keys `k0`..., each holding a small record. */
function flat(n: number, extra: Doc = {}): Doc {
  const doc: Doc = {};
  for (let i = 0; i < n; i++) doc[`k${i}`] = { n: i };
  return Object.assign(doc, extra);
}

const LARGE = LARGE_OBJECT_KEYS + 50;

function patched(doc: unknown, ops: unknown[]): Doc {
  const r = applyJsonPatch(doc, ops);
  if (!r.ok) throw new Error(`patch failed: ${r.message}`);
  return r.document as Doc;
}

/** `target` behind a Proxy that counts every member it is asked for: `Object.keys` counts one per key. */
function counted(target: Doc): { proxy: Doc; reads: () => number } {
  let reads = 0;
  const proxy = new Proxy(target, {
    get(t, key, receiver) {
      if (typeof key === 'string') reads++;
      return Reflect.get(t, key, receiver);
    },
    has(t, key) {
      reads++;
      return Reflect.has(t, key);
    },
    getOwnPropertyDescriptor(t, key) {
      reads++;
      return Reflect.getOwnPropertyDescriptor(t, key);
    },
    ownKeys(t) {
      const keys = Reflect.ownKeys(t);
      reads += keys.length;
      return keys;
    },
  });
  return { proxy, reads: () => reads };
}

describe('one representation, whatever has loaded', () => {
  it('the same events give the same representation before and after loadLargeObjects()', async () => {
    vi.resetModules();
    const fresh = { ...(await import('../src/engine.js')), ...(await import('../src/index.js')) };
    const events = () => [
      { type: 'STATE_SNAPSHOT', snapshot: flat(LARGE) },
      { type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/k1', value: 1 }] },
    ];
    const feed = () => {
      const p = fresh.createEventPipeline(fresh.createThreadState({ threadId: 't' }));
      p.push({ type: 'RUN_STARTED', threadId: 't', runId: 'r' });
      let state = p.push(events()[0] as Doc);
      state = p.push(events()[1] as Doc);
      return state.sharedState.document;
    };
    const before = feed();
    await fresh.loadLargeObjects();
    const after = feed();
    expect([fresh.isLargeObject(before), fresh.isLargeObject(after)]).toEqual([true, true]);
    expect(JSON.stringify(before)).toBe(JSON.stringify(after));
  });

  it('the first delta after a 100,000-key snapshot lists the keys of no large object: the snapshot measured them as it entered', () => {
    const p = createEventPipeline(createThreadState({ threadId: 't' }));
    p.push({ type: 'RUN_STARTED', threadId: 't', runId: 'r' });
    p.push({ type: 'STATE_SNAPSHOT', snapshot: { big: flat(100_000), also: flat(LARGE) } });
    const keys = Object.keys;
    let listed = 0;
    const spy = vi.spyOn(Object, 'keys').mockImplementation((o: object) => {
      const all = keys(o);
      if (all.length > LARGE_OBJECT_KEYS) listed += all.length;
      return all;
    });
    let state: ReturnType<typeof p.push>;
    try {
      state = p.push({
        type: 'STATE_DELTA',
        delta: [
          { op: 'replace', path: '/big/k1', value: 'one' },
          { op: 'remove', path: '/also/k2' },
        ],
      });
    } finally {
      spy.mockRestore();
    }
    expect(listed).toBe(0);
    const doc = state.sharedState.document as Record<string, Doc>;
    expect([isLargeObject(doc.big), doc.big?.k1, doc.big?.k2, isLargeObject(doc.also), 'k2' in (doc.also ?? {})]).toEqual([
      true,
      'one',
      { n: 2 },
      true,
      false,
    ]);
    expect(state.sharedState.sync).toBe('in-sync');
  });

  it('a STATE_SNAPSHOT walks its document once: it copies it and lists the keys of its large objects only', () => {
    const p = createEventPipeline(createThreadState({ threadId: 't' }));
    p.push({ type: 'RUN_STARTED', threadId: 't', runId: 'r' });
    const snapshot = { big: flat(2_000), nested: [{ also: flat(LARGE) }, flat(3)] };
    const keys = Object.keys;
    const listed: number[] = [];
    const spy = vi.spyOn(Object, 'keys').mockImplementation((o: object) => {
      const all = keys(o);
      listed.push(all.length);
      return all;
    });
    let state: ReturnType<typeof p.push>;
    try {
      state = p.push({ type: 'STATE_SNAPSHOT', snapshot });
    } finally {
      spy.mockRestore();
    }
    // The records of `big` and `also` (one key each) are copied without listing their keys, and no object is listed twice.
    expect(listed.filter((n) => n <= LARGE_OBJECT_KEYS).length).toBeLessThan(5);
    expect(listed.filter((n) => n > LARGE_OBJECT_KEYS).sort((a, b) => a - b)).toEqual([LARGE, 2_000]);
    const doc = state.sharedState.document as { big: Doc; nested: [{ also: Doc }, Doc] };
    expect(doc.big).not.toBe(snapshot.big);
    expect(doc).toEqual(snapshot);
    const next = p.push({ type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/nested/0/also/k1', value: 'one' }] });
    const also = (next.sharedState.document as typeof doc).nested[0].also;
    expect([isLargeObject(also), also.k1, also.k2]).toEqual([true, 'one', { n: 2 }]);
  });

  it("a large value a delta adds, or a run input's state, is listed once as it enters: by its copy, not again by a walk", () => {
    const p = createEventPipeline(createThreadState({ threadId: 't' }));
    const keys = Object.keys;
    let listed = 0;
    const spy = vi.spyOn(Object, 'keys').mockImplementation((o: object) => {
      const all = keys(o);
      // aguikit's own listings (fast-json-patch walks an added value to check it holds no undefined).
      if (all.length === 2_000 && !new Error().stack?.includes('fast-json-patch')) listed++;
      return all;
    });
    const counts: number[] = [];
    try {
      p.push({
        type: 'RUN_STARTED',
        threadId: 't',
        runId: 'r',
        input: { threadId: 't', runId: 'r', state: { big: flat(2_000) }, messages: [], tools: [], context: [] },
      });
      counts.push(listed);
      p.push({ type: 'STATE_DELTA', delta: [{ op: 'add', path: '/more', value: { nested: flat(2_000) } }] });
      counts.push(listed);
    } finally {
      spy.mockRestore();
    }
    expect(counts).toEqual([1, 2]);
  });

  it('the first write into a measured object, nested or not, reads a handful of its members', () => {
    const { proxy, reads } = counted(flat(100_000));
    const doc = { wrapper: { big: proxy }, small: flat(3) };
    noteLargeObjects(doc);
    const entered = reads();
    const next = patched(doc, [
      { op: 'replace', path: '/wrapper/big/k1', value: 1 },
      { op: 'add', path: '/wrapper/big/added', value: 2 },
      { op: 'remove', path: '/wrapper/big/k2' },
    ]);
    expect(reads() - entered).toBeLessThan(20);
    const big = (next.wrapper as Doc).big as Doc;
    expect([isLargeObject(big), big.k1, big.added, 'k2' in big, big.k3]).toEqual([true, 1, 2, false, { n: 3 }]);
    expect(isLargeObject(next.small)).toBe(false);
  });

  it('a move of a large object to a place no deeper reads a handful of its members, not every key', () => {
    const { proxy, reads } = counted(flat(100_000));
    const doc = { a: { big: proxy }, b: {} };
    noteLargeObjects(doc);
    const entered = reads();
    const next = patched(doc, [
      { op: 'move', from: '/a/big', path: '/b/big' },
      { op: 'move', from: '/b/big', path: '/top' },
    ]);
    expect(reads() - entered).toBeLessThan(20);
    expect((next.top as Doc).k1).toEqual({ n: 1 });
  });

  it('an object nobody measured is counted at its first write, with the same outcome', () => {
    const { proxy, reads } = counted(flat(LARGE));
    const next = patched({ big: proxy }, [{ op: 'replace', path: '/big/k1', value: 1 }]);
    expect(reads()).toBeGreaterThan(LARGE);
    expect(isLargeObject(next.big)).toBe(true);
    expect(JSON.stringify(next.big)).toBe(JSON.stringify({ ...flat(LARGE), k1: 1 }));
  });

  it('a large value a delta brings in is measured by that delta: the next write into it reads a handful of members', () => {
    const { proxy, reads } = counted(flat(10_000));
    const doc = patched({}, [{ op: 'add', path: '/big', value: proxy }]);
    const entered = reads();
    const next = patched(doc, [{ op: 'replace', path: '/big/k1', value: 1 }]);
    expect(reads() - entered).toBeLessThan(10);
    expect([isLargeObject(next.big), (next.big as Doc).k1]).toEqual([true, 1]);
  });
});

describe('folding the changes into a new base', () => {
  const BASE = 1_000;
  const key = (rand: () => number) => {
    const r = rand();
    // Base keys, added keys, array indices (listed first), keys that need escaping.
    return r < 0.5
      ? `k${Math.floor(rand() * BASE)}`
      : r < 0.8
        ? `n${Math.floor(rand() * 400)}`
        : r < 0.9
          ? String(Math.floor(rand() * 50))
          : `e/${Math.floor(rand() * 20)}~`;
  };
  const segment = (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1');

  it("no write reads more than a few dozen members of the base, every version stays whole, and order is a plain object's", () => {
    let seed = 42;
    const rand = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    const hostile = JSON.parse(
      `{"__proto__": {"polluted": true}, "7": "seven", ${Array.from({ length: BASE }, (_, i) => `"k${i}": {"n": ${i}}`).join(', ')}}`,
    );
    const { proxy, reads } = counted(hostile);
    noteLargeObjects(proxy);
    const model: Doc = JSON.parse(JSON.stringify(hostile));
    let doc: Doc = proxy;
    let most = 0;
    let last = reads();
    const kept: { doc: Doc; json: string; keys: string[] }[] = [];
    for (let i = 0; i < 6_000; i++) {
      const k = key(rand);
      const path = `/${segment(k)}`;
      const ops: Doc[] = Object.hasOwn(model, k) && rand() < 0.35 ? [{ op: 'remove', path }] : [{ op: 'add', path, value: i }];
      doc = patched(doc, ops);
      if (ops[0]?.op === 'remove') delete model[k];
      else model[k] = i;
      most = Math.max(most, reads() - last);
      last = reads();
      if (i % 750 === 0) kept.push({ doc, json: JSON.stringify(model), keys: Object.keys(model) });
    }
    // A fold copies 16 keys a write; each is read once from the base (and its descriptor checked once).
    expect(most).toBeLessThanOrEqual(40);
    // The base was folded away: the last writes never reached the original object.
    const before = reads();
    for (let i = 0; i < 50; i++) doc = patched(doc, [{ op: 'replace', path: '/7', value: i }]);
    expect(reads()).toBe(before);
    model['7'] = 49;
    expect(isLargeObject(doc)).toBe(true);
    expect(Object.keys(doc)).toEqual(Object.keys(model));
    expect(JSON.stringify(doc)).toBe(JSON.stringify(model));
    expect(Object.getPrototypeOf(doc)).toBe(Object.prototype);
    expect(({} as Doc).polluted).toBeUndefined();
    for (const version of kept) {
      expect(Object.keys(version.doc)).toEqual(version.keys);
      expect(JSON.stringify(version.doc)).toBe(version.json);
    }
  });
});

describe('large objects of the shared state', () => {
  it('an object stays plain up to LARGE_OBJECT_KEYS keys and becomes large on the first write past it', () => {
    const small = patched(flat(LARGE_OBJECT_KEYS), [{ op: 'replace', path: '/k1', value: 1 }]);
    expect(isLargeObject(small)).toBe(false);
    const big = patched(flat(LARGE), [{ op: 'replace', path: '/k1', value: 1 }]);
    expect(isLargeObject(big)).toBe(true);
    // A snapshot is kept as it arrived: only a write converts.
    const p = createEventPipeline(createThreadState({ threadId: 't', state: flat(LARGE) }));
    expect(isLargeObject(p.push({ type: 'RUN_STARTED', threadId: 't', runId: 'r' }).sharedState.document)).toBe(false);
  });

  it('reads like the plain object it stands for: members, keys in order, spread, JSON, equality', () => {
    const plain = flat(LARGE, { '10': 'ten', '2': 'two', 'a/b': 'slash' });
    const big = patched(plain, [{ op: 'add', path: '/added', value: [1, { x: null }] }]);
    const expected: Doc = { ...plain, added: [1, { x: null }] };
    expect(Object.keys(big)).toEqual(Object.keys(expected));
    expect(Object.keys(big).slice(0, 3)).toEqual(['2', '10', 'k0']);
    expect(Object.keys(big).at(-1)).toBe('added');
    expect(JSON.stringify(big)).toBe(JSON.stringify(expected));
    expect({ ...big }).toEqual(expected);
    expect(Object.entries(big).length).toBe(Object.keys(expected).length);
    expect(big).toEqual(expected);
    expect(big['a/b']).toBe('slash');
    expect('k3' in big && !('nope' in big)).toBe(true);
    expect(Object.hasOwn(big, 'k3') && !Object.hasOwn(big, 'toString')).toBe(true);
    expect(Object.hasOwn(big, 'k3')).toBe(true);
    expect(Object.getPrototypeOf(big)).toBe(Object.prototype);
    expect(Array.isArray(big)).toBe(false);
    expect(String(big)).toBe('[object Object]');
    const seen: string[] = [];
    for (const key in big) seen.push(key);
    expect(seen).toEqual(Object.keys(expected));
  });

  it('a write leaves the previous document as it was and shares every untouched value', () => {
    const v1 = patched(flat(LARGE), [{ op: 'replace', path: '/k1', value: 'one' }]);
    const v2 = patched(v1, [
      { op: 'replace', path: '/k2/n', value: 'two' },
      { op: 'remove', path: '/k3' },
      { op: 'add', path: '/k4', value: 'four' },
    ]);
    expect(v1.k2).toEqual({ n: 2 });
    expect(v1.k3).toEqual({ n: 3 });
    expect(v1.k4).toEqual({ n: 4 });
    expect(v2.k2).toEqual({ n: 'two' });
    expect('k3' in v2).toBe(false);
    expect(v2.k4).toBe('four');
    expect(Object.keys(v2).indexOf('k4')).toBe(Object.keys(v1).indexOf('k4') - 1); // replaced in place; k3 is gone
    expect(v2.k5).toBe(v1.k5);
    expect(v2.k1).toBe('one');
  });

  it('a removed and re-added key moves to the end, as on a plain object', () => {
    const v1 = patched(flat(LARGE), [{ op: 'remove', path: '/k0' }]);
    const v2 = patched(v1, [{ op: 'add', path: '/k0', value: 0 }]);
    expect(Object.keys(v2).at(-1)).toBe('k0');
    expect(Object.keys(v2).length).toBe(LARGE);
  });

  it('refuses writes from outside a patch with a TypeError that says what to do', () => {
    const big = patched(flat(LARGE), [{ op: 'replace', path: '/k1', value: 1 }]);
    expect(() => {
      big.k1 = 2;
    }).toThrow(/read-only.*STATE_DELTA/);
    expect(() => {
      delete big.k1;
    }).toThrow(TypeError);
    expect(() => Object.defineProperty(big, 'k1', { value: 3 })).toThrow(TypeError);
    expect(() => Object.setPrototypeOf(big, null)).toThrow(TypeError);
    expect(() => Object.preventExtensions(big)).toThrow(TypeError);
    expect(big.k1).toBe(1);
  });

  it('a failing patch leaves a large document untouched, and the next one applies', () => {
    const big = patched(flat(LARGE), [{ op: 'replace', path: '/k1', value: 1 }]);
    const r = applyJsonPatch(big, [
      { op: 'replace', path: '/k1', value: 'changed' },
      { op: 'remove', path: '/k2' },
      { op: 'test', path: '/k5/n', value: 'wrong' },
    ]);
    expect(r).toMatchObject({ ok: false, operationIndex: 2 });
    expect(big.k1).toBe(1);
    expect(big.k2).toEqual({ n: 2 });
    expect(patched(big, [{ op: 'test', path: '/k5/n', value: 5 }]).k5).toBe(big.k5);
  });

  it('move, copy and test work across large objects', () => {
    const big = patched(flat(LARGE), [{ op: 'add', path: '/nested', value: flat(LARGE) }]);
    const moved = patched(big, [
      { op: 'move', from: '/nested/k7', path: '/moved' },
      { op: 'copy', from: '/k8', path: '/nested/copied' },
      { op: 'test', path: '/moved', value: { n: 7 } },
    ]);
    const nested = moved.nested as Doc;
    expect(isLargeObject(nested)).toBe(true);
    expect(moved.moved).toEqual({ n: 7 });
    expect('k7' in nested).toBe(false);
    expect(nested.copied).toEqual({ n: 8 });
    expect(moved.k8).toEqual({ n: 8 });
    expect((big.nested as Doc).k7).toEqual({ n: 7 });
  });

  it('checking a path, or failing one, never serializes the document', () => {
    const big = patched(flat(LARGE), [{ op: 'replace', path: '/k1', value: 1 }]);
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      const moved = patched(big, [{ op: 'move', from: '/k2', path: '/moved' }]);
      expect(moved.moved).toEqual({ n: 2 });
      expect(applyJsonPatch(big, [{ op: 'copy', from: '/nope', path: '/x' }])).toMatchObject({
        ok: false,
        message: 'Cannot perform the operation from a path that does not exist',
      });
      expect(applyJsonPatch(big, [{ op: 'move', from: '/k2/n/deeper', path: '/x' }]).ok).toBe(false);
      expect(applyJsonPatch(big, [{ op: 'replace', path: '/missing', value: 1 }])).toMatchObject({
        ok: false,
        message: 'Cannot perform the operation at a path that does not exist',
      });
      expect(applyJsonPatch(big, [{ op: 'add', path: '/missing/deeper', value: 1 }]).ok).toBe(false);
      expect(applyJsonPatch({ list: [1] }, [{ op: 'copy', from: '/list/1', path: '/x' }]).ok).toBe(false);
      expect(applyJsonPatch({ list: [1] }, [{ op: 'copy', from: '/list/01', path: '/x' }]).ok).toBe(false);
      expect(applyJsonPatch({ list: [1] }, [{ op: 'copy', from: '/list/0', path: '/x' }])).toMatchObject({
        ok: true,
        document: { list: [1], x: 1 },
      });
      expect(stringify).not.toHaveBeenCalled();
    } finally {
      stringify.mockRestore();
    }
  });

  it('an own __proto__ member stays data and never becomes the prototype', () => {
    const hostile = JSON.parse(`{"__proto__": {"polluted": true}, ${Array.from({ length: LARGE }, (_, i) => `"k${i}": ${i}`).join(', ')}}`);
    const big = patched(hostile, [{ op: 'replace', path: '/k1', value: 'one' }]);
    expect(isLargeObject(big)).toBe(true);
    expect(Object.getPrototypeOf(big)).toBe(Object.prototype);
    expect(Object.keys(big)[0]).toBe('__proto__');
    expect(({} as Doc).polluted).toBeUndefined();
    const plain = toPlainJson(big);
    expect(Object.getPrototypeOf(plain)).toBe(Object.prototype);
    expect(Object.hasOwn(plain, '__proto__')).toBe(true);
    expect((plain as Doc).polluted).toBeUndefined();
  });

  it('removing most keys compacts the key order and keeps it right', () => {
    let doc = patched(flat(LARGE * 4), [{ op: 'replace', path: '/k0', value: 0 }]);
    const ops = [];
    for (let i = 1; i < LARGE * 4; i += 1) if (i % 7 !== 0) ops.push({ op: 'remove', path: `/k${i}` });
    doc = patched(doc, ops);
    doc = patched(doc, [{ op: 'add', path: '/last', value: true }]);
    const expected = [
      'k0',
      ...Array.from({ length: LARGE * 4 }, (_, i) => i)
        .filter((i) => i > 0 && i % 7 === 0)
        .map((i) => `k${i}`),
      'last',
    ];
    expect(Object.keys(doc)).toEqual(expected);
    expect(doc.k14).toEqual({ n: 14 });
  });

  it("jsonKeys gives Object.keys's list, the one a large object keeps per version: frozen, and the same list until a key is added or removed", () => {
    const plain = flat(LARGE, { 3: 'three' });
    expect(jsonKeys(plain)).toEqual(Object.keys(plain));
    let doc = patched(plain, [{ op: 'replace', path: '/k0', value: 0 }]);
    expect(isLargeObject(doc)).toBe(true);
    const keys = jsonKeys(doc);
    expect(keys).toEqual(Object.keys(plain));
    expect(Object.isFrozen(keys)).toBe(true);
    expect(() => (keys as string[]).push('x')).toThrow(TypeError);
    // A replace keeps the list; an add and a remove make another, in plain order.
    doc = patched(doc, [{ op: 'replace', path: '/k1', value: 1 }]);
    expect(jsonKeys(doc)).toBe(keys);
    const grown = patched(doc, [
      { op: 'add', path: '/zz', value: 1 },
      { op: 'add', path: '/2', value: 2 },
      { op: 'remove', path: '/k5' },
    ]);
    expect(jsonKeys(grown)).toEqual(Object.keys(grown));
    expect(jsonKeys(grown)).toEqual(['2', '3', ...Object.keys(plain).filter((k) => k !== '3' && k !== 'k5'), 'zz']);
    expect(jsonKeys(doc)).toBe(keys);
  });

  it('toPlainJson gives plain objects all the way down, which structuredClone accepts', () => {
    const shared = { untouched: [1, 2] };
    const doc = patched({ wrapper: { big: flat(LARGE) }, shared }, [{ op: 'replace', path: '/wrapper/big/k1', value: 1 }]);
    expect(isLargeObject((doc.wrapper as Doc).big)).toBe(true);
    expect(() => structuredClone(doc)).toThrow();
    const plain = toPlainJson(doc);
    expect(isLargeObject((plain.wrapper as Doc).big)).toBe(false);
    expect(structuredClone(plain)).toEqual(plain);
    expect(plain).toEqual(doc);
    expect(plain.shared).toBe(shared);
    const untouched = { a: [1, { b: 2 }] };
    expect(toPlainJson(untouched)).toBe(untouched);
  });

  it('behaves as fast-json-patch on a plain copy, over random operation sequences', () => {
    const key = fc.constantFrom('k1', 'k2', 'k3', 'k140', '7', '300', 'new', 'x~y', 'a/b');
    const value = fc.oneof(fc.integer(), fc.string({ maxLength: 3 }), fc.constant(null), fc.record({ n: fc.integer() }));
    const esc = (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1');
    const op = fc.oneof(
      fc.record({ op: fc.constantFrom('add', 'replace'), path: key.map((k) => `/${esc(k)}`), value }),
      fc.record({ op: fc.constant('remove'), path: key.map((k) => `/${esc(k)}`) }),
      fc.record({ op: fc.constantFrom('move', 'copy'), from: key.map((k) => `/${esc(k)}`), path: key.map((k) => `/${esc(k)}`) }),
    );
    fc.assert(
      fc.property(fc.array(fc.array(op, { minLength: 1, maxLength: 4 }), { maxLength: 12 }), (patches) => {
        let ours: unknown = flat(LARGE);
        let reference: unknown = flat(LARGE);
        for (const ops of patches) {
          let next: unknown;
          try {
            next = jsonPatch.applyPatch(structuredClone(reference), structuredClone(ops) as never, true, true).newDocument;
          } catch {
            next = undefined;
          }
          const r = applyJsonPatch(ours, ops);
          expect(r.ok).toBe(next !== undefined);
          if (r.ok) {
            ours = r.document;
            reference = next;
          }
          expect(JSON.stringify(ours)).toBe(JSON.stringify(reference));
        }
      }),
      { numRuns: 100 },
    );
  }, 30_000);
});
