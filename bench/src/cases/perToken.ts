import type { BenchCase, CaseContext, CaseRound, CaseSummary } from '../case.js';
import { type StoreDriver, storeDriver } from '../drivers/aguikit.js';
import { officialDriver } from '../drivers/official.js';
import { history, textRun } from '../fixtures.js';
import { type Timed, timeTasks } from '../measure.js';
import { logLogChart } from '../report/chart.js';
import { fmt } from '../stats.js';

const LENGTHS = [100, 1_000, 10_000] as const;
const DELTAS = 2_000;
const MESSAGE_ID = 'streamed';

/**
 * The official reducer's cost per token is the same for every token of a run
 * (it clones the whole history each time), so at long histories it is timed
 * on the first deltas only: 2,000 of them would take minutes at 10,000
 * messages. aguikit always streams all 2,000.
 */
function officialDeltas(length: number, quick: boolean): number {
  if (length <= 100) return DELTAS;
  if (length <= 1_000) return quick ? 100 : DELTAS;
  return quick ? 10 : 200;
}

/** aguikit's thread goes back to its history every this many runs (it grows by two messages a run). */
const RESET_EVERY = 10;

/** The official side runs on every n-th pass: about five samples a round. */
const OFFICIAL_EVERY = (quick: boolean) => (quick ? 3 : 6);

const key = (side: 'aguikit' | 'aguikitRun' | 'official', length: number) => `${side}@${length}`;

