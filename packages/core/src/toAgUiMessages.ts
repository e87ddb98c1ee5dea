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

/**
 * The history a request to the agent carries: `toAgUiMessages`, and right
 * after an assistant message, a tool message for each of its calls that
 * failed here with no result (a frontend tool stopped, a call cut off by a
 * stop), saying why. A model API refuses a history holding a tool call
 * nobody answered; the answer is said to the agent, not added to the
 * thread (the call shows its failure there already).
 */
export function requestMessages(state: ThreadState): Message[] {
  const messages = toAgUiMessages(state);
  const answered = new Set<string>();
  let unanswered = false;
  for (const m of messages) if (m.role === 'tool') answered.add(m.toolCallId);
  for (const call of state.toolCalls) if (call.status === 'failed' && !answered.has(call.id)) unanswered = true;
  if (!unanswered) return messages;
  const out: Message[] = [];
  for (const m of messages) {
    out.push(m);
    if (m.role !== 'assistant' || !m.toolCalls) continue;
    for (const c of m.toolCalls) {
      const call = state.toolCalls.get(c.id);
      if (call?.status !== 'failed' || answered.has(c.id)) continue;
      const why = call.failure ?? 'the tool call failed';
      out.push({ id: `${c.id}-failed`, role: 'tool', toolCallId: c.id, content: why, error: why });
    }
  }
  return out;
}
