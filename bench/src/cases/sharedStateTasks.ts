/**
 * The parts of case 4 (shared state) that are logic rather than timing: the
 * first delta after a fresh snapshot as a task, and how a round's times
 * become its figures and ratios. Tested in bench/test/sharedState.test.ts.
 */
import { type EventPipeline, isLargeObject } from '@aguikit/core';
import { createEventPipeline, createThreadState } from '@aguikit/core/engine';
import { LARGE_OBJECT_KEYS } from '@aguikit/core/internal';
import type { CaseRound } from '../case.js';
import { flatDocument, THREAD_ID } from '../fixtures.js';
import type { Timed, TimingBudget } from '../measure.js';

export const PATH = '/k50';

export function delta(i: number, path = PATH): Record<string, unknown> {
  return { type: 'STATE_DELTA', delta: [{ op: 'replace', path, value: { n: i, label: `changed ${i}` } }] };
}

/** A pipeline inside a run over `document`, ready for STATE_DELTA events. */
export function openRun(document?: Record<string, unknown>): EventPipeline {
  const pipeline = createEventPipeline(createThreadState({ threadId: THREAD_ID, ...(document ? { state: document } : {}) }));
  pipeline.push({ type: 'RUN_STARTED', threadId: THREAD_ID, runId: 'run-1' });
  return pipeline;
}

/** A task timing one delta right after a fresh snapshot, with the times it measured (warm-up iterations left out). */
export interface AfterSnapshotTask extends Timed {
  /** The delta of each measured iteration, ms. */
  deltas(): number[];
  /** The STATE_SNAPSHOT before it (outside the timed span), ms. */
  snapshots(): number[];
}

/**
 * One STATE_DELTA right after a STATE_SNAPSHOT of `keys` keys: before each
 * iteration (untimed, on `clock` all the same, for reference) a new pipeline
 * inside a run receives a snapshot of a document made for it; the iteration
 * times the one delta that follows. Nothing is loaded or converted ahead.
 * `into: 'snapshot'` writes into the document the snapshot brought (its
 * first delta); `into: 'other'`, for comparison, into a 100-key document of a
 * pipeline of its own that has taken deltas all along (what any delta costs
 * right after a large snapshot). Runs on every `every`-th pass of `budget`;
 * the iterations of its warm-up passes are left out of what it reports.
 */
export function afterSnapshotTask(
  name: string,
  into: 'snapshot' | 'other',
  keys: number,
  budget: TimingBudget,
  every: number,
  clock: () => number,
): AfterSnapshotTask {
  const warmups = Math.ceil(budget.warmupPasses / every);
  const deltas: number[] = [];
  const snapshots: number[] = [];
  const other = openRun(flatDocument(100));
  let pipeline: EventPipeline | undefined;
  let n = 0;
  return {
    name,
    every,
    before() {
      pipeline = openRun();
      const snapshot = { type: 'STATE_SNAPSHOT', snapshot: flatDocument(keys) };
      const start = clock();
      pipeline.push(snapshot);
      snapshots.push(clock() - start);
    },
    run() {
      if (!pipeline) throw new Error(`${name} ran without its snapshot`);
      const i = ++n;
      const target = into === 'snapshot' ? pipeline : other;
      const event = delta(i);
      const start = clock();
      const state = target.push(event);
      const ms = clock() - start;
      pipeline = undefined;
      const doc = state.sharedState.document as Record<string, { n: number }>;
      const large = into === 'snapshot' && keys > LARGE_OBJECT_KEYS;
      if (doc.k50?.n !== i || state.sharedState.sync !== 'in-sync' || state.diagnostics.length || isLargeObject(doc) !== large) {
        throw new Error(`${name}: aguikit did not apply the delta after a ${keys}-key snapshot`);
      }
      deltas.push(ms);
      return ms;
    },
    deltas: () => deltas.slice(warmups),
    snapshots: () => snapshots.slice(warmups),
  };
}

/** The ROUND_QUANTILE of measure.ts, for the samples a task keeps itself. */
function quarter(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const at = (sorted.length - 1) * 0.25;
  const low = sorted[Math.floor(at)] ?? Number.NaN;
  return low + ((sorted[Math.ceil(at)] ?? low) - low) * (at - Math.floor(at));
}

/**
 * A round's figures (µs per delta; the longest first delta and the
 * snapshot in ms) and ratios, from the times in ms of the interleaved tasks,
 * of the reference tasks when measured, and of the two after-snapshot tasks.
 */
export function sharedStateRound(
  times: Readonly<Record<string, number>>,
  first: { readonly deltas: readonly number[]; readonly snapshots: readonly number[] },
  after: { readonly deltas: readonly number[] },
): CaseRound {
  const figures: Record<string, number> = {};
  for (const [name, ms] of Object.entries(times)) figures[name] = ms * 1000;
  figures.first100000 = quarter(first.deltas) * 1000;
  figures.firstMax = Math.max(...first.deltas);
  figures.after100000 = quarter(after.deltas) * 1000;
  figures.snapshot100000 = quarter(first.snapshots);
  const f = (k: string) => figures[k] ?? Number.NaN;
  const ratios: Record<string, number> = {
    growth: f('aguikit100000') / f('aguikit100'),
    firstGrowth: f('first100000') / f('aguikit100'),
    firstOverAfter: f('first100000') / f('after100000'),
    nestedGrowth: f('nested100000') / f('aguikit100'),
  };
  if ('spread100000' in figures) {
    ratios.spreadOverSmall = f('spread100000') / f('aguikit100');
    ratios.officialGrowth = f('official100000') / f('official100');
    ratios.officialOverAguikit = f('official100000') / f('aguikit100000');
  }
  return { figures, ratios };
}
