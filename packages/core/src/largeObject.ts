import { type IdMap, idMap } from './idMap.js';
import { LARGE_OBJECT, LARGE_OBJECT_KEY_LIST, LARGE_OBJECT_KEYS, put } from './plainJson.js';

/**
 * Large objects of the shared state. A JSON Patch that writes into a plain
 * object must copy it to leave the previous document intact, and a copy of a
 * 100,000-key object costs thousands of times a small delta. So the first
 * write into an object of more than `LARGE_OBJECT_KEYS` keys wraps it, in
 * O(1), as an overlay shown through a read-only Proxy: the plain object itself
 * as a read-only base (the state owns its document and never mutates it),
 * under a persistent map (idMap.ts) of the keys changed, added or deleted
 * since. A write copies only the path to its key in that map — O(log of the
 * changes), however large the object — the previous document keeps its
 * contents, and untouched values keep their identity.
 *
 * The code is part of applyJsonPatch, not loaded on demand, so the same events
 * always give the same representation: whether an object becomes an overlay
 * depends on its key count alone. Counting keys costs O(keys), so a document
 * entering the state is measured once as it enters, in proportion to its own
 * size: by the copy the reducer makes of an event's values (ownEvent.ts,
 * `noteCopy`), or by `noteLargeObjects` (applyJsonPatch, for a value a delta
 * adds, which skips what such a copy measured). An object that entered
 * otherwise is counted at its first write, with the same outcome.
 *
 * Key order is a plain object's: the base's keys where they were, a replaced
 * key where it was, an added key at the end, a deleted and re-added key at
 * the end, array indices first in numeric order. Each key the map holds has a
 * position: -1 for its place in the base, else its place among the added keys
 * (a second map, position to key).
 *
 * The map grows with the keys written. Once it holds more than half the
 * base's key count (positions given to added keys included, so that
 * add/remove churn counts too), the version it has reached is folded into a
 * new plain base: the writes that follow copy 16 of its keys each into it,
 * reading through the version being folded, and land in a new map over that
 * version. When the new base is whole it replaces the version under that
 * map, whose positions it keeps: nothing is rebuilt at once. A write adds at
 * most two to the count, so a fold starts after at least a quarter of the
 * base's size in writes, and it ends within a tenth of it (a base of b keys
 * under at most b/2 + 2 is at most 1.5 b + 2 keys, 16 a write): a write costs
 * O(log) plus 16 key copies at most, never O(keys). Writing the same keys
 * again never grows the map. The alternative measured before this design, a
 * persistent hash trie built from the whole object at its first write, cost
 * 55–147 ms at 100,000 keys in that one delta; the overlay's first write
 * costs what any delta does (bench case 4), and its code is smaller.
 *
 * Reading through the overlay costs a lookup in the map, then one in the base
 * (two maps while a fold runs); `Object.keys` lists the base's keys less those
 * the map deleted or moved, then the added ones, and is kept per version.
 *
 * To a reader it is a plain JSON object: property reads, `in`, `Object.keys`
 * (in the order a plain object would give), `Object.entries`, spread,
 * `JSON.stringify` and `hasOwnProperty` work as usual. It differs in that it
 * refuses writes (a TypeError, as a frozen object does in strict code) and
 * that `structuredClone` cannot copy a Proxy: `toPlainJson` gives a plain copy.
 */

export { LARGE_OBJECT_KEYS };

/** A plain object wrapped read-only, with its keys in the order `Object.keys` gives (or any order whose array indices sort into it). */
type Base = { readonly object: Record<string, unknown>; readonly keys: readonly string[] };

/** A key's value and position: -1, its place in the base; else its place among the added keys. */
type Entry = { readonly value: unknown; readonly pos: number };

/** A deleted key of the base. */
const GONE = Symbol();
const DELETED: Entry = { value: GONE, pos: -1 };
const NONE = idMap<never>();
/** Keys a write copies into a base being folded. */
const FOLD_STEP = 16;

/** A canonical array index ("0", "17"): JavaScript lists these keys first, in numeric order. */
const ARRAY_INDEX = /^(?:0|[1-9]\d{0,9})$/;
export const isArrayIndex = (key: string) => ARRAY_INDEX.test(key) && Number(key) < 4294967295;

