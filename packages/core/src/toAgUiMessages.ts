import type { MessageRecord, RecordMetadata, ThreadState, ToolCallRecord } from './model.js';
import { isLargeObject, toPlainJson } from './plainJson.js';
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
        ...(c.metadata !== undefined ? { metadata: plain(c.metadata) } : {}),
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
  if (r.metadata !== undefined) base.metadata = plain(r.metadata);
  return base as unknown as Message;
}

/** Metadata grown past 128 keys is a large object (reducer/grow.ts): a run's input carries it plain, for an agent that clones its input. */
const plain = (metadata: RecordMetadata): RecordMetadata => (isLargeObject(metadata) ? toPlainJson(metadata) : metadata);

/** What a tool message answering a call the run left without a result says, by the call's status. */
/** The id of the tool message a request carries for a call that ended without a result (see `requestMessages`). */
export const unansweredId = (toolCallId: string): string => `${toolCallId}-unanswered`;

function unanswered(call: ToolCallRecord): string {
  switch (call.status) {
    case 'failed':
      return call.failure ?? 'the tool call failed';
    case 'cancelled':
      return 'cancelled: the user gave no answer';
    case 'denied':
      return 'denied by the user';
    default:
      return 'no result: the run ended before the tool call had one';
  }
}

/**
 * The history a request to the agent carries: `toAgUiMessages`, and, right
 * after an assistant message, a tool message for each of its calls left
 * without a result (a frontend tool stopped, a call cut off with its stream,
 * a result that never came), saying why. A model API refuses a history
 * holding a tool call nobody answered. A resume answers only the calls that
 * failed here: the others may be what its answers let the agent go on with.
 * The answer is said to the agent, not added to the thread (the call shows
 * its status there already). A call still executing is answered by its
 * result, before any request is sent.
 */
export function requestMessages(state: ThreadState, kind: 'run' | 'resume' = 'run'): Message[] {
  const messages = toAgUiMessages(state);
  const answered = new Set<string>();
  for (const m of messages) if (m.role === 'tool') answered.add(m.toolCallId);
  const owed = (call: ToolCallRecord | undefined): call is ToolCallRecord =>
    call !== undefined && !answered.has(call.id) && call.status !== 'executing' && (kind === 'run' || call.status === 'failed');
  let any = false;
  for (const call of state.toolCalls) if (owed(call)) any = true;
  if (!any) return messages;
  const out: Message[] = [];
  for (const m of messages) {
    out.push(m);
    if (m.role !== 'assistant' || !m.toolCalls) continue;
    for (const c of m.toolCalls) {
      const call = state.toolCalls.get(c.id);
      if (!owed(call)) continue;
      const why = unanswered(call);
      out.push({ id: unansweredId(c.id), role: 'tool', toolCallId: c.id, content: why, error: why });
    }
  }
  return out;
}
