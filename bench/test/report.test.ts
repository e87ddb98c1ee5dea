import { describe, expect, it } from 'vitest';
import type { BenchCase, CaseRound, CaseSummary } from '../src/case.js';
import { gate } from '../src/gate.js';
import { consoleReport } from '../src/report/console.js';
import { margin } from '../src/report/format.js';
import { markdownReport } from '../src/report/markdown.js';
import { summarize } from '../src/runner.js';
import { spread } from '../src/stats.js';

const aCase = (overrides: Partial<BenchCase> = {}): BenchCase => ({
  number: 9,
  id: 'example',
  title: 'An example',
  method: 'How it is measured.',
  deterministic: false,
  figures: { ours: { label: 'ours', unit: 'µs' }, reference: { label: 'a reference', unit: 'µs' } },
  ratios: { speedup: { label: 'theirs / ours' } },
  bars: [{ id: 'fast', text: 'ours is at least 2x faster', on: { ratio: 'speedup' }, op: '>=', limit: 2 }],
  run: () => Promise.reject(new Error('not run in these tests')),
  ...overrides,
});

const round = (speedup: number, reference?: number): CaseRound => ({
  figures: { ours: 1, ...(reference !== undefined ? { reference } : {}) },
  ratios: { speedup },
});

const info = {
  command: 'pnpm bench',
  date: '2026-01-01',
  machine: { node: 'v20', v8: '11', cpu: 'a CPU', cores: 2, memoryGb: 4, os: 'Linux' },
  rounds: 3,
  quick: false,
  revision: 'abc1234',
  seconds: 10,
};

describe('summarize', () => {
  it('summarizes each figure over the rounds that measured it', () => {
    const s = summarize(aCase(), [round(3, 5), round(4), round(5)]);
    expect(s.figures.reference?.values).toEqual([5]);
    expect(s.figures.ours?.values).toEqual([1, 1, 1]);
    expect(s.ratios.speedup?.median).toBe(4);
    expect(s.bars[0]?.verdict).toBe('pass');
  });

  it('refuses a bar on something the case never measured', () => {
    const broken = aCase({ bars: [{ id: 'x', text: 'a bar on nothing', on: { ratio: 'missing' }, op: '<=', limit: 1 }] });
    expect(() => summarize(broken, [round(3)])).toThrow(/names nothing/);
  });
});

describe('the noise margin as shown', () => {
  it('is a percentage over several rounds, "exact" for a deterministic figure and "one round" for any other single value', () => {
    expect(margin(spread([1, 1.1, 0.9]), false)).toBe('±10%');
    expect(margin(spread([24.8]), true)).toBe('exact');
    expect(margin(spread([2.5]), false)).toBe('one round');
  });
});

describe('gate', () => {
  const summary = (speedups: number[], n = 9): CaseSummary =>
    summarize(
      aCase({ number: n }),
      speedups.map((s) => round(s)),
    );

  it('fails the run on a bar missed beyond its margin', () => {
    const g = gate([summary([1, 1, 1])], () => undefined);
    expect(g.missed).toHaveLength(1);
    expect(g.regressions).toHaveLength(1);
  });

  it('does not fail it on a miss within the margin, nor on a bar known to be open', () => {
    expect(gate([summary([1.9, 1.9, 2.3])], () => undefined).regressions).toHaveLength(0);
    const open = gate([summary([1, 1, 1])], (n, text) => (n === 9 && text === 'ours is at least 2x faster' ? 'why' : undefined));
    expect(open.missed[0]?.openReason).toBe('why');
    expect(open.regressions).toHaveLength(0);
  });

  it('counts every bar of every case', () => {
    const g = gate([summary([3, 3, 3], 1), summary([1.9, 1.9, 2.3], 2)], () => undefined);
    expect(g.bars.map((b) => [b.number, b.verdict])).toEqual([
      [1, 'pass'],
      [2, 'within-noise'],
    ]);
    expect(g.noisy).toHaveLength(1);
  });
});

describe('the report', () => {
  const withReading = aCase({
    bars: [{ id: 'fast', text: 'ours is at least 2x faster', on: { ratio: 'speedup' }, op: '>=', limit: 2, reading: 'theirs read as X' }],
    obstacles: () => 'the obstacle',
  });

  it('shows a bar with its reading, in the table of bars, in its case and on the console', () => {
    const s = summarize(withReading, [round(3), round(3), round(3)]);
    const md = markdownReport([s], new Map(), info);
    expect(md).toContain('| 9 | ours is at least 2x faster (theirs read as X) | 3 | ≥ 2 |');
    expect(md).toContain('Bar: ours is at least 2x faster (theirs read as X) — measured 3, needs ≥ 2: **met**.');
    expect(consoleReport([s], new Map())).toContain('bar: ours is at least 2x faster (theirs read as X)');
  });

  it('says what stands in the way of a missed bar, and only then', () => {
    const met = markdownReport([summarize(withReading, [round(3), round(3), round(3)])], new Map(), info);
    const missed = markdownReport([summarize(withReading, [round(1), round(1), round(1)])], new Map(), info);
    expect(met).not.toContain('the obstacle');
    expect(missed).toContain('**What stands in the way.** the obstacle');
    expect(missed).toContain('| **missed** |');
  });

  it('leaves out a figure no round measured', () => {
    const md = markdownReport([summarize(aCase(), [round(3)])], new Map(), info);
    expect(md).toContain('| ours |');
    expect(md).not.toContain('| a reference |');
  });
});
