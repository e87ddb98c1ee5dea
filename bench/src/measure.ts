import { Bench, type FnReturnedObject } from 'tinybench';

/** One thing to time. `run` performs one iteration and returns the milliseconds of the part it measures. */
export interface Timed {
  readonly name: string;
  run(): number | Promise<number>;
  /** Untimed preparation before each iteration (a store reset, a fresh document). */
  before?(): void | Promise<void>;
}

export interface TimingBudget {
  /** Minimum iterations. */
  readonly iterations: number;
  /** Minimum time per task, ms (tinybench keeps iterating until both are met). */
  readonly time: number;
  readonly warmupIterations: number;
}

/**
 * The clock of every timed region: CPU time of this process (user + system,
 * all its threads, garbage collector included), in milliseconds, to the
 * microsecond. On a shared machine, wall time also counts the time the
 * process waits for a core while other processes run; CPU time does not.
 * The measured work never waits on I/O, so on an idle machine the two agree.
 */
export function cpuNow(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/**
 * The quantile of its iterations that stands for a task in a round. On a
 * shared machine other processes only ever add to an iteration's cost (even
 * in CPU time: they evict caches and share the memory bus), so the cheaper
 * iterations are the least disturbed ones; the 25th percentile rather than
 * the minimum keeps the garbage collections that belong to the work (every
 * iteration streams thousands of events and collects several times).
 */
export const ROUND_QUANTILE = 0.25;

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const low = sorted[lo] ?? Number.NaN;
  const high = sorted[Math.ceil(at)] ?? low;
  return low + (high - low) * (at - lo);
}

/**
 * Runs each task with tinybench and returns its milliseconds per iteration
 * (the ROUND_QUANTILE of its iterations). Every iteration reports its own
 * duration (`overriddenDuration`): the timed region is exactly what the task
 * says it measures, setup outside it. No garbage collection is forced
 * between iterations: V8 shrinks the young generation after a full
 * collection, which would make the next iteration pay for extra scavenges.
 */
export async function timeTasks(tasks: readonly Timed[], budget: TimingBudget): Promise<Record<string, number>> {
  const bench = new Bench({
    iterations: budget.iterations,
    time: budget.time,
    warmupIterations: budget.warmupIterations,
    warmupTime: 0,
    throws: true,
    retainSamples: true,
  });
  for (const task of tasks) {
    bench.add(
      task.name,
      async (): Promise<FnReturnedObject> => {
        const ms = await task.run();
        return { overriddenDuration: ms };
      },
      task.before ? { beforeEach: () => task.before?.() } : {},
    );
  }
  await bench.run();
  const out: Record<string, number> = {};
  for (const task of bench.tasks) {
    const result = task.result;
    if (!('latency' in result)) throw new Error(`benchmark task ${task.name} did not complete (${result.state})`);
    out[task.name] = quantile(result.latency.samples ?? [], ROUND_QUANTILE);
  }
  return out;
}
