/**
 * The part of the engine the controller loads on demand (see
 * `engineLoader.ts`): the event pipeline (validate -> expand -> verify ->
 * reduce) and the client transitions that need it, the ones that apply JSON
 * Patch or act on what the agent's events made (tool calls, interrupts).
 * Everything a controller does before its first run (a new thread, the
 * user's message, a stop, a failed request) needs none of it. A request is
 * sent only once the engine has loaded, so what says why it failed
 * (`classifyFailure`) is here too.
 */
import { applyJsonPatch } from '../jsonPatch.js';
import type { Diagnostic, ThreadState } from '../model.js';
import type { JsonPatchOperation } from '../protocol.js';
import { ownJson } from '../reducer/ownJson.js';
import { type ResumeTaken, reopenInterrupts } from '../reducer/run.js';
import { validateEvent } from '../validate.js';
import type { SessionEntryBody } from './sessionLog.js';

export { createEventPipeline } from '../pipeline.js';
export { recordResume, reopenInterrupts, resumeTaken } from '../reducer/run.js';
export { addToolResult, markToolCallExecuting } from '../reducer/toolLocal.js';
export { classifyFailure } from './classifyFailure.js';
export { copyDelta } from './recipeDelta.js';
export { createRecording } from './recording.js';

/**
 * The client's edit of the shared state, as a JSON Patch made against the
 * document it applies to (by immer, from a recipe): applied as the agent's
 * deltas are, atomically, its operations kept as `lastDelta` so the inspector
 * highlights them. A desynced state stays desynced: the edit applies to the
 * document the client has.
 */
/** Why the client's edit cannot apply to the thread's document (RFC 6902's rules, aguikit's limits), or undefined when it can. */
export function clientDeltaRefusal(state: ThreadState, delta: readonly JsonPatchOperation[]): string | undefined {
  const result = applyJsonPatch(state.sharedState.document, delta);
  return result.ok
    ? undefined
    : `operation ${result.operationIndex} (${result.operation === undefined ? '' : JSON.stringify(result.operation).slice(0, 120)}): ${result.message}`;
}

export function clientDelta(state: ThreadState, delta: readonly JsonPatchOperation[]): ThreadState {
  if (delta.length === 0) return state;
  // The values come from the app's recipe: the state owns copies of them, never the app's objects.
  const owned = ownJson(delta);
  const result = applyJsonPatch(state.sharedState.document, owned);
  if (!result.ok) return state;
  return {
    ...state,
    sharedState: {
      ...state.sharedState,
      document: result.document,
      version: state.sharedState.version + 1,
      lastDelta: owned,
      basis: 'client',
    },
  };
}

/** Whether the thread takes `event` as an AG-UI event (a RUN_ERROR without its message it refuses). */
export const takes = (event: unknown): boolean => validateEvent(event).ok;

/**
 * The thread a RUN_ERROR before its stream's RUN_STARTED applies to: one the thread takes is its request (`runId`) refused
 * before its run began, whose run the error ends, as a request that failed before any event is; the run before stays as
 * it ended. A RUN_ERROR the thread refuses (no message) ends nothing, so it opens no run either. A resume's answers
 * (`taken`) go back all the same: the agent said it did not act on them.
 */
export const refusedFirst = (state: ThreadState, event: unknown, runId: string | undefined, taken?: ResumeTaken): ThreadState => {
  const s =
    runId === undefined || runId === state.run.runId || (event as { type?: unknown } | null)?.type !== 'RUN_ERROR' || !takes(event)
      ? state
      : { ...state, run: { runId, status: 'running' as const, steps: [] } };
  return taken ? reopenInterrupts(s, taken) : s;
};

/**
 * Why a client entry of a log cannot apply to the thread: an edit its
 * document cannot take, a tool call or an interrupt it does not hold. Only a
 * log edited by hand holds one (the live controller logs none): a warning
 * that it was not applied, or undefined.
 */
export function entryRefusal(state: ThreadState, entry: SessionEntryBody): Diagnostic | undefined {
  let what: string | undefined;
  if (entry.type === 'state_edit') {
    const why = clientDeltaRefusal(state, entry.delta);
    if (why) what = `the shared state cannot take (${why})`;
  } else if ((entry.type === 'tool_started' || entry.type === 'tool_result') && !state.toolCalls.get(entry.toolCallId))
    what = `names tool call ${JSON.stringify(entry.toolCallId)}, which the thread does not hold`;
  else if (entry.type === 'resume') {
    const open = new Set(state.interrupts.map((it) => it.id));
    const ghosts = entry.resume.filter((r) => !open.has(r.interruptId)).map((r) => JSON.stringify(r.interruptId));
    if (ghosts.length) what = `answers ${ghosts.length} interrupt(s) the thread does not hold open (${ghosts.slice(0, 3).join(', ')})`;
  }
  return what === undefined
    ? undefined
    : { index: -1, code: 'LOG_ENTRY_NOT_APPLIED', severity: 'warning', message: `A ${entry.type} entry ${what}: not applied.` };
}
