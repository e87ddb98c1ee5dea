import type { EffectRecord, RunRecord, ThreadRecord } from './types.js';

/*
 * The shapes of stored records, checked on every read: a row or key of the
 * wrong shape (written by another program, an older version, or by hand)
 * reads as absent and is reported, never trusted.
 */

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isString = (v: unknown): v is string => typeof v === 'string';

/** A run record whose input belongs to it. */
export function isRunRecord(v: unknown): v is RunRecord {
  if (!isObject(v) || !isString(v.runId) || !isString(v.threadId) || !isString(v.scenarioId) || !isString(v.nonce)) return false;
  if (typeof v.startedAt !== 'number' || !Number.isFinite(v.startedAt)) return false;
  const input = v.input;
  return (
    isObject(input) &&
    input.runId === v.runId &&
    input.threadId === v.threadId &&
    Array.isArray(input.messages) &&
    Array.isArray(input.tools) &&
    Array.isArray(input.context)
  );
}

/** A thread record: its open interrupts and the answers accepted. */
export function isThreadRecord(v: unknown): v is ThreadRecord {
  if (!isObject(v) || !isString(v.threadId) || !Array.isArray(v.open) || !isObject(v.answered)) return false;
  if (v.raisedBy !== undefined && !isString(v.raisedBy)) return false;
  if (!v.open.every((it) => isObject(it) && isString(it.id))) return false;
  return Object.values(v.answered).every(
    (a) => isObject(a) && (a.status === 'resolved' || a.status === 'cancelled') && isString(a.payload),
  );
}

/** A side effect and its record. */
export function isEffectRecord(v: unknown): v is EffectRecord {
  return (
    isObject(v) &&
    isString(v.idempotencyKey) &&
    isString(v.kind) &&
    isString(v.key) &&
    isString(v.runId) &&
    typeof v.at === 'number' &&
    Number.isFinite(v.at)
  );
}
