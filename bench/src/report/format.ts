import type { Bar, BarResult, Spread, Verdict } from '../case.js';
import { fmt, pct } from '../stats.js';

export function value(v: number, unit: string): string {
  if (unit === 'B') return `${fmt(v / 1000)} KB`;
  return unit ? `${fmt(v)} ${unit}` : fmt(v);
}

/** The unit a bar's measure is shown in: its own, bytes for a figure without one, none for a ratio. */
export function barUnit(bar: Bar): string {
  return 'figure' in bar.on ? (bar.unit ?? 'B') : '';
}

export function range(s: Spread, unit = ''): string {
  if (s.values.length < 2) return '—';
  const u = unit === 'B' ? ' KB' : '';
  const scale = unit === 'B' ? 1000 : 1;
  return `${fmt(s.min / scale)}–${fmt(s.max / scale)}${u}`;
}

/** The noise margin, or why there is none: a deterministic case's figure is exact, another's from one round has no spread. */
export function margin(s: Spread, deterministic: boolean): string {
  if (s.values.length >= 2) return pct(s.margin);
  return deterministic ? 'exact' : 'one round';
}

export function ratio(v: number): string {
  return `${fmt(v)}x`;
}

export function barLimit(bar: Bar): string {
  return `${bar.op === '<=' ? '≤' : '≥'} ${value(bar.limit, barUnit(bar))}`;
}

export function barMeasured(result: BarResult): string {
  return value(result.measured.median, barUnit(result.bar));
}

export const VERDICT: Record<Verdict, string> = {
  pass: 'met',
  'within-noise': 'missed within the noise margin',
  fail: 'MISSED',
};
