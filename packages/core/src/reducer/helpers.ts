/**
 * What the reducer shares with the client's own transitions (local.ts) and a
 * replay's batch, all in the first load; what only the event handlers use
 * is in eventHelpers.ts, code of the engine's chunk.
 */
import type { MessageRecord, SubagentRecord, ThreadState, ToolCallRecord } from '../model.js';

/** `fields` without the members that are undefined (which exactOptionalPropertyTypes forbids writing), to spread into a record. */
export function defined<T extends object>(fields: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  const out: Record<string, unknown> = {};
  for (const key in fields) if (fields[key] !== undefined) out[key] = fields[key];
  return out as { [K in keyof T]?: Exclude<T[K], undefined> };
}

/** The times of a message made at `at`: started and, unless it streams, ended then; nothing when the time is not known. */
export function stamp(at: number | undefined, streams?: boolean): Pick<MessageRecord, 'startedAt' | 'endedAt'> {
  return at === undefined ? {} : streams ? { startedAt: at } : { startedAt: at, endedAt: at };
}

/**
 * A shallow copy of the thread state, for the caller to change before anyone
 * sees it. Written as a literal of the fields rather than a spread: V8 copies
 * an object that was itself made by a spread (as every state after the first
 * is) through its slow path, several times slower than building a literal,
 * and this copy happens on every event. Every field of `ThreadState` must be
 * listed, in both literals (the type checker enforces the required ones;
 * `threadId` is the only optional one).
 */
export function copyThread(state: ThreadState): Mutable<ThreadState> {
  // `threadId`, the one optional field, is written in the literal rather than added to the copy: an added field
  // would take storage of its own on every copy, and give the copies a second shape.
  if (state.threadId !== undefined) {
    return {
      threadId: state.threadId,
      run: state.run,
      runs: state.runs,
      messages: state.messages,
      toolCalls: state.toolCalls,
      sharedState: state.sharedState,
      interrupts: state.interrupts,
      answers: state.answers,
      subagents: state.subagents,
      reasoning: state.reasoning,
      custom: state.custom,
      raw: state.raw,
      unknownEvents: state.unknownEvents,
      diagnostics: state.diagnostics,
      droppedDiagnostics: state.droppedDiagnostics,
      eventCount: state.eventCount,
    };
  }
  return {
    run: state.run,
    runs: state.runs,
    messages: state.messages,
    toolCalls: state.toolCalls,
    sharedState: state.sharedState,
    interrupts: state.interrupts,
    answers: state.answers,
    subagents: state.subagents,
    reasoning: state.reasoning,
    custom: state.custom,
    raw: state.raw,
    unknownEvents: state.unknownEvents,
    diagnostics: state.diagnostics,
    droppedDiagnostics: state.droppedDiagnostics,
    eventCount: state.eventCount,
  };
}

export type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** The ids of the messages that may be streaming: those the map watches (thread.ts), or, in a map made without, all. */
export function streamingIds(state: ThreadState): readonly string[] {
  return state.messages.byId.watched ?? state.messages.ids;
}

const NO_IDS: readonly string[] = [];

/** The array read last (`base`) and the ids appended since (`tail`, newest first). */
interface IdList {
  base: readonly string[];
  tail: IdTail | undefined;
}
interface IdTail {
  readonly id: string;
  readonly prev: IdTail | undefined;
}

/**
 * The messages of a state in a batch (see `batchedMessages`): `ids` is made
 * from the list when first read, once for every state that shares it.
 */
class BatchedMessages {
  readonly #list: IdList;
  readonly byId: ThreadState['messages']['byId'];
  readonly metadata?: NonNullable<ThreadState['messages']['metadata']>;
  constructor(list: IdList, byId: ThreadState['messages']['byId'], metadata: ThreadState['messages']['metadata']) {
    this.#list = list;
    this.byId = byId;
    if (metadata !== undefined) this.metadata = metadata;
  }
  static listOf(messages: ThreadState['messages']): IdList {
    return messages instanceof BatchedMessages ? messages.#list : { base: messages.ids, tail: undefined };
  }
  get ids(): readonly string[] {
    const list = this.#list;
    if (list.tail === undefined) return list.base;
    const appended: string[] = [];
    for (let t: IdTail | undefined = list.tail; t; t = t.prev) appended.push(t.id);
    list.base = list.base.concat(appended.reverse());
    list.tail = undefined;
    return list.base;
  }
}

/**
 * Per messages record (each change makes a new one): the id of the message right before the tool results that end
 * the thread (null: none), once found (toolResult.ts). A record made anew with the same messages in the same order
 * (a batch's start and end, below) is told it too.
 */
export const beforeLastResults = new WeakMap<ThreadState['messages'], string | null>();

