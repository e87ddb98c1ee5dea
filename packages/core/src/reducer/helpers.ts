import type { Diagnostic, MessageRecord, ThreadState, ToolCallRecord } from '../model.js';

/** Diagnostics kept on the state; past this only a count is kept (the event log keeps everything). */
const MAX_DIAGNOSTICS = 1000;
/** CUSTOM, RAW and unknown events kept on the state, newest last. */
const MAX_PASSTHROUGH = 200;

export type Meta = Readonly<Record<string, unknown>> | undefined;

/** Merges metadata per key, last write wins; arrays and objects are replaced, not merged. */
export function mergeMetadata(existing: Meta, incoming: Meta): Meta {
  if (incoming === undefined) return existing;
  if (existing === undefined) return incoming;
  return { ...existing, ...incoming };
}

export function withDiagnostics(state: ThreadState, found: readonly Diagnostic[]): ThreadState {
  if (found.length === 0) return state;
  const room = MAX_DIAGNOSTICS - state.diagnostics.length;
  if (room >= found.length) return { ...state, diagnostics: [...state.diagnostics, ...found] };
  return {
    ...state,
    diagnostics: room > 0 ? [...state.diagnostics, ...found.slice(0, room)] : state.diagnostics,
    droppedDiagnostics: state.droppedDiagnostics + found.length - Math.max(room, 0),
  };
}

/** Appends to a bounded list, dropping the oldest entries. */
export function appendBounded<T>(list: readonly T[], item: T): readonly T[] {
  return list.length < MAX_PASSTHROUGH ? [...list, item] : [...list.slice(list.length - MAX_PASSTHROUGH + 1), item];
}

/** Puts a message record: replaces it in place when the id exists, appends it otherwise. */
export function putMessage(state: ThreadState, record: MessageRecord): ThreadState {
  const { ids, byId } = state.messages;
  const known = byId.has(record.id);
  return { ...state, messages: { ids: known ? ids : [...ids, record.id], byId: byId.set(record.id, record) } };
}

/** Updates an existing message; returns `state` unchanged when it does not exist or nothing changed. */
export function updateMessage(state: ThreadState, id: string, change: (m: MessageRecord) => MessageRecord): ThreadState {
  const current = state.messages.byId.get(id);
  if (!current) return state;
  const next = change(current);
  return next === current ? state : putMessage(state, next);
}

export function putToolCall(state: ThreadState, record: ToolCallRecord): ThreadState {
  return { ...state, toolCalls: state.toolCalls.set(record.id, record) };
}

export function updateToolCall(state: ThreadState, id: string, change: (c: ToolCallRecord) => ToolCallRecord): ThreadState {
  const current = state.toolCalls.get(id);
  if (!current) return state;
  const next = change(current);
  return next === current ? state : putToolCall(state, next);
}

/** Returns a copy of `record` without `key` (exactOptionalPropertyTypes forbids assigning undefined). */
export function without<T extends object, K extends keyof T>(record: T, key: K): T {
  if (!(key in record)) return record;
  const copy = { ...record };
  delete copy[key];
  return copy;
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
