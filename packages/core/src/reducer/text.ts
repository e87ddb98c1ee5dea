import { appended } from '../batchOwned.js';
import { warning } from '../diagnostics.js';
import { isArrayIndex } from '../largeObject.js';
import type { MessageRecord, MessageRole, ReasoningSpan, ThreadState } from '../model.js';
import type { ContentPart, EventOf } from '../protocol.js';
import { copyMessage, earlier, entry, origin, updateMessage, updateToolCall, withDiagnostics } from './eventHelpers.js';
import { mergeMetadata, withKey, withMeta } from './grow.js';
import { defined, putMessage, stamp, without } from './helpers.js';
import { withName, withoutName } from './steps.js';

type Opening = EventOf<'TEXT_MESSAGE_START'> | EventOf<'REASONING_MESSAGE_START'>;
type Continuation = EventOf<'TEXT_MESSAGE_CONTENT'> | EventOf<'REASONING_MESSAGE_CONTENT'>;
type Closing = EventOf<'TEXT_MESSAGE_END'> | EventOf<'REASONING_MESSAGE_END'>;

/**
 * A text or reasoning event under the id of an activity of its run: ignored,
 * with a diagnostic, as the official client ignores it, so that it never
 * turns the activity's object into text.
 */
export function idOfAnother(
  state: ThreadState,
  event: Opening | Continuation | Closing,
  index: number,
  existing = state.messages.byId.get(event.messageId),
): ThreadState | undefined {
  // An earlier run's message of the id is reopened, as the official client does (ids are the agent's, run after run).
  if (existing?.role !== 'activity' || earlier(existing, state)) return undefined;
  const said = `${event.type} for '${event.messageId}', which is an activity; ignored.`;
  return withDiagnostics(state, [warning(index, event.type, 'MESSAGE_ID_CONFLICT', said)]);
}

/** START opens a message, or reopens a closed one: later content appends, and it ends again at its next END. */
export function startMessage(state: ThreadState, event: Opening, at?: number): ThreadState {
  const existing = state.messages.byId.get(event.messageId);
  if (existing) {
    if (existing.streaming && event.metadata === undefined) return state;
    // Reopened, it goes on: it was not cut short where it stopped (`stopped`), and its end is still to come.
    return putMessage(state, withMeta({ ...without(without(existing, 'endedAt'), 'stopped'), streaming: true }, event.metadata));
  }
  const role: MessageRole = event.type === 'REASONING_MESSAGE_START' ? 'reasoning' : (event.role ?? 'assistant');
  const record: MessageRecord = {
    id: event.messageId,
    role,
    content: '',
    streaming: true,
    ...origin(event, state),
    ...defined({ name: event.type === 'TEXT_MESSAGE_START' ? event.name : undefined, metadata: event.metadata }),
    ...stamp(at, true),
  };
  return attachToSpan(putMessage(state, record), record);
}

/**
 * CONTENT appends the delta to its message, found by id (no scan). A delta for
 * a message that was never opened is not dropped: the message is created (the
 * verifier reports the violation).
 */
export function appendContent(
  state: ThreadState,
  event: Continuation,
  at?: number,
  existing = state.messages.byId.get(event.messageId),
): ThreadState {
  if (!existing) {
    const text = event.type === 'TEXT_MESSAGE_CONTENT';
    const opened = startMessage(
      state,
      {
        type: text ? 'TEXT_MESSAGE_START' : 'REASONING_MESSAGE_START',
        messageId: event.messageId,
        role: text ? 'assistant' : 'reasoning',
        ...(event.subagentRunId !== undefined ? { subagentRunId: event.subagentRunId } : {}),
      } as Opening,
      at,
    );
    return appendContent(opened, event);
  }
  if (event.delta === '' && event.metadata === undefined) return state;
  const next = copyMessage(existing);
  next.content = appendText(existing, event.delta);
  const metadata = mergeMetadata(existing.metadata, event.metadata);
  if (metadata !== undefined) next.metadata = metadata;
  return putMessage(state, next);
}

/** END closes the message, and says when it ended. */
export function endMessage(state: ThreadState, event: Closing, at?: number): ThreadState {
  return updateMessage(state, event.messageId, (m) =>
    m.streaming ? withMeta({ ...m, streaming: false, ...defined({ endedAt: at }) }, event.metadata) : withMeta(m, event.metadata),
  );
}

/**
 * Appends a delta to the message's text. On content parts, the deltas of a
 * stream (START..END) extend the text part they follow, so the parts do not
 * depend on how the text was split; a delta outside a stream adds a part.
 */
