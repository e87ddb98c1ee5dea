import type { MessageRecord, ThreadState } from './model.js';
import type { Message, ToolCall } from './protocol.js';

export interface ToAgUiMessagesOptions {
  /** Include `activity` messages, which are client-only and never sent to an agent. Default false. */
  includeActivity?: boolean;
}

/**
 * The thread's history as AG-UI `Message[]`, ready to send back in
 * `RunAgentInput.messages`: assistant messages carry their tool calls with
 * the arguments as streamed, tool messages their results.
 *
 * @example
 * const input = { threadId, runId, messages: toAgUiMessages(state), tools: [], context: [] };
 */
export function toAgUiMessages(state: ThreadState, options: ToAgUiMessagesOptions = {}): Message[] {
  const out: Message[] = [];
  for (const id of state.messages.ids) {
    const record = state.messages.byId.get(id);
    if (!record || (record.role === 'activity' && !options.includeActivity)) continue;
    out.push(toMessage(state, record));
  }
  return out;
}

function toMessage(state: ThreadState, r: MessageRecord): Message {
  const base: Record<string, unknown> = { id: r.id, role: r.role };
  if (r.role === 'assistant') {
    const calls: ToolCall[] = [];
    for (const callId of r.toolCallIds ?? []) {
      const c = state.toolCalls.get(callId);
      if (!c) continue;
      calls.push({
        id: c.id,
        type: 'function',
        function: { name: c.name, arguments: c.argsText },
        ...(c.encryptedValue !== undefined ? { encryptedValue: c.encryptedValue } : {}),
        ...(c.metadata !== undefined ? { metadata: c.metadata } : {}),
      });
    }
    if (typeof r.content === 'string' && (r.content !== '' || calls.length === 0)) base.content = r.content;
    if (calls.length) base.toolCalls = calls;
  } else {
    base.content = r.content;
  }
  if (r.role === 'tool' && r.toolCallId !== undefined) base.toolCallId = r.toolCallId;
  if (r.role === 'tool' && r.error !== undefined) base.error = r.error;
  if (r.role === 'activity' && r.activityType !== undefined) base.activityType = r.activityType;
  if (r.name !== undefined) base.name = r.name;
  if (r.encryptedValue !== undefined) base.encryptedValue = r.encryptedValue;
  if (r.subagentRunId !== undefined) base.subagentRunId = r.subagentRunId;
  if (r.metadata !== undefined) base.metadata = r.metadata;
  return base as unknown as Message;
}
