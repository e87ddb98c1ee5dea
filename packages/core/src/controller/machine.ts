/**
 * Applies session log entries to a thread, one at a time. The controller changes its thread only through this (appending
 * each entry to its log as it applies it), and `replaySession` runs the same code over a saved log: a replay equals the
 * live thread by construction, not by care.
 *
 * The engine (`engineParts.ts`) is given, not imported: the controller loads it on demand and `replaySession` imports it.
 * Only an agent event and the entries that follow from events (a client edit of the shared state aside) need it, and the
 * controller applies none of them before it has loaded.
 */

import type { ExpandedEvent } from '../expand.js';
import type { Diagnostic, ThreadState } from '../model.js';
import type { EventPipeline, PipelineOptions } from '../pipeline.js';
import { batchedMessages, plainMessages } from '../reducer/helpers.js';
import { appendMessages, cancelRun, setSharedDocument } from '../reducer/local.js';
import type { ResumeTaken } from '../reducer/run.js';
import { type Engine, needed } from './engineLoader.js';
import type { SessionEntry, SessionEntryBody } from './sessionLog.js';
import { fresh, type Init, notTaken, requestFailed } from './transitions.js';

export interface MachineCallbacks {
  /** The engine, or `undefined` while it has not loaded: an entry that needs it then throws. */
  engine: () => Engine | undefined;
  /** Every event that reaches the reducer, with its index among the thread's agent events. */
  onEvent?: (event: ExpandedEvent, index: number) => void;
  onDiagnostic?: ((diagnostic: Diagnostic) => void) | undefined;
}

export interface ThreadMachine {
  readonly thread: ThreadState;
  /** A stream is open (its events go to its pipeline, made at its first event). */
  readonly streaming: boolean;
  /** A stream ended inside its run and can go on (`stream_start` with `reconnect`). */
  readonly reconnectable: boolean;
  /** How many agent events were applied. */
  readonly eventCount: number;
  /** An `init` entry was applied: a reset starts the thread again from it. */
  readonly started: boolean;
  /** A resume's answers wait for its stream's first event, and the agent has not answered its request: a stop gives them back. */
  readonly resumeAwaiting: boolean;
  apply(entry: SessionEntryBody): ThreadState;
  /**
   * Applies entries in one batch (`apply`, inside `apply`), seen only at its end: thousands of messages in linear
   * time, and arrays its agent events made grown in place (batchOwned.ts). Its thread has plain messages again unless
   * `seen` is false (a recording's checkpoint, read only by a fork's later batch: its ids stay a list sharing the past).
   */
  batch(apply: () => void, seen?: boolean): void;
  /** A machine in the state this one is in (its streams' pipelines copied), heard by `callbacks`, that goes on apart from it. */
  fork(callbacks: MachineCallbacks): ThreadMachine;
}

/** What a machine holds between entries (see `fork`). */
interface MachineState {
  init: Init | undefined;
  thread: ThreadState;
  opened: boolean;
  pipeline: EventPipeline | undefined;
  dropped: EventPipeline | undefined;
  runId: string | undefined;
  events: number;
  answering: ResumeTaken | undefined;
  agentHas: ResumeTaken | undefined;
}

/** The listeners a stream's pipeline tells. */
const listeners = ({ onEvent, onDiagnostic }: MachineCallbacks): PipelineOptions =>
  Object.assign({}, onEvent && { onEvent }, onDiagnostic && { onDiagnostic });

