import type { ThreadState } from '../model.js';
import { plainMessages } from '../reducer/helpers.js';
import { stoppable } from '../reducer/local.js';
import type { ThreadMachine } from './machine.js';
import { resumePreloader } from './preload.js';
import { reportThrown } from './report.js';
import { createSessionLog, EventEntry, type SessionEntry, type SessionEntryBody, type SessionLog } from './sessionLog.js';
import type { Stream } from './stream.js';
import type { RunSnapshot } from './types.js';

/**
 * Where a controller's thread changes and is published: every change is an
 * entry appended to the session log and applied by the machine, and the
 * snapshot bindings read is replaced (and listeners told) once per batch or
 * action, never per event.
 */
export interface Journal {
  readonly log: SessionLog;
  readonly snapshot: RunSnapshot;
  /**
   * Appends an entry and applies it. `entry` must be a fresh object: it
   * becomes the log's. Recorded while another entry applies (an action called
   * by `onEvent` or `onDiagnostic`), it is applied right after that one.
   */
  record(entry: SessionEntryBody, at?: number): void;
  /** Applies a stream's waiting events (one clock reading for the batch) and publishes. */
  flush(stream: Stream): void;
  /**
   * A client change: the current stream's waiting events are applied first, so the log's order is the order things
   * happened. `still`: whether the change holds once they have (their `onEvent` may have stopped or reset the thread):
   * when it says no, nothing is recorded.
   */
  client(entry: SessionEntryBody, current: Stream | undefined, still?: () => boolean): void;
  /**
   * Runs `work` now, or, while an entry is being applied (an action called
   * from `onEvent`), right after it: what the action reads (the document an
   * edit starts from, the history a request sends) is then the thread that
   * entry left, and what it records follows it.
   */
  later(work: () => void): void;
  /** An entry is being applied: what an action does now waits for it (see `later`). */
  readonly busy: boolean;
  /** Replaces the snapshot with the thread as it is and `patch`, and tells every listener. */
  publish(patch?: Partial<RunSnapshot>): void;
  /**
   * Starts the log: a saved session's entries, applied as they were (a stream
   * it left open ends cut off: nothing of it streams here; `asRecorded`
   * leaves it open, as it was recorded), or a new thread's `init` entry.
   * `applied`: the machine is already where the saved entries lead (a
   * recording's), which the log then holds as they are. Then publishes.
   */
  open(
    saved: readonly SessionEntry[] | undefined,
    init: Extract<SessionEntryBody, { type: 'init' }>,
    asRecorded?: boolean,
    applied?: boolean,
  ): void;
  /**
   * Ends what the log leaves under way, for a controller made from it (a
   * remount's, a reload's): an open stream (`open`: cut off inside its run,
   * as a reload shows it), a frontend tool (stopped: its handler runs no
   * more, and the next request answers its call), a resume with no event
   * yet (its interrupts given back, as `stop()` gives them).
   */
  endLeftOpen(open: boolean): void;
  subscribe(listener: () => void): () => void;
  /** Forgets every listener. */
  close(): void;
}

/** Calls a listener; what it throws is reported (as `tellApp` does, without its list of arguments). */
function tell(listener: () => void): void {
  try {
    listener();
  } catch (e) {
    reportThrown(e);
  }
}

