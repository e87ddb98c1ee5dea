/**
 * A frontend tool's run and its result: the client's transitions of a tool
 * call the agent made. Pure, like the reducer. Apart from `local.ts` because
 * they need the tool-call reducer, which the controller loads with the
 * engine (a call exists only once the agent's events have been applied).
 */
import { newId } from '../ids.js';
import type { ThreadState } from '../model.js';
import type { ContentPart } from '../protocol.js';
import { updateToolCall } from './eventHelpers.js';
import { putMessage } from './helpers.js';
import { ownJson } from './ownJson.js';
import { toolResult } from './toolResult.js';

/** A frontend tool's handler started running. */
export function markToolCallExecuting(state: ThreadState, toolCallId: string): ThreadState {
  return updateToolCall(state, toolCallId, (c) => (c.status === 'ready' ? { ...c, status: 'executing' } : c));
}

/**
 * Records the result of a tool the client ran (at `at`, when given): a tool
 * message after the calling message, the client's alone until the next run
 * sends it, and the call `succeeded`, or `failed` when `error` is given.
 *
 * @example
 * state = addToolResult(state, { toolCallId: 'c1', content: JSON.stringify(result), at: Date.now() });
 */
export function addToolResult(
  state: ThreadState,
  result: { toolCallId: string; content: string | ContentPart[]; error?: string; messageId?: string; at?: number },
): ThreadState {
  const messageId = result.messageId ?? newId('tool-result');
  const content = ownJson(result.content);
  let next = toolResult(state, { type: 'TOOL_CALL_RESULT', messageId, toolCallId: result.toolCallId, content }, result.at, 'client');
  if (result.error !== undefined) {
    const error = result.error;
    const message = next.messages.byId.get(messageId);
    if (message) next = putMessage(next, { ...message, error });
    next = updateToolCall(next, result.toolCallId, (c) => ({
      ...c,
      status: 'failed',
      ...(c.result ? { result: { ...c.result, error } } : {}),
    }));
  }
  return next;
}
