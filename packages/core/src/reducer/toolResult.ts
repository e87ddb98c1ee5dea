/**
 * A tool call's result: what the client's own transitions (a frontend
 * tool's result) share with the event stream, apart from the streaming
 * reducers of toolCalls.ts.
 */

import { claim, ownedByBatch } from '../batchOwned.js';
import { warning } from '../diagnostics.js';
import type { MessageRecord, ThreadState } from '../model.js';
import type { EventOf } from '../protocol.js';
import { earlier, keyFor, origin, updateToolCall, withDiagnostics } from './eventHelpers.js';
import { beforeLastResults, defined, putMessage, someIdFromEnd, stamp } from './helpers.js';

/**
 * RESULT mints a tool message placed after the assistant message that made
 * the call (after the tool messages already there), and settles the call
 * (a failed tool reports its failure in the content; 1.0 results carry no error field).
 * A message id an earlier run's message holds gives the result a message of
 * its own, under `<id>#<runId>`.
 */
export function toolResult(state: ThreadState, event: EventOf<'TOOL_CALL_RESULT'>, at?: number, source?: 'client'): ThreadState {
  const known = state.messages.byId.get(event.messageId);
  const id =
    known && (earlier(known, state) || !sameResult(known, event))
      ? keyFor(event.messageId, state.run.runId, (k) => state.messages.byId.has(k))
      : event.messageId;
  const message: MessageRecord = {
    id,
    role: 'tool',
    content: event.content,
    streaming: false,
    toolCallId: event.toolCallId,
    ...origin(event, state),
    ...defined({ metadata: event.metadata, source }),
    ...stamp(at),
  };
  let next = state.messages.byId.has(id) ? putMessage(state, message) : insertAfterCaller(state, message);
  next = updateToolCall(next, event.toolCallId, (c) => {
    // The result wins over what failed the call before it came (its run's end): the call says no failure any more.
    const { interruptId: _answered, failure: _failure, failureCode: _code, ...rest } = c;
    return {
      ...rest,
      status: 'succeeded',
      result: { messageId: id, content: event.content },
    };
  });
  return next;
}

/** A message the result may stand in for: the result of the same call (restated), not a reply or another call's result. */
const sameResult = (message: MessageRecord, event: EventOf<'TOOL_CALL_RESULT'>) =>
  message.role === 'tool' && message.toolCallId === event.toolCallId;

/**
 * TOOL_CALL_RESULT from the agent: a result under the id of another message
 * of its run (the calling reply's own, say) gets an id of its own, with a
 * diagnostic, rather than overwriting that message.
 */
export function toolResultOwnId(state: ThreadState, event: EventOf<'TOOL_CALL_RESULT'>, index: number, at?: number): ThreadState {
  const known = state.messages.byId.get(event.messageId);
  const next = toolResult(state, event, at);
  if (!known || earlier(known, state) || sameResult(known, event)) return next;
  const said = `TOOL_CALL_RESULT for call '${event.toolCallId}' under '${event.messageId}', which is a ${known.role} message of this run; the result is kept under an id of its own.`;
  return withDiagnostics(next, [warning(index, event.type, 'MESSAGE_ID_CONFLICT', said)]);
}

/**
 * The message right before the results that end the thread, found once per messages record (`beforeLastResults`),
 * and handed on to the record a result makes: a result goes in before that message or after it, never between, so it
 * is the same there.
 */
function messageBeforeLastResults(messages: ThreadState['messages']): string | null {
  let before = beforeLastResults.get(messages);
  if (before !== undefined) return before;
  before = null;
  someIdFromEnd(messages, (id) => {
    if (messages.byId.get(id)?.role === 'tool') return false;
    before = id;
    return true;
  });
  beforeLastResults.set(messages, before);
  return before;
}

/**
 * Hands on what `from` knows of the results that end it to `to`: the same messages with one of them put again under
 * the same role (a reply given another call), or with a message that is not a result appended (`appended`). A reply
 * that calls a tool after each result would otherwise look past all its results again at each one.
 */
export function keepLastResults(from: ThreadState['messages'], to: ThreadState['messages'], appended?: string): void {
  const before = appended ?? beforeLastResults.get(from);
  if (before !== undefined) beforeLastResults.set(to, before);
}

function insertAfterCaller(state: ThreadState, message: MessageRecord): ThreadState {
  const next = placeAfterCaller(state, message);
  const before = beforeLastResults.get(state.messages);
  if (before !== undefined) beforeLastResults.set(next.messages, before);
  return next;
}

function placeAfterCaller(state: ThreadState, message: MessageRecord): ThreadState {
  const call = state.toolCalls.get(message.toolCallId ?? '');
  const caller = call?.parentMessageId;
  // A result of no call the thread knows (or of one no message made) has no place but the end.
  if (caller === undefined) return putMessage(state, message);
  // Nearly always the caller is the last message but for the results before this one: the result is appended, as any
  // new message is (in a replay's batch, without copying the ids or making their array). Which message comes before
  // those results is known from the result before this one: the results of many calls made in parallel are not each
  // looked past again.
  if (messageBeforeLastResults(state.messages) === caller) return putMessage(state, message);
  const { ids, byId } = state.messages;
  // A call its message no longer makes (a snapshot restated that message as another role's, or without the call) is
  // the call of no reply: its result goes at the end, where the official client puts it too (and where the line above
  // puts it when that message is the last before the results).
  const parent = byId.get(caller);
  if (parent?.role !== 'assistant' || !parent.toolCallIds?.includes(message.toolCallId ?? '')) return putMessage(state, message);
  let at = indexNear(ids, caller, lastPlaced.get(ids) ?? ids.length);
  if (at === -1) return putMessage(state, message);
  at++;
  while (at < ids.length && byId.get(ids[at] as string)?.role === 'tool') at++;
  // In place when the batch in effect made the array (no one saw it): one move, where a copy of a list past about
  // 11,000 ids is a large object of its own, each of its writes a barrier (see batchOwned.ts).
  const nextIds = ownedByBatch(ids) ? (ids as string[]) : ids.slice();
  nextIds.splice(at, 0, message.id);
  claim(nextIds);
  lastPlaced.set(nextIds, at + 1);
  return { ...state, messages: { ...state.messages, ids: nextIds, byId: byId.set(message.id, message) } };
}

/**
 * Per ids array a result was placed into: the position right after that result. The results of calls made from
 * replies of their own come in the order of the calls (or the reverse): the next caller is next to it, where looking
 * from the end would pass every reply after it, for each result (quadratic: 12,500 results took 7 s).
 */
const lastPlaced = new WeakMap<readonly string[], number>();

/** Where `id` is in `ids` (an id is there once), looked for outward from `near`: from the end when `near` is past it. */
function indexNear(ids: readonly string[], id: string, near: number): number {
  for (let i = near, j = near - 1; i < ids.length || j >= 0; i++, j--) {
    if (j >= 0 && ids[j] === id) return j;
    if (i < ids.length && ids[i] === id) return i;
  }
  return -1;
}
