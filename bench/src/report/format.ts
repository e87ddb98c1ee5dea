import type { Bar, BarResult, Spread, Verdict } from '../case.js';
import { fmt, pct } from '../stats.js';

export function value(v: number, unit: string): string {
  if (unit === 'B') return `${fmt(v / 1000)} KB`;
  return `${fmt(v)} ${unit}`;
}

export function range(s: Spread, unit = ''): string {
  if (s.values.length < 2) return '—';
  const u = unit === 'B' ? ' KB' : '';
  const scale = unit === 'B' ? 1000 : 1;
  return `${fmt(s.min / scale)}–${fmt(s.max / scale)}${u}`;
}

export function margin(s: Spread): string {
  return s.values.length < 2 ? 'exact' : pct(s.margin);
}

export function ratio(v: number): string {
  return `${fmt(v)}x`;
}

export function barLimit(bar: Bar): string {
  const on = 'figure' in bar.on ? value(bar.limit, 'B') : `${fmt(bar.limit)}`;
  return `${bar.op === '<=' ? '≤' : '≥'} ${on}`;
}

export function barMeasured(result: BarResult): string {
  return 'figure' in result.bar.on ? value(result.measured.median, 'B') : fmt(result.measured.median);
}

export const VERDICT: Record<Verdict, string> = {
  pass: 'met',
  'within-noise': 'missed within the noise margin',
  fail: 'MISSED',
};
