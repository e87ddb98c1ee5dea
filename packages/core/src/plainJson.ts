/**
 * What a reader of the shared state needs to know of its large objects
 * (largeObject.ts), without loading them: how to tell one, and how to get a
 * plain copy.
 */

/** Answered `true` by a large object's Proxy, and by nothing else: a JSON document cannot hold a symbol key. */
export const LARGE_OBJECT: unique symbol = Symbol.for('aguikit.largeObject');

/** Answered by a large object's Proxy with its keys, in order: the list the overlay keeps per version, frozen. */
export const LARGE_OBJECT_KEY_LIST: unique symbol = Symbol.for('aguikit.largeObject.keys');

/**
 * An object with more keys than this becomes a large object at the first
 * write into it; below it, a plain copy is cheaper than an overlay.
 */
export const LARGE_OBJECT_KEYS = 128;

/** Whether `value` is a large object of the shared state (a read-only Proxy over a persistent trie). */
export const isLargeObject = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && (value as { [LARGE_OBJECT]?: unknown })[LARGE_OBJECT] === true;

/**
 * The keys of a JSON object of the shared state, in `Object.keys` order. A
 * large object answers with the list it keeps per version (frozen), which a
 * reader showing a page of its members (a devtools tree) can take on each
 * delta: `Object.keys` through the Proxy copies every key, and
 * `Object.entries` also asks for each member through it.
 *
 * @example
 * const first = jsonKeys(document).slice(0, 100); // as cheap at 100,000 keys as at 100
 */
export function jsonKeys(value: object): readonly string[] {
  return isLargeObject(value) ? (value as { [LARGE_OBJECT_KEY_LIST]: readonly string[] })[LARGE_OBJECT_KEY_LIST] : Object.keys(value);
}

/** Sets `key` as an own data member: an own `__proto__` is defined, not assigned, so it never becomes a prototype. */
export function put(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}

/** A plain copy of an object's own enumerable members (a spread defines them: an own `__proto__` stays data). */
const plainCopy = (source: Record<string, unknown>): Record<string, unknown> => ({ ...source });

/**
 * A plain copy of a JSON value, with every large object turned into a plain
 * object: for `structuredClone`, `postMessage` or code that needs a mutable
 * document. Subtrees without a large object are shared, not copied.
 *
 * @example
 * const doc = toPlainJson(store.getState().thread.sharedState.document);
 * localStorage.setItem('state', JSON.stringify(doc)); // JSON.stringify works on the document as it is, too
 */
export function toPlainJson<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = toPlainJson(value[i]);
      if (item === value[i]) continue;
      out ??= value.slice();
      out[i] = item;
    }
    return (out ?? value) as T;
  }
  const large = isLargeObject(value);
  const source = value as Record<string, unknown>;
  let out: Record<string, unknown> | undefined = large ? {} : undefined;
  for (const key of Object.keys(source)) {
    const item = toPlainJson(source[key]);
    if (out) put(out, key, item);
    else if (item !== source[key]) {
      out = plainCopy(source);
      put(out, key, item);
    }
  }
  return (out ?? value) as T;
}
