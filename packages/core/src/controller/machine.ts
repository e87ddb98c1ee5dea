/**
 * Applies session log entries to a thread, one at a time. The controller
 * changes its thread only through this (appending each entry to its log as it
 * applies it), and `replaySession` runs the same code over a saved log: a
 * replay equals the live thread by construction, not by care.
 */
import type { ExpandedEvent } from '../expand.js';
import type { Diagnostic, ThreadState } from '../model.js';
import { createEventPipeline, type EventPipeline } from '../pipeline.js';
import { createThreadState } from '../reducer/index.js';
import { addToolResult, appendMessages, cancelRun, markToolCallExecuting, setSharedDocument } from '../reducer/local.js';
import { recordResume } from '../reducer/run.js';
import type { SessionEntry, SessionEntryBody } from './sessionLog.js';
import { clientDelta, requestFailed } from './transitions.js';

export interface MachineCallbacks {
  /** Every event that reaches the reducer, with its index among the thread's agent events. */
  onEvent?: (event: ExpandedEvent, index: number) => void;
  onDiagnostic?: ((diagnostic: Diagnostic) => void) | undefined;
}

export interface ThreadMachine {
  readonly thread: ThreadState;
  /** A stream is open (events go to its pipeline). */
  readonly streaming: boolean;
  /** A stream ended inside its run and can go on (`stream_start` with `reconnect`). */
  readonly reconnectable: boolean;
  /** How many agent events were applied. */
  readonly eventCount: number;
  apply(entry: SessionEntryBody): ThreadState;
}

type Init = Extract<SessionEntryBody, { type: 'init' }>;

function fresh(init: Init | undefined): ThreadState {
  if (!init) return createThreadState();
  const base = createThreadState({ threadId: init.threadId, ...(init.state !== undefined ? { state: init.state } : {}) });
  return init.messages?.length ? appendMessages(base, init.messages) : base;
}

export function createThreadMachine(callbacks: MachineCallbacks = {}): ThreadMachine {
  let init: Init | undefined;
  let thread = fresh(undefined);
  let pipeline: EventPipeline | undefined;
  let dropped: EventPipeline | undefined;
  let runId: string | undefined;
  let events = 0;

  const mutate = (change: (s: ThreadState) => ThreadState) => {
    thread = pipeline ? pipeline.update(change) : change(thread);
  };

  const open = (): EventPipeline =>
    createEventPipeline(thread, {
      // Diagnostics carry the index the event has among the thread's agent events, across every stream.
      startIndex: events,
      ...(callbacks.onEvent ? { onEvent: callbacks.onEvent } : {}),
      ...(callbacks.onDiagnostic ? { onDiagnostic: callbacks.onDiagnostic } : {}),
    });

  const apply = (entry: SessionEntryBody): ThreadState => {
    // The entry's time (a saved or live log's) stamps what it builds, so a replay gives the records the same times.
    const at = (entry as Partial<SessionEntry>).at;
    // Agent events first: the switch compares in order, and nearly every entry is one.
    switch (entry.type) {
      case 'event':
        // An event outside any stream (a hand-made log) opens one, as a stream that sent it would have.
        pipeline ??= open();
        events++;
        thread = pipeline.push(entry.event, at);
        break;
      case 'init':
        init = entry;
        thread = fresh(init);
        pipeline = dropped = undefined;
        break;
      case 'reset':
        thread = fresh(init);
        pipeline = dropped = undefined;
        // Event indexes start again, as the event list does.
        events = 0;
        break;
      case 'user_message':
        mutate((s) => appendMessages(s, [entry.message], at));
        break;
      case 'stream_start':
        runId = entry.runId;
        pipeline = entry.reconnect && dropped ? dropped : open();
        dropped = undefined;
        thread = pipeline.state;
        break;
      case 'stream_end': {
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
        mutate((s) => clientDelta(s, entry.delta));
        break;
      case 'state_set':
        mutate((s) => setSharedDocument(s, entry.document));
        break;
      case 'tool_started':
        mutate((s) => markToolCallExecuting(s, entry.toolCallId));
        break;
      case 'tool_result':
        mutate((s) =>
          addToolResult(s, {
            toolCallId: entry.toolCallId,
            messageId: entry.messageId,
            content: entry.content as Parameters<typeof addToolResult>[1]['content'],
            ...(entry.error !== undefined ? { error: entry.error } : {}),
            ...(at !== undefined ? { at } : {}),
          }),
        );
        break;
      case 'resume':
        mutate((s) => recordResume(s, entry.resume, entry.runId));
        break;
      case 'stop':
        mutate((s) => cancelRun(s, at));
        pipeline = dropped = undefined;
        break;
      case 'failed':
        // A request that failed before its first event leaves no stream to go on with.
        if (entry.failure.eventsReceived === 0) pipeline = undefined;
        thread = requestFailed(thread, entry.failure, runId);
        break;
    }
    return thread;
  };

  return {
    get thread() {
      return thread;
    },
    get streaming() {
      return pipeline !== undefined;
    },
    get reconnectable() {
      return dropped !== undefined;
    },
    get eventCount() {
      return events;
    },
    apply,
  };
}

/**
 * The thread a session log leads to: the entries applied in order, as the
 * controller applied them live. A stream still open at the end of the list is
 * left open (a run still running is `running`, not truncated).
 *
 * @example
 * const { entries } = parseSession(text);
 * const thread = replaySession(entries);
 */
export function replaySession(entries: readonly (SessionEntry | SessionEntryBody)[]): ThreadState {
  const machine = createThreadMachine();
  for (const entry of entries) machine.apply(entry);
  return machine.thread;
}