function appendText(message: MessageRecord, delta: string): MessageRecord['content'] {
  const { content } = message;
  if (typeof content === 'string') return content + delta;
  if (!Array.isArray(content)) return delta;
  const parts = content as readonly ContentPart[];
  const last = parts.at(-1);
  if (message.streaming && last?.type === 'text') return [...parts.slice(0, -1), { ...last, text: last.text + delta }];
  return [...parts, { type: 'text', text: delta }];
}

/** REASONING_START opens a span (a retired THINKING_START gives it its title). */
export function startReasoningSpan(state: ThreadState, event: EventOf<'REASONING_START'> & { title?: string }): ThreadState {
  const existing = entry(state.reasoning, event.messageId);
  const span: ReasoningSpan = {
    ...existing,
    id: event.messageId,
    status: 'open',
    messageIds: existing?.messageIds ?? [],
    ...defined({ title: event.title }),
  };
  return putSpan(state, withMeta(span, event.metadata));
}

export function endReasoningSpan(state: ThreadState, event: EventOf<'REASONING_END'>): ThreadState {
  const span = entry(state.reasoning, event.messageId);
  if (!span || (span.status === 'closed' && event.metadata === undefined)) return state;
  return putSpan(state, withMeta({ ...span, status: 'closed' }, event.metadata));
}

type Spans = ThreadState['reasoning'];

/**
 * The ids of the open spans of a thread's `reasoning`, in key order, kept per
 * version as spans are put (and found by a scan, once, for a version made
 * elsewhere): a reasoning message finds its span in O(1). Scanning every span
 * at each message took 42 s over 10,000 spans opened one after the other.
 * A span put is found in the list by rank (steps.ts), not by a scan of it:
 * 40,000 spans opened took 2.6 s, and closed from the middle out 1.8 s more.
 */
const openSpans = new WeakMap<Spans, readonly string[]>();

function openOf(reasoning: Spans): readonly string[] {
  let open = openSpans.get(reasoning);
  if (!open) {
    open = Object.values(reasoning)
      .filter((span) => span.status === 'open')
      .map((span) => span.id);
    openSpans.set(reasoning, open);
  }
  return open;
}

function putSpan(state: ThreadState, span: ReasoningSpan): ThreadState {
  const before = state.reasoning;
  const reasoning = withKey(before, span.id, span);
  const open = openSpans.get(before);
  if (open) {
    // The list holds the spans of `before` that are open: no scan of it.
    const was = entry(before, span.id)?.status === 'open';
    const is = span.status === 'open';
    if (was && !is) openSpans.set(reasoning, withoutName(open, span.id));
    else if (!was && is) {
      // A new span comes last, unless its id is an array index (listed first, in numeric order); a span opened
      // again keeps its place. Either is found by the next scan.
      if (!open.length || !(entry(before, span.id) || isArrayIndex(span.id))) openSpans.set(reasoning, withName(open, span.id));
    } else openSpans.set(reasoning, open);
  }
  return { ...state, reasoning };
}

/** A reasoning message opened while a span is open belongs to that span (the first open one in key order). */
function attachToSpan(state: ThreadState, record: MessageRecord): ThreadState {
  if (record.role !== 'reasoning') return state;
  const [first] = openOf(state.reasoning);
  const span = first === undefined ? undefined : entry(state.reasoning, first);
  return span ? putSpan(state, { ...span, messageIds: appended(span.messageIds, record.id) }) : state;
}

/** Attaches an encrypted reasoning value to its message, span or tool call; an unknown entity is reported, nothing is invented. */
export function encryptedValue(state: ThreadState, event: EventOf<'REASONING_ENCRYPTED_VALUE'>, index: number): ThreadState {
  const { entityId, encryptedValue: value, metadata } = event;
  if (event.subtype === 'tool-call') {
    if (state.toolCalls.get(entityId)) return updateToolCall(state, entityId, (c) => withMeta({ ...c, encryptedValue: value }, metadata));
  } else if (state.messages.byId.get(entityId)?.role === 'activity') {
    // activity messages carry no reasoning
  } else if (state.messages.byId.get(entityId)) {
    return updateMessage(state, entityId, (m) => withMeta({ ...m, encryptedValue: value }, metadata));
  } else {
    const span = entry(state.reasoning, entityId);
    if (span) return putSpan(state, withMeta({ ...span, encryptedValue: value }, metadata));
  }
  return withDiagnostics(state, [
    warning(
      index,
      event.type,
      'ENCRYPTED_VALUE_UNKNOWN_ENTITY',
      `REASONING_ENCRYPTED_VALUE names ${event.subtype} '${entityId}', which is not known; ignored.`,
    ),
  ]);
}