export const perTokenCase: BenchCase = {
  number: 1,
  id: 'per-token',
  title: 'Per-token apply cost against history length',
  method: [
    `A thread already holding 100, 1,000 or 10,000 messages (user and assistant in turn, 300 characters each) receives one run streaming ${DELTAS.toLocaleString('en-US')} \`TEXT_MESSAGE_CONTENT\` deltas (about four characters each) into a new assistant message. Each iteration is one more run on the same thread, as in a live chat: aguikit's thread grows by two messages a run and goes back to its history every ${RESET_EVERY} runs (followed by one untimed run, so that the history sits in the old generation of the heap as a live chat's does); the official agent's history stays as it was.`,
    "**aguikit**: the full client path an application runs — `createAgentStore` over an `AgentSource` that hands over the events asynchronously, each event validated, expanded, verified, reduced and set into the zustand store, with one subscriber selecting the streamed message as `useMessage(id)` does. The store flushes on a microtask instead of an animation frame: one store update per event, the upper bound (a browser batches a frame of events into one update). Timed from the first delta to the last one applied (marks taken by the source as it hands events over). For reference, the whole run per delta: from `RUN_STARTED` to the run settled, which adds the run's own events (the run input, which copies the history for the agent, is built before and not counted).",
    `**@ag-ui/client**: \`defaultApplyEvents\` on the same events (an agent holding the same history, the events as an rxjs Observable, its mutations collected); the reducer alone — no validation, no verification. Timed from the mutation the \`TEXT_MESSAGE_START\` emits to the one the last delta emits. Its cost per token is the same for every token (it clones the whole history each time), so at 1,000 and 10,000 messages it is timed on the first ${officialDeltas(1_000, false).toLocaleString('en-US')} and ${officialDeltas(10_000, false)} deltas (${officialDeltas(1_000, true)} and ${officialDeltas(10_000, true)} in \`--quick\`).`,
    'Cost per token = CPU time of the span / deltas. Both sides at every length are timed interleaved, pass after pass (the official side on every third pass in `--quick`, every sixth otherwise), so that a ratio compares figures measured side by side in time.',
  ].join('\n\n'),
  deterministic: false,
  figures: Object.fromEntries(
    LENGTHS.flatMap((n) => [
      [key('aguikit', n), { label: `aguikit, ${n.toLocaleString('en-US')} messages`, unit: 'µs/token' }],
      [key('official', n), { label: `@ag-ui/client, ${n.toLocaleString('en-US')} messages`, unit: 'µs/token' }],
      [
        key('aguikitRun', n),
        { label: `aguikit, whole run per delta, ${n.toLocaleString('en-US')} messages (reference)`, unit: 'µs/token' },
      ],
    ]),
  ),
  ratios: {
    ...Object.fromEntries(
      LENGTHS.map((n) => [`speedup@${n}`, { label: `@ag-ui/client / aguikit per token, ${n.toLocaleString('en-US')} messages` }]),
    ),
    growth: { label: 'aguikit per token, 10,000 / 100 messages' },
    runGrowth: { label: 'aguikit whole run per delta, 10,000 / 100 messages (reference)' },
    officialGrowth: { label: '@ag-ui/client per token, 10,000 / 100 messages' },
  },
  bars: [
    {
      id: 'speedup-1000',
      text: 'At 1,000 messages aguikit is at least 100x faster per token',
      on: { ratio: 'speedup@1000' },
      op: '>=',
      limit: 100,
    },
    {
      id: 'flat-growth',
      text: "aguikit's cost per token at 10,000 messages is at most 1.5x its cost at 100",
      on: { ratio: 'growth' },
      op: '<=',
      limit: 1.5,
    },
  ],

  async run(ctx: CaseContext): Promise<CaseRound> {
    const tasks: Timed[] = [];
    const stores: { length: number; store: StoreDriver }[] = [];
    // Events: RUN_STARTED, TEXT_MESSAGE_START, the deltas, END, RUN_FINISHED. Marks enclose the deltas (see StoreDriver.prepare).
    const marks = { from: 3, to: DELTAS + 3 };
    for (const length of LENGTHS) {
      const past = history(length);
      const ours = storeDriver(past);
      const theirs = officialDriver(past);
      const theirDeltas = officialDeltas(length, ctx.quick);
      let run = 0;
      const next = (fresh: boolean) => {
        run++;
        ours.prepare(textRun(DELTAS, { runId: `run-${run}`, messageId: `${MESSAGE_ID}-${run}` }), `${MESSAGE_ID}-${run}`, fresh, marks);
      };
      const prepare = async () => {
        // Every RESET_EVERY runs the thread goes back to its history, and one untimed run ages the rebuilt records
        // into the old generation, as a live chat's history is: the thread holds length .. length + 2 * RESET_EVERY messages.
        if (run % RESET_EVERY === RESET_EVERY - 1) {
          next(true);
          await ours.stream();
        }
        next(false);
      };
      const theirEvents = textRun(theirDeltas, { runId: 'run-1', messageId: MESSAGE_ID });
      // The official reducer emits one mutation for the START and one per delta: from the START's to the last delta's.
      const theirMarks = { from: 1, to: theirDeltas + 1 };

      // Correctness first: both sides must end with the whole text, aguikit without a diagnostic and one store update per delta.
      next(false);
      await ours.stream();
      const thread = ours.store.getState().thread;
      const streamed = thread.messages.byId.get(`${MESSAGE_ID}-${run}`);
      if (thread.diagnostics.length || thread.messages.ids.length !== length + 2 || typeof streamed?.content !== 'string') {
        throw new Error(`aguikit did not stream cleanly at ${length}: ${JSON.stringify(thread.diagnostics.slice(0, 3))}`);
      }
      if (ours.selectedChanges < DELTAS) throw new Error(`the store updated ${ours.selectedChanges} times for ${DELTAS} deltas`);
      const check = await theirs.apply(theirEvents, theirMarks);
      if (check.messages.length !== length + 1 || check.mutations !== theirDeltas + 1) {
        throw new Error(`@ag-ui/client ended with ${check.messages.length} messages after ${check.mutations} mutations at ${length}`);
      }

      stores.push({ length, store: ours });
      // Per delta: the span holds the deltas; the whole run adds four events.
      tasks.push(
        { name: key('aguikit', length), before: prepare, run: async () => ((await ours.stream()).span * 1000) / DELTAS },
        { name: key('aguikitRun', length), before: prepare, run: async () => ((await ours.stream()).run * 1000) / DELTAS },
        // Each official iteration clones the whole history per delta: a few passes do.
        {
          name: key('official', length),
          every: OFFICIAL_EVERY(ctx.quick),
          run: async () => ((await theirs.apply(theirEvents, theirMarks)).span * 1000) / theirDeltas,
        },
      );
    }
    // Every length and both sides interleaved, pass by pass: the ratios compare figures measured side by side in time.
    const figures = await timeTasks(tasks, ctx.quick ? { passes: 10, warmupPasses: 3 } : { passes: 30, warmupPasses: 5 });
    for (const { length, store } of stores) {
      const after = store.store.getState().thread;
      if (after.diagnostics.length) throw new Error(`aguikit reported ${after.diagnostics[0]?.code} while timed at ${length}`);
    }
    const f = (k: string) => figures[k] ?? Number.NaN;
    for (const n of LENGTHS) {
      ctx.log(
        `  ${n} messages: aguikit ${fmt(f(key('aguikit', n)))} µs/token (whole run ${fmt(f(key('aguikitRun', n)))}), @ag-ui/client ${fmt(f(key('official', n)))} µs/token`,
      );
    }
    const ratios: Record<string, number> = {
      growth: f(key('aguikit', 10_000)) / f(key('aguikit', 100)),
      runGrowth: f(key('aguikitRun', 10_000)) / f(key('aguikitRun', 100)),
      officialGrowth: f(key('official', 10_000)) / f(key('official', 100)),
    };
    for (const n of LENGTHS) ratios[`speedup@${n}`] = f(key('official', n)) / f(key('aguikit', n));
    return { figures, ratios };
  },

  extras(summary: CaseSummary) {
    const series = (side: 'aguikit' | 'aguikitRun' | 'official') =>
      LENGTHS.map((n) => {
        const s = summary.figures[key(side, n)];
        return { x: n, y: s?.median ?? Number.NaN, low: s?.min ?? Number.NaN, high: s?.max ?? Number.NaN };
      });
    const svg = logLogChart({
      title: 'Cost per streamed token against thread length',
      subtitle: 'CPU time per TEXT_MESSAGE_CONTENT delta, median of the rounds (bars: range over the rounds); log scales',
      xLabel: 'messages already in the thread',
      yLabel: 'µs per token',
      series: [
        { name: 'aguikit (validate, expand, verify, reduce, store update)', color: '#1f6feb', points: series('aguikit') },
        { name: '@ag-ui/client defaultApplyEvents (reducer only)', color: '#d1242f', points: series('official') },
        { name: 'aguikit, whole run per delta (adds the run’s own events)', color: '#1f6feb', dashed: true, points: series('aguikitRun') },
      ],
    });
    return {
      markdown: '![Cost per token against thread length, aguikit and @ag-ui/client, log scales](bench-per-token.svg)',
      files: [{ name: 'bench-per-token.svg', content: svg }],
    };
  },
};
