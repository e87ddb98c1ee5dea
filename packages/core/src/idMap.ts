/**
 * A persistent map from string ids to records: `set` returns a new map and
 * leaves the old one intact, copying only the path to the changed entry (a
 * 32-way hash trie whose nodes hold only their occupied slots: three small
 * arrays for ten thousand entries). This is what keeps one streaming token
 * O(1) in the length of the thread, where spreading a plain object of N
 * messages would cost O(N) per token.
 */
export interface IdMap<V> extends Iterable<V> {
  get(id: string): V | undefined;
  has(id: string): boolean;
  /** A new map with `id` set to `value`; returns this map when the value is already identical. */
  set(id: string, value: V): IdMap<V>;
  /** A new map without `id`; returns this map when `id` is absent. */
  delete(id: string): IdMap<V>;
  readonly size: number;
}

/** One entry. */
type Leaf<V> = { readonly key: string; readonly value: V };
/**
 * A slot of a node: an entry, a deeper node, or (at the last level only,
 * where every bit of the hash is used) the entries whose hashes are equal.
 */
type Slot<V> = Leaf<V> | Trie<V> | Leaf<V>[];

/**
 * A node of the trie, compressed: bit i of `bitmap` says whether child i of
 * the 32 is present, and `slots` holds only the present ones, in the order of
 * their bits. A change copies the occupied slots of each node on its path,
 * not all 32.
 */
class Trie<V> {
  constructor(
    readonly bitmap: number,
    readonly slots: Slot<V>[],
  ) {}
}

const BITS = 5;
const MASK = (1 << BITS) - 1;
/** Levels of nodes: the last one keeps colliding entries in a list. */
const MAX_DEPTH = 6;

/** The key last hashed and its hash: a streamed message is looked up and set under the same id on every token. */
let lastKey = '';
let lastHash = 0x811c9dc5; // the hash of ''

function hash(key: string): number {
  if (key === lastKey) return lastHash;
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  lastKey = key;
  lastHash = h >>> 0;
  return lastHash;
}

