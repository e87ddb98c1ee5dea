import type { BarResult, BenchCase, CaseContext, CaseRound, CaseSummary, Spread } from './case.js';
import { spread, verdict } from './stats.js';

/**
 * Runs every case once per round, round after round (so a burst of noise on
 * a shared machine lands on one round of each case, not on every iteration
 * of one case), then summarizes each figure and ratio over the rounds and
 * checks the bars. A deterministic case runs in the first round only. The
 * cases that load tools run after all rounds of the others (see
 * `BenchCase.loadsTools`), in rounds of their own.
 */
export async function runCases(cases: readonly BenchCase[], base: Omit<CaseContext, 'round'>, rounds: number): Promise<CaseSummary[]> {
  const results = new Map<BenchCase, CaseRound[]>(cases.map((c) => [c, []]));
  await runRounds(
    cases.filter((c) => !c.loadsTools),
    base,
    rounds,
    results,
  );
  await runRounds(
    cases.filter((c) => c.loadsTools),
    base,
    rounds,
    results,
  );
  return cases.map((c) => summarize(c, results.get(c) ?? []));
}

async function runRounds(
  cases: readonly BenchCase[],
  base: Omit<CaseContext, 'round'>,
  rounds: number,
  results: Map<BenchCase, CaseRound[]>,
): Promise<void> {
  if (cases.length === 0) return;
  for (let round = 1; round <= rounds; round++) {
    const ctx: CaseContext = { ...base, round };
    for (const c of cases) {
      if (c.deterministic && round > 1) continue;
      ctx.log(`round ${round}/${rounds} · case ${c.number}: ${c.title}`);
      const started = performance.now();
      const result = await c.run(ctx);
      results.get(c)?.push(result);
      ctx.log(`  (${((performance.now() - started) / 1000).toFixed(1)} s)`);
    }
  }
}

/** Each key over the rounds that measured it (a case may measure a reference figure in some rounds only). */
function over(rounds: readonly CaseRound[], pick: (r: CaseRound) => Readonly<Record<string, number>>): Record<string, Spread> {
  const keys = new Set(rounds.flatMap((r) => Object.keys(pick(r))));
  const out: Record<string, Spread> = {};
  for (const key of keys) out[key] = spread(rounds.flatMap((r) => (key in pick(r) ? [pick(r)[key] ?? Number.NaN] : [])));
  return out;
}

export function summarize(c: BenchCase, rounds: readonly CaseRound[]): CaseSummary {
  const figures = over(rounds, (r) => r.figures);
  const ratios = over(rounds, (r) => r.ratios);
  const bars: BarResult[] = c.bars.map((bar) => {
    const measured = 'ratio' in bar.on ? ratios[bar.on.ratio] : figures[bar.on.figure];
    if (!measured) throw new Error(`bar ${bar.id} names nothing case ${c.number} measured`);
    return { bar, measured, verdict: verdict(bar, measured) };
  });
  return { case: c, rounds, figures, ratios, bars };
}
