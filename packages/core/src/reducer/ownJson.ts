/**
 * How values enter the state: copied once, so that the state never shares a
 * mutable object with its caller (the ownership rule in model.ts).
 */
import { isLargeObject } from '../plainJson.js';

/**
 * A deep copy of a JSON value for the state to own. A large object (a
 * read-only Proxy) is kept as it is: nothing can write into it. `owned` is a
 * value the state already owns that `value` may share subtrees with (a
 * client's edit of the state's document): a subtree identical to the one at
 * the same place in `owned` is kept, not copied.
 *
 * @example
 * const document = ownJson(event.snapshot);
 */
export function ownJson<T>(value: T, owned?: unknown): T {
  if (value === owned || typeof value !== 'object' || value === null || isLargeObject(value)) return value;
  const was = typeof owned === 'object' && owned !== null ? (owned as Record<string, unknown>) : undefined;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (let i = 0; i < value.length; i++) out.push(ownJson(value[i], was?.[i]));
    return out as T;
  }
  const out: Record<string, unknown> = {};
  // A JSON object has no inherited enumerable members: `for in` walks its own, without the array Object.keys makes.
  for (const key in value) {
    const item = ownJson(value[key], was === undefined || !Object.hasOwn(was, key) ? undefined : was[key]);
    // An own `__proto__` member is defined, not assigned: it stays data and never becomes the prototype.
    if (key === '__proto__') Object.defineProperty(out, key, { value: item, writable: true, enumerable: true, configurable: true });
    else out[key] = item;
  }
  return out as T;
}

/**
 * The event with every object-valued field copied (`rawEvent` aside, which
 * no record keeps): what the reducer applies. An event of strings and
 * numbers, a token, is returned as it is.
 */
export function ownEvent<E extends object>(event: E): E {
  const fields = event as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  for (const key in fields) {
    const value = fields[key];
    if (typeof value === 'object' && value !== null && key !== 'rawEvent') {
      out ??= { ...fields };
      out[key] = ownJson(value);
    }
  }
  return (out ?? event) as E;
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
