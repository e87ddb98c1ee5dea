import { describe, expect, it } from 'vitest';
import { sharedStateCase } from '../src/cases/sharedState.js';
import { afterSnapshotTask, sharedStateRound } from '../src/cases/sharedStateTasks.js';
import { summarize } from '../src/runner.js';

const times = { aguikit100: 0.01, aguikit100000: 0.008, nested100000: 0.02 };
const first = { deltas: [0.012, 0.016, 0.04, 0.014, 0.02], snapshots: [300, 250, 280, 260, 400] };
const after = { deltas: [0.01, 0.009, 0.011] };

describe('a round of case 4', () => {
  it('gives µs per delta, the slowest first delta and the snapshot in ms, and the ratios the bars are checked on', () => {
    const r = sharedStateRound(times, first, after);
    expect(r.figures.aguikit100).toBeCloseTo(10);
    expect(r.figures.aguikit100000).toBeCloseTo(8);
    // The 25th percentile of the first deltas, as for every task: 0.014 ms.
    expect(r.figures.first100000).toBeCloseTo(14);
    expect(r.figures.firstMax).toBe(0.04);
    expect(r.figures.snapshot100000).toBe(260);
    expect(r.figures.after100000).toBeCloseTo(9.5);
    expect(r.ratios.growth).toBeCloseTo(0.8);
    expect(r.ratios.firstGrowth).toBeCloseTo(1.4);
    expect(r.ratios.firstOverAfter).toBeCloseTo(14 / 9.5);
    expect(r.ratios.nestedGrowth).toBeCloseTo(2);
    expect(r.ratios.spreadOverSmall).toBeUndefined();
  });

  it('adds the reference ratios in the rounds that measured the references', () => {
    const r = sharedStateRound({ ...times, spread100000: 100, patch100000: 40, official100: 0.1, official100000: 400 }, first, after);
    expect(r.ratios.spreadOverSmall).toBeCloseTo(10_000);
    expect(r.ratios.officialGrowth).toBeCloseTo(4_000);
    expect(r.ratios.officialOverAguikit).toBeCloseTo(50_000);
  });
});

describe('the bars of case 4', () => {
  const bar = (id: string) => sharedStateCase.bars.find((b) => b.id === id);

  it('bars the first delta after a 100,000-key snapshot at 2x a 100-key delta and at 50 ms, as stated', () => {
    expect(bar('flat-state')).toMatchObject({ on: { ratio: 'growth' }, op: '<=', limit: 2 });
    expect(bar('first-delta')).toMatchObject({ on: { ratio: 'firstGrowth' }, op: '<=', limit: 2 });
    expect(bar('first-delta-long-task')).toMatchObject({ on: { figure: 'firstMax' }, op: '<=', limit: 50, unit: 'ms' });
    for (const b of sharedStateCase.bars) {
      const on = 'ratio' in b.on ? sharedStateCase.ratios[b.on.ratio] : sharedStateCase.figures[b.on.figure];
      expect(on, b.id).toBeDefined();
    }
  });

  it('misses the first-delta bars when the first delta is slow, whatever the steady state', () => {
    const slow = sharedStateRound(times, { deltas: [60, 55, 70], snapshots: [1, 1, 1] }, after);
    const summary = summarize(sharedStateCase, [slow, slow, slow]);
    const verdict = (id: string) => summary.bars.find((b) => b.bar.id === id)?.verdict;
    expect([verdict('flat-state'), verdict('first-delta'), verdict('first-delta-long-task')]).toEqual(['pass', 'fail', 'fail']);
    const fast = summarize(sharedStateCase, [sharedStateRound(times, first, after)]);
    expect(fast.bars.map((b) => b.verdict)).toEqual(['pass', 'pass', 'pass']);
  });
});

describe('the tasks after a snapshot', () => {
  it('time only the delta after a fresh snapshot, each iteration, and leave the warm-up iterations out', async () => {
    let now = 0;
    const clock = () => now++;
    const task = afterSnapshotTask('first', 'snapshot', 300, { passes: 6, warmupPasses: 4 }, 2, clock);
    expect([task.name, task.every]).toEqual(['first', 2]);
    for (let i = 0; i < 5; i++) {
      await task.before?.();
      // The clock ticks once per reading: the snapshot and the delta each span one tick.
      expect(await task.run()).toBe(1);
    }
    // Two warm-up passes of four are due (every second one): their iterations are left out.
    expect(task.deltas()).toEqual([1, 1, 1]);
    expect(task.snapshots()).toEqual([1, 1, 1]);
    expect(() => task.run()).toThrow(/without its snapshot/);
  });

  it('check that the delta applied where it was meant to, into a large object only past LARGE_OBJECT_KEYS', async () => {
    for (const [into, keys] of [
      ['snapshot', 100],
      ['snapshot', 300],
      ['other', 300],
    ] as const) {
      const task = afterSnapshotTask('t', into, keys, { passes: 1, warmupPasses: 0 }, 1, () => 0);
      for (let i = 0; i < 2; i++) {
        await task.before?.();
        expect(() => task.run()).not.toThrow();
      }
    }
  });
});
