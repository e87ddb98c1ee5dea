import { type IdMap, idMap } from './idMap.js';
import { LARGE_OBJECT_KEYS } from './jsonPatch.js';
import { LARGE_OBJECT } from './plainJson.js';

/**
 * Large objects of the shared state. A JSON Patch that writes into a plain
 * object must copy it to leave the previous document intact, and a copy of a
 * 100,000-key object costs thousands of times a small delta. So an object with
 * more than `LARGE_OBJECT_KEYS` keys is held, from the first write into it, in
 * a persistent hash trie and shown through a read-only Proxy: a write copies
 * only the path to the changed key, the previous document keeps its contents,
 * and untouched values keep their identity. applyJsonPatch loads this module
 * the first time it copies such an object (or an application imports it), and
 * it registers itself with applyJsonPatch as it loads.
 *
 * To a reader it is a plain JSON object: property reads, `in`, `Object.keys`
 * (in the order a plain object would give), `Object.entries`, spread,
 * `JSON.stringify` and `hasOwnProperty` work as usual. It differs in that it
 * refuses writes (a TypeError, as a frozen object does in strict code) and
 * that `structuredClone` cannot copy a Proxy: `toPlainJson` gives a plain copy.
 */

type Entry = { readonly value: unknown; readonly pos: number };

/** A persistent vector of keys in insertion order (32-way trie); a removed key leaves `undefined`. */
type VecNode = unknown[];
type KeyOrder = { readonly root: VecNode; readonly shift: number; readonly length: number };

const BITS = 5;
const MASK = (1 << BITS) - 1;
const EMPTY_ORDER: KeyOrder = { root: [], shift: 0, length: 0 };

function setIn(node: VecNode | undefined, shift: number, index: number, key: string | undefined): VecNode {
  const copy = node ? node.slice() : [];
  if (shift === 0) copy[index & MASK] = key;
  else {
    const slot = (index >>> shift) & MASK;
    copy[slot] = setIn(copy[slot] as VecNode | undefined, shift - BITS, index, key);
  }
  return copy;
}

function orderSet(order: KeyOrder, index: number, key: string | undefined): KeyOrder {
  return { root: setIn(order.root, order.shift, index, key), shift: order.shift, length: order.length };
}

function orderPush(order: KeyOrder, key: string): KeyOrder {
  let { root, shift } = order;
  // Full at this height: the old root becomes the first child of a new one.
  if (order.length === 2 ** (shift + BITS)) {
    root = [root];
    shift += BITS;
  }
  return { root: setIn(root, shift, order.length, key), shift, length: order.length + 1 };
}

/** The order of `keys`, built bottom up: leaves of 32 keys, then nodes of 32 children, up to one root. */
function orderFrom(keys: readonly string[]): KeyOrder {
  if (keys.length === 0) return EMPTY_ORDER;
  let level: VecNode[] = [];
  for (let i = 0; i < keys.length; i += 1 << BITS) level.push(keys.slice(i, i + (1 << BITS)));
  let shift = 0;
  while (level.length > 1) {
    const up: VecNode[] = [];
    for (let i = 0; i < level.length; i += 1 << BITS) up.push(level.slice(i, i + (1 << BITS)));
    level = up;
    shift += BITS;
  }
  return { root: level[0] as VecNode, shift, length: keys.length };
}

function orderKeys(node: VecNode, shift: number, out: string[]): void {
  for (const child of node) {
    if (shift === 0) {
      if (child !== undefined) out.push(child as string);
    } else if (child !== undefined) orderKeys(child as VecNode, shift - BITS, out);
  }
}

/** A canonical array index ("0", "17"): JavaScript lists these keys first, in numeric order. */
const ARRAY_INDEX = /^(?:0|[1-9]\d{0,9})$/;
const isArrayIndex = (key: string) => ARRAY_INDEX.test(key) && Number(key) < 4294967295;

class LargeObject implements ProxyHandler<Record<string, unknown>> {
  /** The keys in the order a plain object would list them; made on first use. */
  private keys: string[] | undefined;

