/**
 * The work of case 2, apart from where it runs: the floor, aguikit's path,
 * the tasks that time them and the figures a round gives. The case runs it
 * in Node (cases/floor.ts) and in Chromium (bench/browser/floor.ts, for
 * cases/floorChromium.ts); only the clock differs.
 */
import { httpSseSource } from '@aguikit/core';
import { createEventPipeline, createThreadState } from '@aguikit/core/engine';
import { frameScheduler } from '@aguikit/react';
import type { Bar, CaseRound, FigureSpec, RatioSpec } from '../case.js';
import { type StoreDriver, storeDriver } from '../drivers/aguikit.js';
import { rechunk, sseFrames, THREAD_ID, textRun } from '../fixtures.js';
import type { Timed, TimingBudget } from '../measure.js';

export const DELTAS = 2_000;
const MESSAGE_ID = 'streamed';
export const COALESCED = 16 * 1024;

export const FLOOR_FIGURES: Readonly<Record<string, FigureSpec>> = {
  floor: { label: 'floor, chunk per frame', unit: 'µs/token' },
  floorInMemory: { label: 'floor over the chunks in memory (no body to read), chunk per frame', unit: 'µs/token' },
  aguikit: { label: 'aguikit bytes to store, chunk per frame', unit: 'µs/token' },
  aguikitBatched: { label: 'aguikit bytes to store, chunk per frame, default scheduler (batched)', unit: 'µs/token' },
  floorCoalesced: { label: `floor, ${COALESCED / 1024} KiB chunks`, unit: 'µs/token' },
  aguikitCoalesced: { label: `aguikit bytes to store, ${COALESCED / 1024} KiB chunks`, unit: 'µs/token' },
  pipeline: { label: 'aguikit core pipeline alone, events already parsed', unit: 'µs/token' },
};

export const FLOOR_RATIOS: Readonly<Record<string, RatioSpec>> = {
  overFloor: { label: 'aguikit / floor, chunk per frame' },
  overFloorCoalesced: { label: `aguikit / floor, ${COALESCED / 1024} KiB chunks` },
  overFloorBatched: { label: 'aguikit with the default scheduler (batched) / floor, chunk per frame' },
  overFloorInMemory: { label: 'aguikit / floor over the chunks in memory, chunk per frame' },
  bodyRead: { label: 'floor reading the body / floor over the chunks in memory' },
  pipelineOverFloor: { label: 'core pipeline alone / floor, chunk per frame' },
};

/** Case 2's bar, checked in Node and in Chromium alike; `reading` says which run and how the floor is read. */
export const floorBar = (reading: string): Bar => ({
  id: 'within-3x-of-floor',
  text: "aguikit's whole pipeline from SSE bytes to store is within 3x of the floor",
  on: { ratio: 'overFloor' },
  op: '<=',
  limit: 3,
  reading,
});

export const floorBudget = (quick: boolean): TimingBudget => (quick ? { passes: 30, warmupPasses: 4 } : { passes: 80, warmupPasses: 8 });

/**
 * The least any consumer of an agent's stream must do with its bytes: read
 * the `Response` body chunk by chunk (as every `fetch` consumer must), decode
 * each chunk, cut the SSE frames, JSON.parse each, and append each delta to a
 * string found by id. No validation, no state beyond the strings, no store.
 * Each is a step aguikit takes too: the body read through its reader and the
 * bytes decoded as aguikit's transport does (a chunk that ends in ASCII on
 * its own, any other through the streaming decoder), the frames cut in the
 * cheapest way (frames of one `data:` line, no SSE parser), so that the
 * ratio is what aguikit adds.
 */
export async function floor(response: Response): Promise<Map<string, string>> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const consumer = floorConsumer();
  for (let r = await reader.read(); !r.done; r = await reader.read()) consumer.feed(r.value);
  return consumer.texts;
}

/** The floor's work on the chunks alone, held in memory: no body to read. For reference, not a consumer of a stream. */
export function floorInMemory(chunks: readonly Uint8Array[]): Map<string, string> {
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

/** The network's side of a run: a response whose body holds `chunks`, every one already queued. */
export function sseResponse(chunks: readonly Uint8Array[]): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}

