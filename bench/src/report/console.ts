import type { CaseExtras, CaseSummary } from '../case.js';
import { barLimit, barMeasured, margin, range, ratio, VERDICT, value } from './format.js';

function table(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const row of rows) {
    for (const [i, cell] of row.entries()) widths[i] = Math.max(widths[i] ?? 0, cell.length);
  }
  return rows
    .map((row) => `  ${row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('   ')}`)
    .join('\n');
}

/** The plain-text report printed at the end of a run. */
export function consoleReport(summaries: readonly CaseSummary[], extras: ReadonlyMap<CaseSummary, CaseExtras>): string {
  const out: string[] = [];
  for (const s of summaries) {
    const c = s.case;
    out.push('', `Case ${c.number} · ${c.title}`);
    out.push(
      table([
        ['figure', 'median', 'range over rounds', 'margin'],
        ...Object.entries(c.figures).flatMap(([key, spec]) => {
          const f = s.figures[key];
          return f ? [[spec.label, value(f.median, spec.unit), range(f, spec.unit), margin(f, s.case.deterministic)]] : [];
        }),
      ]),
    );
    out.push(
      table([
        ['ratio (same round)', 'median', 'range over rounds', 'margin'],
        ...Object.entries(c.ratios).flatMap(([key, spec]) => {
          const r = s.ratios[key];
          return r ? [[spec.label, ratio(r.median), range(r), margin(r, s.case.deterministic)]] : [];
        }),
      ]),
    );
    const extra = extras.get(s)?.console;
    if (extra) out.push(extra.replace(/^/gm, '  '));
    for (const b of s.bars) {
      out.push(
        `  bar: ${b.bar.text}${b.bar.reading ? ` (${b.bar.reading})` : ''}`,
        `       ${barMeasured(b)} (needs ${barLimit(b.bar)}, margin ${margin(b.measured, s.case.deterministic)}): ${VERDICT[b.verdict]}`,
      );
    }
    const obstacles = s.bars.some((b) => b.verdict !== 'pass') ? c.obstacles?.(s) : undefined;
    if (obstacles) out.push(`  in the way: ${obstacles.replace(/[`*]/g, '')}`);
  }
  return out.join('\n');
}