  constructor(
    public entries: IdMap<Entry>,
    public order: KeyOrder,
    /** Only the patch that made this object may write to it, and only before it is sealed. */
    public sealed: boolean,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  ownKeyList(): string[] {
    if (!this.keys) {
      const inOrder: string[] = [];
      orderKeys(this.order.root, this.order.shift, inOrder);
      const indices = inOrder.filter(isArrayIndex).sort((a, b) => Number(a) - Number(b));
      this.keys = indices.length ? [...indices, ...inOrder.filter((k) => !isArrayIndex(k))] : inOrder;
    }
    return this.keys;
  }

  write(key: string, value: unknown): void {
    const existing = this.entries.get(key);
    if (existing) {
      this.entries = this.entries.set(key, { value, pos: existing.pos });
      return;
    }
    this.entries = this.entries.set(key, { value, pos: this.order.length });
    this.order = orderPush(this.order, key);
    this.keys = undefined;
  }

  remove(key: string): void {
    const existing = this.entries.get(key);
    if (!existing) return;
    this.entries = this.entries.delete(key);
    this.order = orderSet(this.order, existing.pos, undefined);
    this.keys = undefined;
    // Removed keys leave holes; once they outnumber the keys, the order is rebuilt (amortized O(1) per removal).
    if (this.order.length > 2 * this.entries.size + 64) this.compact();
  }

  private compact(): void {
    const live: string[] = [];
    orderKeys(this.order.root, this.order.shift, live);
    this.entries = idMap(live.map((key, pos) => [key, { value: (this.entries.get(key) as Entry).value, pos }]));
    this.order = orderFrom(live);
  }

  private refuse(key: string | symbol): never {
    throw new TypeError(
      `Cannot change '${String(key)}': the shared state is read-only; change it with a STATE_DELTA from the agent or the store's setState.`,
    );
  }

  // Proxy traps. The target is an empty, extensible plain object: inherited members (hasOwnProperty,
  // toString, constructor) come from it, and every own member comes from the trie.

  get(target: Record<string, unknown>, key: string | symbol, receiver: unknown): unknown {
    if (typeof key === 'string') {
      const entry = this.entries.get(key);
      if (entry) return entry.value;
    } else if (key === LARGE_OBJECT) return true;
    return Reflect.get(target, key, receiver);
  }

  has(target: Record<string, unknown>, key: string | symbol): boolean {
    return (typeof key === 'string' && this.entries.has(key)) || Reflect.has(target, key);
  }

  ownKeys(): string[] {
    return this.ownKeyList().slice();
  }

  getOwnPropertyDescriptor(_target: Record<string, unknown>, key: string | symbol): PropertyDescriptor | undefined {
    if (typeof key !== 'string') return undefined;
    const entry = this.entries.get(key);
    return entry ? { value: entry.value, writable: !this.sealed, enumerable: true, configurable: true } : undefined;
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

/**
 * A plain copy of an object's own enumerable members. A spread defines each
 * member (an own `__proto__` stays data, never a prototype) and is the fastest
 * copy of an object small enough to stay plain.
 */
const plainCopy = (source: Record<string, unknown>): Record<string, unknown> => ({ ...source });

/**
 * A writable copy of an object for one patch to change: O(1) for a large
 * object (it shares the trie), a large object for a plain one with more than
 * `LARGE_OBJECT_KEYS` keys, otherwise a plain copy. `seal` ends its writable
 * life once the patch has applied.
 */
export function writableCopy(source: Record<string, unknown>): Record<string, unknown> {
  const handler = handlers.get(source);
  if (handler) return wrap(new LargeObject(handler.entries, handler.order, false));
  const keys = Object.keys(source);
  if (keys.length > LARGE_OBJECT_KEYS) {
    return wrap(new LargeObject(idMap(keys.map((key, pos) => [key, { value: source[key], pos }])), orderFrom(keys), false));
  }
  return plainCopy(source);
}

/** Makes a large object made by `writableCopy` read-only; a plain object is left as it is. */
export function seal(value: object): void {
  const handler = handlers.get(value);
  if (handler) handler.sealed = true;
}

export interface LargeObjects {
  writableCopy: typeof writableCopy;
  seal: typeof seal;
}

/** What jsonPatch.ts uses once `loadLargeObjects()` has imported this module. */
export const largeObjects: LargeObjects = { writableCopy, seal };
