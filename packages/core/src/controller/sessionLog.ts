/**
 * The session log: every change to what the user sees, in the order it was
 * applied. Agent events (as received, valid or not) and the client's own
 * entries (the thread's start, the user's message, a shared-state edit, a
 * frontend tool starting and its result, a resume decision, a stop, a
 * failed request, a reset), with the stream boundaries between them.
 * `replaySession(entries)` gives the thread the controller showed after the
 * last of them: the controller applies entries in log order and nothing else
 * changes its thread.
 */

import type { LoggedEvent } from '../eventLog.js';
import type { ContentPart, JsonPatchOperation, Message, ResumeEntry, UserMessage } from '../protocol.js';
import type { RunFailure } from './types.js';

export type ClientEntry =
  /** The thread starts (or starts again after a reset) with these messages and this document. */
  | { type: 'init'; threadId: string; messages?: readonly Message[]; state?: unknown }
  /** The user's message, appended before the run that sends it. */
  | { type: 'user_message'; message: UserMessage }
  /** A stream opens: a new pipeline over the thread as it is, or (`reconnect`) the dropped stream's pipeline goes on. */
  | { type: 'stream_start'; kind: 'run' | 'resume'; runId: string; reconnect?: boolean }
  /** The stream is over; `open`: it ended inside a run, which stays `unknown` and may be reconnected. */
  | { type: 'stream_end'; open: boolean }
  /** The client's edit of the shared state, as a JSON Patch (a client STATE_DELTA). */
  | { type: 'state_edit'; delta: readonly JsonPatchOperation[] }
  /** The shared state document replaced by the client. */
  | { type: 'state_set'; document: unknown }
  /** A frontend tool's handler started. */
  | { type: 'tool_started'; toolCallId: string }
  /** A frontend tool's result. */
  | { type: 'tool_result'; toolCallId: string; messageId: string; content: string | readonly ContentPart[]; error?: string }
  /** Answers to open interrupts, recorded as the resume that carries them is sent. */
  | { type: 'resume'; runId: string; resume: readonly ResumeEntry[] }
  /** The agent answered the request of a resume that has had no event yet (its event stream opened): the answers are its own from here. */
  | { type: 'resume_taken' }
  /** The user stopped the run (`answered`: a resume the agent had answered, as a log of an earlier version says it). */
  | { type: 'stop'; answered?: boolean }
  /** A request failed before any event of its run arrived. */
  | { type: 'failed'; failure: RunFailure }
  /** Back to the start (the entry after it is the new `init`). */
  | { type: 'reset' };

/** A client entry naming what the thread holds (its document, a tool call, interrupts), which the engine applies. */
export type NamingEntry = Extract<ClientEntry, { type: 'state_edit' | 'tool_started' | 'tool_result' | 'resume' }>;

/** An agent event as it arrived. */
export interface AgentEventEntry {
  type: 'event';
  event: unknown;
  /** Its index among the thread's agent events (what diagnostics name). */
  index: number;
}

export type SessionEntryBody = ClientEntry | AgentEventEntry;

/** One entry of the log: what happened, and when (the controller's clock, ms since the epoch). */
export type SessionEntry = SessionEntryBody & { at: number };

export interface SessionLog {
  readonly entries: readonly SessionEntry[];
  /** The agent events since the last reset, with their indexes: what an event timeline lists. */
  readonly events: readonly LoggedEvent[];
  /** How many agent events since the last reset (the index the next one gets). */
  readonly eventCount: number;
  /** How many resets the log holds: with the thread's id, what tells a thread started anew from the one before. */
  readonly resets: number;
  /** The position in `entries` of each of `events`. */
  entryOf(eventIndex: number): number | undefined;
  append(entry: SessionEntry): void;
  /** An empty log starts as `saved` (a recording's entries), copied whole: one array, not one grown entry by entry. */
  start(saved: readonly SessionEntry[]): void;
}

/**
 * An agent event's log entry, as a class rather than a literal. Nearly every
 * entry outlives its flush (the log keeps it), so V8 would soon allocate a
 * literal at this site straight into the old generation, where storing the
 * new event into it costs a write barrier per event: about a tenth of the
 * whole path from bytes to store (bench case 2). Objects made by `new` are
 * not pretenured. Its fields, in the literal's order, are all it has.
 */
export class EventEntry implements AgentEventEntry {
  readonly type: 'event';
  readonly event: unknown;
  readonly index: number;
  at: number;
  constructor(event: unknown, index: number, at: number) {
    this.type = 'event';
    this.event = event;
    this.index = index;
    this.at = at;
  }
  /** When it arrived, under the name an event log's entry gives it (`LoggedEvent`): on the prototype, so no JSON holds it twice. */
  get receivedAt(): number {
    return this.at;
  }
}

/** A log to append to (the controller's). */
export function createSessionLog(): SessionLog {
  let entries: SessionEntry[] = [];
  let eventCount = 0;
  let resets = 0;
  const count = (entry: SessionEntry) => {
    if (entry.type === 'event') eventCount++;
    else if (entry.type === 'reset') {
      eventCount = 0;
      resets++;
    }
  };
  // The event list and its positions are brought up to date when read, not per event appended.
  let events: LoggedEvent[] = [];
  let positions: number[] = [];
  let scanned = 0;
  const scan = () => {
    for (; scanned < entries.length; scanned++) {
      const entry = entries[scanned] as SessionEntry;
      if (entry.type === 'event') {
        // A live entry is itself a LoggedEvent (its index and event; `at` is when it was applied): no copy per event. A
        // saved one (a plain object) is listed as one, with its `receivedAt`, when the list is first read.
        events.push(entry instanceof EventEntry ? entry : new EventEntry(entry.event, entry.index, entry.at));
        positions.push(scanned);
      } else if (entry.type === 'reset') {
        // A new list: one a component still holds keeps showing what it showed.
        events = [];
        positions = [];
      }
    }
  };
  return {
    get entries() {
      return entries;
    },
    get events() {
      scan();
      return events;
    },
    get eventCount() {
      return eventCount;
    },
    get resets() {
      return resets;
    },
    entryOf(eventIndex) {
      scan();
      return positions[eventIndex];
    },
    append(entry) {
      count(entry);
      entries.push(entry);
    },
    start(saved) {
      entries = saved.slice();
      entries.forEach(count);
    },
  };
}
