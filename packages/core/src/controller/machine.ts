/**
 * Applies session log entries to a thread, one at a time. The controller changes its thread only through this (appending
 * each entry to its log as it applies it), and `replaySession` runs the same code over a saved log: a replay equals the
 * live thread by construction, not by care.
 *
 * The engine (`engineParts.ts`) is given, not imported: the controller loads it on demand and `replaySession` imports it.
 * Only an agent event and the entries that follow from events (a client edit of the shared state aside) need it, and the
 * controller applies none of them before it has loaded.
 */

import type { BatchOwner } from '../batchOwned.js';
import type { ThreadState } from '../model.js';
import type { EventPipeline, PipelineOptions } from '../pipeline.js';
import { batchedMessages, plainMessages } from '../reducer/helpers.js';
import { appendMessages, cancelRun, setSharedDocument } from '../reducer/local.js';
import { type Engine, needed } from './engineLoader.js';
import type { MachineCallbacks, MachineState, ThreadMachine } from './machineTypes.js';
import type { NamingEntry, SessionEntry, SessionEntryBody } from './sessionLog.js';
import { fresh, notTaken, requestFailed } from './transitions.js';

export type { MachineCallbacks, ThreadMachine };

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
  /** The request's `runId` while its stream has begun no run (no RUN_STARTED, no RUN_ERROR taken): a RUN_ERROR then refused it. */
  let unstarted = from?.unstarted;
  /** What that request's resume closed, while its stream has begun no run: a RUN_ERROR, or a failure counting no event, gives it back. */
  let refused = from?.refused;
  let events = from?.events ?? 0;
  /** What the last resume closed, until its stream's first event: a resume the agent never took gives it back. */
  let answering = from?.answering;
  /** The resume whose request the agent answered (`resume_taken`): a stop leaves it the answers; a failure it cannot have taken gives them back. */
  let agentHas = from?.agentHas;
  /** Entries are applied in a batch (see `batch`). */
  let batching = false;
  /** The arrays a batch's run of agent events made, which it writes in place (batchOwned.ts). */
  let owned: BatchOwner | undefined;
  /** Ends the batch's ownership, of the event being reduced too (batchOwned.ts). */
  const disown = () => {
    if (owned) owned.live = false;
    owned = undefined;
  };

  const mutate = (change: (s: ThreadState) => ThreadState) => {
    thread = pipeline ? pipeline.update(change) : change(thread);
    // A stream cut off inside its run may go on (reconnect): what the client did meanwhile goes on with it.
    if (!pipeline) dropped?.update(change);
  };

  const need = (): Engine => needed(callbacks.engine());

  // Diagnostics carry the index the event has among the thread's agent events, across every stream.
  const open = (): EventPipeline => need().createEventPipeline(thread, { startIndex: events, ...listeners(callbacks) });

  /**
   * A client entry, applied by the engine (`clientEntry`): one naming what the thread does not hold (only a log edited by
   * hand has one: the live controller logs none) changes nothing but the warning it adds, told here too.
   */
  const client = (entry: NamingEntry, at: number | undefined) => {
    const seen = thread.diagnostics.length;
    mutate((s) => need().clientEntry(s, entry, at));
    for (const d of thread.diagnostics.slice(seen)) callbacks.onDiagnostic?.(d);
  };

  const apply = (entry: SessionEntryBody): ThreadState => {
    // The entry's time (a saved or live log's) stamps what it builds, so a replay gives the records the same times.
    const at = (entry as Partial<SessionEntry>).at;
    if (batching) mutate(batchedMessages);
    // Another entry may leave two states going on apart (a cut stream, the thread beside it): its arrays are not the batch's.
    if (entry.type !== 'event') disown();
    // Agent events first: the switch compares in order, and nearly every entry is one.
    switch (entry.type) {
      case 'event': {
        const type = (entry.event as { type?: unknown } | null)?.type;
        // An event outside any stream (a hand-made log) opens one, as a stream that sent it would have.
        if (!pipeline) [pipeline, unstarted, refused] = [open(), runId, answering];
        // A RUN_ERROR before the stream's RUN_STARTED refused its request before its run began: it ends the request's run,
        // and a resume's answers go back first.
        if (type === 'RUN_ERROR') {
          mutate((s) => need().refusedFirst(s, entry.event, unstarted, refused));
          refused = undefined;
        }
        // One the thread takes began the request's run (a RUN_ERROR ended it, or the one a retry's earlier failure left):
        // a break after it leaves that run as it ended. One it refuses (no id, no message) began nothing.
        if ((type === 'RUN_STARTED' || type === 'RUN_ERROR') && need().takes(entry.event)) unstarted = refused = undefined;
        opened = true;
        events++;
        answering = undefined;
        if (batching) owned ??= { arrays: new WeakSet(), live: true };
        thread = pipeline.push(entry.event, at, owned);
        break;
      }
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
      case 'state_set':
        mutate((s) => setSharedDocument(s, entry.document));
        break;
      case 'state_edit':
      case 'tool_started':
      case 'tool_result':
        client(entry, at);
        break;
      case 'resume': {
        const taken = need().resumeTaken(thread, entry.resume, entry.runId);
        client(entry, at);
        // A resume that answers only interrupts the thread does not hold open changes nothing: its warning aside.
        if (taken || !entry.resume.length) answering = taken;
        break;
      }
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
      case 'failed': {
        // Events that started no run (the failure counts none) took no resume either: its answers go back.
        const back = answering ?? (pipeline && refused);
        // A request that failed before its first event leaves no stream to go on with.
        if (entry.failure.eventsReceived === 0) {
          pipeline = undefined;
          opened = false;
        }
        // Events that began no run of the request leave the run before as it ended. A stream its
        // events opened and no `stream_end` closed is failed too, so what comes next in it starts from the failure.
        const failed = (s: ThreadState) => requestFailed(s, entry.failure, runId, !unstarted);
        thread = pipeline ? pipeline.update(failed) : failed(thread);
        if (back && notTaken(entry.failure)) thread = need().reopenInterrupts(thread, back, entry.failure.cause);
        answering = refused = undefined;
        break;
      }
    }
    return thread;
  };

  return {
    get thread() {
      disown(); // Seen (published mid-batch by a listener's action): what it holds is never written again.
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
        disown();
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
      const state = { init, thread, opened, pipeline: next, dropped: cut, runId, unstarted, refused, events, answering, agentHas };
      return createThreadMachine(heard, state);
    },
  };
}
