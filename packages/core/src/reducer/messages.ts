import { idMap } from '../idMap.js';
import type { MessageRecord, ThreadState, ToolCallRecord } from '../model.js';
import type { EventOf, Message } from '../protocol.js';
import { putToolCall } from './helpers.js';
import { parseArgs } from './toolCalls.js';

/** The client record of an AG-UI message (from a snapshot or a run's input). */
export function fromAgUiMessage(message: Message): MessageRecord {
  const m = message as Message & Record<string, unknown>;
  const record: MessageRecord = {
    id: m.id,
    role: m.role,
    content: (m.content ?? '') as MessageRecord['content'],
    streaming: false,
  };
  for (const key of ['name', 'toolCallId', 'error', 'activityType', 'encryptedValue', 'subagentRunId', 'metadata'] as const) {
    if (m[key] !== undefined && m[key] !== null) (record as unknown as Record<string, unknown>)[key] = m[key];
  }
  if (m.role === 'assistant' && m.toolCalls?.length) record.toolCallIds = m.toolCalls.map((c) => c.id);
  return record;
}

/** Tool-call records for the calls an assistant message carries, settled by the tool messages given. */
function withToolCalls(state: ThreadState, messages: readonly Message[]): ThreadState {
  const results = new Map<string, Message & { role: 'tool' }>();
  for (const m of messages) if (m.role === 'tool') results.set(m.toolCallId, m);
  let next = state;
  for (const m of messages) {
    if (m.role !== 'assistant') continue;
    for (const call of m.toolCalls ?? []) {
      const existing = next.toolCalls.get(call.id);
      const result = results.get(call.id);
      const record: ToolCallRecord = {
        ...(existing ?? { status: 'ready' as const }),
        id: call.id,
        name: call.function.name,
        parentMessageId: m.id,
        argsText: call.function.arguments,
        ...parseArgs(call.function.arguments),
        ...(m.subagentRunId !== undefined ? { subagentRunId: m.subagentRunId } : {}),
        ...(call.encryptedValue !== undefined ? { encryptedValue: call.encryptedValue } : {}),
        ...(call.metadata !== undefined ? { metadata: call.metadata } : {}),
      };
      if (result) {
        record.status = result.error !== undefined ? 'failed' : 'succeeded';
        record.result = { messageId: result.id, content: result.content, ...(result.error !== undefined ? { error: result.error } : {}) };
      } else if (record.status === 'declared' || record.status === 'args_streaming') {
        record.status = 'ready';
      }
      if (!existing || JSON.stringify(existing) !== JSON.stringify(record)) next = putToolCall(next, record);
    }
  }
  return next;
}

/** Keeps the existing record when the incoming one says the same thing, so unchanged messages keep their identity. */
function reuse(existing: MessageRecord | undefined, incoming: MessageRecord): MessageRecord {
  if (!existing || existing.streaming) return incoming;
  const { runId: _run, ...rest } = existing;
  return JSON.stringify(rest) === JSON.stringify(incoming) ? existing : { ...incoming, ...(_run !== undefined ? { runId: _run } : {}) };
}

/**
 * MESSAGES_SNAPSHOT restates the history: a message it names is replaced by
 * its version, a message it leaves out is dropped (client-only activity and
 * reasoning messages are kept when the snapshot carries none of that role),
 * and messages it adds are appended in its order.
 */
export function messagesSnapshot(state: ThreadState, event: EventOf<'MESSAGES_SNAPSHOT'>): ThreadState {
  const incoming = new Map(event.messages.map((m) => [m.id, fromAgUiMessage(m)]));
  const hasActivity = event.messages.some((m) => m.role === 'activity');
  const hasReasoning = event.messages.some((m) => m.role === 'reasoning');
  const ids: string[] = [];
  let byId = idMap<MessageRecord>();
  for (const id of state.messages.ids) {
    const existing = state.messages.byId.get(id);
    if (!existing) continue;
    const replacement = incoming.get(id);
    const keep = replacement || (existing.role === 'activity' && !hasActivity) || (existing.role === 'reasoning' && !hasReasoning);
    if (!keep) continue;
    ids.push(id);
    byId = byId.set(id, replacement ? reuse(existing, replacement) : existing);
  }
  for (const [id, record] of incoming) {
    if (byId.has(id)) continue;
    ids.push(id);
    byId = byId.set(id, record);
  }
  return withToolCalls({ ...state, messages: { ids, byId } }, event.messages);
}

/** A run's input restates history too: messages not yet known are appended, once each (nothing is dropped). */
export function addInputMessages(state: ThreadState, messages: readonly Message[]): ThreadState {
  const fresh = new Map<string, Message>();
  for (const m of messages) if (!state.messages.byId.has(m.id) && !fresh.has(m.id)) fresh.set(m.id, m);
  if (fresh.size === 0) return state;
  let byId = state.messages.byId;
  for (const m of fresh.values()) byId = byId.set(m.id, fromAgUiMessage(m));
  return withToolCalls({ ...state, messages: { ids: [...state.messages.ids, ...fresh.keys()], byId } }, [...fresh.values()]);
}