/** The value of `key` in `layer`, or GONE. */
function lookup(layer: LargeObject | Base, key: string): unknown {
  while (layer instanceof LargeObject) {
    const entry = layer.changes.get(key);
    if (entry) return entry.value;
    layer = layer.under;
  }
  return Object.hasOwn(layer.object, key) ? layer.object[key] : GONE;
}

/** A new plain base holding a version's contents, filled a few keys per write. */
class Fold {
  private readonly object: Record<string, unknown> = {};
  private readonly keys: string[] = [];
  private at = 0;
  base: Base | undefined;

  /** `from`, whose base is plain, never changes (a sealed version). */
  constructor(private readonly from: LargeObject) {}

  /** Copies up to `steps` keys; the new base once it is whole. */
  run(steps: number): Base | undefined {
    const { under, changes, order, next } = this.from;
    const { object, keys } = under as Base;
    for (; !this.base && steps > 0; steps--, this.at++) {
      const at = this.at - keys.length;
      if (at >= next) this.base = { object: this.object, keys: this.keys };
      else {
        const key = at < 0 ? (keys[this.at] as string) : order.get(String(at));
        if (key === undefined) continue;
        const entry = changes.get(key);
        // A base key deleted, or deleted and added again, is not in its base place.
        if (at < 0 && entry && entry.pos !== -1) continue;
        const value = entry ? entry.value : object[key];
        if (value === GONE) continue;
        put(this.object, key, value);
        this.keys.push(key);
      }
    }
    return this.base;
  }
}

class LargeObject implements ProxyHandler<Record<string, unknown>> {
  constructor(
    /** The plain base, or, while a fold runs, the version being folded. */
    public under: Base | LargeObject,
    /** Keys written since `under`. */
    public changes: IdMap<Entry>,
    /** The added keys by position. */
    public order: IdMap<string>,
    /** Positions given out to added keys. */
    public next: number,
    /** Keys of `under` that the changes took out of their place (deleted, or deleted and added again at the end). */
    public displaced: number,
    public fold: Fold | undefined,
    /** Only the patch that made this object may write to it, and only before it is sealed. */
    public sealed: boolean,
    /** The keys in the order a plain object would list them; made on first use. */
    private keys?: readonly string[],
  ) {}

  /** An unsealed version sharing everything with this one: O(1). */
  copy(): LargeObject {
    return new LargeObject(this.under, this.changes, this.order, this.next, this.displaced, this.fold, false, this.keys);
  }

  ownKeyList(): readonly string[] {
    if (!this.keys) {
      const under = this.under;
      const keys = under instanceof LargeObject ? under.ownKeyList() : under.keys;
      // Each of under's keys is looked up in the changes only when some left their place: replaces and additions keep
      // under's list as it is, which is copied.
      const all = this.displaced
        ? keys.filter((key) => {
            const entry = this.changes.get(key);
            return !entry || (entry.pos === -1 && entry.value !== GONE);
          })
        : keys.slice();
      for (let pos = 0; pos < this.next; pos++) {
        const key = this.order.get(String(pos));
        if (key !== undefined) all.push(key);
      }
      const indices = all.filter(isArrayIndex);
      // Frozen: jsonKeys gives it out.
      this.keys = Object.freeze(
        indices.length ? [...indices.sort((a, b) => Number(a) - Number(b)), ...all.filter((k) => !isArrayIndex(k))] : all,
      );
    }
    return this.keys;
  }

  write(key: string, value: unknown): void {
    const entry = this.changes.get(key);
    const pos = entry ? entry.pos : lookup(this.under, key) === GONE ? -2 : -1;
    if (entry?.value !== GONE && pos !== -2) this.changes = this.changes.set(key, { value, pos });
    else {
      // New, or deleted before: at the end, as on a plain object.
      this.changes = this.changes.set(key, { value, pos: this.next });
      this.order = this.order.set(String(this.next++), key);
      this.keys = undefined;
    }
    this.step();
  }

