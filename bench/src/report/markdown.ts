import type { CaseExtras, CaseSummary } from '../case.js';
import { describeMachine, type Machine } from '../machine.js';
import { barLimit, barMeasured, barUnit, margin, range, ratio, VERDICT, value } from './format.js';

export interface RunInfo {
  readonly command: string;
  readonly date: string;
  readonly machine: Machine;
  readonly rounds: number;
  readonly quick: boolean;
  readonly revision: string;
  readonly seconds: number;
}

/** docs/BENCHMARKS.md. */
export function markdownReport(summaries: readonly CaseSummary[], extras: ReadonlyMap<CaseSummary, CaseExtras>, info: RunInfo): string {
  const out: string[] = [];
  out.push(
    '# Benchmarks',
    '',
    '<!-- Written by `pnpm bench` (bench/src/report/markdown.ts): regenerate it, do not edit it by hand. -->',
    '',
    'aguikit side by side with `@ag-ui/client@1.0.0`, in the same process, for issue 6. Every comparison is a **ratio measured within one round** (both sides run minutes apart at most, on the same machine); absolute times are shown for context only and do not travel between machines.',
    '',
    `- **Command**: \`${info.command}\` (${info.rounds} rounds${info.quick ? ', quick mode' : ''}; ${Math.round(info.seconds)} s in all)`,
    `- **Date**: ${info.date}`,
    `- **Revision**: ${info.revision}`,
    `- **Machine**: ${describeMachine(info.machine)} — a shared machine, noisy`,
    '',
    "**How to read it.** Times are CPU time of the benchmark process (user + system, all its threads, garbage collection included), not wall time: on a shared machine a process also waits for a core while others run, and wall time would charge that wait to whichever side happened to be running (the measured work never waits on I/O, so on an idle machine the two agree). Each case runs once per round, the rounds one after another. Within a round, the tasks a case compares run interleaved: pass after pass, each runs one iteration (tinybench), after a few warm-up passes, so that a burst of load lands on both sides of a ratio alike; the 25th percentile of a task's iterations is its figure for the round (other processes only ever add cost, even in CPU time, through caches and the memory bus; the 25th percentile rather than the minimum keeps the garbage collections that belong to the work). A figure or ratio below is the median over the rounds, with its range. Its **noise margin** is the largest distance of one round from that median, relative to the median — measured in this run, not assumed. A bar is *met* when the median meets it, *missed within the noise margin* when the median misses it by no more than that margin, and *missed* otherwise; `pnpm bench` exits non-zero only when a bar is missed beyond its margin (CI runs `pnpm bench --quick`). The cases run in Chromium are the exceptions to the clock: they time what they time with the page's wall clock (see there) — case 2 in Chromium and case 5, which counts commits, frames and renders.",
    '',
    '## Bars',
    '',
    '| case | bar (issue 6) | measured (median) | needs | range over rounds | noise margin | verdict |',
    '|---|---|---|---|---|---|---|',
  );
  for (const s of summaries) {
    for (const b of s.bars) {
      out.push(
        `| ${s.case.number} | ${b.bar.text}${b.bar.reading ? ` (${b.bar.reading})` : ''} | ${barMeasured(b)} | ${barLimit(b.bar)} | ${range(b.measured, barUnit(b.bar))} | ${margin(b.measured, s.case.deterministic)} | ${b.verdict === 'fail' ? '**missed**' : VERDICT[b.verdict]} |`,
      );
    }
  }
  out.push('');
  for (const s of summaries) {
    const c = s.case;
    out.push(`## Case ${c.number} · ${c.title}`, '', c.method, '');
    const extra = extras.get(s);
    if (c.number === 1 && extra?.markdown) out.push(extra.markdown, '');
    out.push('| figure | median | range over rounds | noise margin |', '|---|---|---|---|');
    for (const [key, spec] of Object.entries(c.figures)) {
      const f = s.figures[key];
      if (f) out.push(`| ${spec.label} | ${value(f.median, spec.unit)} | ${range(f, spec.unit)} | ${margin(f, s.case.deterministic)} |`);
    }
    out.push('', '| ratio (within a round) | median | range over rounds | noise margin |', '|---|---|---|---|');
    for (const [key, spec] of Object.entries(c.ratios)) {
      const r = s.ratios[key];
      if (r) out.push(`| ${spec.label} | ${ratio(r.median)} | ${range(r)} | ${margin(r, s.case.deterministic)} |`);
    }
    out.push('');
    for (const b of s.bars) {
      out.push(
        `Bar: ${b.bar.text}${b.bar.reading ? ` (${b.bar.reading})` : ''} — measured ${barMeasured(b)}, needs ${barLimit(b.bar)}: **${VERDICT[b.verdict]}**.`,
        '',
      );
    }
    const obstacles = s.bars.some((b) => b.verdict !== 'pass') ? c.obstacles?.(s) : undefined;
    if (obstacles) out.push(`**What stands in the way.** ${obstacles}`, '');
    if (c.number !== 1 && extra?.markdown) out.push(extra.markdown, '');
  }
  out.push(
    '## Reproduce',
    '',
    '```sh',
    'pnpm install',
    'pnpm bench            # every case, 5 rounds, a few minutes; writes this file and docs/bench-per-token.svg',
    "                      # (case 5 runs Debian's Chromium: /usr/bin/chromium, or set CHROMIUM_PATH; no browser is downloaded)",
    'pnpm bench --quick    # fewer iterations, 3 rounds, under a minute; prints only (what CI runs; `pnpm bench -- --quick` works too)',
    'pnpm bench --only per-token,floor --rounds 3   # some cases; add --write to write this file from such a run',
    '```',
    '',
  );
  return out.join('\n');
}
