/**
 * MESSAGES_SNAPSHOT: code of the engine alone, kept apart from messages.ts,
 * which a run's input (the first load) needs.
 */
import type { MessageRecord, ThreadState } from '../model.js';
import type { EventOf } from '../protocol.js';
import { fromAgUiMessage, withToolCalls } from './messages.js';
import { sameJson } from './ownJson.js';
import { noMessages } from './thread.js';

/**
 * The snapshot's version of a message the client has: the existing record
 * when the snapshot says the same thing (so it keeps its identity), else the
 * snapshot's, keeping the run the message came from and when it started and
 * ended. A message the snapshot restates is no longer the client's alone.
 */
function reuse(existing: MessageRecord | undefined, incoming: MessageRecord): MessageRecord {
  if (!existing) return incoming;
  const { runId, startedAt, endedAt, source, ...rest } = existing;
  const { startedAt: _started, endedAt: _ended, ...said } = incoming;
  if (source === undefined && sameJson(rest, said)) return existing;
  const out = { ...incoming };
  if (runId !== undefined) out.runId = runId;
  if (startedAt !== undefined) out.startedAt = startedAt;
  if (endedAt !== undefined) out.endedAt = endedAt;
  return out;
}

/**
 * MESSAGES_SNAPSHOT restates the history, its order included: the messages
 * it lists come in its order, each replaced by its version; a message it
 * leaves out is dropped, unless it is the client's alone: a message the
 * client added that no run input or snapshot has restated (`source:
 * 'client'`: the user's turn not yet echoed, a frontend tool's result not yet
 * sent), or an activity or reasoning message when the snapshot carries none
 * of that role. Each of those stays right after the nearest message before it
 * that the snapshot lists (first, when none is), in the order they had.
 */
export function messagesSnapshot(state: ThreadState, event: EventOf<'MESSAGES_SNAPSHOT'>, at?: number): ThreadState {
  const incoming = new Map(event.messages.map((m) => [m.id, fromAgUiMessage(m, at)]));
  const has = (role: string) => event.messages.some((m) => m.role === role);
  const hasActivity = has('activity');
  const hasReasoning = has('reasoning');
  const old = state.messages.byId;
  // The client's own messages, by the listed message they follow (undefined: none).
  const following = new Map<string | undefined, string[]>();
  let anchor: string | undefined;
  for (const id of state.messages.ids) {
    const m = old.get(id);
    if (incoming.has(id)) anchor = id;
    else if (m && (m.source === 'client' || (m.role === 'activity' && !hasActivity) || (m.role === 'reasoning' && !hasReasoning))) {
      const list = following.get(anchor);
      if (list) list.push(id);
      else following.set(anchor, [id]);
    }
  }
  // Pushed one by one: a spread of a list of 100,000 and more ids would pass them all as arguments.
  const ids: string[] = [];
  const put = (list: readonly string[] | undefined) => {
    for (const id of list ?? []) ids.push(id);
  };
  put(following.get(undefined));
  for (const id of incoming.keys()) {
    ids.push(id);
    put(following.get(id));
  }
  let byId = noMessages();
  for (const id of ids) {
    const replacement = incoming.get(id);
    byId = byId.set(id, replacement ? reuse(old.get(id), replacement) : (old.get(id) as MessageRecord));
  }
  const metadata = event.metadata === undefined ? state.messages.metadata : { ...state.messages.metadata, ...event.metadata };
  return withToolCalls({ ...state, messages: metadata ? { ids, byId, metadata } : { ids, byId } }, event.messages);
}
