import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GrowingSet } from '../src/growingSet.js';

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
