import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GrowingMap, GrowingSet } from '../src/growingSet.js';

describe('a growing set forked without copying', () => {
  it('gives a fork the entries there were, and each side what it adds after, for any chain of forks and adds', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.record({ add: fc.string({ maxLength: 3 }), side: fc.nat(20) }), fc.record({ fork: fc.nat(20) })), {
          maxLength: 120,
        }),
        (steps) => {
          // Each set beside a plain Set that holds what it should.
          const sets: { set: GrowingSet; model: Set<string> }[] = [{ set: new GrowingSet(['seed']), model: new Set(['seed']) }];
          for (const step of steps) {
            if ('add' in step) {
              const s = sets[step.side % sets.length] as (typeof sets)[number];
              s.set.add(step.add);
              s.model.add(step.add);
            } else {
              const s = sets[step.fork % sets.length] as (typeof sets)[number];
              sets.push({ set: s.set.fork(), model: new Set(s.model) });
            }
          }
          const probes = new Set(['seed', 'never', ...steps.flatMap((s) => ('add' in s ? [s.add] : []))]);
          for (const { set, model } of sets) for (const id of probes) expect(set.has(id)).toBe(model.has(id));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('gives a forked map the values there were, a later write over an earlier one, for any chain of forks and writes', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(fc.record({ set: fc.string({ maxLength: 2 }), value: fc.nat(5), side: fc.nat(20) }), fc.record({ fork: fc.nat(20) })),
          { maxLength: 200 },
        ),
        (steps) => {
          const maps: { map: GrowingMap<number>; model: Map<string, number> }[] = [{ map: new GrowingMap(), model: new Map() }];
          for (const step of steps) {
            if ('set' in step) {
              const m = maps[step.side % maps.length] as (typeof maps)[number];
              m.map.set(step.set, step.value);
              m.model.set(step.set, step.value);
            } else {
              const m = maps[step.fork % maps.length] as (typeof maps)[number];
              maps.push({ map: m.map.fork(), model: new Map(m.model) });
            }
          }
          const probes = new Set(['never', ...steps.flatMap((s) => ('set' in s ? [s.set] : []))]);
          for (const { map, model } of maps) for (const id of probes) expect(map.get(id)).toBe(model.get(id));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('copies each id of a chain of 1,000 forks a few times, not once every few forks', () => {
    // Entries written into maps while the chain is made: the adds themselves, and the copies merging layers makes.
    const set = Map.prototype.set;
    let writes = 0;
    Map.prototype.set = function (this: Map<unknown, unknown>, key: unknown, value: unknown) {
      writes++;
      return set.call(this, key, value);
    } as typeof set;
    try {
      let growing = new GrowingSet();
      for (let f = 0; f < 1_000; f++) {
        for (let i = 0; i < 100; i++) growing.add(`call-${f}-${i}`);
        growing = growing.fork();
      }
      expect(growing.has('call-0-0')).toBe(true);
    } finally {
      Map.prototype.set = set;
    }
    // 100,000 adds; a merge of every layer every 9 forks copied 5.6 million entries.
    expect(writes).toBeLessThan(100_000 * 20);
  });

  it('reads a chain of 1,000 forks, each adding 100 ids, in a few sets per lookup and without a copy per fork', () => {
    let set = new GrowingSet();
    const chain: GrowingSet[] = [];
    for (let f = 0; f < 1_000; f++) {
      for (let i = 0; i < 100; i++) set.add(`call-${f}-${i}`);
      chain.push(set);
      set = set.fork();
    }
    expect(set.has('call-0-0')).toBe(true);
    expect(set.has('call-999-99')).toBe(true);
    expect(chain[10]?.has('call-11-0')).toBe(false);
    const began = performance.now();
    for (let i = 0; i < 100_000; i++) set.has(`call-${i % 1_000}-${i % 100}`);
    expect(performance.now() - began).toBeLessThan(500);
  });
});
