/**
 * How values enter the state: copied once, so that the state never shares a
 * mutable object with its caller (the ownership rule in model.ts).
 */
import { isLargeObject, LARGE_OBJECT_KEYS } from '../plainJson.js';

/**
 * A deep copy of a JSON value for the state to own, each value as JSON
 * carries it (Infinity and NaN as null, -0 as 0; a Date, or anything with
 * `toJSON`, as what that gives; undefined, a function or a symbol as null in
 * an array and as no member in an object; a BigInt as its digits). A large object (a
 * read-only Proxy) is kept as it is: nothing can write into it. `owned` is a
 * value the state already owns that `value` may share subtrees with (a
 * client's edit of the state's document): a subtree identical to the one at
 * the same place in `owned` is kept, not copied. `large`, when given,
 * receives the copy's objects of more than LARGE_OBJECT_KEYS keys, counted
 * as they are copied (ownEvent.ts measures them so).
 *
 * @example
 * const document = ownJson(event.snapshot);
 */
export function ownJson<T>(value: T, owned?: unknown, large?: object[]): T {
  return copy(value, owned, large, 1);
}

/**
 * How deep a JSON value the state takes: objects and arrays within one
 * another, the outermost counting one. Far past what any document needs, and
 * well short of what the call stack of a copy, a comparison or
 * `JSON.stringify` can hold (about 4,000 levels in V8).
 */
export const MAX_JSON_DEPTH = 512;

/**
 * How deep `ownJson` copies: MAX_JSON_DEPTH, and the few levels an event or
 * a log entry wraps a value in (a delta's list and operation, a run input's
 * state), so that a value within the limit is never refused for where it
 * travels. The document's own depth is held to MAX_JSON_DEPTH by each patch
 * (jsonPatch.ts) and by each edit before it is recorded.
 */
export const COPY_DEPTH = MAX_JSON_DEPTH + 8;

/** What `ownJson` throws for a value nested deeper than COPY_DEPTH: the reducer refuses the event (`TOO_DEEP`). */
export class JsonTooDeep extends Error {
  constructor() {
    super(`nested deeper than ${MAX_JSON_DEPTH} levels of objects and arrays`);
    this.name = 'JsonTooDeep';
  }
}

/**
 * Whether `value` nests at most `levels` objects and arrays deep (a number or
 * a string: 0). A subtree it shares with `owned` (the thread's document, at
 * the same place) or a large object, both the thread's already, is not walked.
 */
export function nestsWithin(value: unknown, levels: number, owned?: unknown): boolean {
  if (value === owned || typeof value !== 'object' || value === null || isLargeObject(value)) return true;
  if (levels === 0) return false;
  const was = typeof owned === 'object' && owned !== null ? (owned as Record<string, unknown>) : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!nestsWithin(value[i], levels - 1, was?.[i])) return false;
  } else {
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue;
      const under = was !== undefined && Object.hasOwn(was, key) ? was[key] : undefined;
      if (!nestsWithin((value as Record<string, unknown>)[key], levels - 1, under)) return false;
    }
  }
  return true;
}

function copy<T>(value: T, owned: unknown, large: object[] | undefined, depth: number, key: string | number = '', converted = false): T {
  // As JSON carries a number: Infinity and NaN (1e400 parses as Infinity) as null, -0 as 0. The saved log and the next request say the same.
  if (typeof value === 'number') return (Number.isFinite(value) ? value + 0 : null) as T;
  if (value === owned || value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  // What only an in-process agent or the app can hand over is held as JSON.stringify writes it (and so as a saved log
  // has it): a BigInt as its digits (serializeSession's way), and undefined, a function or a symbol as nothing (null
  // in an array, no member in an object).
  if (typeof value === 'bigint') return String(value) as T;
  if (typeof value !== 'object') return undefined as T;
  if (isLargeObject(value)) return value;
  if (depth > COPY_DEPTH) throw new JsonTooDeep();
  // A Date, or any object with toJSON: what it turns into, as JSON.stringify takes it (once: not the result's own toJSON).
  const toJson = converted ? undefined : (value as { toJSON?: unknown }).toJSON;
  // Called with the member's key (an array's index as text), as JSON.stringify calls it.
  if (typeof toJson === 'function') return copy(toJson.call(value, String(key)) as T, undefined, large, depth, key, true);
  const inner = depth + 1;
  const was = typeof owned === 'object' && owned !== null ? (owned as Record<string, unknown>) : undefined;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (let i = 0; i < value.length; i++) out.push(copy(value[i], was?.[i], large, inner, i) ?? null);
    return out as T;
  }
  const out: Record<string, unknown> = {};
  let keys = 0;
  // A JSON object has no inherited enumerable members: `for in` walks its own, without the array Object.keys makes. An
  // object made from another (an in-process agent's Object.create) keeps its own only, as JSON.stringify (a saved log) does.
  const proto = Object.getPrototypeOf(value);
  const inherits = proto !== Object.prototype && proto !== null;
  for (const key in value) {
    if (inherits && !Object.hasOwn(value, key)) continue;
    const item = copy(value[key], was === undefined || !Object.hasOwn(was, key) ? undefined : was[key], large, inner, key);
    if (item === undefined) continue;
    keys++;
    // An own `__proto__` member is defined, not assigned: it stays data and never becomes the prototype.
    if (key === '__proto__') Object.defineProperty(out, key, { value: item, writable: true, enumerable: true, configurable: true });
    else out[key] = item;
  }
  if (large && keys > LARGE_OBJECT_KEYS) large.push(out);
  return out as T;
}

/** Whether two JSON values are equal, whatever the order of their keys. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length &&
    keys.every((k) => Object.hasOwn(b, k) && sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}
