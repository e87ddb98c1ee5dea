/**
 * Transitions a client makes on its own, outside the agent's event stream:
 * the user's message, a stop, an edit of the shared state (a frontend tool's
 * run and result are in `toolLocal.ts`). Pure, like the reducer, so a store stays a thin holder.
 */
import type { ThreadState } from '../model.js';
import type { Message } from '../protocol.js';
import { defined, putMessage, putToolCall, settleSubagents, streamingIds } from './helpers.js';
import { addInputMessages } from './messages.js';
import { ownJson } from './ownJson.js';

/**
 * Appends messages the client sends (the user's turn) unless their id is
 * known, copied (the state owns them), made at `at` when given. Each is the
 * client's alone (`source: 'client'`) until a run's input or a snapshot
 * restates it.
 *
 * @example
 * state = appendMessages(state, [{ id: 'u1', role: 'user', content: 'Refund order A-1' }], Date.now());
 */
export function appendMessages(state: ThreadState, messages: readonly Message[], at?: number): ThreadState {
  return addInputMessages(state, ownJson(messages), at, 'client');
}

/**
 * The user stopped the run (at `at`, when given): a running run is
 * `cancelled`, nothing is left streaming (in a run or not: an agent may
 * stream without RUN_STARTED), and no tool call is left waiting: one whose
 * arguments were streaming, or a frontend tool still running (after the
 * run's end too), fails as stopped.
 */
export function cancelRun(state: ThreadState, at?: number): ThreadState {
  const running = state.run.status === 'running';
  let next = state;
  if (running) {
    const runId = state.run.runId;
    next = {
      ...state,
      run: { ...state.run, status: 'cancelled', outcome: 'cancelled', steps: [] },
      ...(runId !== undefined
        ? { runs: { ...state.runs, [runId]: { ...(state.runs[runId] ?? { runId }), status: 'cancelled' as const } } }
        : {}),
    };
  }
  // Whatever the agent was still sending stops, in a run or not (an agent that never said RUN_STARTED).
  for (const id of streamingIds(state)) {
    const m = state.messages.byId.get(id);
    if (m?.streaming) next = putMessage(next, { ...m, streaming: false, stopped: true, ...defined({ endedAt: at }) });
  }
  for (const call of state.toolCalls) {
    // A call of the stopped run still waiting for its result (none waiting on an interrupt) will not get one either.
    const waiting = call.status === 'ready' && !call.interruptId && call.runId === state.run.runId;
    const halfSent = call.status === 'declared' || call.status === 'args_streaming';
    if (call.status === 'executing' || halfSent || (running && waiting))
      next = putToolCall(next, { ...call, status: 'failed', failure: 'the run was stopped', failureCode: 'STOPPED' });
  }
  if (running) next = settleSubagents(next, { status: 'cancelled' });
  return next;
}

/** Whether a stop changes `state` (see `cancelRun`) once no stream is open: its run is running, or a frontend tool is. */
export function stoppable(state: ThreadState): boolean {
  if (state.run.status === 'running') return true;
  for (const call of state.toolCalls) if (call.status === 'executing') return true;
  return false;
}

/**
 * The frontend's edit of the shared state document, sent with the next run.
 * The document is copied, except the subtrees it shares with the current one
 * (already the state's): an edit made by spreading costs what it changed.
 */
export function setSharedDocument(state: ThreadState, document: unknown): ThreadState {
  if (Object.is(document, state.sharedState.document)) return state;
  const owned = ownJson(document, state.sharedState.document);
  return { ...state, sharedState: { ...state.sharedState, document: owned, version: state.sharedState.version + 1, basis: 'client' } };
}
