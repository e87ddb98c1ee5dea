/**
 * The page of case 2 in Chromium: the tasks of case 2 (the floor, aguikit's
 * path, the core pipeline; src/cases/floorTasks.ts), timed with the page's
 * `performance.now()`, the page cross-origin isolated so that it reads to
 * 5 µs. The case turns the times into figures.
 *
 * URL parameter: `quick` (1 for the quick budget).
 */
import { floorBudget, floorTasks } from '../src/cases/floorTasks.js';
import { timeTasks } from '../src/measure.js';

/** What the page hands to the case: each task's time in ms (its quantile over the passes), or what went wrong. */
export interface FloorPageOutcome {
  readonly times?: Readonly<Record<string, number>>;
  readonly isolated?: boolean;
  readonly error?: string;
}

declare global {
  interface Window {
    /** Set by the page once every task was timed (or one failed). */
    __aguikitFloor?: FloorPageOutcome;
  }
}

const quick = new URLSearchParams(location.search).get('quick') === '1';
try {
  const times = await timeTasks(await floorTasks(() => performance.now()), floorBudget(quick));
  window.__aguikitFloor = { times, isolated: crossOriginIsolated };
} catch (e) {
  window.__aguikitFloor = { error: e instanceof Error ? (e.stack ?? e.message) : String(e) };
}
