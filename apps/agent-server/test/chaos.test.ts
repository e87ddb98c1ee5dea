/**
 * The refund flow (first run -> interrupt -> approving resume -> success)
 * through `httpSseSource` + `createAgentStore` against the real server, with
 * the SSE connection cut at 50 seeded random points across both runs.
 *
 * The cut is made on the client, by a `fetch` whose response body errors
 * after N bytes (and drops the real connection, so the server sees the
 * client go). A byte offset is exact and deterministic, with no timing
 * involved, and it lands anywhere: inside an `id:` line, inside the JSON,
 * between a frame's last line and its closing blank line. A server-side cut
 * after N events could only ever cut between frames. The points are drawn
 * from where a stream can be resumed at all: after the first frame of a run,
 * since before it the client holds no event id to resume from (that window is
 * tested on its own below).
 *
 * Ids are pinned (`crypto.randomUUID` counts, the clock is fixed), so every
 * flow sends the same bytes and the final state can be compared exactly.
 */
import { type ExpandedEvent, httpSseSource, type ThreadState, toAgUiMessages } from '@aguikit/core';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
// By path: @aguikit/react is not a dependency of the server app.
import { createAgentStore } from '../../../packages/react/src/store.js';
import type { AgentServer } from '../src/server.js';
import { NOW, startServer } from './support.js';

/** Fast enough for 50 flows in a few seconds, slow enough that the server is often still writing when the client goes. */
const SPEED = 50;
const THREAD = 'chaos-thread';
const USER = { id: 'chaos-user', role: 'user' as const, content: 'My teapot from order A-1001 arrived broken. Can I get a refund?' };
const POINTS = 50;
const SEED = 0x5eed_a61;

/** The first run (0) or the approving resume (1). */
type RunIndex = 0 | 1;

interface Span {
  /** Where the first frame ends (its blank line included). */
  first: number;
  length: number;
}

interface Cut {
  run: RunIndex;
  /** Bytes of the run's first response delivered before the connection breaks. */
  bytes: number;
}