/**
 * The tasks of one round, timed with `clock` (ms), after checking that every
 * side yields the whole text: the floor over the body, the floor in memory,
 * aguikit per event and batched, both again on coalesced chunks, and the core
 * pipeline alone.
 */
export async function floorTasks(clock: () => number): Promise<Timed[]> {
  const events = textRun(DELTAS, { runId: 'run-1', messageId: MESSAGE_ID });
  const perFrame = sseFrames(events);
  const coalesced = rechunk(perFrame, COALESCED);
  const expected = events.flatMap((e) => (e.type === 'TEXT_MESSAGE_CONTENT' ? [String(e.delta)] : [])).join('');
  // The network's side, untimed: each task's response is built, its chunks already queued, before the task
  // starts; the timed span holds what the client does with them.
  let response: Response | undefined;
  const respond = (chunks: readonly Uint8Array[]) => {
    response = sseResponse(chunks);
  };
  const take = (): Response => {
    if (!response) throw new Error('no response prepared for this task');
    const next = response;
    response = undefined;
    return next;
  };
  const source = httpSseSource({ url: 'http://bench.invalid/agent', fetch: () => Promise.resolve(take()) });
  const ours = storeDriver([], source, undefined, clock);
  const batched = storeDriver([], source, frameScheduler, clock);

  for (const c of [perFrame, coalesced]) {
    if (floorInMemory(c).get(MESSAGE_ID) !== expected) throw new Error('the floor lost text');
    respond(c);
    if ((await floor(take())).get(MESSAGE_ID) !== expected) throw new Error('the floor lost text reading the body');
    for (const driver of [ours, batched]) {
      respond(c);
      driver.prepare([], MESSAGE_ID, true);
      await driver.stream();
      const thread = driver.store.getState().thread;
      if (thread.messages.byId.get(MESSAGE_ID)?.content !== expected || thread.diagnostics.length)
        throw new Error('aguikit lost text over SSE');
    }
  }
  const parsed = perFrame.map((f) => JSON.parse(new TextDecoder().decode(f).slice(6)) as unknown);

  const timed = (fn: () => unknown) => () => {
    const start = clock();
    fn();
    return clock() - start;
  };
  const floorTask = (name: string, chunks: readonly Uint8Array[]): Timed => ({
    name,
    before: () => respond(chunks),
    run: async () => {
      const body = take();
      const start = clock();
      await floor(body);
      return clock() - start;
    },
  });
  const aguikitTask = (name: string, driver: StoreDriver, chunks: readonly Uint8Array[]): Timed => ({
    name,
    before: () => {
      respond(chunks);
      driver.prepare([], MESSAGE_ID, true);
    },
    run: async () => (await driver.stream()).run,
  });
  return [
    floorTask('floor', perFrame),
    { name: 'floorInMemory', run: timed(() => floorInMemory(perFrame)) },
    aguikitTask('aguikit', ours, perFrame),
    aguikitTask('aguikitBatched', batched, perFrame),
    floorTask('floorCoalesced', coalesced),
    aguikitTask('aguikitCoalesced', ours, coalesced),
    {
      name: 'pipeline',
      run: timed(() => {
        const pipeline = createEventPipeline(createThreadState({ threadId: THREAD_ID }));
        for (const event of parsed) pipeline.push(event);
        pipeline.end();
      }),
    },
  ];
}

/** A round's figures (µs per token) and ratios from the tasks' times (ms per run). */
export function floorRound(times: Readonly<Record<string, number>>): CaseRound {
  const figures: Record<string, number> = {};
  for (const [name, ms] of Object.entries(times)) figures[name] = (ms * 1000) / DELTAS;
  const f = (k: string) => figures[k] ?? Number.NaN;
  return {
    figures,
    ratios: {
      overFloor: f('aguikit') / f('floor'),
      overFloorCoalesced: f('aguikitCoalesced') / f('floorCoalesced'),
      overFloorBatched: f('aguikitBatched') / f('floor'),
      overFloorInMemory: f('aguikit') / f('floorInMemory'),
      bodyRead: f('floor') / f('floorInMemory'),
      pipelineOverFloor: f('pipeline') / f('floor'),
    },
  };
}
