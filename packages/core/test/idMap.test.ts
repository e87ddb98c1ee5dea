import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { IdMap } from '../src/index.js';
import { idMap } from '../src/internal.js';

describe('idMap', () => {
  it('sets, gets and deletes without touching earlier versions', () => {
    const a = idMap<number>();
    const b = a.set('x', 1);
    const c = b.set('y', 2).set('x', 3);
    expect([a.size, b.size, c.size]).toEqual([0, 1, 2]);
    expect([a.get('x'), b.get('x'), c.get('x'), c.get('y')]).toEqual([undefined, 1, 3, 2]);
    const d = c.delete('x');
    expect([d.has('x'), d.get('y'), d.size, c.get('x')]).toEqual([false, 2, 1, 3]);
    expect(d.delete('nope')).toBe(d);
  });

  it('returns the same map when a value is set to itself', () => {
    const value = { v: 1 };
    const m = idMap<object>().set('k', value);
    expect(m.set('k', value)).toBe(m);
    // Deep in a map of many entries too.
    const big = idMap(Array.from({ length: 2000 }, (_, i) => [`k${i}`, i === 1234 ? value : { v: i }] as const));
    expect(big.set('k1234', value)).toBe(big);
  });

  it('holds many entries, colliding buckets included, and iterates each once', () => {
    let m = idMap<number>();
    const n = 20000;
    for (let i = 0; i < n; i++) m = m.set(`id-${i}`, i);
    expect(m.size).toBe(n);
    for (let i = 0; i < n; i += 997) expect(m.get(`id-${i}`)).toBe(i);
    expect([...m].sort((x, y) => x - y)).toEqual(Array.from({ length: n }, (_, i) => i));
    expect(
      idMap([
        ['a', 1],
        ['b', 2],
      ]).get('b'),
    ).toBe(2);
  });

  it('keeps keys whose hashes agree on every level apart', () => {
    // The map's hash (FNV-1a): two keys agreeing on its low 30 bits share the deepest node's list.
    const hash = (key: string) => {
      let h = 0x811c9dc5;
      for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
      return h >>> 0;
    };
    const byLow = new Map<number, string>();
    let pair: [string, string] | undefined;
    for (let i = 0; !pair; i++) {
      const key = `k${i}`;
      const low = hash(key) & 0x3fffffff;
      const other = byLow.get(low);
      if (other !== undefined) pair = [other, key];
      else byLow.set(low, key);
    }
    const [a, b] = pair;
    const m = idMap<number>().set(a, 1).set('x', 0).set(b, 2);
    expect([m.get(a), m.get(b), m.size]).toEqual([1, 2, 3]);
    const changed = m.set(b, 3);
    expect([changed.get(a), changed.get(b), m.get(b)]).toEqual([1, 3, 2]);
    const gone = changed.delete(a);
    expect([gone.get(a), gone.get(b), gone.size, [...gone].sort()]).toEqual([undefined, 3, 2, [0, 3]]);
    expect([...gone.delete(b).delete('x')]).toEqual([]);
    const built = idMap([
      [a, 1],
      [b, 2],
    ]);
    expect([built.get(a), built.get(b), built.size]).toEqual([1, 2, 2]);
  });

  it('keeps every earlier version whole while a small map grows, splits and shrinks', () => {
    const versions = [idMap<number>()];
    for (let i = 0; i < 40; i++) versions.push((versions.at(-1) as IdMap<number>).set(`m${i}`, i));
    versions.forEach((m, n) => {
      expect(m.size).toBe(n);
      expect([...m].sort((x, y) => x - y)).toEqual(Array.from({ length: n }, (_, i) => i));
      expect([m.get(`m${n - 1}`), m.get(`m${n}`)]).toEqual([n === 0 ? undefined : n - 1, undefined]);
    });
    let shrinking = versions.at(-1) as IdMap<number>;
    for (let i = 39; i >= 0; i -= 3) {
      shrinking = shrinking.delete(`m${i}`).set(`m${i - 1}`, -i);
      expect([shrinking.has(`m${i}`), shrinking.get(`m${i - 1}`)]).toEqual([false, -i]);
    }
    expect((versions.at(-1) as IdMap<number>).get('m38')).toBe(38);
    const built = idMap(Array.from({ length: 12 }, (_, i) => [`k${i % 10}`, i] as const));
    expect([built.size, built.get('k0'), built.get('k1'), built.get('k9')]).toEqual([10, 10, 11, 9]);
  });

  it('agrees with a Map after any sequence of sets and deletes, every version kept intact, watched ids included', () => {
    // Up to 400 distinct keys, so that lists split into nodes two levels deep, and sequences hit the same entries again.
    const key = fc.integer({ min: 0, max: 399 }).map((n) => `k${n}`);
    const op = fc.oneof(
      { arbitrary: fc.record({ set: key, value: fc.integer() }), weight: 4 },
      { arbitrary: fc.record({ remove: key }), weight: 1 },
    );
    const even = (value: number) => value % 2 === 0;
    const same = (map: IdMap<number>, model: Map<string, number>, order: readonly string[]) => {
      expect(map.size).toBe(model.size);
      for (let n = 0; n < 400; n++) expect(map.get(`k${n}`)).toBe(model.get(`k${n}`));
      expect([...map].sort((a, b) => a - b)).toEqual([...model.values()].sort((a, b) => a - b));
      // A map made to watch even values knows the ids of exactly those, each once, in the order they came to hold it.
      expect(map.watched).toEqual(order);
    };
    /** The ids watched, in the order they came to be: an id that stops being watched and starts again goes last. */
    const watchOrder = (order: Set<string>, id: string, value: number | undefined) => {
      if (value === undefined || !even(value)) order.delete(id);
      else if (!order.has(id)) order.add(id);
    };
    fc.assert(
      fc.property(fc.array(op, { minLength: 300, maxLength: 800, size: 'max' }), (ops) => {
        let map = idMap<number>(undefined, even);
        const model = new Map<string, number>();
        const order = new Set<string>();
        // Every 100th version, checked again at the end: a later write must not have changed it.
        const kept: { map: IdMap<number>; model: Map<string, number>; order: string[] }[] = [];
        ops.forEach((o, i) => {
          if ('set' in o) {
            map = map.set(o.set, o.value);
            model.set(o.set, o.value);
            watchOrder(order, o.set, o.value);
          } else {
            map = map.delete(o.remove);
            model.delete(o.remove);
            watchOrder(order, o.remove, undefined);
          }
          if (i % 100 === 0) kept.push({ map, model: new Map(model), order: [...order] });
        });
        same(map, model, [...order]);
        for (const version of kept) same(version.map, version.model, version.order);
        // Built in one go from the same writes, a key written twice keeps its last value, and is watched from where it was first given.
        const writes = ops.flatMap((o) => ('set' in o ? [[o.set, o.value] as const] : []));
        const built = new Map(writes);
        same(
          idMap(writes, even),
          built,
          [...new Set(writes.map(([k]) => k))].filter((k) => even(built.get(k) as number)),
        );
        // Made without `watch`, a map watches nothing, whatever it derives.
        expect(idMap(writes).set('k0', 2).watched).toBeUndefined();
      }),
      { numRuns: 30 },
    );
  });

  it('treats hostile keys as plain keys', () => {
    const m = idMap<number>().set('__proto__', 1).set('constructor', 2).set('', 3);
    expect([m.get('__proto__'), m.get('constructor'), m.get(''), m.get('toString')]).toEqual([1, 2, 3, undefined]);
  });
});

