/**
 * The controller's own transitions of the thread, pure like the reducer's:
 * the client's edit of the shared state and a request that failed.
 */
import { applyJsonPatch } from '../jsonPatch.js';
import type { ThreadState } from '../model.js';
import type { JsonPatchOperation } from '../protocol.js';
import { ownJson } from '../reducer/ownJson.js';
import type { RunFailure } from './types.js';

/**
 * The client's edit of the shared state, as a JSON Patch made against the
 * document it applies to (by immer, from a recipe): applied as the agent's
 * deltas are, atomically, its operations kept as `lastDelta` so the inspector
 * highlights them. A desynced state stays desynced: the edit applies to the
 * document the client has.
 */
export function clientDelta(state: ThreadState, delta: readonly JsonPatchOperation[]): ThreadState {
  if (delta.length === 0) return state;
  // The values come from the app's recipe: the state owns copies of them, never the app's objects.
  const owned = ownJson(delta);
  const result = applyJsonPatch(state.sharedState.document, owned);
  if (!result.ok) return state;
  return {
    ...state,
    sharedState: { ...state.sharedState, document: result.document, version: state.sharedState.version + 1, lastDelta: owned },
  };
}

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
