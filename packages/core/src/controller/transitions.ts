/**
 * The controller's own transition of the thread for a request that failed,
 * pure like the reducer's (the client's edit of the shared state is in
 * `engineParts.ts`: it applies JSON Patch, as the engine does).
 */
import type { ThreadState } from '../model.js';
import type { RunFailure } from './types.js';

/**
 * A request to the agent failed. Before any event of its run arrived, the
 * run is an `error` with the failure's code (the agent never said a word);
 * after events arrived, the run keeps the status its stream left it in
 * (`unknown` when it was cut) and the failure says why.
 */
export function requestFailed(state: ThreadState, failure: RunFailure, runId: string | undefined): ThreadState {
  const error = { message: failure.message, code: failure.code };
  if (failure.eventsReceived > 0) return { ...state, run: { ...state.run, error } };
  const runs = runId === undefined ? state.runs : { ...state.runs, [runId]: { runId, status: 'error' as const } };
  return { ...state, run: { ...(runId !== undefined ? { runId } : {}), status: 'error', error, steps: [] }, runs };
}
