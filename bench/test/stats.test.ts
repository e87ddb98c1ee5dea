import { describe, expect, it } from 'vitest';
import type { Bar } from '../src/case.js';
import { fmt, median, pct, spread, verdict } from '../src/stats.js';

const bar = (op: '<=' | '>=', limit: number): Bar => ({ id: 'b', text: 'a bar', on: { ratio: 'r' }, op, limit });

describe('median and spread', () => {
  it('takes the middle value, or the mean of the two middle ones, whatever the order', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it('measures the noise margin as the largest distance of one round from the median, relative to it', () => {
    const s = spread([10, 12, 9, 10, 15]);
    expect(s.median).toBe(10);
    expect(s.min).toBe(9);
    expect(s.max).toBe(15);
    expect(s.margin).toBeCloseTo(0.5);
  });

  it('gives a single round no margin', () => {
    expect(spread([7]).margin).toBe(0);
  });
});

describe('verdict', () => {
  it('meets an upper bar at or under the limit, misses it within the noise margin, and fails it beyond', () => {
    const limit = bar('<=', 3);
    expect(verdict(limit, spread([3, 3, 3]))).toBe('pass');
    // median 3.3, margin 0.2: the limit stretched by the margin is 3.6.
    expect(verdict(limit, spread([3.3, 3.3, 3.96]))).toBe('within-noise');
    expect(verdict(limit, spread([3.7, 3.7, 3.75]))).toBe('fail');
  });

  it('meets a lower bar at or over the limit, and scales the limit down by the margin for a miss within noise', () => {
    const limit = bar('>=', 100);
    expect(verdict(limit, spread([100, 120, 140]))).toBe('pass');
    // median 90, margin 0.2: the limit shrunk by the margin is 83.3.
    expect(verdict(limit, spread([90, 90, 108]))).toBe('within-noise');
    expect(verdict(limit, spread([80, 80, 81]))).toBe('fail');
    // median 82, margin 0.2: under 83.3, though within 20% of the limit.
    expect(verdict(limit, spread([82, 82, 98.4]))).toBe('fail');
  });
});

describe('numbers in the report', () => {
  it('shows three significant digits, thousands separated', () => {
    expect(fmt(1234.5)).toBe('1,235');
    expect(fmt(12.345)).toBe('12.3');
    expect(fmt(0.012345)).toBe('0.0123');
    expect(fmt(Number.NaN)).toBe('NaN');
  });

  it('shows a margin under 10% with one decimal', () => {
    expect(pct(0.05)).toBe('±5.0%');
    expect(pct(0.183)).toBe('±18%');
  });
});
