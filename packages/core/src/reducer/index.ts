import { error, warning } from '../diagnostics.js';
import type { ExpandedEvent } from '../expand.js';
import type { ThreadState } from '../model.js';
import { type AgUiEvent, type EventOf, isAgUiEvent, type UnknownEvent } from '../protocol.js';
import { appendBounded, withDiagnostics } from './eventHelpers.js';
import { copyThread, defined } from './helpers.js';
import { messagesSnapshot } from './messagesSnapshot.js';
import { ownEvent } from './ownEvent.js';
import { COPY_DEPTH, JsonTooDeep, nestsWithin, ownJson } from './ownJson.js';
import { runError, runFinished, runStarted } from './run.js';
import { activityDelta, activitySnapshot, stateDelta, stateSnapshot, stateTooDeep } from './sharedState.js';
import { stepFinished, stepStarted } from './steps.js';
import { subagentError, subagentFinished, subagentStarted } from './subagents.js';
import { appendContent, encryptedValue, endMessage, endReasoningSpan, idOfAnother, startMessage, startReasoningSpan } from './text.js';
import { appendArgs, endToolCall, startToolCall } from './toolCalls.js';
import { toolResultOwnId } from './toolResult.js';

export { createThreadState, type ThreadStateInit } from './thread.js';

/**
 * The time of an event: its `timestamp`, else `receivedAt` (a clock is read
 * only when the event needs a time: not for a delta into a message or call
 * that exists, which spares a clock reading per token).
 */
function timeOf(state: ThreadState, event: ExpandedEvent | AgUiEvent, receivedAt: number | (() => number) | undefined): number | undefined {
  const { timestamp } = event as { timestamp?: unknown };
  if (typeof timestamp === 'number') return timestamp;
  if (typeof receivedAt !== 'function') return receivedAt;
  const { type, messageId, toolCallId } = event as { type: string; messageId?: unknown; toolCallId?: unknown };
  const args = type === 'TOOL_CALL_ARGS';
  const id = args ? toolCallId : type === 'TEXT_MESSAGE_CONTENT' || type === 'REASONING_MESSAGE_CONTENT' ? messageId : undefined;
  if (typeof id === 'string' && (args ? state.toolCalls : state.messages.byId).has(id)) return undefined;
  return receivedAt();
}

/**
 * The pure reducer of a thread: the state after one event. Total over every
 * AG-UI 1.0 event type; an unknown type is kept in `unknownEvents`. It never
 * throws and never mutates `state`: every record the event does not change
 * keeps its identity, and finding a message or tool call costs O(1) at any
 * thread length. An event holding a value nested deeper than MAX_JSON_DEPTH
 * is not applied (a `TOO_DEEP` diagnostic says so). Feed it expanded events (see `createExpander`); `index` is
 * the event's arrival index, written into the diagnostics it adds.
 *
 * It reads no clock of its own: the time of an event is its `timestamp`,
 * else `receivedAt` when given (the time the caller received it, or the
 * caller's clock, read only when the event needs a time), else none. And it
 * copies what it keeps of the event: the caller may reuse or change the
 * event afterwards (see the rules in model.ts).
 *
 * @example
 * const next = reduceThread(state, { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'Hi' });
 * const timed = reduceThread(state, { type: 'TEXT_MESSAGE_START', messageId: 'm2' }, state.eventCount, Date.now());
 */
export function reduceThread(
  state: ThreadState,
  event: ExpandedEvent | AgUiEvent,
  index: number = state.eventCount,
  receivedAt?: number | (() => number),
): ThreadState {
  const at = timeOf(state, event, receivedAt);
  let next: ThreadState;
  try {
    next = apply(state, event, index, at);
  } catch (e) {
    if (!(e instanceof JsonTooDeep)) throw e;
    next = tooDeep(state, event, index, at, e);
  }
  if (next === state) {
    const copy = copyThread(state);
    copy.eventCount = state.eventCount + 1;
    return copy;
  }
  // Every aspect returns a fresh object when it changes anything: counting on it spares a second copy of the state.
  (next as { eventCount: number }).eventCount = state.eventCount + 1;
  return next;
}

/** Events that start or end a run: one of them lost would leave the run's status wrong. */
const LIFECYCLE: ReadonlySet<string> = new Set(['RUN_STARTED', 'RUN_FINISHED', 'RUN_ERROR']);
/** What such an event says of the run itself, kept whatever else of it is dropped. */
const ESSENTIAL: ReadonlySet<string> = new Set(['type', 'threadId', 'runId', 'parentRunId', 'outcome', 'message', 'code', 'timestamp']);

/**
 * An event holding a value nested past COPY_DEPTH. The reducer is pure, so
 * `state` is as it was: the event is refused whole (`TOO_DEEP`), except a
 * run's start or end, which applies without its too-deep extras (a result, a
 * run input, metadata), so that a finished run is not taken for a lost one.
 */
