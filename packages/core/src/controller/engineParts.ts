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
import type { ContentPart, JsonPatchOperation } from '../protocol.js';
import { withDiagnostics } from '../reducer/eventHelpers.js';
import { ownJson } from '../reducer/ownJson.js';
import { type ResumeTaken, recordResume, reopenInterrupts } from '../reducer/run.js';
import { addToolResult, markToolCallExecuting } from '../reducer/toolLocal.js';
import { validateEvent } from '../validate.js';
import type { NamingEntry } from './sessionLog.js';

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
export function entryRefusal(state: ThreadState, entry: NamingEntry): Diagnostic | undefined {
  let what: string | undefined;
  let outcome = 'not applied';
  if (entry.type === 'state_edit') {
    const why = clientDeltaRefusal(state, entry.delta);
    if (why) what = `the shared state cannot take (${why})`;
  } else if (entry.type !== 'resume') {
    if (!state.toolCalls.get(entry.toolCallId))
      what = `names tool call ${JSON.stringify(entry.toolCallId)}, which the thread does not hold`;
  } else {
    const open = new Set(state.interrupts.map((it) => it.id));
    const ghosts = entry.resume.filter((r) => !open.has(r.interruptId)).map((r) => JSON.stringify(r.interruptId));
    if (ghosts.length) what = `answers ${ghosts.length} interrupt(s) the thread does not hold open (${ghosts.slice(0, 3).join(', ')})`;
    // Those it holds open are answered all the same.
    if (ghosts.length < entry.resume.length) outcome = 'those answers not applied, the others applied';
  }
  return what === undefined
    ? undefined
    : { index: -1, code: 'LOG_ENTRY_NOT_APPLIED', severity: 'warning', message: `A ${entry.type} entry ${what}: ${outcome}.` };
}

/** The thread with the warning that `entry` names what it does not hold (within the thread's limit of them), or the thread itself. */
function warned(state: ThreadState, entry: NamingEntry): ThreadState {
  const refusal = entryRefusal(state, entry);
  return refusal ? withDiagnostics(state, [refusal]) : state;
}

/**
 * A client entry that names what the thread holds, applied at `at`: the
 * client's edit of the document, a frontend tool's start or result, the
 * answers of a resume. One naming what the thread does not hold (an edit the
 * document cannot take, an unknown tool call) changes nothing but the
 * warning it adds; a resume's answers to interrupts not open are left out so.
 */
export function clientEntry(state: ThreadState, entry: NamingEntry, at?: number): ThreadState {
  if (entry.type === 'state_edit') {
    const next = clientDelta(state, entry.delta);
    // The edit applies whole or not at all: the thread is the same one only when it did not (or when it is empty).
    return next === state ? warned(state, entry) : next;
  }
  const said = warned(state, entry);
  if (entry.type === 'resume') return recordResume(said, entry.resume, entry.runId);
  if (said !== state) return said;
  if (entry.type === 'tool_started') return markToolCallExecuting(state, entry.toolCallId);
  return addToolResult(state, {
    toolCallId: entry.toolCallId,
    messageId: entry.messageId,
    content: entry.content as string | ContentPart[],
    ...(entry.error !== undefined ? { error: entry.error } : {}),
    ...(at !== undefined ? { at } : {}),
  });
}
