/**
 * What a benchmark case is to the runner. The runner takes a list of these
 * (`cases/index.ts`), runs every case once per round, round after round, and
 * from the rounds derives each figure's median and spread; a bar is checked
 * against the median with the spread measured in the same run as its noise
 * margin. A new case is one more module of this shape added to the list.
 */

export interface CaseContext {
  /** `--quick`: fewer iterations and rounds, for CI. */
  readonly quick: boolean;
  /** The round being run, from 1. */
  readonly round: number;
  /** The bench/ folder (absolute, ends with a slash). */
  readonly benchDir: string;
  /** The repository root (absolute, ends with a slash). */
  readonly rootDir: string;
  /** Progress output (stderr). */
  log(message: string): void;
}

/** A measured quantity. */
export interface FigureSpec {
  readonly label: string;
  /** 'µs' per operation, 'ms', 'B' (bytes) ... */
  readonly unit: string;
}

/** A ratio measured within one round (both sides in the same process, minutes apart at most). */
export interface RatioSpec {
  readonly label: string;
}

/** A bar from the issue: `ratio op limit`, e.g. `official/aguikit at 1,000 messages >= 100`. */
export interface Bar {
  readonly id: string;
  /** The bar as the issue states it. */
  readonly text: string;
  /** The key of the ratio (or, for absolute bars such as bundle size, the figure) it is checked on. */
  readonly on: { readonly ratio: string } | { readonly figure: string };
  readonly op: '<=' | '>=';
  readonly limit: number;
  /** The unit of the figure a bar is checked on, as in its `FigureSpec` ('ms', 'commits' ...); bytes when left out. */
  readonly unit?: string;
  /** How the bar's words are read where the issue leaves a choice (markdown): shown with the bar wherever it is. */
  readonly reading?: string;
}

/** Everything a case measured in one round. */
export interface CaseRound {
  readonly figures: Readonly<Record<string, number>>;
  readonly ratios: Readonly<Record<string, number>>;
}

export interface BenchCase {
  /** The case's number in issue 6. */
  readonly number: number;
  readonly id: string;
  readonly title: string;
  /** What exactly is measured, for the report (markdown). */
  readonly method: string;
  /** A deterministic case (bundle size) runs once: its spread is zero by construction. */
  readonly deterministic: boolean;
  /**
   * The case loads tools that run much of Node's own JavaScript (web streams,
   * HTTP, promises) with shapes of their own: Vite and Playwright. Code of
   * Node's that the other cases time then runs slower for the rest of the
   * process, so such a case runs after every round of the others.
   */
  readonly loadsTools?: boolean;
  readonly figures: Readonly<Record<string, FigureSpec>>;
  readonly ratios: Readonly<Record<string, RatioSpec>>;
  readonly bars: readonly Bar[];
  /** One round. */
  run(ctx: CaseContext): Promise<CaseRound>;
  /**
   * What stands in the way of a bar the run missed, from the figures the run
   * measured (markdown); shown under the bar.
   */
  obstacles?(summary: CaseSummary): string | undefined;
  /** Extra report content once every round ran: markdown, console text, files to write next to the report. */
  extras?(summary: CaseSummary): CaseExtras;
}

export interface CaseExtras {
  readonly markdown?: string;
  readonly console?: string;
  /** Files written with the report (full runs), relative to docs/. */
  readonly files?: readonly { readonly name: string; readonly content: string }[];
}

/** A figure or ratio over the rounds. */
export interface Spread {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  readonly values: readonly number[];
  /** The noise margin: the largest relative distance of a round from the median. */
  readonly margin: number;
}

export type Verdict = 'pass' | 'within-noise' | 'fail';

export interface BarResult {
  readonly bar: Bar;
  readonly measured: Spread;
  readonly verdict: Verdict;
}

export interface CaseSummary {
  readonly case: BenchCase;
  readonly rounds: readonly CaseRound[];
  readonly figures: Readonly<Record<string, Spread>>;
  readonly ratios: Readonly<Record<string, Spread>>;
  readonly bars: readonly BarResult[];
}
