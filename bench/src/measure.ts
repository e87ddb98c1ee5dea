import { Bench, type FnReturnedObject } from 'tinybench';

/** One thing to time. `run` performs one iteration and returns the milliseconds of the part it measures. */
export interface Timed {
  readonly name: string;
  run(): number | Promise<number>;
  /** Untimed preparation before each iteration. */
  before?(): void | Promise<void>;
  /** Run on every n-th pass only (a task much slower than the others it is compared with); every pass by default. */
  readonly every?: number;
}

export interface TimingBudget {
  /** Measured passes; in each, every task due runs once. */
  readonly passes: number;
  /** Passes run first and discarded (JIT warm-up); `every` applies to them too. */
  readonly warmupPasses: number;
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
 * Times tasks that are compared with one another, interleaved: pass after
 * pass, each task due runs one iteration (tinybench, one iteration per task
 * per pass, the order rotating from pass to pass), so a burst of load from
 * other processes lands on the tasks of a pass alike instead of on every
 * iteration of one task. Returns each task's ROUND_QUANTILE of its
 * iterations, in ms. Every iteration reports its own duration
 * (`overriddenDuration`): the timed region is exactly what the task says it
 * measures, setup outside it. No garbage collection is forced: V8 shrinks
 * the young generation after a full collection, which would make the next
 * iteration pay for extra scavenges.
 */
export async function timeTasks(tasks: readonly Timed[], budget: TimingBudget): Promise<Record<string, number>> {
  const samples = new Map<string, number[]>(tasks.map((t) => [t.name, []]));
  for (let pass = -budget.warmupPasses; pass < budget.passes; pass++) {
    // Warm-up passes count from their own start, so a task run every n-th pass is warmed up too.
    const index = pass < 0 ? pass + budget.warmupPasses : pass;
    const due = tasks.filter((t) => index % (t.every ?? 1) === 0);
    const shift = ((pass % due.length) + due.length) % due.length;
    const order = [...due.slice(shift), ...due.slice(0, shift)];
    const bench = new Bench({ iterations: 1, time: 0, warmup: false, throws: true, retainSamples: true });
    for (const task of order) {
      bench.add(
        task.name,
        async (): Promise<FnReturnedObject> => ({ overriddenDuration: await task.run() }),
        task.before ? { beforeEach: () => task.before?.() } : {},
      );
    }
    await bench.run();
    if (pass < 0) continue;
    for (const task of bench.tasks) {
      const result = task.result;
      if (!('latency' in result)) throw new Error(`benchmark task ${task.name} did not complete (${result.state})`);
      samples.get(task.name)?.push(...(result.latency.samples ?? []));
    }
  }
  const out: Record<string, number> = {};
  for (const [name, values] of samples)
    out[name] = quantile(
      [...values].sort((a, b) => a - b),
      ROUND_QUANTILE,
    );
  return out;
}
