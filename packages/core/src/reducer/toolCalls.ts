import type { MessageRecord, ThreadState, ToolCallRecord } from '../model.js';
import type { EventOf } from '../protocol.js';
import { mergeMetadata, origin, putMessage, putToolCall, updateToolCall } from './helpers.js';

/**
 * START declares the call and attaches it to its parent assistant message,
 * creating that message when no text event did (a call without
 * `parentMessageId` gets an assistant message of its own, named after it).
 */
export function startToolCall(state: ThreadState, event: EventOf<'TOOL_CALL_START'>): ThreadState {
  const existing = state.toolCalls.get(event.toolCallId);
  if (existing) {
    const metadata = mergeMetadata(existing.metadata, event.metadata);
    return metadata === existing.metadata ? state : putToolCall(state, { ...existing, ...(metadata ? { metadata } : {}) });
  }
  const wanted = event.parentMessageId ?? event.toolCallId;
  const found = state.messages.byId.get(wanted);
  const parentId = found && found.role !== 'assistant' ? event.toolCallId : wanted;
  const parent = state.messages.byId.get(parentId);
  const record: ToolCallRecord = {
    id: event.toolCallId,
    name: event.toolCallName,
    parentMessageId: parentId,
    argsText: '',
    status: 'declared',
    ...origin(event, state),
    ...(event.metadata !== undefined ? { metadata: event.metadata } : {}),
  };
  const message: MessageRecord = parent
    ? { ...parent, toolCallIds: [...(parent.toolCallIds ?? []), record.id] }
    : { id: parentId, role: 'assistant', content: '', streaming: false, toolCallIds: [record.id], ...origin(event, state) };
  return putToolCall(putMessage(state, message), record);
}

/** ARGS appends raw text; parsing waits for END (a partial view is derived when shown). */
export function appendArgs(state: ThreadState, event: EventOf<'TOOL_CALL_ARGS'>): ThreadState {
  const known = state.toolCalls.has(event.toolCallId)
    ? state
    : startToolCall(state, { type: 'TOOL_CALL_START', toolCallId: event.toolCallId, toolCallName: '', ...sub(event) });
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
    if (c.status !== 'declared' && c.status !== 'args_streaming') return c;
    const metadata = mergeMetadata(c.metadata, event.metadata);
    const parsed = parseArgs(c.argsText);
    return { ...c, status: 'ready', ...parsed, ...(metadata ? { metadata } : {}) };
  });
}

export function parseArgs(text: string): Pick<ToolCallRecord, 'args' | 'argsError'> {
  if (text.trim() === '') return { args: {} };
  try {
    return { args: JSON.parse(text) as unknown };
  } catch (e) {
    return { argsError: `arguments are not valid JSON: ${e instanceof Error ? e.message : String(e)}` };
  }
}

/**
 * RESULT mints a tool message placed after the assistant message that made
 * the call (after the tool messages already there), and settles the call
 * (a failed tool reports its failure in the content; 1.0 results carry no error field).
 */
export function toolResult(state: ThreadState, event: EventOf<'TOOL_CALL_RESULT'>): ThreadState {
  const message: MessageRecord = {
    id: event.messageId,
    role: 'tool',
    content: event.content,
    streaming: false,
    toolCallId: event.toolCallId,
    ...origin(event, state),
    ...(event.metadata !== undefined ? { metadata: event.metadata } : {}),
  };
  let next = state.messages.byId.has(message.id) ? putMessage(state, message) : insertAfterCaller(state, message);
  next = updateToolCall(next, event.toolCallId, (c) => {
    const { interruptId: _answered, ...rest } = c;
    return {
      ...rest,
      status: 'succeeded',
      result: { messageId: event.messageId, content: event.content },
    };
  });
  return next;
}

function insertAfterCaller(state: ThreadState, message: MessageRecord): ThreadState {
  const call = state.toolCalls.get(message.toolCallId ?? '');
  const { ids, byId } = state.messages;
  let at = call?.parentMessageId === undefined ? -1 : ids.lastIndexOf(call.parentMessageId);
  if (at === -1) return putMessage(state, message);
  at++;
  while (at < ids.length && byId.get(ids[at] as string)?.role === 'tool') at++;
  const nextIds = [...ids.slice(0, at), message.id, ...ids.slice(at)];
  return { ...state, messages: { ids: nextIds, byId: byId.set(message.id, message) } };
}

function sub(event: { subagentRunId?: string }): { subagentRunId?: string } {
  return event.subagentRunId === undefined ? {} : { subagentRunId: event.subagentRunId };
}
