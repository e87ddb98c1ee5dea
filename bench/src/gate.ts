import type { BarResult, CaseSummary } from './case.js';
import { openReason } from './openBars.js';

export interface GatedBar extends BarResult {
  /** The case the bar belongs to. */
  readonly number: number;
  /** Why the bar is known to be open (openBars.ts), if it is. */
  readonly openReason?: string;
}

export interface Gate {
  readonly bars: readonly GatedBar[];
  /** Missed within the noise margin: reported, never a failure. */
  readonly noisy: readonly GatedBar[];
  /** Missed beyond the noise margin. */
  readonly missed: readonly GatedBar[];
  /** Missed beyond the noise margin and not known to be open: what fails the run. */
  readonly regressions: readonly GatedBar[];
}

/**
 * What `pnpm bench` (and so CI) concludes from the bars: a bar missed beyond
 * the noise margin its run measured fails the run, unless it is listed as
 * known open with what stands in the way.
 */
export function gate(summaries: readonly CaseSummary[], open: (caseNumber: number, text: string) => string | undefined = openReason): Gate {
  const bars: GatedBar[] = summaries.flatMap((s) =>
    s.bars.map((b) => {
      const reason = open(s.case.number, b.bar.text);
      return { number: s.case.number, ...b, ...(reason !== undefined ? { openReason: reason } : {}) };
    }),
  );
  const missed = bars.filter((b) => b.verdict === 'fail');
  return {
    bars,
    noisy: bars.filter((b) => b.verdict === 'within-noise'),
    missed,
    regressions: missed.filter((b) => b.openReason === undefined),
  };
}