/** `to`, the same messages as `from` in the same order, told what `from` knows of the results that end it. */
export function sameMessages<M extends ThreadState['messages']>(from: ThreadState['messages'], to: M): M {
  const before = beforeLastResults.get(from);
  if (before !== undefined) beforeLastResults.set(to, before);
  return to;
}

/**
 * `state` as the start of a batch: a replay whose states in between are never
 * seen (a session or event log applied to its end). The ids of the messages
 * appended from there on are made into an array when first read, once, rather
 * than copied whole for each new message (quadratic: 32,000 messages took
 * 13-49 s). What a batch ends with goes through `plainMessages` before anyone
 * sees it. A state made anew in between (a reset) is plain again: the batch
 * marks each state it goes on from.
 */
export function batchedMessages(state: ThreadState): ThreadState {
  const m = state.messages;
  if (m instanceof BatchedMessages) return state;
  const copy = copyThread(state);
  copy.messages = sameMessages(m, new BatchedMessages({ base: m.ids, tail: undefined }, m.byId, m.metadata));
  return copy;
}

/** Whether `visit` says stop for one of the ids of `messages`, read from the last one back, without making a batch's array. */
export function someIdFromEnd(messages: ThreadState['messages'], visit: (id: string) => boolean): boolean {
  const list = BatchedMessages.listOf(messages);
  for (let t = list.tail; t; t = t.prev) if (visit(t.id)) return true;
  for (let i = list.base.length - 1; i >= 0; i--) if (visit(list.base[i] as string)) return true;
  return false;
}

/** `state` with its messages as a plain record, its ids an array: what a batch hands out (see `batchedMessages`). */
export function plainMessages(state: ThreadState): ThreadState {
  const m = state.messages;
  if (!(m instanceof BatchedMessages)) return state;
  const copy = copyThread(state);
  copy.messages = sameMessages(
    m,
    m.metadata === undefined ? { ids: m.ids, byId: m.byId } : { ids: m.ids, byId: m.byId, metadata: m.metadata },
  );
  return copy;
}

/** `messages` with `byId` and the ids of `appended` after its own (none: the same ids). */
export function withMessages(
  messages: ThreadState['messages'],
  byId: ThreadState['messages']['byId'],
  appended: readonly string[] = [],
): ThreadState['messages'] {
  const { metadata } = messages;
  if (!(messages instanceof BatchedMessages)) {
    const ids = appended.length ? messages.ids.concat(appended) : messages.ids;
    return metadata === undefined ? { ids, byId } : { ids, byId, metadata };
  }
  let list = BatchedMessages.listOf(messages);
  for (const id of appended) list = { base: list.base, tail: { id, prev: list.tail } };
  return new BatchedMessages(list, byId, metadata);
}

/** Puts a message record: replaces it in place when the id exists, appends it otherwise. */
export function putMessage(state: ThreadState, record: MessageRecord): ThreadState {
  const { byId } = state.messages;
  const next = byId.set(record.id, record);
  const copy = copyThread(state);
  // A new map of the same size replaced an entry: the id was known, and the ids are the same.
  copy.messages = withMessages(state.messages, next, next.size === byId.size ? NO_IDS : [record.id]);
  return copy;
}

export function putToolCall(state: ThreadState, record: ToolCallRecord): ThreadState {
  const copy = copyThread(state);
  copy.toolCalls = state.toolCalls.set(toolCallKey(state.toolCalls, record), record);
  return copy;
}

/** Where `record` is kept: under its id, or, set aside by a later run's call of that id, under `<id>#<its runId>` (keyFor). */
function toolCallKey(calls: ThreadState['toolCalls'], record: ToolCallRecord): string {
  let key = record.id;
  while (calls.get(key) && calls.get(key)?.runId !== record.runId) key = key === record.id ? `${key}#${record.runId}` : `${key}#`;
  return key;
}

/** Returns a copy of `record` without `key` (exactOptionalPropertyTypes forbids assigning undefined). */
export function without<T extends object, K extends keyof T>(record: T, key: K): T {
  if (!(key in record)) return record;
  const copy = { ...record };
  delete copy[key];
  return copy;
}

/** Every subagent still running, settled as `change` says: the run it belonged to ended (stopped, failed) without saying how it did. */
export function settleSubagents(state: ThreadState, change: Pick<SubagentRecord, 'status'> & Partial<SubagentRecord>): ThreadState {
  const settled: Record<string, SubagentRecord> = {};
  let any = false;
  for (const record of Object.values(state.subagents)) {
    if (record.status !== 'running') continue;
    Object.defineProperty(settled, record.subagentRunId, {
      value: { ...record, ...change },
      enumerable: true,
      writable: true,
      configurable: true,
    });
    any = true;
  }
  // One copy for all of them, not one each (10,000 subagents took 65 s).
  return any ? { ...state, subagents: { ...state.subagents, ...settled } } : state;
}
