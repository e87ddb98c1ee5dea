import type { Bar, Spread, Verdict } from './case.js';

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const upper = sorted[mid] ?? Number.NaN;
  return sorted.length % 2 ? upper : ((sorted[mid - 1] ?? upper) + upper) / 2;
}

/** Median, range and noise margin (largest relative distance of one round from the median) of a figure over the rounds. */
export function spread(values: readonly number[]): Spread {
  const m = median(values);
  let margin = 0;
  for (const v of values) margin = Math.max(margin, m === 0 ? 0 : Math.abs(v - m) / Math.abs(m));
  return { median: m, min: Math.min(...values), max: Math.max(...values), values, margin };
}

/**
 * A bar is met when the median meets it; missed within noise when the median
 * misses it by no more than the margin measured in the same run (the limit
 * scaled by 1 + margin, in the direction of the miss); missed otherwise.
 */
export function verdict(bar: Bar, measured: Spread): Verdict {
  const { median: m, margin } = measured;
  if (bar.op === '<=') {
    if (m <= bar.limit) return 'pass';
    return m <= bar.limit * (1 + margin) ? 'within-noise' : 'fail';
  }
  if (m >= bar.limit) return 'pass';
  return m >= bar.limit / (1 + margin) ? 'within-noise' : 'fail';
}

/** 3 significant digits, thousands separated: 1,234 / 12.3 / 0.0123. */
export function fmt(value: number, digits = 3): string {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  if (abs >= 10 ** digits) return Math.round(value).toLocaleString('en-US');
  return Number(value.toPrecision(digits)).toLocaleString('en-US', { maximumFractionDigits: 6 });
}

export function pct(fraction: number): string {
  return `±${(fraction * 100).toFixed(fraction < 0.1 ? 1 : 0)}%`;
}