function tooDeep(
  state: ThreadState,
  event: ExpandedEvent | AgUiEvent,
  index: number,
  at: number | undefined,
  why: JsonTooDeep,
): ThreadState {
  const said = `${event.type}: a value ${why.message}; the event is not applied.`;
  const refused = () => withDiagnostics(state, [error(index, event.type, 'TOO_DEEP', said)]);
  if (event.type === 'STATE_SNAPSHOT' || event.type === 'STATE_DELTA')
    return withDiagnostics(stateTooDeep(state, event as EventOf<'STATE_SNAPSHOT' | 'STATE_DELTA'>, index, `a value ${why.message}`), [
      error(index, event.type, 'TOO_DEEP', said),
    ]);
  if (!LIFECYCLE.has(event.type)) return refused();
  const fields = event as unknown as Record<string, unknown>;
  const kept: Record<string, unknown> = {};
  const dropped: string[] = [];
  for (const key of Object.keys(fields)) {
    if (ESSENTIAL.has(key) || nestsWithin(fields[key], COPY_DEPTH - 1)) kept[key] = fields[key];
    else dropped.push(key);
  }
  // An outcome's interrupts are what the run waits on: each is kept, without a field of its own too deep (a schema).
  const outcome = kept.outcome as { interrupts?: unknown } | undefined;
  if (outcome && Array.isArray(outcome.interrupts) && !nestsWithin(outcome, COPY_DEPTH - 1)) {
    const interrupts = outcome.interrupts.map((it: unknown, i) => {
      if (typeof it !== 'object' || it === null || Array.isArray(it)) return it;
      const own: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(it)) {
        if (nestsWithin(value, COPY_DEPTH - 4)) own[key] = value;
        else dropped.push(`outcome.interrupts[${i}].${key}`);
      }
      return own;
    });
    kept.outcome = { ...outcome, interrupts };
  }
  if (dropped.length === 0) return refused();
  try {
    const next = apply(state, kept as unknown as AgUiEvent, index, at);
    const said = `${event.type}: ${dropped.join(', ')} ${why.message}; dropped, and the rest of the event applied.`;
    return withDiagnostics(next, [warning(index, event.type, 'TOO_DEEP', said)]);
  } catch (e) {
    if (e instanceof JsonTooDeep) return refused();
    throw e;
  }
}

function apply(state: ThreadState, raw: ExpandedEvent | AgUiEvent, index: number, at: number | undefined): ThreadState {
  if (!isAgUiEvent(raw)) return { ...state, unknownEvents: appendBounded(state.unknownEvents, ownJson(raw as UnknownEvent)) };
  // A delta without metadata (a token) carries nothing a record keeps but strings: nothing to copy.
  const event = typeof (raw as { delta?: unknown }).delta === 'string' && raw.metadata === undefined ? raw : ownEvent(raw);
  switch (event.type) {
    case 'RUN_STARTED':
      return runStarted(state, event, index, at);
    case 'RUN_FINISHED':
      return runFinished(state, event, at);
    case 'RUN_ERROR':
      return runError(state, event, at);
    case 'STEP_STARTED':
      return stepStarted(state, event);
    case 'STEP_FINISHED':
      return stepFinished(state, event);
    case 'TEXT_MESSAGE_START':
    case 'REASONING_MESSAGE_START':
      return idOfAnother(state, event, index) ?? startMessage(state, event, at);
    case 'TEXT_MESSAGE_CONTENT':
    case 'REASONING_MESSAGE_CONTENT': {
      // Found once for both: a token is looked up by its id once, not twice.
      const existing = state.messages.byId.get(event.messageId);
      return idOfAnother(state, event, index, existing) ?? appendContent(state, event, at, existing);
    }
    case 'TEXT_MESSAGE_END':
    case 'REASONING_MESSAGE_END':
      return idOfAnother(state, event, index) ?? endMessage(state, event, at);
    case 'TOOL_CALL_START':
      return startToolCall(state, event, at);
    case 'TOOL_CALL_ARGS':
      return appendArgs(state, event, at);
    case 'TOOL_CALL_END':
      return endToolCall(state, event);
    case 'TOOL_CALL_RESULT':
      return toolResultOwnId(state, event, index, at);
    case 'STATE_SNAPSHOT':
      return stateSnapshot(state, event);
    case 'STATE_DELTA':
      return stateDelta(state, event, index);
    case 'MESSAGES_SNAPSHOT':
      return messagesSnapshot(state, event, at);
    case 'ACTIVITY_SNAPSHOT':
      return activitySnapshot(state, event, index, at);
    case 'ACTIVITY_DELTA':
      return activityDelta(state, event, index);
    case 'REASONING_START':
      return startReasoningSpan(state, event);
    case 'REASONING_END':
      return endReasoningSpan(state, event);
    case 'REASONING_ENCRYPTED_VALUE':
      return encryptedValue(state, event, index);
    case 'SUBAGENT_STARTED':
      return subagentStarted(state, event);
    case 'SUBAGENT_FINISHED':
      return subagentFinished(state, event);
    case 'SUBAGENT_ERROR':
      return subagentError(state, event);
    case 'CUSTOM':
      return { ...state, custom: appendBounded(state.custom, { name: event.name, value: event.value as unknown, ...sub(event) }) };
    case 'RAW':
      return {
        ...state,
        raw: appendBounded(state.raw, {
          event: event.event as unknown,
          ...defined({ source: event.source }),
          ...sub(event),
        }),
      };
    case 'TEXT_MESSAGE_CHUNK':
    case 'TOOL_CALL_CHUNK':
    case 'REASONING_MESSAGE_CHUNK':
      return withDiagnostics(state, [
        warning(
          index,
          event.type,
          'UNEXPANDED_CHUNK',
          `${event.type} reached the reducer unexpanded; pass events through createExpander (replayEvents does). Ignored.`,
        ),
      ]);
    default:
      event satisfies never;
      return state;
  }
}

/** The attribution and metadata a CUSTOM or RAW record keeps of its event. */
const sub = (event: { subagentRunId?: string; metadata?: Record<string, unknown> }) =>
  defined({ subagentRunId: event.subagentRunId, metadata: event.metadata });