  remove(key: string): void {
    const entry = this.changes.get(key);
    if (entry ? entry.value === GONE : lookup(this.under, key) === GONE) return;
    if (entry && entry.pos >= 0) this.order = this.order.delete(String(entry.pos));
    // A key of under still in its place leaves it; one deleted and added again had left it already.
    else this.displaced++;
    this.changes = lookup(this.under, key) === GONE ? this.changes.delete(key) : this.changes.set(key, DELETED);
    this.keys = undefined;
    this.step();
  }

  /** Moves a running fold on, or starts one once the changes outgrow half the base. */
  private step(): void {
    if (this.fold) {
      const base = this.fold.run(FOLD_STEP);
      if (base) {
        // The new base is the version the changes were written over: they stay as they are.
        this.under = base;
        this.fold = undefined;
      }
    } else if (this.changes.size + this.next > Math.max(LARGE_OBJECT_KEYS, (this.under as Base).keys.length / 2)) {
      const from = new LargeObject(this.under, this.changes, this.order, this.next, this.displaced, undefined, true, this.keys);
      this.under = from;
      this.changes = NONE;
      this.order = NONE;
      this.next = 0;
      this.displaced = 0;
      this.fold = new Fold(from);
    }
  }

  private refuse(key: string | symbol): never {
    throw new TypeError(
      `Cannot change '${String(key)}': the thread's state is read-only; the shared state changes with a STATE_DELTA from the agent or the controller's setState.`,
    );
  }

  // Proxy traps. The target is an empty, extensible plain object: inherited members (hasOwnProperty,
  // toString, constructor) come from it, and every own member comes from the overlay.

  get(target: Record<string, unknown>, key: string | symbol, receiver: unknown): unknown {
    if (typeof key === 'string') {
      const value = lookup(this, key);
      if (value !== GONE) return value;
    } else if (key === LARGE_OBJECT) return true;
    else if (key === LARGE_OBJECT_KEY_LIST) return this.ownKeyList();
    return Reflect.get(target, key, receiver);
  }

  has(target: Record<string, unknown>, key: string | symbol): boolean {
    return (typeof key === 'string' && lookup(this, key) !== GONE) || Reflect.has(target, key);
  }

  ownKeys(): ArrayLike<string> {
    // The engine copies the list a trap returns: the cached one can be given out.
    return this.ownKeyList();
  }

  getOwnPropertyDescriptor(_target: Record<string, unknown>, key: string | symbol): PropertyDescriptor | undefined {
    const value = typeof key === 'string' ? lookup(this, key) : GONE;
    return value === GONE ? undefined : { value, writable: !this.sealed, enumerable: true, configurable: true };
  }

  set(_target: Record<string, unknown>, key: string | symbol, value: unknown): boolean {
    if (this.sealed || typeof key !== 'string') this.refuse(key);
    this.write(key, value);
    return true;
  }

  deleteProperty(_target: Record<string, unknown>, key: string | symbol): boolean {
    if (this.sealed || typeof key !== 'string') this.refuse(key);
    this.remove(key);
    return true;
  }

  defineProperty(_target: Record<string, unknown>, key: string | symbol, descriptor: PropertyDescriptor): boolean {
    if (this.sealed || typeof key !== 'string' || !('value' in descriptor)) this.refuse(key);
    this.write(key, descriptor.value);
    return true;
  }

  setPrototypeOf(_target: Record<string, unknown>, prototype: object | null): boolean {
    return this.refuse(`prototype (${String(prototype)})`);
  }

  preventExtensions(): boolean {
    return this.refuse('(extensions)');
  }
}

const handlers = new WeakMap<object, LargeObject>();

function wrap(handler: LargeObject): Record<string, unknown> {
  const proxy = new Proxy<Record<string, unknown>>({}, handler);
  handlers.set(proxy, handler);
  return proxy;
}

/** The keys of the plain objects of more than LARGE_OBJECT_KEYS keys that `noteLargeObjects` measured. */
const measured = new WeakMap<object, readonly string[]>();

/** Values `ownJson` copied, measuring each object of the copy as it made it: `noteLargeObjects` has nothing left to do in them. */
const measuredCopies = new WeakSet<object>();

/**
 * Notes what `ownJson` measured while it copied: `large`, the objects of
 * the copy with more than LARGE_OBJECT_KEYS keys, and `root`, the copy, so
 * that a value entering the state is walked once, by its copy, not again.
 */