/**
 * `n` ids whose 32-bit FNV-1a hashes (the first hash of the map, known to
 * anyone) agree in the 30 bits the map's first six levels use: what an agent
 * that wanted to slow the client down could send as message ids. Each is a
 * prefix and two chosen characters: the last two steps of FNV-1a can be
 * solved for the second character.
 */
function collidingIds(n: number): string[] {
  const P = 0x01000193;
  let inverse = P;
  for (let i = 0; i < 5; i++) inverse = Math.imul(inverse, 2 - Math.imul(P, inverse));
  const fnv = (s: string, h = 0x811c9dc5) => {
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), P);
    return h;
  };
  const LOW = 0x3fffffff;
  const want = Math.imul(fnv('msg-target'), inverse) & LOW;
  // Only about one first character in 16,000 leaves a second one that is a character: rather than try each, the
  // state after it is imul(high + y, P) = imul(high, P) + imul(y, P) with y its low 16 bits, so the y whose
  // imul(y, P) falls in each band of 2^16 are listed once, and each prefix looks in the two bands its high bits need.
  const bands = Array.from({ length: 1 << 14 }, () => [] as number[]);
  for (let y = 0; y < 0x10000; y++) bands[(Math.imul(y, P) & LOW) >>> 16]?.push(y);
  const ids: string[] = [];
  for (let p = 0; ids.length < n; p++) {
    const prefix = `msg-${p}-`;
    const state = fnv(prefix);
    const from = ((want & ~0xffff) - Math.imul(state & ~0xffff, P)) & LOW;
    const firsts: number[] = [];
    for (const band of [from >>> 16, ((from >>> 16) + 1) & 0x3fff]) {
      for (const y of bands[band] ?? []) {
        const c1 = (state ^ y) & 0xffff;
        const c2 = (Math.imul(state ^ c1, P) ^ want) & LOW;
        if (c1 >= 0x20 && c1 < 0xd800 && c2 >= 0x20 && c2 < 0xd800) firsts.push(c1);
      }
    }
    for (const c1 of firsts.sort((a, b) => a - b)) {
      if (ids.length < n) ids.push(prefix + String.fromCharCode(c1, (Math.imul(state ^ c1, P) ^ want) & LOW));
    }
  }
  return ids;
}

describe('idMap under ids chosen to collide', () => {
  it('the ids do collide in the first hash', () => {
    const ids = collidingIds(50);
    const low = (s: string) => {
      let h = 0x811c9dc5;
      for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
      return h & 0x3fffffff;
    };
    expect(new Set(ids.map(low)).size).toBe(1);
    expect(new Set(ids).size).toBe(50);
  });

  it('holds 30,000 of them, and a token written into the last costs what it costs in any map', () => {
    const ids = collidingIds(30_000);
    const started = performance.now();
    let m = idMap<number>();
    for (const [i, id] of ids.entries()) m = m.set(id, i);
    const last = ids.at(-1) as string;
    for (let t = 0; t < 1_000; t++) m = m.set(last, t);
    // One bucket of all of them made this 7.8 s: each write copied it, each read scanned it.
    expect(performance.now() - started).toBeLessThan(1_500);
    expect(m.size).toBe(30_000);
    expect(m.get(last)).toBe(999);
    for (let i = 0; i < ids.length; i += 1_999) expect(m.get(ids[i] as string)).toBe(i);
    expect(m.delete(ids[0] as string).get(ids[0] as string)).toBeUndefined();
    expect(idMap(ids.map((id, i) => [id, i] as const)).get(ids[12_345] as string)).toBe(12_345);
  });
});
