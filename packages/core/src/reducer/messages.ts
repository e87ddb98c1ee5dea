import type { MessageRecord, ThreadState, ToolCallRecord } from '../model.js';
import type { Message } from '../protocol.js';
import { unansweredId } from '../toAgUiMessages.js';
import { defined, putToolCall, stamp, withMessages, without } from './helpers.js';
import { sameJson } from './ownJson.js';
import { parseArgs } from './toolArgs.js';

/** The client record of an AG-UI message (from a snapshot or a run's input), which came in at `at`. */
export function fromAgUiMessage(message: Message, at?: number): MessageRecord {
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
  return Object.assign(record, stamp(at));
}

/** A call that ended without a result of its own. */
const settled = (call: ToolCallRecord | undefined) =>
  call?.status === 'failed' || call?.status === 'denied' || call?.status === 'cancelled';

/**
 * Tool-call records for the calls an assistant message carries, settled by the tool messages given. The calls of
 * `listed` are left as they are: a reply before these messages makes them already.
 */
export function withToolCalls(state: ThreadState, messages: readonly Message[], listed = new Set<string>()): ThreadState {
  const results = new Map<string, Message & { role: 'tool' }>();
  for (const m of messages) if (m.role === 'tool') results.set(m.toolCallId, m);
  let next = state;
  // A call listed on two replies is the first one's: the reply its result follows, as in the official client.
  for (const m of messages) {
    if (m.role !== 'assistant') continue;
    for (const call of m.toolCalls ?? []) {
      if (listed.has(call.id)) continue;
      listed.add(call.id);
      const existing = next.toolCalls.get(call.id);
      const result = results.get(call.id);
      // What the protocol says of a call is the snapshot's (metadata included); what the client learned, its own.
      const {
        args: _args,
        argsError: _argsError,
        argsErrorCode: _argsErrorCode,
        encryptedValue: _encrypted,
        metadata: _metadata,
        ...known
      } = existing ?? {
        status: 'ready' as const,
      };
      // Arguments the client holds whole, restated as they are, are read as it read them: a call cut off mid-arguments
      // (stopped, or its run ended) stays cut off, not "invalid JSON".
      const kept =
        existing !== undefined &&
        existing.argsText === call.function.arguments &&
        existing.status !== 'declared' &&
        existing.status !== 'args_streaming';
      const record: ToolCallRecord = {
        ...known,
        id: call.id,
        name: call.function.name,
        parentMessageId: m.id,
        argsText: call.function.arguments,
        ...(kept
          ? defined({ args: existing.args, argsError: existing.argsError, argsErrorCode: existing.argsErrorCode })
          : parseArgs(call.function.arguments)),
        ...defined({ subagentRunId: m.subagentRunId, encryptedValue: call.encryptedValue, metadata: call.metadata }),
      };
      // The tool message the client itself sent for a call that ended without a result (requestMessages) says what its
      // record says already, in English: the call stays stopped, failed, denied or cancelled as it was.
      const ownWord = result !== undefined && result.id === unansweredId(call.id) && existing?.result === undefined && settled(existing);
      if (result && !ownWord) {
        record.status = result.error !== undefined ? 'failed' : 'succeeded';
        record.result = { messageId: result.id, content: result.content, ...defined({ error: result.error }) };
      } else if (record.status === 'declared' || record.status === 'args_streaming') {
        record.status = 'ready';
      }
      if (!existing || !sameJson(existing, record)) next = putToolCall(next, record);
    }
  }
  return next;
}

/**
 * A run's input restates history too: messages not yet known are appended,
 * once each (nothing is dropped), and a message the client added is no longer
 * its alone. Messages the client adds itself (`source: 'client'`) go the same
 * way.
 */
export function addInputMessages(state: ThreadState, messages: readonly Message[], at?: number, source?: 'client'): ThreadState {
  let byId = state.messages.byId;
  const fresh: Message[] = [];
  for (const m of messages) {
    const known = byId.get(m.id);
    if (known) {
      if (known.source && !source) byId = byId.set(m.id, without(known, 'source'));
      continue;
    }
    fresh.push(m);
    byId = byId.set(m.id, source ? { ...fromAgUiMessage(m, at), source } : fromAgUiMessage(m, at));
  }
  if (byId === state.messages.byId) return state;
  // A run's input restates the whole history: only the messages not known yet are appended.
  return withToolCalls(
    {
      ...state,
      messages: withMessages(
        state.messages,
        byId,
        fresh.map((m) => m.id),
      ),
    },
    fresh,
    madeBefore(state, fresh),
  );
}

/** The calls of `fresh` that a reply the thread has already makes: appended after it, `fresh` lists them again. */
function madeBefore(state: ThreadState, fresh: readonly Message[]): Set<string> {
  const made = new Set<string>();
  for (const m of fresh) {
    if (m.role !== 'assistant') continue;
    for (const call of m.toolCalls ?? []) {
      const parent = state.messages.byId.get(state.toolCalls.get(call.id)?.parentMessageId ?? '');
      if (parent?.role === 'assistant' && parent.toolCallIds?.includes(call.id)) made.add(call.id);
    }
  }
  return made;
}