/** A small seeded PRNG (mulberry32): the same points on every machine and every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Thread, run and message ids from `newId` count from 1 again: every flow sends the same bytes. */
function pinIds() {
  let n = 0;
  return vi.spyOn(globalThis.crypto, 'randomUUID').mockImplementation(() => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`);
}
beforeEach(() => {
  pinIds();
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** What a fetch saw: the bytes of each run's first response, and how many connections were cut. */
interface Wire {
  fetch: typeof fetch;
  firstResponse: [Uint8Array[], Uint8Array[]];
  requests: { run: RunIndex; lastEventId: string | null }[];
  cuts: number;
}

/**
 * A fetch that breaks the first response of each run listed in `cuts` after
 * that many bytes, the way a dropped connection does: what arrived is
 * delivered, then the body errors with undici's `terminated`.
 */
function wire(cuts: readonly Cut[] = []): Wire {
  const seen: Wire = { fetch: globalThis.fetch, firstResponse: [[], []], requests: [], cuts: 0 };
  // Each run's connection is cut once: a retry of the same request goes through.
  const cutRuns = new Set<RunIndex>();
  seen.fetch = async (url, init) => {
    const body = JSON.parse(String(init?.body)) as { resume?: unknown[] };
    const run: RunIndex = body.resume?.length ? 1 : 0;
    const lastEventId = new Headers(init?.headers).get('last-event-id');
    seen.requests.push({ run, lastEventId });
    const response = await fetch(url, init);
    if (lastEventId !== null || !response.body || cutRuns.has(run)) return response;
    const limit = cuts.find((c) => c.run === run)?.bytes ?? Number.POSITIVE_INFINITY;
    if (Number.isFinite(limit)) cutRuns.add(run);
    const record = seen.firstResponse[run];
    const reader = response.body.getReader();
    let delivered = 0;
    const stream = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          if (delivered >= limit) {
            seen.cuts++;
            await reader.cancel();
            controller.error(new TypeError('terminated'));
            return;
          }
          const { done, value } = await reader.read();
          if (done) return controller.close();
          const chunk = value.subarray(0, Math.min(value.length, limit - delivered));
          delivered += chunk.length;
          record.push(chunk);
          controller.enqueue(chunk);
        },
        cancel: (reason) => reader.cancel(reason),
      },
      // Pulled only when read: the bytes before the cut reach the reader before the error does.
      { highWaterMark: 0 },
    );
    return new Response(stream, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  return seen;
}

const setTimeoutScheduler = (flush: () => void) => {
  const timer = setTimeout(flush, 0);
  return () => clearTimeout(timer);
};

function agentStore(server: AgentServer, w: Wire, reconnect: boolean, applied: ExpandedEvent[]) {
  return createAgentStore({
    source: httpSseSource({
      url: `${server.url}/agents/refund?speed=${SPEED}`,
      fetch: w.fetch,
      ...(reconnect ? { reconnect: { attempts: 5, delayMs: 1 } } : {}),
    }),
    threadId: THREAD,
    scheduler: setTimeoutScheduler,
    now: () => NOW,
    onEvent: (event) => applied.push(event),
  });
}

interface Outcome {
  messages: ReturnType<typeof toAgUiMessages>;
  state: unknown;
  applied: ExpandedEvent[];
}

const outcome = (thread: ThreadState, applied: ExpandedEvent[]): Outcome => ({
  messages: toAgUiMessages(thread),
  state: thread.sharedState.document,
  applied,
});

/** The whole flow with the source reconnecting by itself. */
async function refundFlow(server: AgentServer, w: Wire) {
  const applied: ExpandedEvent[] = [];
  const store = agentStore(server, w, true, applied);
  expect(await store.getState().run({ message: USER })).toEqual({ ok: true, status: 'interrupted' });
  const [approval] = store.getState().thread.interrupts;
  expect(approval?.id).toMatch(/-refund-approval$/);
  const resumed = await store.getState().resume([{ interruptId: approval?.id ?? '', status: 'resolved', payload: { approved: true } }]);
  expect(resumed).toEqual({ ok: true, status: 'success' });
  return { store, outcome: outcome(store.getState().thread, applied) };
}

/** The bytes of `chunks`, joined. */
function concat(chunks: readonly Uint8Array[]): Buffer {
  return Buffer.concat(chunks.map((c) => Buffer.from(c.buffer, c.byteOffset, c.byteLength)));
}

describe('chaos: the SSE connection cut at 50 random points of the refund flow', () => {
  let uncut: Outcome;
  /** Per run: where its first frame ends, and the length of its stream. */
  let span: [Span, Span];
  const cuts: Cut[] = [];

  beforeAll(async () => {
    const spy = pinIds();
    const server = await startServer();
    const w = wire();
    const { store, outcome: reference } = await refundFlow(server, w);
    spy.mockRestore();
    uncut = reference;
    expect(store.getState().thread.diagnostics).toEqual([]);
    expect(reference.state).toMatchObject({ order: { status: 'refunded' }, refund: { status: 'refunded' } });
    expect(server.effects()).toHaveLength(1);
    const measure = (chunks: Uint8Array[]): Span => {
      const bytes = concat(chunks);
      return { first: bytes.indexOf('\n\n') + 2, length: bytes.length };
    };
    span = [measure(w.firstResponse[0]), measure(w.firstResponse[1])];
    // Uniform over every byte of both runs, the first frame included.
    const random = prng(SEED);
    const [a, b] = span;
    for (let i = 0; i < POINTS; i++) {
      const at = 1 + Math.floor(random() * (a.length + b.length - 2));
      cuts.push(at < a.length ? { run: 0, bytes: at } : { run: 1, bytes: at - a.length + 1 });
    }
  });

  it('draws distinct points in both runs', () => {
    expect(cuts).toHaveLength(POINTS);
    expect(new Set(cuts.map((c) => `${c.run}:${c.bytes}`)).size).toBe(POINTS);
    expect(cuts.some((c) => c.run === 0)).toBe(true);
    expect(cuts.some((c) => c.run === 1)).toBe(true);
  });

  it.for(Array.from({ length: POINTS }, (_, i) => i))(
    'cut %i: the same messages and state, nothing applied twice, one refund',
    async (i) => {
      const cut = cuts[i] as Cut;
      const server = await startServer();
      const w = wire([cut]);
      const { store, outcome: result } = await refundFlow(server, w);

      expect(w.cuts, 'the connection was cut').toBe(1);
      // The run cut is asked for again: after the last id it got, or as it was when the cut came before any event.
      const again = w.requests.filter((r) => r.run === cut.run);
      expect(again).toHaveLength(2);
      expect(again[1]?.lastEventId === null).toBe(cut.bytes < span[cut.run].first);
      expect(result.messages).toEqual(uncut.messages);
      expect(result.state).toEqual(uncut.state);
      // Every event reached the reducer once, in the uncut order: none was replayed over itself.
      expect(result.applied).toEqual(uncut.applied);
      const { thread, failure, connection } = store.getState();
      expect(thread.diagnostics).toEqual([]);
      expect(thread.run.status).toBe('success');
      expect(failure).toBeUndefined();
      expect(connection).toBe('closed');
      expect(server.effects()).toHaveLength(1);
      expect(await (await fetch(`${server.url}/effects`)).json()).toHaveLength(1);
    },
  );

  it('leaves the reconnect to the user when the source does not reconnect: unknown, then the same end', async () => {
    const server = await startServer();
    const [a, b] = span;
    // Half way through each run.
    const w = wire([
      { run: 0, bytes: Math.floor((a.first + a.length) / 2) },
      { run: 1, bytes: Math.floor((b.first + b.length) / 2) },
    ]);
    const applied: ExpandedEvent[] = [];
    const store = agentStore(server, w, false, applied);

    expect(await store.getState().run({ message: USER })).toEqual({ ok: true, status: 'unknown' });
    expect(store.getState().failure).toMatchObject({ code: 'CONNECTION_LOST', retryable: false });
    expect(store.getState().connection).toBe('failed');
    expect(await store.getState().reconnect()).toEqual({ ok: true, status: 'interrupted' });
    expect(store.getState().failure).toBeUndefined();

    const [approval] = store.getState().thread.interrupts;
    const resumed = await store.getState().resume([{ interruptId: approval?.id ?? '', status: 'resolved', payload: { approved: true } }]);
    // Cut before the run finished: never a success until the rest arrives.
    expect(resumed).toEqual({ ok: true, status: 'unknown' });
    expect(store.getState().thread.run.status).toBe('unknown');
    expect(await store.getState().reconnect()).toEqual({ ok: true, status: 'success' });

    expect(w.cuts).toBe(2);
    const result = outcome(store.getState().thread, applied);
    expect(result.messages).toEqual(uncut.messages);
    expect(result.state).toEqual(uncut.state);
    expect(result.applied).toEqual(uncut.applied);
    expect(store.getState().thread.diagnostics).toEqual([]);
    expect(server.effects()).toHaveLength(1);
  });

  it('a cut before the first event id: the request is sent again as it was, and the flow ends the same', async () => {
    for (const run of [0, 1] as const) {
      const spy = pinIds();
      const server = await startServer();
      const w = wire([{ run, bytes: Math.floor(span[run].first / 2) }]);
      const { store, outcome: result } = await refundFlow(server, w);
      spy.mockRestore();
      expect(w.cuts).toBe(1);
      expect(w.requests.filter((r) => r.lastEventId !== null)).toEqual([]);
      expect(result.messages).toEqual(uncut.messages);
      expect(result.state).toEqual(uncut.state);
      expect(result.applied).toEqual(uncut.applied);
      expect(store.getState().thread.diagnostics).toEqual([]);
      expect(server.effects()).toHaveLength(1);
    }
  });
});
