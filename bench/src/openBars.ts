/**
 * Bars of issue 6 that aguikit does not meet yet, each with what stands in
 * the way, keyed `case:bar text`. A miss of one of these is reported but does
 * not fail the run; a miss of any other bar (a regression) does. Add an entry
 * only with the measured figure and its obstacle; remove it once the bar is met.
 */
export const OPEN_BARS: ReadonlyMap<string, string> = new Map();

export const openReason = (caseNumber: number, text: string): string | undefined => OPEN_BARS.get(`${caseNumber}:${text}`);