function popcount(x: number): number {
  let n = x - ((x >>> 1) & 0x55555555);
  n = (n & 0x33333333) + ((n >>> 2) & 0x33333333);
  return Math.imul((n + (n >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** The bit of the child `h` falls in at `depth`. */
const bitAt = (h: number, depth: number): number => 1 << ((h >>> (depth * BITS)) & MASK);
/** Where the child of `bit` sits in the dense slots of a node with `bitmap`. */
const indexOf = (bitmap: number, bit: number): number => popcount(bitmap & (bit - 1));

class TrieMap<V> implements IdMap<V> {
  constructor(
    private readonly root: Trie<V>,
    readonly size: number,
  ) {}

  get(id: string): V | undefined {
    const h = hash(id);
    let node = this.root;
    for (let depth = 0; ; depth++) {
      const bit = bitAt(h, depth);
      if ((node.bitmap & bit) === 0) return undefined;
      const slot = node.slots[indexOf(node.bitmap, bit)] as Slot<V>;
      // An entry first: in a map of a few ids every slot is one.
      if (isLeaf(slot)) return slot.key === id ? slot.value : undefined;
      if (Array.isArray(slot)) {
        for (const leaf of slot) if (leaf.key === id) return leaf.value;
        return undefined;
      }
      node = slot;
    }
  }

  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  set(id: string, value: V): IdMap<V> {
    added = 0;
    const root = setIn(this.root, hash(id), id, value, 0);
    return root === this.root ? this : new TrieMap(root, this.size + added);
  }

  delete(id: string): IdMap<V> {
    if (!this.has(id)) return this;
    return new TrieMap(deleteIn(this.root, hash(id), id, 0) ?? (EMPTY_NODE as Trie<V>), this.size - 1);
  }

  *[Symbol.iterator](): Iterator<V> {
    const stack: Slot<V>[] = [this.root];
    while (stack.length) {
      const slot = stack.pop() as Slot<V>;
      if (slot instanceof Trie) for (let i = slot.slots.length - 1; i >= 0; i--) stack.push(slot.slots[i] as Slot<V>);
      else if (Array.isArray(slot)) for (const leaf of slot) yield leaf.value;
      else yield slot.value;
    }
  }
}

/** Whether a slot is an entry: neither a node nor a list of entries has a `key`. */
function isLeaf<V>(slot: Slot<V>): slot is Leaf<V> {
  return (slot as Partial<Leaf<V>>).key !== undefined;
}

/** Whether the last `setIn` added an entry (1) or replaced one (0): set synchronously, read right after. */
let added = 0;

/** A node holding two entries whose hashes agree below `depth`, as deep as they need to be told apart. */
function pair<V>(a: Leaf<V>, ha: number, b: Leaf<V>, hb: number, depth: number): Slot<V> {
  if (depth >= MAX_DEPTH) return [a, b];
  const bitA = bitAt(ha, depth);
  const bitB = bitAt(hb, depth);
  if (bitA === bitB) return new Trie(bitA, [pair(a, ha, b, hb, depth + 1)]);
  // Unsigned: the bit of child 31 is the sign bit.
  return new Trie(bitA | bitB, bitA >>> 0 < bitB >>> 0 ? [a, b] : [b, a]);
}

/** `slots` with `slot` at `i`: a copy of the occupied slots only. */
function replaced<V>(slots: readonly Slot<V>[], i: number, slot: Slot<V>): Slot<V>[] {
  // A loop rather than slice(): the arrays are short, and the loop is compiled inline.
  const copy: Slot<V>[] = new Array(slots.length);
  for (let j = 0; j < slots.length; j++) copy[j] = j === i ? slot : (slots[j] as Slot<V>);
  return copy;
}

function setIn<V>(node: Trie<V>, h: number, key: string, value: V, depth: number): Trie<V> {
  const bit = bitAt(h, depth);
  const i = indexOf(node.bitmap, bit);
  if ((node.bitmap & bit) === 0) {
    added = 1;
    const slots = node.slots.slice(0, i);
    slots.push({ key, value });
    for (let j = i; j < node.slots.length; j++) slots.push(node.slots[j] as Slot<V>);
    return new Trie(node.bitmap | bit, slots);
  }
  const slot = node.slots[i] as Slot<V>;
  let next: Slot<V>;
  if (isLeaf(slot)) {
    if (slot.key === key) {
      if (Object.is(slot.value, value)) return node;
      next = { key, value };
    } else {
      added = 1;
      next = pair(slot, hash(slot.key), { key, value }, h, depth + 1);
    }
  } else if (slot instanceof Trie) {
    next = setIn(slot, h, key, value, depth + 1);
    if (next === slot) return node;
  } else {
    // The last level: entries whose hashes are equal.
    const at = slot.findIndex((leaf) => leaf.key === key);
    if (at >= 0) {
      if (Object.is(slot[at]?.value, value)) return node;
      next = slot.slice();
      next[at] = { key, value };
    } else {
      added = 1;
      next = [...slot, { key, value }];
    }
  }
  return new Trie(node.bitmap, replaced(node.slots, i, next));
}

/** The node without `key` (known to be present), or undefined when nothing is left in it. */
function deleteIn<V>(node: Trie<V>, h: number, key: string, depth: number): Trie<V> | undefined {
  const bit = bitAt(h, depth);
  const i = indexOf(node.bitmap, bit);
  const slot = node.slots[i] as Slot<V>;
  let next: Slot<V> | undefined;
  if (slot instanceof Trie) next = deleteIn(slot, h, key, depth + 1);
  else if (Array.isArray(slot)) {
    const rest = slot.filter((leaf) => leaf.key !== key);
    next = rest.length ? rest : undefined;
  }
  if (next !== undefined) return new Trie(node.bitmap, replaced(node.slots, i, next));
  if (node.bitmap === bit) return undefined;
  const slots = node.slots.slice();
  slots.splice(i, 1);
  return new Trie(node.bitmap & ~bit, slots);
}

const EMPTY_NODE = new Trie<never>(0, []);
const EMPTY = new TrieMap<never>(EMPTY_NODE, 0);

/**
 * An empty `IdMap`, or one holding `entries`.
 *
 * @example
 * const byId = idMap<Message>().set('m1', message);
 * byId.get('m1') === message; // true
 */
export function idMap<V>(entries?: Iterable<readonly [string, V]>): IdMap<V> {
  if (!entries) return EMPTY as IdMap<V>;
  // Every node is new and unshared while the map is built, so entries go in without copying paths.
  const root = new Trie<V>(0, []);
  let size = 0;
  for (const [id, value] of entries) size += insertInPlace(root, hash(id), id, value, 0);
  return size ? new TrieMap(root, size) : (EMPTY as IdMap<V>);
}

/** `setIn` for a node this build owns: mutates it; returns 1 when `key` is new. */
function insertInPlace<V>(node: Trie<V>, h: number, key: string, value: V, depth: number): number {
  const bit = bitAt(h, depth);
  const i = indexOf(node.bitmap, bit);
  const own = node as { bitmap: number; slots: Slot<V>[] };
  if ((node.bitmap & bit) === 0) {
    own.slots.splice(i, 0, { key, value });
    own.bitmap |= bit;
    return 1;
  }
  const slot = node.slots[i] as Slot<V>;
  if (slot instanceof Trie) return insertInPlace(slot, h, key, value, depth + 1);
  if (Array.isArray(slot)) {
    const at = slot.findIndex((leaf) => leaf.key === key);
    if (at >= 0) {
      slot[at] = { key, value };
      return 0;
    }
    slot.push({ key, value });
    return 1;
  }
  if (slot.key === key) {
    own.slots[i] = { key, value };
    return 0;
  }
  own.slots[i] = pair(slot, hash(slot.key), { key, value }, h, depth + 1);
  return 1;
}
