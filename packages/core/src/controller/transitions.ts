/**
 * The controller's own transitions of the thread, for a start and for a
 * request that failed, pure like the reducer's (the client's edit of the shared state is in
 * `engineParts.ts`: it applies JSON Patch, as the engine does).
 */
import type { ThreadState } from '../model.js';
import { appendMessages } from '../reducer/local.js';
import { createThreadState } from '../reducer/thread.js';
import type { SessionEntryBody } from './sessionLog.js';
import type { RunFailure } from './types.js';

export type Init = Extract<SessionEntryBody, { type: 'init' }>;

/** The thread an `init` entry starts (an empty one without). */
export function fresh(init: Init | undefined): ThreadState {
  if (!init) return createThreadState();
  const base = createThreadState({ threadId: init.threadId, ...(init.state !== undefined ? { state: init.state } : {}) });
  return init.messages?.length ? appendMessages(base, init.messages) : base;
}

/**
 * A request to the agent failed. Before any event of its run arrived (none, or
 * none `begun` it: no RUN_STARTED, nor a RUN_ERROR that ended it), the run is an `error` with the failure's
 * code (the agent never said a word of it), or `unknown` when the agent
 * answered and the connection broke after it; the run before stays as it
 * ended. After its run began, the run keeps the status its stream left it in
 * (`unknown` when it was cut) and the failure says why.
 */
export function requestFailed(state: ThreadState, failure: RunFailure, runId: string | undefined, begun = true): ThreadState {
  const error = { message: failure.message, code: failure.code };
  if (failure.eventsReceived > 0 && begun) return { ...state, run: { ...state.run, error } };
  // The agent answered before the connection broke: it may be running the request, so its run is not known to have failed.
  const status = failure.code === 'CONNECTION_LOST' ? ('unknown' as const) : ('error' as const);
  const runs = runId === undefined ? state.runs : { ...state.runs, [runId]: { runId, status } };
  return { ...state, run: { ...(runId !== undefined ? { runId } : {}), status, error, steps: [] }, runs };
}

/**
 * The agent cannot have taken the request: no event came, and what answered
 * was no event stream that broke (a refusal, an error status, a page that is
 * no stream, or nothing at all). A resume it did not take gives its
 * interrupts back (unless they were answered first elsewhere, a `cause` of
 * `ALREADY_ANSWERED`: they stay closed, without this answer; see
 * `reopenInterrupts`); one that broke after an event stream answered may be
 * under way at the agent, so it does not.
 */
export const notTaken = (failure: RunFailure): boolean => failure.eventsReceived === 0 && failure.code !== 'CONNECTION_LOST';
