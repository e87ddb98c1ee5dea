import { createEventPipeline, createThreadState } from '@aguikit/core/engine';
import { Allow, parse } from 'partial-json';
// The policy of `useArgsView`, factored out as a pure function; not a public export of @aguikit/ui (yet).
import { type ArgsView, argsView, EMPTY_ARGS_MEMO } from '../../../packages/ui/src/partialArgs.js';
import type { BenchCase, CaseContext, CaseRound } from '../case.js';
import { argumentsJson, THREAD_ID, toolArgsRun } from '../fixtures.js';
import { cpuNow, timeTasks } from '../measure.js';
import { fmt } from '../stats.js';

const SMALL = 5_000;
const LARGE = 20_000;
const DELTA = 10;
const CALL_ID = 'call-1';

/**
 * Streams the arguments through aguikit's pipeline and shows them after
 * every delta (one render per delta, the most a UI can do): with the policy
 * of `useArgsView`, or re-parsing the whole text each time (the naive way).
 * Returns the ms, the number of parses and the last value shown.
 */
function streamAndShow(events: readonly unknown[], naive: boolean): { ms: number; parses: number; shown: unknown } {
  const start = cpuNow();
  const pipeline = createEventPipeline(createThreadState({ threadId: THREAD_ID }));
  let memo = EMPTY_ARGS_MEMO;
  let parses = 0;
  let shown: unknown;
  for (const event of events) {
    const call = pipeline.push(event).toolCalls.get(CALL_ID);
    if (call === undefined || call.status !== 'args_streaming') continue;
    if (naive) {
      shown = parse(call.argsText, Allow.ALL) as unknown;
      parses++;
    } else {
      const next = argsView(call, memo);
      if (next.memo !== memo) parses++;
      memo = next.memo;
      shown = viewValue(next.view);
    }
  }
  pipeline.end();
  return { ms: cpuNow() - start, parses, shown };
}

function viewValue(view: ArgsView): unknown {
  return view.kind === 'parsed' ? view.value : undefined;
}

export const toolArgsCase: BenchCase = {
  number: 3,
  id: 'tool-args',
  title: 'Tool-call arguments shown partially parsed while they stream',
  method: [
    `A run streams one tool call's JSON arguments in deltas of ${DELTA} characters: about 5 KB (${Math.ceil(SMALL / DELTA)} deltas) and about 20 KB (${Math.ceil(LARGE / DELTA)} deltas). Every delta goes through aguikit's pipeline (validate, expand, verify, reduce) and the call is then shown partially parsed, as if rendered after every delta (one render per delta: the most a UI can ask for).`,
    '**aguikit**: the policy of `useArgsView` (`argsView` in packages/ui/src/partialArgs.ts, the pure function the hook calls): the arguments are re-parsed leniently (partial-json) only when they have grown by a quarter since the last parse. **Naive**, for contrast: the whole text re-parsed leniently after every delta.',
    'Linear growth shows as the same cost per KB at both sizes (4x the total for 4x the size); quadratic growth as 4x the cost per KB (16x the total). `--quick` measures the naive contrast in its first round only.',
  ].join('\n\n'),
  deterministic: false,
  figures: {
    policy5: { label: 'aguikit, 5 KB (total)', unit: 'ms' },
    policy20: { label: 'aguikit, 20 KB (total)', unit: 'ms' },
    naive5: { label: 'naive re-parse, 5 KB (total)', unit: 'ms' },
    naive20: { label: 'naive re-parse, 20 KB (total)', unit: 'ms' },
  },
  ratios: {
    growth: { label: 'aguikit cost per KB, 20 KB / 5 KB (linear: 1, quadratic: 4)' },
    total: { label: 'aguikit total, 20 KB / 5 KB (linear: 4, quadratic: 16)' },
    naiveGrowth: { label: 'naive cost per KB, 20 KB / 5 KB' },
    naiveOverPolicy: { label: 'naive / aguikit at 20 KB' },
  },
  bars: [
    {
      id: 'linear-args',
      text: 'Total cost grows linearly with the argument size, not quadratically: the cost per KB at 20 KB is at most 1.5x the cost per KB at 5 KB',
      on: { ratio: 'growth' },
      op: '<=',
      limit: 1.5,
    },
  ],

  async run(ctx: CaseContext): Promise<CaseRound> {
    const small = argumentsJson(SMALL);
    const large = argumentsJson(LARGE);
    const events = {
      small: toolArgsRun(small, DELTA, { runId: 'run-1', toolCallId: CALL_ID }),
      large: toolArgsRun(large, DELTA, { runId: 'run-1', toolCallId: CALL_ID }),
    };
    // The shown view must be a partial parse of the real arguments, and the policy must parse O(log L) times.
    for (const naive of [false, true]) {
      const { shown: value, parses } = streamAndShow(events.large, naive);
      if (typeof value !== 'object' || value === null || !('items' in value)) throw new Error('the partial view lost the arguments');
      if (!naive && parses > 60) throw new Error(`the policy re-parsed ${parses} times`);
    }
    const budget = ctx.quick ? { passes: 15, warmupPasses: 3 } : { passes: 40, warmupPasses: 5 };
    const naiveBudget = ctx.quick ? { passes: 2, warmupPasses: 1 } : { passes: 4, warmupPasses: 1 };
    const ours = await timeTasks(
      [
        { name: 'policy5', run: () => streamAndShow(events.small, false).ms },
        { name: 'policy20', run: () => streamAndShow(events.large, false).ms },
      ],
      budget,
    );
    // The naive contrast costs seconds: --quick measures it in the first round only.
    const naive =
      ctx.quick && ctx.round > 1
        ? {}
        : await timeTasks(
            [
              { name: 'naive5', run: () => streamAndShow(events.small, true).ms },
              { name: 'naive20', run: () => streamAndShow(events.large, true).ms },
            ],
            naiveBudget,
          );
    const figures: Record<string, number> = { ...ours, ...naive };
    const f = (k: string) => figures[k] ?? Number.NaN;
    const size = large.length / small.length;
    ctx.log(
      `  aguikit ${fmt(f('policy5'))} ms at 5 KB, ${fmt(f('policy20'))} ms at 20 KB; naive ${fmt(f('naive5'))} / ${fmt(f('naive20'))} ms`,
    );
    const ratios: Record<string, number> = { growth: f('policy20') / f('policy5') / size, total: f('policy20') / f('policy5') };
    if ('naive20' in figures) {
      ratios.naiveGrowth = f('naive20') / f('naive5') / size;
      ratios.naiveOverPolicy = f('naive20') / f('policy20');
    }
    return { figures, ratios };
  },
};
