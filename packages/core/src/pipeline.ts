import { type BatchOwner, batchOwner, owning, owningNow } from './batchOwned.js';
import { error } from './diagnostics.js';
import { createExpander, type ExpandedEvent, type Expander } from './expand.js';
import type { Diagnostic, ThreadState } from './model.js';
import { withDiagnostics } from './reducer/eventHelpers.js';
import { batchedMessages, plainMessages } from './reducer/helpers.js';
import { createThreadState, reduceThread } from './reducer/index.js';
import { startedAgain, streamTruncated } from './reducer/run.js';
import { thrownText } from './thrownText.js';
import { type ValidateOptions, validateEvent } from './validate.js';
import { createVerifier, truncated, type Verifier } from './verify.js';

export interface PipelineOptions extends Pick<ValidateOptions, 'largeDeltaLength'> {
  /** The arrival index of the first event pushed: a thread's later streams continue its event log's numbering. Default 0. */
  startIndex?: number;
  /** Called with every event that reaches the reducer (after chunk expansion), in order. */
  onEvent?: (event: ExpandedEvent, index: number) => void;
  /** Called with every diagnostic as it is found. */
  onDiagnostic?: (diagnostic: Diagnostic) => void;
  /**
   * The clock that stamps an event without a `timestamp` with the time it
   * was received (a message's `startedAt`, a run's `finishedAt` ...).
   * Default `Date.now`; a replay given a clock is deterministic.
   */
  now?: () => number;
}

export interface EventPipeline {
  /**
   * Validates, expands, verifies and reduces one raw event; returns the new
   * state. Never throws. `receivedAt`: when it was received, for an event
   * without a `timestamp` (default: the `now` option, read once, and only
   * when the event needs a time). `owned`: the arrays the batch it is
   * applied in made and no one has seen, which it may grow in place
   * (batchOwned.ts); the arrays it copies join them.
   */
  push(raw: unknown, receivedAt?: number, owned?: BatchOwner): ThreadState;
  /** Ends the stream: a run still open becomes `unknown` with a STREAM_TRUNCATED diagnostic. */
  end(): ThreadState;
  /** What `end()` would return, without ending: for a connection that dropped and may be resumed. */
  truncated(): ThreadState;
  /** Applies a client-side transition (see `cancelRun`, `addToolResult` ...) to the stream's state. */
  update(change: (state: ThreadState) => ThreadState): ThreadState;
  readonly state: ThreadState;
  /** The arrival index the next event will get. */
  readonly count: number;
  /**
   * A pipeline in the state this one is in (its thread, expander and
   * verifier), which goes on apart from it, with `options` in place of this
   * one's listeners and clock.
   */
  fork(options?: Omit<PipelineOptions, 'startIndex'>): EventPipeline;
}

/**
 * The whole client path for one event stream: validate -> expand -> verify ->
 * reduce, starting from `initial` (the thread as it was before the stream).
 * Bad input becomes diagnostics on the state; nothing throws. The state owns
 * what it keeps: a pushed event may be changed or reused afterwards (see the
 * ownership rule in model.ts).
 *
 * @example
 * const pipeline = createEventPipeline(state);
 * for await (const raw of source.run(input, { signal })) render(pipeline.push(raw));
 * render(pipeline.end());
 */
