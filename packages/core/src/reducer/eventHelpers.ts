/**
 * What the reducer's event handlers share beyond helpers.ts: code of the
 * engine's chunk alone. helpers.ts holds what the first load needs too (the
 * client's own transitions, the batch of a replay), so these stay out of it.
 */
import type { Diagnostic, MessageRecord, ThreadState, ToolCallRecord } from '../model.js';
import { copyThread, type Mutable, putMessage, putToolCall } from './helpers.js';

/** Diagnostics kept on the state; past this only a count is kept (the event log keeps everything). */
const MAX_DIAGNOSTICS = 1000;
/** CUSTOM, RAW and unknown events kept on the state, newest last. */
const MAX_PASSTHROUGH = 200;

/** Whether `record` was made by a run before the current one (a record outside any run is not). */
export function earlier(record: { runId?: string }, state: ThreadState): boolean {
  return record.runId !== undefined && state.run.runId !== undefined && record.runId !== state.run.runId;
}

/** `<id>#<runId>`, the key of a record that a later run's record of the same id set aside (made unique if taken). */
export function keyFor(id: string, runId: string | undefined, taken: (key: string) => boolean): string {
  let key = `${id}#${runId}`;
  while (taken(key)) key += '#';
  return key;
}

export function withDiagnostics(state: ThreadState, found: readonly Diagnostic[]): ThreadState {
  if (found.length === 0) return state;
  const room = MAX_DIAGNOSTICS - state.diagnostics.length;
  const next = copyThread(state);
  if (room >= found.length) {
    next.diagnostics = [...state.diagnostics, ...found];
    return next;
  }
  if (room > 0) next.diagnostics = [...state.diagnostics, ...found.slice(0, room)];
  next.droppedDiagnostics = state.droppedDiagnostics + found.length - Math.max(room, 0);
  return next;
}

type OptionalKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? K : never }[keyof T];

/** The optional fields of a message record, in the order `copyMessage` writes them. */
const MESSAGE_OPTIONAL = [
  'name',
  'toolCallId',
  'error',
  'activityType',
  'encryptedValue',
  'subagentRunId',
  'runId',
  'metadata',
  'toolCallIds',
  'startedAt',
  'endedAt',
  'stopped',
  'source',
] as const satisfies readonly OptionalKeys<MessageRecord>[];
// Fails to compile when MessageRecord gains an optional field that copyMessage does not copy.
const everyOptionalCopied: Exclude<OptionalKeys<MessageRecord>, (typeof MESSAGE_OPTIONAL)[number]> extends never ? true : false = true;
void everyOptionalCopied;

/**
 * A shallow copy of a message record, for the caller to change: a literal of
 * its fields, for the reason given at `copyThread` (helpers.ts: a streamed message is
 * copied on every delta). Optional fields are copied when present, in the
 * order `fromAgUiMessage` writes them.
 */
export function copyMessage(m: MessageRecord): Mutable<MessageRecord> {
  const {
    name,
    toolCallId,
    error,
    activityType,
    encryptedValue,
    subagentRunId,
    runId,
    metadata,
    toolCallIds,
    startedAt,
    endedAt,
    stopped,
    source,
  } = m;
  // A message streamed in a run carries its run, its start and nothing else optional: written whole in one
  // literal, since a field added to a literal takes storage of its own, on every delta.
  if (
    runId !== undefined &&
    name === undefined &&
    toolCallId === undefined &&
    error === undefined &&
    activityType === undefined &&
    encryptedValue === undefined &&
    subagentRunId === undefined &&
    metadata === undefined &&
    toolCallIds === undefined &&
    endedAt === undefined &&
    stopped === undefined &&
    source === undefined
  )
    return startedAt === undefined
      ? { id: m.id, role: m.role, content: m.content, streaming: m.streaming, runId }
      : { id: m.id, role: m.role, content: m.content, streaming: m.streaming, runId, startedAt };
  const copy: Mutable<MessageRecord> = { id: m.id, role: m.role, content: m.content, streaming: m.streaming };
  if (name !== undefined) copy.name = name;
  if (toolCallId !== undefined) copy.toolCallId = toolCallId;
  if (error !== undefined) copy.error = error;
  if (activityType !== undefined) copy.activityType = activityType;
  if (encryptedValue !== undefined) copy.encryptedValue = encryptedValue;
  if (subagentRunId !== undefined) copy.subagentRunId = subagentRunId;
  if (runId !== undefined) copy.runId = runId;
  if (metadata !== undefined) copy.metadata = metadata;
  if (toolCallIds !== undefined) copy.toolCallIds = toolCallIds;
  if (startedAt !== undefined) copy.startedAt = startedAt;
  if (endedAt !== undefined) copy.endedAt = endedAt;
  if (stopped !== undefined) copy.stopped = stopped;
  if (source !== undefined) copy.source = source;
  return copy;
}

/** Appends to a bounded list, dropping the oldest entries. */
export function appendBounded<T>(list: readonly T[], item: T): readonly T[] {
  return list.length < MAX_PASSTHROUGH ? [...list, item] : [...list.slice(list.length - MAX_PASSTHROUGH + 1), item];
}

/** Updates an existing message; returns `state` unchanged when it does not exist or nothing changed. */
export function updateMessage(state: ThreadState, id: string, change: (m: MessageRecord) => MessageRecord): ThreadState {
  const current = state.messages.byId.get(id);
  if (!current) return state;
  const next = change(current);
  return next === current ? state : putMessage(state, next);
}

export function updateToolCall(state: ThreadState, id: string, change: (c: ToolCallRecord) => ToolCallRecord): ThreadState {
  const current = state.toolCalls.get(id);
  if (!current) return state;
  const next = change(current);
  return next === current ? state : putToolCall(state, next);
}

/**
 * The record kept under `id`, own keys only: ids are opaque strings, and one
 * named `constructor` or `__proto__` must not find Object.prototype's members.
 */
export function entry<V>(records: Readonly<Record<string, V>>, id: string): V | undefined {
  return Object.hasOwn(records, id) ? records[id] : undefined;
}

/** The attribution and run of a record created by an event. */
export function origin(event: { subagentRunId?: string | undefined }, state: ThreadState): { subagentRunId?: string; runId?: string } {
  const out: { subagentRunId?: string; runId?: string } = {};
  if (event.subagentRunId !== undefined) out.subagentRunId = event.subagentRunId;
  if (state.run.runId !== undefined) out.runId = state.run.runId;
  return out;
}
