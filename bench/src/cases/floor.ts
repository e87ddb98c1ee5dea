import type { BenchCase, CaseContext, CaseRound, CaseSummary } from '../case.js';
import { cpuNow, timeTasks } from '../measure.js';
import { fmt } from '../stats.js';
import { COALESCED, DELTAS, FLOOR_FIGURES, FLOOR_RATIOS, floorBar, floorBudget, floorRound, floorTasks } from './floorTasks.js';

export const floorCase: BenchCase = {
  number: 2,
  id: 'floor',
  title: 'The floor: SSE bytes to state',
  method: [
    `One run streaming ${DELTAS.toLocaleString('en-US')} \`TEXT_MESSAGE_CONTENT\` deltas into an empty thread, as SSE bytes (\`data: <json>\` frames) in the body of a \`Response\`, one network chunk per frame (a server flushing each token); the same bytes regrouped in ${COALESCED / 1024} KiB chunks are measured too. The network's side (the response, its chunks already queued) is built before each timed span, for every task alike.`,
    "**Floor**: the least a consumer of the stream must do: read the body chunk by chunk through its reader, decode each chunk (TextDecoder; a chunk that ends in an ASCII byte without the streaming mode, as aguikit's transport does), cut the frames, `JSON.parse` each, append each delta to a string found by id in a Map. For reference, the same work over the chunks held in memory, with no body to read: no consumer of a network stream can do only this, and what the rest of the path costs is shown against it too.",
    "**aguikit**: the whole pipeline from bytes to store — `createAgentStore` over `httpSseSource` whose `fetch` returns the response: body reader, UTF-8 decoding, eventsource-parser, JSON.parse, validate, expand, verify, reduce, one store update per event (microtask scheduler: the upper bound) and one subscriber selecting the message. Timed from `run()` to the run settled; the bar is checked on this. For reference: the same with the store's default scheduler (in Node a macrotask: with every byte already there, the whole stream lands in one batch — the lower bound; in a browser the scheduler waits for an animation frame, but a run whose bytes are all there never yields to one either: every read resolves on a microtask, and the terminal event flushes the whole stream at once), and the core pipeline alone (validate -> reduce on events already parsed, no transport, no store).",
  ].join('\n\n'),
  deterministic: false,
  figures: FLOOR_FIGURES,
  ratios: FLOOR_RATIOS,
  bars: [
    floorBar(
      'in Node; the floor reads the response body, as any consumer of the stream must; case 2 gives the ratio to the same work on chunks in memory too',
    ),
  ],

  obstacles(summary: CaseSummary) {
    const r = (key: string) => fmt(summary.ratios[key]?.median ?? Number.NaN);
    return [
      `The core pipeline alone (validate, expand, verify, reduce on events already parsed; no transport, no store) costs ${r('pipelineOverFloor')}x the floor by itself.`,
      `With a store updated once for the whole stream the path is at ${r('overFloorBatched')}x; one store update per event, as measured for the bar, brings it to ${r('overFloor')}x, and with ${COALESCED / 1024} KiB chunks it is at ${r('overFloorCoalesced')}x.`,
      'What one update per event adds is a flush scheduled per event, the store update and its subscriber, and the pipeline run one event at a time between network reads instead of in one loop.',
    ].join(' ');
  },

  extras(summary: CaseSummary) {
    const r = (key: string) => {
      const ratio = summary.ratios[key];
      return ratio ? `${fmt(ratio.median)}x (${fmt(ratio.min)}–${fmt(ratio.max)} over the rounds)` : 'not measured';
    };
    return {
      markdown: `**Why the floor reads the body.** The issue's floor is the least any consumer must do. aguikit's path starts from a \`Response\`, as every client of an agent does, and reading its body is a step no consumer of the stream can skip; the floor takes every step a consumer must take (reading and decoding as aguikit's transport does, cutting the frames in the cheapest way, for frames of one \`data:\` line), so that the ratio says what aguikit adds. Against the same work on chunks held in memory, which no consumer of a response can do, the path is at ${r('overFloorInMemory')}: the floor that reads the body costs ${r('bodyRead')} the in-memory one here (case 2 in Chromium gives the same ratios in a browser).`,
    };
  },

  async run(ctx: CaseContext): Promise<CaseRound> {
    const round = floorRound(await timeTasks(await floorTasks(cpuNow), floorBudget(ctx.quick)));
    const f = (k: string) => fmt(round.figures[k] ?? Number.NaN);
    ctx.log(`  floor ${f('floor')} µs/token (${f('floorInMemory')} in memory), aguikit ${f('aguikit')} µs/token`);
    return round;
  },
};