export function createJournal(machine: ThreadMachine, clock: () => number): Journal {
  const log = createSessionLog();
  /**
   * One per subscribe call (the same function twice is two subscriptions).
   * A change is told to the subscriptions there were when it was published,
   * less any removed meanwhile: one added while listeners are told hears the
   * next change. `told` is that list, made again only after a change to it.
   */
  const subscriptions = new Set<{ listener: () => void; on: boolean }>();
  let told: { listener: () => void; on: boolean }[] | undefined;
  let closed = false;
  const preloadResume = resumePreloader();
  let snapshot: RunSnapshot = {
    thread: machine.thread,
    connection: 'idle',
    eventCount: 0,
    logLength: 0,
    resets: 0,
    decisions: [],
    destroyed: false,
  };
  const thread = (): ThreadState => machine.thread;
  /**
   * An entry is being applied (its event's `onEvent` may be running): what an
   * action does meanwhile waits here, in order, and runs right after it, on
   * the thread that entry leaves.
   */
  let applying = false;
  const after: (() => void)[] = [];
  const apply = (entry: SessionEntry) => {
    if (applying) {
      after.push(() => apply(entry));
      return;
    }
    applying = true;
    try {
      machine.apply(entry);
    } catch (e) {
      // An entry that threw (an engine that is not there): what waited on it is not done out of order later.
      after.length = 0;
      throw e;
    } finally {
      applying = false;
    }
    // What was asked for while it applied, in order, on the thread it left; what one of them records applies (and
    // runs what waits after it) before the next one runs.
    for (let next = after.shift(); next; next = after.shift()) next();
  };
  /** Appends and applies a batch's events, all received at `at`. */
  const applyEvents = (stream: Stream, batch: readonly unknown[], at: number) => {
    for (let i = 0; i < batch.length; i++) {
      const entry: SessionEntry = new EventEntry(batch[i], log.eventCount, at);
      log.append(entry);
      apply(entry);
      // A listener of the event (onEvent, onDiagnostic) stopped or reset the run: the rest of the batch is dropped with it.
      if (!stream.live) break;
    }
  };
  /** An empty list for the next batch: with one flush per event, a list per flush would be an allocation per event. */
  let spare: unknown[] | undefined;
  const journal: Journal = {
    log,
    get snapshot() {
      return snapshot;
    },
    record(entry, at = clock()) {
      const logged = entry as SessionEntry;
      logged.at = at;
      log.append(logged);
      apply(logged);
    },
    flush(stream) {
      stream.cancelFlush?.();
      stream.cancelFlush = undefined;
      if (!stream.live || stream.pending.length === 0) return;
      const batch = stream.pending;
      stream.pending = spare ?? [];
      spare = undefined;
      // One clock reading per batch: the batch was received within one frame.
      const at = clock();
      // A frame of many events is one batch (a message more does not copy the ids of all before it), seen at its end.
      if (batch.length > 1) machine.batch(() => applyEvents(stream, batch, at));
      else applyEvents(stream, batch, at);
      // Emptied by pop, which keeps the array's storage (setting the length to 0 would drop it), for the next batch.
      while (batch.length) batch.pop();
      spare = batch;
      preloadResume(thread().interrupts);
      journal.publish();
    },
    get busy() {
      return applying;
    },
    later(work) {
      if (applying) after.push(work);
      else work();
    },
    client(entry, current, still) {
      if (current) journal.flush(current);
      if (!still || still()) journal.record(entry);
    },
    publish(patch) {
      // A destroyed controller's last snapshot stays what it was.
      if (closed) return;
      // Published from an action an entry's listener called: what it recorded applies after that entry, and then
      // the thread is published again, so the snapshot is never left showing the thread from before it.
      if (applying) after.push(() => journal.publish());
      const s = patch ? { ...snapshot, ...patch } : snapshot;
      // The agent answered a resume's request (its stream opens): the log says so, for a stop or a reload before its first event.
      if (patch?.connection === 'open' && machine.resumeAwaiting) journal.record({ type: 'resume_taken' });
      // A literal of every field: one object per publish, however often a stream publishes.
      snapshot = {
        // Published from inside a batch (by a listener's action), the thread is handed out plain all the same.
        thread: plainMessages(thread()),
        connection: s.connection,
        // Only while reconnecting: any other state of the connection ends the retry it numbered.
        reconnecting: s.connection === 'reconnecting' ? s.reconnecting : undefined,
        failure: s.failure,
        refusal: s.refusal,
        inFlight: s.inFlight,
        eventCount: log.eventCount,
        logLength: log.entries.length,
        resets: log.resets,
        decisions: s.decisions,
        destroyed: s.destroyed,
        capabilities: s.capabilities,
      };
      // A listener's bug is the app's: the others still hear the change, and the stream goes on.
      // None after destroy, though the destroy came from one of them.
      told ??= [...subscriptions];
      for (const sub of told) if (sub.on && !closed) tell(sub.listener);
    },
    subscribe(listener) {
      const subscription = { listener, on: true };
      subscriptions.add(subscription);
      told = undefined;
      return () => {
        subscription.on = false;
        if (subscriptions.delete(subscription)) told = undefined;
      };
    },
    close() {
      closed = true;
      for (const sub of subscriptions) sub.on = false;
      subscriptions.clear();
      told = undefined;
    },
    endLeftOpen(open) {
      const answers = machine.resumeAwaiting;
      if (machine.streaming) journal.record({ type: 'stream_end', open });
      if (answers || stoppable(machine.thread)) journal.record({ type: 'stop' });
    },
    open(saved, init, asRecorded, applied) {
      if (saved?.length) {
        if (applied) log.start(saved);
        // One batch, seen only at its end: a log of thousands of messages loads in linear time.
        else
          machine.batch(() => {
            for (const entry of saved) journal.record({ ...entry } as SessionEntryBody, entry.at);
          });
        if (!asRecorded) journal.endLeftOpen(true);
      } else journal.record(init);
      journal.publish();
    },
  };
  return journal;
}
