/**
 * aguikit's full client path, as an application runs it: `createAgentStore`
 * (zustand) over an `AgentSource`; every event goes through validate ->
 * expand -> verify -> reduce and lands in the store, where a subscriber
 * selects the streaming message the way `useMessage(id)` does.
 *
 * The scheduler flushes on a microtask instead of an animation frame: with
 * events arriving one by one, that is one store update per event, the most
 * a stream can cost (in a browser the default scheduler batches a frame's
 * events into one update, so this is an upper bound).
 */
import type { AgentSource, Message } from '@aguikit/core';
import { type AgentStore, createAgentStore, type FrameScheduler } from '@aguikit/react';
import { THREAD_ID } from '../fixtures.js';
import { cpuNow } from '../measure.js';

const resolved = Promise.resolve();

/**
 * A flush on a microtask. Through a settled promise rather than
 * `queueMicrotask`, which in Node creates an async resource per call: a cost
 * of Node's, not of the store, that a browser's microtask does not have.
 */
export const microtaskScheduler: FrameScheduler = (flush) => {
  let cancelled = false;
  void resolved.then(() => {
    if (!cancelled) flush();
  });
  return () => {
    cancelled = true;
  };
};

/** Where to take the two marks of a timed span: just before the events at these indices are handed over. */
export interface SpanMarks {
  readonly from: number;
  readonly to: number;
}

/**
 * Replays a fixed list of events, each handed over asynchronously, and notes
 * (in CPU time) when the first one was and when the marked ones were.
 */
class ReplaySource implements AgentSource {
  constructor(private readonly clock: () => number) {}
  events: readonly unknown[] = [];
  marks: SpanMarks | undefined;
  startedAt = 0;
  spanStart = 0;
  spanEnd = 0;

  async *run(): AsyncGenerator<unknown> {
    this.startedAt = this.clock();
    const { from, to } = this.marks ?? { from: -1, to: -1 };
    for (let i = 0; i < this.events.length; i++) {
      if (i === from) this.spanStart = this.clock();
      if (i === to) this.spanEnd = this.clock();
      yield this.events[i];
    }
  }
}

export interface StreamTimes {
  /** ms until the run settled: from the first event handed over (replay source) or from the `run` call (any other source). */
  readonly run: number;
  /** ms between the two marks (replay source with marks). */
  readonly span: number;
}

export interface StoreDriver {
  readonly store: AgentStore;
  /**
   * Untimed: ready to stream `events`, watching message `watch`. With `fresh`,
   * the thread goes back to the initial history first; without, the run adds
   * to the thread as it is, as in a live chat (the history stays in the old
   * generation of the heap instead of being rebuilt before every run).
   *
   * `marks` time a span of the stream. The store applies an event in a flush
   * scheduled when it arrives, which runs after the source has been asked
   * for the next one: a mark taken as event i is handed over falls after
   * events 0 .. i - 2 were applied and before event i - 1 is (checked by
   * reading the store at each mark). Marks at (first delta + 1, last delta +
   * 1) thus enclose exactly the application of the deltas.
   */
  prepare(events: readonly unknown[], watch: string, fresh: boolean, marks?: SpanMarks): void;
  /** Streams the prepared events through the store (the run's input, built from the whole history, is built before any timing). */
  stream(): Promise<StreamTimes>;
  /** Store updates in which the subscriber saw the watched message change, since `prepare`. */
  readonly selectedChanges: number;
}

/**
 * A store holding `history`, with one subscriber watching one message like
 * `useMessage(id)`. Times are read from `clock` (ms): CPU time by default,
 * a page's `performance.now()` in a browser.
 */
export function storeDriver(
  history: readonly Message[],
  source?: AgentSource,
  scheduler: FrameScheduler = microtaskScheduler,
  clock: () => number = cpuNow,
): StoreDriver {
  source ??= new ReplaySource(clock);
  const replay = source instanceof ReplaySource ? source : undefined;
  const store = createAgentStore({ source, threadId: THREAD_ID, initialMessages: [...history], scheduler });
  let selected: unknown;
  let changes = 0;
  let messageId = '';
  store.subscribe((state) => {
    const message = state.thread.messages.byId.get(messageId);
    if (message !== selected) {
      selected = message;
      changes++;
    }
  });
  return {
    store,
    prepare(events, watch, fresh, marks) {
      if (fresh) store.getState().reset();
      messageId = watch;
      changes = 0;
      selected = undefined;
      if (replay) {
        replay.events = events;
        replay.marks = marks;
      }
    },
    async stream() {
      const called = clock();
      const result = await store.getState().run('And the next order?');
      const end = clock();
      if (!result.ok || result.status !== 'success') throw new Error(`aguikit run did not succeed: ${JSON.stringify(result)}`);
      return { run: end - (replay ? replay.startedAt : called), span: replay ? replay.spanEnd - replay.spanStart : Number.NaN };
    },
    get selectedChanges() {
      return changes;
    },
  };
}