export function createEventPipeline(
  initial: ThreadState = createThreadState(),
  options: PipelineOptions = {},
  from?: { expander: Expander; verifier: Verifier },
): EventPipeline {
  let state = initial;
  let index = options.startIndex ?? 0;
  const expander = from?.expander ?? createExpander();
  const verifier =
    from?.verifier ??
    createVerifier({
      ...(initial.threadId !== undefined ? { threadId: initial.threadId } : {}),
      // By its id: a call set aside under `<id>#<runId>` (its id reused by a later run) is not known by that key.
      isKnownToolCall: (id) => initial.toolCalls.get(id)?.id === id,
      openInterruptIds: initial.interrupts.map((it) => it.id),
      answeredInterrupts: initial.answers,
    });
  /** A listener is being told: what it throws is its own, never an event that could not be read (see `take`). */
  let telling = false;
  /**
   * Tells a listener, under no batch: what it reduces meanwhile (a thread of its own, another pipeline) it sees, so
   * none of the arrays made for it is the batch's to write in place (batchOwned.ts).
   */
  const tell = (listen: () => void) => {
    telling = true;
    owning(undefined, listen);
    telling = false;
  };
  const report = (found: readonly Diagnostic[]) => {
    if (found.length === 0) return;
    state = withDiagnostics(state, found);
    tellFound(found);
  };
  const tellFound = (found: readonly Diagnostic[]) => {
    const listen = options.onDiagnostic;
    if (listen)
      tell(() => {
        for (const d of found) listen(d);
      });
  };
  const endDiagnostics = (): readonly Diagnostic[] => {
    const found = verifier.end(index);
    // The verifier follows the reducer's runs (a terminal naming another run ends none); should they ever differ, the
    // thread's own run is what counts.
    if (found.length === 0 && state.run.status === 'running') return [truncated(index, state.run.runId)];
    return found;
  };
  // Reused for every event (validation keeps no reference to it).
  const validateOptions: ValidateOptions = options.largeDeltaLength === undefined ? {} : { largeDeltaLength: options.largeDeltaLength };

  const now = options.now ?? Date.now;
  // When the event being pushed was received: given, or read from the clock once, the first time an event needs it.
  // The app's clock runs under no batch, as a listener does (see `tell`): a thread it reduces meanwhile is seen.
  let received: number | undefined;
  const time = () => (received ??= options.now ? owning(undefined, now) : now());

  /** Verifies and reduces one expanded event. */
  const apply = (event: ExpandedEvent, at: number) => {
    report(verifier.check(event, at, event.type === 'RUN_STARTED' && startedAgain(state, event.runId as string)));
    const { onEvent } = options;
    if (onEvent) tell(() => onEvent(event, at));
    const before = state.diagnostics.length;
    state = reduceThread(state, event, at, time);
    if (options.onDiagnostic && state.diagnostics.length > before) tellFound(state.diagnostics.slice(before));
  };

  /** Validates, expands, verifies and reduces one raw event. */
  const take = (raw: unknown) => {
    const at = index++;
    validateOptions.index = at;
    // A push from inside a listener (a re-entrant one) leaves that listener being told, as it was.
    const outer = telling;
    telling = false;
    try {
      takeAt(raw, at);
    } catch (e) {
      // A listener's throw is its own.
      if (telling) throw e;
      // An in-process agent's event that throws as it is read (a getter, a revoked Proxy in it) is no event: named,
      // and the stream goes on, as after any event that is none; a replay of the log reads it the same way. One that
      // throws only as the reducer copies a nested value was seen by the verifier and onEvent first, as an event
      // nested too deep is (TOO_DEEP).
      report([error(at, undefined, 'UNREADABLE_EVENT', `The event could not be read: ${thrownText(e)}.`)]);
    } finally {
      telling = outer;
    }
  };

  const takeAt = (raw: unknown, at: number) => {
    const validated = validateEvent(raw, validateOptions);
    if (!validated.ok) {
      report([validated.diagnostic]);
      return;
    }
    report(validated.warnings);
    // Nearly every event comes out of the expander as it went in: then it is applied without the lists of an expansion.
    if (expander.passes(validated.event)) apply(validated.event as ExpandedEvent, at);
    else {
      const expanded = expander.push(validated.event, at);
      report(expanded.diagnostics);
      const events = expanded.events;
      for (let i = 0; i < events.length; i++) apply(events[i] as ExpandedEvent, at);
    }
  };

  return {
    push(raw, receivedAt, owned) {
      received = receivedAt;
      // Given no owner, under none: pushed from the app's code another batch's reduction called (a clock, a getter of
      // an event), what it makes is not that batch's to write in place (batchOwned.ts).
      if (owned || owningNow()) owning(owned, () => take(raw));
      else take(raw);
      return state;
    },
    end() {
      const found = endDiagnostics();
      report(found);
      state = streamTruncated(state);
      return state;
    },
    truncated() {
      const found = endDiagnostics();
      return streamTruncated(found.length ? withDiagnostics(state, found) : state);
    },
    update(change) {
      state = change(state);
      return state;
    },
    get state() {
      return state;
    },
    get count() {
      return index;
    },
    fork: (next = {}) =>
      createEventPipeline(state, { ...next, startIndex: index }, { expander: expander.fork(), verifier: verifier.fork() }),
  };
}

export interface ReplayOptions extends PipelineOptions {
  /** The list is not the whole stream (more may come): do not treat an open run as truncated. */
  open?: boolean;
}

/**
 * Replays a whole list of raw events through validate, expand, verify and
 * reduce, and returns the final state with its diagnostics. A run left open
 * at the end of the list is reported as truncated and left `unknown`.
 *
 * @example
 * const state = replayEvents(JSON.parse(fixture).stream);
 * state.run.status; // 'success'
 */
export function replayEvents(rawEvents: Iterable<unknown>, initial?: ThreadState, options: ReplayOptions = {}): ThreadState {
  const pipeline = createEventPipeline(initial, options);
  // Seen only at its end (see `batchedMessages`): thousands of messages replay in linear time, and an array the
  // replay made grows in place (batchOwned.ts).
  const owned = batchOwner();
  for (const raw of rawEvents) {
    pipeline.update(batchedMessages);
    pipeline.push(raw, undefined, owned);
  }
  return plainMessages(options.open ? pipeline.state : pipeline.end());
}