export function createThreadMachine(callbacks: MachineCallbacks, from?: MachineState): ThreadMachine {
  let init = from?.init;
  let thread = from?.thread ?? fresh(undefined);
  /** A stream is open; its pipeline is made by its first event. */
  let opened = from?.opened ?? false;
  let pipeline = from?.pipeline;
  let dropped = from?.dropped;
  let runId = from?.runId;
  let events = from?.events ?? 0;
  /** What the last resume closed, until its stream's first event: a resume the agent never took gives it back. */
  let answering = from?.answering;
  /** The resume whose request the agent answered (`resume_taken`): a stop leaves it the answers; a failure it cannot have taken gives them back. */
  let agentHas = from?.agentHas;
  /** Entries are applied in a batch (see `batch`). */
  let batching = false;
  /** The arrays a batch's run of agent events made, which it writes in place (batchOwned.ts). */
  let owned: WeakSet<object> | undefined;

  const mutate = (change: (s: ThreadState) => ThreadState) => {
    thread = pipeline ? pipeline.update(change) : change(thread);
    // A stream cut off inside its run may go on (reconnect): what the client did meanwhile goes on with it.
    if (!pipeline) dropped?.update(change);
  };

  const need = (): Engine => needed(callbacks.engine());
  const givenBack = (taken: ResumeTaken) => (s: ThreadState) => need().reopenInterrupts(s, taken);

  // Diagnostics carry the index the event has among the thread's agent events, across every stream.
  const open = (): EventPipeline => need().createEventPipeline(thread, { startIndex: events, ...listeners(callbacks) });

  const apply = (entry: SessionEntryBody): ThreadState => {
    // The entry's time (a saved or live log's) stamps what it builds, so a replay gives the records the same times.
    const at = (entry as Partial<SessionEntry>).at;
    if (batching) mutate(batchedMessages);
    // Another entry may leave two states going on apart (a cut stream, the thread beside it): its arrays are not the batch's.
    if (entry.type !== 'event') owned = undefined;
    // Agent events first: the switch compares in order, and nearly every entry is one.
    switch (entry.type) {
      case 'event':
        // An event outside any stream (a hand-made log) opens one, as a stream that sent it would have.
        if (!pipeline) thread = need().refusedFirst(thread, entry.event, runId);
        pipeline ??= open();
        opened = true;
        events++;
        // A resume whose stream opens with RUN_ERROR was refused before its run began: its answers go back first.
        if (answering && (entry.event as { type?: unknown } | null)?.type === 'RUN_ERROR') mutate(givenBack(answering));
        answering = undefined;
        if (batching) owned ??= new WeakSet();
        thread = pipeline.push(entry.event, at, owned);
        break;
      case 'init':
        init = entry;
        thread = fresh(init);
        pipeline = dropped = answering = undefined;
        opened = false;
        break;
      case 'reset':
        thread = fresh(init);
        pipeline = dropped = answering = runId = undefined;
        opened = false;
        // Event indexes start again, as the event list does.
        events = 0;
        break;
      case 'user_message':
        mutate((s) => appendMessages(s, [entry.message], at));
        break;
      case 'stream_start':
        runId = entry.runId;
        if (entry.kind !== 'resume' || entry.runId !== answering?.runId) answering = undefined;
        opened = true;
        // A reconnect goes on with the stream it resumes; a new stream's pipeline is made by its first event.
        pipeline = entry.reconnect && dropped ? dropped : undefined;
        dropped = undefined;
        if (pipeline) thread = pipeline.state;
        break;
      case 'stream_end': {
        opened = false;
        if (!pipeline) break;
        if (entry.open) {
          const before = pipeline.state.diagnostics.length;
          thread = pipeline.truncated();
          // The truncation of a run that may be resumed stays out of the pipeline: report it here.
          for (const d of thread.diagnostics.slice(before)) callbacks.onDiagnostic?.(d);
          dropped = pipeline;
        } else thread = pipeline.end();
        pipeline = undefined;
        break;
      }
      case 'state_edit':
        mutate((s) => need().clientDelta(s, entry.delta));
        break;
      case 'state_set':
        mutate((s) => setSharedDocument(s, entry.document));
        break;
      case 'tool_started':
        mutate((s) => need().markToolCallExecuting(s, entry.toolCallId));
        break;
      case 'tool_result':
        mutate((s) =>
          need().addToolResult(s, {
            toolCallId: entry.toolCallId,
            messageId: entry.messageId,
            content: entry.content as Parameters<Engine['addToolResult']>[1]['content'],
            ...(entry.error !== undefined ? { error: entry.error } : {}),
            ...(at !== undefined ? { at } : {}),
          }),
        );
        break;
      case 'resume':
        answering = need().resumeTaken(thread, entry.resume, entry.runId);
        mutate((s) => need().recordResume(s, entry.resume, entry.runId));
        break;
      case 'resume_taken':
        agentHas = answering;
        break;
      case 'stop': {
        // A resume the agent did not take (no `resume_taken`, nor an earlier version's `answered`): the answers go back.
        const taken = !entry.answered && answering !== agentHas && answering;
        mutate((s) => (taken ? need().reopenInterrupts(cancelRun(s, at), taken) : cancelRun(s, at)));
        pipeline = dropped = answering = undefined;
        opened = false;
        break;
      }
      case 'failed':
        // A request that failed before its first event leaves no stream to go on with.
        if (entry.failure.eventsReceived === 0) {
          pipeline = undefined;
          opened = false;
        }
        thread = requestFailed(thread, entry.failure, runId);
        if (answering && notTaken(entry.failure)) thread = need().reopenInterrupts(thread, answering, entry.failure.cause);
        answering = undefined;
        break;
    }
    return thread;
  };

  return {
    get thread() {
      owned = undefined; // Seen (published mid-batch by a listener's action): what it holds is never written again.
      return thread;
    },
    get streaming() {
      return opened;
    },
    get reconnectable() {
      return dropped !== undefined;
    },
    get eventCount() {
      return events;
    },
    get started() {
      return init !== undefined;
    },
    get resumeAwaiting() {
      return answering !== undefined && answering !== agentHas;
    },
    apply,
    batch(run, seen = true) {
      batching = true;
      try {
        run();
      } finally {
        batching = false;
        owned = undefined;
        // Whatever the batch left holds plain messages again: the thread, the stream's pipeline and one cut off.
        if (seen) {
          if (pipeline) pipeline.update(plainMessages);
          dropped?.update(plainMessages);
          thread = pipeline ? pipeline.state : plainMessages(thread);
        }
      }
    },
    fork(heard) {
      if (batching) throw new Error('aguikit: a machine is forked between batches, never inside one.');
      const [next, cut] = [pipeline?.fork(listeners(heard)), dropped?.fork(listeners(heard))];
      return createThreadMachine(heard, { init, thread, opened, pipeline: next, dropped: cut, runId, events, answering, agentHas });
    },
  };
}
