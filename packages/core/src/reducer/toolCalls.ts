import { appended } from '../batchOwned.js';
import type { MessageRecord, ThreadState, ToolCallRecord } from '../model.js';
import type { EventOf } from '../protocol.js';
import { earlier, keyFor, origin, updateMessage, updateToolCall } from './eventHelpers.js';
import { mergeMetadata } from './grow.js';
import { copyThread, defined, putMessage, putToolCall, stamp } from './helpers.js';
import { parseArgs } from './toolArgs.js';
import { keepLastResults } from './toolResult.js';

/**
 * START declares the call and attaches it to its parent assistant message,
 * creating that message when no text event did (a call without
 * `parentMessageId` gets an assistant message of its own, named after it).
 * A START for a call of an earlier run starts a new call: the earlier one is
 * set aside under `<id>#<runId>` (see the key rule in model.ts).
 */
export function startToolCall(state: ThreadState, event: EventOf<'TOOL_CALL_START'>, at?: number): ThreadState {
  const id = event.toolCallId;
  const existing = state.toolCalls.get(id);
  if (existing && !earlier(existing, state)) {
    const metadata = mergeMetadata(existing.metadata, event.metadata);
    return metadata === existing.metadata ? state : putToolCall(state, { ...existing, ...(metadata ? { metadata } : {}) });
  }
  const next = existing ? setAside(state, existing) : state;
  const wanted = event.parentMessageId ?? id;
  const found = next.messages.byId.get(wanted);
  let parentId = found && found.role !== 'assistant' ? id : wanted;
  let parent = next.messages.byId.get(parentId);
  // The message named after the call is an earlier run's: this call gets one of its own.
  if (parent && parentId === id && earlier(parent, next)) {
    parentId = keyFor(id, next.run.runId, (key) => next.messages.byId.has(key));
    parent = undefined;
  }
  const record: ToolCallRecord = {
    id,
    name: event.toolCallName,
    parentMessageId: parentId,
    argsText: '',
    status: 'declared',
    ...origin(event, next),
    ...defined({ metadata: event.metadata }),
  };
  const message: MessageRecord = parent
    ? { ...parent, toolCallIds: appended(parent.toolCallIds, id) }
    : { id: parentId, role: 'assistant', content: '', streaming: false, toolCallIds: [id], ...origin(event, next), ...stamp(at) };
  const placed = putMessage(next, message);
  keepLastResults(next.messages, placed.messages, parent ? undefined : parentId);
  return putToolCall(placed, record);
}

/** Moves an earlier run's call, unchanged, to `<id>#<its runId>`, and points its parent message at it there. */
function setAside(state: ThreadState, call: ToolCallRecord): ThreadState {
  const key = keyFor(call.id, call.runId, (k) => state.toolCalls.has(k));
  const next = copyThread(state);
  next.toolCalls = state.toolCalls.delete(call.id).set(key, call);
  return updateMessage(next, call.parentMessageId ?? '', (m) => ({
    ...m,
    toolCallIds: m.toolCallIds?.map((c) => (c === call.id ? key : c)) ?? [],
  }));
}

/** ARGS appends raw text; parsing waits for END (a partial view is derived when shown). */
export function appendArgs(state: ThreadState, event: EventOf<'TOOL_CALL_ARGS'>, at?: number): ThreadState {
  const known = state.toolCalls.has(event.toolCallId)
    ? state
    : startToolCall(state, { type: 'TOOL_CALL_START', toolCallId: event.toolCallId, toolCallName: '', ...sub(event) }, at);
  return updateToolCall(known, event.toolCallId, (c) => {
    const metadata = mergeMetadata(c.metadata, event.metadata);
    return {
      ...c,
      argsText: c.argsText + event.delta,
      status: c.status === 'declared' ? 'args_streaming' : c.status,
      ...(metadata ? { metadata } : {}),
    };
  });
}

/** END completes the arguments: parsed once here, and the call is `ready`. */
export function endToolCall(state: ThreadState, event: EventOf<'TOOL_CALL_END'>): ThreadState {
  return updateToolCall(state, event.toolCallId, (c) => {
    const metadata = mergeMetadata(c.metadata, event.metadata);
    if (c.status !== 'declared' && c.status !== 'args_streaming')
      return metadata === c.metadata ? c : { ...c, ...(metadata ? { metadata } : {}) };
    const parsed = parseArgs(c.argsText);
    return { ...c, status: 'ready', ...parsed, ...(metadata ? { metadata } : {}) };
  });
}

function sub(event: { subagentRunId?: string }): { subagentRunId?: string } {
  return event.subagentRunId === undefined ? {} : { subagentRunId: event.subagentRunId };
}