export function noteCopy(root: object, large: readonly object[]): void {
  for (const object of large) measured.set(object, Object.keys(object));
  measuredCopies.add(root);
}

/** Objects a walk visits at most: a document that is not JSON (a cycle) cannot hold it up. */
const WALK_LIMIT = 1 << 24;

/**
 * Measures a JSON value entering the shared state (a snapshot, a value a
 * delta adds), so that the first write into an object of it costs O(1):
 * notes each plain object of more than `LARGE_OBJECT_KEYS` keys with its keys.
 * O(size of the value), once; a value it did not see is counted at its first
 * write instead, with the same outcome.
 *
 * @example
 * noteLargeObjects(event.snapshot); // as a STATE_SNAPSHOT enters the state
 */
export function noteLargeObjects(value: unknown): void {
  if (typeof value === 'object' && value !== null && measuredCopies.has(value)) return;
  let budget = WALK_LIMIT;
  const stack = [value];
  while (stack.length && budget-- > 0) {
    const node = stack.pop();
    // A measured object was measured with all it holds (by a copy, or by a walk like this one): nothing left to do in it.
    if (typeof node !== 'object' || node === null || handlers.has(node) || measured.has(node)) continue;
    // An array's elements are walked without listing its indices as strings.
    const keys = Array.isArray(node) ? undefined : Object.keys(node);
    if (keys && keys.length > LARGE_OBJECT_KEYS) measured.set(node, keys);
    const length = keys ? keys.length : (node as unknown[]).length;
    for (let i = 0; i < length; i++) {
      const child = keys ? (node as Record<string, unknown>)[keys[i] as string] : (node as unknown[])[i];
      if (typeof child === 'object' && child !== null) stack.push(child);
    }
  }
}

/** Whether `object` has more than `limit` own enumerable keys, counting no further. */
function keyCountOver(object: object, limit: number): boolean {
  let count = 0;
  for (const _ in object) if (++count > limit) return true;
  return false;
}

/**
 * A writable copy of an object for one patch to change: O(1) for a large
 * object (it shares the overlay) and for a plain one of more than
 * `LARGE_OBJECT_KEYS` keys (it becomes the base of one), otherwise a plain
 * copy. `seal` ends its writable life once the patch has applied.
 */
export function writableCopy(source: Record<string, unknown>): Record<string, unknown> {
  const handler = handlers.get(source);
  if (handler) return wrap(handler.copy());
  let keys = measured.get(source);
  if (!keys) {
    if (!keyCountOver(source, LARGE_OBJECT_KEYS)) return { ...source };
    keys = Object.keys(source);
  }
  return wrap(new LargeObject({ object: source, keys }, NONE, NONE, 0, 0, undefined, false));
}

/** Makes a large object made by `writableCopy` read-only; a plain object is left as it is. */
export function seal(value: object): void {
  const handler = handlers.get(value);
  if (handler) handler.sealed = true;
}

/**
 * `source` with the members of `incoming` set, as a new read-only object that
 * leaves `source` as it was: a plain copy up to `LARGE_OBJECT_KEYS` keys, past
 * that a large object over it. So a record that grows by a key per event (a
 * message's metadata named anew at each chunk, a thread's subagents or
 * reasoning spans) costs O(log keys) a key rather than a copy of every key
 * it holds. Key order is the spread's: `{ ...source, ...incoming }`.
 */
export function withKeys<T>(source: Readonly<Record<string, T>>, incoming: Readonly<Record<string, T>>): Readonly<Record<string, T>> {
  let handler = handlers.get(source);
  if (!handler) {
    const keys = measured.get(source) ?? (keyCountOver(source, LARGE_OBJECT_KEYS) ? Object.keys(source) : undefined);
    if (!keys) return { ...source, ...incoming };
    handler = new LargeObject({ object: source as Record<string, unknown>, keys }, NONE, NONE, 0, 0, undefined, true);
  }
  const next = handler.copy();
  for (const key of Object.keys(incoming)) next.write(key, incoming[key]);
  next.sealed = true;
  return wrap(next) as Readonly<Record<string, T>>;
}
