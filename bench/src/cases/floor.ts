import { createEventPipeline, createThreadState, httpSseSource } from '@aguikit/core';
import { frameScheduler } from '@aguikit/react';
import type { BenchCase, CaseContext, CaseRound, CaseSummary } from '../case.js';
import { storeDriver } from '../drivers/aguikit.js';
import { rechunk, sseFrames, THREAD_ID, textRun } from '../fixtures.js';
import { cpuNow, timeTasks } from '../measure.js';
import { fmt } from '../stats.js';

const DELTAS = 2_000;
const MESSAGE_ID = 'streamed';
const COALESCED = 16 * 1024;

/**
 * The least any consumer must do with the bytes: decode them, cut the SSE
 * frames, JSON.parse each, and append each delta to a string found by id.
 * No validation, no state beyond the strings, no store. The bytes are decoded
 * as aguikit's transport decodes them (a chunk ending in ASCII on its own,
 * any other through the streaming decoder), so that a step both sides must
 * take costs both the same and the ratio is what aguikit adds.
 */
function floor(chunks: readonly Uint8Array[]): Map<string, string> {
  const consumer = floorConsumer();
  for (const chunk of chunks) consumer.feed(chunk);
  return consumer.texts;
}

/** The floor's work, one network chunk at a time. */
function floorConsumer(): { feed(chunk: Uint8Array): void; readonly texts: Map<string, string> } {
  const decoder = new TextDecoder('utf-8', BOM_AS_TEXT);
  const whole = new TextDecoder('utf-8', BOM_AS_TEXT);
  let carrying = false;
  const texts = new Map<string, string>();
  let buffer = '';
  return {
    texts,
    feed(chunk) {
      const last = chunk[chunk.length - 1] ?? 0;
      if (!carrying && last < 0x80) buffer += whole.decode(chunk);
      else {
        carrying = last >= 0x80;
        buffer += decoder.decode(chunk, STREAM);
      }
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = JSON.parse(frame.slice(frame.indexOf(':') + 1)) as { type?: string; messageId?: string; delta?: string };
        if (event.type === 'TEXT_MESSAGE_CONTENT' && event.messageId !== undefined) {
          texts.set(event.messageId, (texts.get(event.messageId) ?? '') + (event.delta ?? ''));
        }
      }
    },
  };
}

const STREAM: TextDecodeOptions = { stream: true };
const BOM_AS_TEXT: TextDecoderOptions = { ignoreBOM: true };

