/**
 * The shared-state document as JSON carries it: what the app gives
 * (`initialState`, `setState`, values put in an edit's draft) is turned into
 * what the agent will get and a saved log holds.
 */
import { isLargeObject } from '../plainJson.js';
import type { JsonPatchOperation } from '../protocol.js';

/**
 * A value as JSON carries it (the rules of `JSON.stringify`: `toJSON`, no
 * `undefined` or function members, `null` for a number JSON has not);
 * `undefined` where JSON has no value at all. A BigInt throws, as there.
 */
export function asJson(value: unknown): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  const text = JSON.stringify(value);
  return text === undefined ? undefined : JSON.parse(text);
}

/**
 * Whether `value` holds something JSON has no such value for (`undefined`, a
 * function, a symbol, a BigInt, a number that is not finite, an object with
 * `toJSON` such as a Date), outside the subtrees it shares with `owned` (the
 * thread's document, JSON already): a replaced document is usually the last
 * one with a few members changed, and costs what changed.
 */
function needsJson(value: unknown, owned: unknown, path: Set<object> = new Set()): boolean {
  if (value === owned || value === null) return false;
  const type = typeof value;
  if (type === 'string' || type === 'boolean') return false;
  if (type === 'number') return !Number.isFinite(value);
  if (type !== 'object') return true;
  // A large object is the thread's own (JSON already); an object with toJSON is what JSON would turn into something else.
  if (isLargeObject(value)) return false;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return true;
  const was = typeof owned === 'object' && owned !== null ? (owned as Record<string, unknown>) : undefined;
  // An object inside itself is what JSON cannot write: said as JSON.stringify says it, not left to overflow the stack.
  if (path.has(value as object)) throw new TypeError('the document holds a circular structure (an object inside itself)');
  path.add(value as object);
  try {
    if (Array.isArray(value)) {
      // A hole is no element JSON has: it writes null there.
      for (let i = 0; i < value.length; i++) if (!(i in value) || needsJson(value[i], was?.[i], path)) return true;
      return false;
    }
    // An object made from another prototype (a class's, Object.create's) may have members it only inherits, which JSON leaves out.
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return true;
    for (const key in value as Record<string, unknown>)
      if (needsJson((value as Record<string, unknown>)[key], was && Object.hasOwn(was, key) ? was[key] : undefined, path)) return true;
    return false;
  } finally {
    path.delete(value as object);
  }
}

/** A document the app gives (`initialState`, `setState`) as JSON carries it; itself when it holds nothing JSON has not. */
export function jsonDocument(value: unknown, owned?: unknown): unknown {
  return needsJson(value, owned) ? (asJson(value) ?? null) : value;
}

const OPERATIONS = new Set(['add', 'remove', 'replace', 'move', 'copy', 'test']);

/**
 * JSON Patch operations an app gives (`updateSharedState(operations)`), as
 * JSON carries them: each checked to be an operation, its value as JSON
 * writes it, copies the app cannot change afterwards. A TypeError names the
 * first that is none (a BigInt's is JSON's own); whether the document can
 * take them is the engine's to say.
 */
export function jsonOperations(operations: readonly unknown[]): JsonPatchOperation[] {
  return operations.map((operation, i) => {
    const o = operation as Record<string, unknown> | null;
    if (
      typeof o !== 'object' ||
      o === null ||
      Array.isArray(o) ||
      typeof o.op !== 'string' ||
      !OPERATIONS.has(o.op) ||
      typeof o.path !== 'string'
    )
      throw new TypeError(
        `operation ${i} is no JSON Patch operation (an object with an op of add, remove, replace, move, copy or test, and a path)`,
      );
    const out: Record<string, unknown> = { op: o.op, path: o.path };
    if (o.op === 'move' || o.op === 'copy') {
      if (typeof o.from !== 'string') throw new TypeError(`operation ${i} (${o.op}) has no from`);
      out.from = o.from;
    } else if (o.op !== 'remove') {
      const value = asJson(o.value);
      if (value === undefined) throw new TypeError(`operation ${i} (${o.op}) has no value JSON can write`);
      out.value = value;
    }
    return out as unknown as JsonPatchOperation;
  });
}