function body(chunks: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

/** The floor again, reading the bytes the way a fetch consumer must: through the body's ReadableStream, each chunk as it is read. */
async function floorFromStream(stream: ReadableStream<Uint8Array>): Promise<Map<string, string>> {
  const reader = stream.getReader();
  const consumer = floorConsumer();
  for (let r = await reader.read(); !r.done; r = await reader.read()) consumer.feed(r.value);
  return consumer.texts;
}

function sseResponse(chunks: readonly Uint8Array[]): Response {
  return new Response(body(chunks), { headers: { 'content-type': 'text/event-stream' } });
}

export const floorCase: BenchCase = {
  number: 2,
  id: 'floor',
  title: 'The floor: SSE bytes to state',
  method: [
    `One run streaming ${DELTAS.toLocaleString('en-US')} \`TEXT_MESSAGE_CONTENT\` deltas into an empty thread, as SSE bytes (\`data: <json>\` frames), one network chunk per frame (a server flushing each token); the same bytes regrouped in ${COALESCED / 1024} KiB chunks are measured too.`,
    "**Floor**: decode the bytes (TextDecoder, a chunk that ends in an ASCII byte without the streaming mode, as aguikit's transport does), cut the frames, `JSON.parse` each, append each delta to a string found by id in a Map. Synchronous, over the chunks in memory. The floor read through the body's `ReadableStream` (as any `fetch` consumer must) is shown for reference.",
    "**aguikit**: the whole pipeline from bytes to store — `createAgentStore` over `httpSseSource` whose `fetch` returns a `Response` over a `ReadableStream` of the same chunks (the network's side — the response, its chunks already queued — is built before the timed span, for the stream floor as well): body reader, UTF-8 stream decoding, eventsource-parser, JSON.parse, validate, expand, verify, reduce, one store update per event (microtask scheduler: the upper bound) and one subscriber selecting the message. Timed from `run()` to the run settled; the bar is checked on this. For reference: the same with the store's default scheduler (in Node a macrotask: with every byte already there, the whole stream lands in one batch — the lower bound; a browser flushes once per animation frame, in between), and the core pipeline alone (validate -> reduce on events already parsed, no transport, no store).",
  ].join('\n\n'),
  deterministic: false,
  figures: {
    floor: { label: 'floor, chunk per frame', unit: 'µs/token' },
    floorStream: { label: 'floor reading a ReadableStream, chunk per frame', unit: 'µs/token' },
    aguikit: { label: 'aguikit bytes to store, chunk per frame', unit: 'µs/token' },
    aguikitBatched: { label: 'aguikit bytes to store, chunk per frame, default scheduler (batched)', unit: 'µs/token' },
    floorCoalesced: { label: `floor, ${COALESCED / 1024} KiB chunks`, unit: 'µs/token' },
    aguikitCoalesced: { label: `aguikit bytes to store, ${COALESCED / 1024} KiB chunks`, unit: 'µs/token' },
    pipeline: { label: 'aguikit core pipeline alone, events already parsed', unit: 'µs/token' },
  },
  ratios: {
    overFloor: { label: 'aguikit / floor, chunk per frame' },
    overFloorCoalesced: { label: `aguikit / floor, ${COALESCED / 1024} KiB chunks` },
    overStreamFloor: { label: 'aguikit / floor reading a ReadableStream, chunk per frame' },
    overFloorBatched: { label: 'aguikit with the default scheduler (batched) / floor, chunk per frame' },
    pipelineOverFloor: { label: 'core pipeline alone / floor, chunk per frame' },
  },
  bars: [
    {
      id: 'within-3x-of-floor',
      text: "aguikit's whole pipeline from SSE bytes to store is within 3x of the floor",
      on: { ratio: 'overFloor' },
      op: '<=',
      limit: 3,
    },
  ],

  obstacles(summary: CaseSummary) {
    const r = (key: string) => fmt(summary.ratios[key]?.median ?? Number.NaN);
    const stream = (summary.figures.floorStream?.median ?? Number.NaN) / (summary.figures.floor?.median ?? Number.NaN);
    return [
      `The core pipeline alone (validate, expand, verify, reduce on events already parsed; no transport, no store) costs ${r('pipelineOverFloor')}x the floor by itself.`,
      `The transport (web-stream reads, UTF-8 decoding, eventsource-parser, JSON.parse; events pushed to the store with no asynchronous hop of their own) and a store updated once for the whole stream bring the path to ${r('overFloorBatched')}x; one store update per event, as measured for the bar, to ${r('overFloor')}x.`,
      `Reading the body through a ReadableStream costs the floor itself ${fmt(stream)}x: against the floor that reads the same body, as any \`fetch\` consumer must, the path is at ${r('overStreamFloor')}x. With ${COALESCED / 1024} KiB chunks, where one store update covers the many events of a chunk, it is at ${r('overFloorCoalesced')}x.`,
      'What one update per event adds is a flush scheduled per event, the store update and its subscriber, and the pipeline run one event at a time between network reads instead of in one loop (in a loop it costs about half as much): no single piece accounts for the gap. The arrival time the event log keeps for each event is a clock read per event, a few percent of the path.',
    ].join(' ');
  },

  async run(ctx: CaseContext): Promise<CaseRound> {
    const events = textRun(DELTAS, { runId: 'run-1', messageId: MESSAGE_ID });
    const perFrame = sseFrames(events);
    const coalesced = rechunk(perFrame, COALESCED);
    const expected = events.flatMap((e) => (e.type === 'TEXT_MESSAGE_CONTENT' ? [String(e.delta)] : [])).join('');
    // The network's side, untimed: each run's response is built, its chunks already queued, before the run
    // starts; the timed span holds what the client does with them.
    let response: Response | undefined;
    const respond = (chunks: readonly Uint8Array[]) => {
      response = sseResponse(chunks);
    };
    const source = httpSseSource({
      url: 'http://bench.invalid/agent',
      fetch: () => {
        if (!response) throw new Error('no response prepared for this run');
        const next = response;
        response = undefined;
        return Promise.resolve(next);
      },
    });
    const ours = storeDriver([], source);
    const batched = storeDriver([], source, frameScheduler);

    for (const c of [perFrame, coalesced]) {
      if (floor(c).get(MESSAGE_ID) !== expected) throw new Error('the floor lost text');
      respond(c);
      ours.prepare([], MESSAGE_ID, true);
      await ours.stream();
      const thread = ours.store.getState().thread;
      if (thread.messages.byId.get(MESSAGE_ID)?.content !== expected || thread.diagnostics.length)
        throw new Error('aguikit lost text over SSE');
    }
    if ((await floorFromStream(body(perFrame))).get(MESSAGE_ID) !== expected) throw new Error('the stream floor lost text');
    let stream: ReadableStream<Uint8Array> | undefined;
    const parsed = perFrame.map((f) => JSON.parse(new TextDecoder().decode(f).slice(6)) as unknown);

    const budget = ctx.quick ? { passes: 30, warmupPasses: 4 } : { passes: 80, warmupPasses: 8 };
    const timed = (fn: () => unknown) => () => {
      const start = cpuNow();
      fn();
      return cpuNow() - start;
    };
    const times = await timeTasks(
      [
        { name: 'floor', run: timed(() => floor(perFrame)) },
        {
          name: 'floorStream',
          before: () => {
            stream = body(perFrame);
          },
          run: async () => {
            if (!stream) throw new Error('no stream prepared');
            const start = cpuNow();
            await floorFromStream(stream);
            return cpuNow() - start;
          },
        },
        {
          name: 'aguikit',
          before: () => {
            respond(perFrame);
            ours.prepare([], MESSAGE_ID, true);
          },
          run: async () => (await ours.stream()).run,
        },
        {
          name: 'aguikitBatched',
          before: () => {
            respond(perFrame);
            batched.prepare([], MESSAGE_ID, true);
          },
          run: async () => (await batched.stream()).run,
        },
        { name: 'floorCoalesced', run: timed(() => floor(coalesced)) },
        {
          name: 'aguikitCoalesced',
          before: () => {
            respond(coalesced);
            ours.prepare([], MESSAGE_ID, true);
          },
          run: async () => (await ours.stream()).run,
        },
        {
          name: 'pipeline',
          run: timed(() => {
            const pipeline = createEventPipeline(createThreadState({ threadId: THREAD_ID }));
            for (const event of parsed) pipeline.push(event);
            pipeline.end();
          }),
        },
      ],
      budget,
    );
    const figures: Record<string, number> = {};
    for (const [name, ms] of Object.entries(times)) figures[name] = (ms * 1000) / DELTAS;
    const f = (k: string) => figures[k] ?? Number.NaN;
    ctx.log(`  floor ${fmt(f('floor'))} µs/token, aguikit ${fmt(f('aguikit'))} µs/token`);
    return {
      figures,
      ratios: {
        overFloor: f('aguikit') / f('floor'),
        overFloorCoalesced: f('aguikitCoalesced') / f('floorCoalesced'),
        overStreamFloor: f('aguikit') / f('floorStream'),
        overFloorBatched: f('aguikitBatched') / f('floor'),
        pipelineOverFloor: f('pipeline') / f('floor'),
      },
    };
  },
};
