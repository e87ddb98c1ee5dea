/**
 * A persistent map from string ids to records: `set` returns a new map and
 * leaves the old one intact, copying only the path to the changed entry (a
 * 32-way hash trie: three small arrays for ten thousand entries, one list of
 * up to eight for a short thread). This is
 * what keeps one streaming token O(1) in the length of the thread, where
 * spreading a plain object of N messages would cost O(N) per token.
 *
 * A map made with a `watch` predicate also keeps the ids of the entries it
 * holds true for (`watched`), updated as each entry is written: the few
 * messages still streaming among thousands are found without reading them all.
 * They are kept in a map of their own (each with the count of writes when it
 * came to hold), so a write costs the same with 20,000 of them open as with
 * one; the list is made when first read.
 */
export interface IdMap<V> extends Iterable<V> {
  get(id: string): V | undefined;
  has(id: string): boolean;
  /** A new map with `id` set to `value`; returns this map when the value is already identical. */
  set(id: string, value: V): IdMap<V>;
  /** A new map without `id`; returns this map when `id` is absent. */
  delete(id: string): IdMap<V>;
  readonly size: number;
  /**
   * The ids of the entries `watch` holds true for, for a map made with one
   * (`idMap(entries, watch)`, and every map `set` and `delete` derive from
   * it), in the order they came to hold it; `undefined` for a map made without.
   */
  readonly watched: readonly string[] | undefined;
}

/** Tells which entries a map keeps the ids of (`IdMap.watched`). */
export type Watch<V> = (value: V) => boolean;

type Leaf<V> = { key: string; value: V };
type Slot<V> = Node<V> | Leaf<V>[] | undefined;
type Node<V> = { slots: Slot<V>[] };

const BITS = 5;
const WIDTH = 1 << BITS;
/** Depth at which the first hash's bits run out: deeper, a second hash, seeded per page load, takes over. */
const FIRST_DEPTH = 6;
/**
 * Depth at which both hashes' bits run out: a bucket there grows instead of
 * splitting. The first hash is known to anyone: an agent can choose thousands
 * of ids that share it (in under a second), and a bucket holding them all made
 * every write copy and every read scan the lot. The second one cannot be
 * chosen for, so the ids part below the first hash's depth.
 */
const MAX_DEPTH = 12;
/**
 * Entries a bucket holds before it splits into a node. A thread of a few
 * messages is then one short list, and a token copies that list instead of a
 * 32-slot node.
 */
const BUCKET = 8;

/** The last key hashed and its hash: a streamed message or tool call is looked up and written under one id, token after token. */
let lastKey = '';
let lastHash = 0x811c9dc5;

function hash(key: string): number {
  if (key === lastKey) return lastHash;
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  lastKey = key;
  lastHash = h >>> 0;
  return lastHash;
}

const SEED = (Math.random() * 0x100000000) >>> 0;

/** The second hash, for depths past the first's: FNV-1a from a random basis, then mixed (murmur3's finalizer). */
function deepHash(key: string): number {
  let h = 0x811c9dc5 ^ SEED;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** The slot of a node at `depth` that `key` (first hash `h`) goes in. */
function indexAt(h: number, key: string, depth: number): number {
  return depth < FIRST_DEPTH ? (h >>> (depth * BITS)) & (WIDTH - 1) : (deepHash(key) >>> ((depth - FIRST_DEPTH) * BITS)) & (WIDTH - 1);
}

const isBucket = Array.isArray as <V>(slot: Slot<V>) => slot is Leaf<V>[];

function find<V>(bucket: Leaf<V>[], key: string): number {
  for (let i = 0; i < bucket.length; i++) if ((bucket[i] as Leaf<V>).key === key) return i;
  return -1;
}

/** A watched id, with the count of writes of its map when it came to hold `watch`: what orders `watched`. */
type Mark = { id: string; at: number };

class TrieMap<V> implements IdMap<V> {
  #watched: readonly string[] | undefined;
  constructor(
    private readonly root: Node<V> | Leaf<V>[],
    readonly size: number,
    private readonly watch: Watch<V> | undefined,
    /** The entries `watch` holds true for, by id (a map made with `watch`). */
    private readonly marks: IdMap<Mark> | undefined,
    /** Writes so far, which the next mark is numbered with. */
    private readonly writes = 0,
  ) {}

  get watched(): readonly string[] | undefined {
    if (!this.marks) return undefined;
    this.#watched ??= [...this.marks].sort((a, b) => a.at - b.at).map((mark) => mark.id);
    return this.#watched;
  }

  get(id: string): V | undefined {
    let slot: Slot<V> = this.root;
    // A map of a few entries is one list: no hash needed.
    const h = isBucket(slot) ? 0 : hash(id);
    for (let depth = 0; slot !== undefined; depth++) {
      if (isBucket(slot)) {
        const at = find(slot, id);
        return at < 0 ? undefined : (slot[at] as Leaf<V>).value;
      }
      slot = slot.slots[indexAt(h, id, depth)];
    }
    return undefined;
  }

  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  set(id: string, value: V): IdMap<V> {
    added = 0;
    replaced = undefined;
    // A list with room left takes the entry without splitting, so without the hash.
    const h = isBucket(this.root) && this.root.length < BUCKET ? 0 : hash(id);
    const root = setIn(this.root, h, id, value, 0) as Node<V> | Leaf<V>[];
    if (root === this.root) return this;
    const { watch, marks } = this;
    const size = this.size + added;
    if (!watch || !marks) return new TrieMap(root, size, undefined, undefined);
    // `replaced` is the entry's value before (undefined when the id is new: values are never undefined).
    const now = watch(value);
    const before = replaced !== undefined && watch(replaced as V);
    replaced = undefined;
    // Read before the marks' own write, which sets `added` and `replaced` again.
    const next = now === before ? marks : now ? marks.set(id, { id, at: this.writes }) : marks.delete(id);
    return new TrieMap(root, size, watch, next, this.writes + 1);
  }

  delete(id: string): IdMap<V> {
    if (!this.has(id)) return this;
    return new TrieMap(deleteIn(this.root, hash(id), id, 0) ?? [], this.size - 1, this.watch, this.marks?.delete(id), this.writes);
  }

  *[Symbol.iterator](): Iterator<V> {
    const stack: Slot<V>[] = [this.root];
    while (stack.length) {
      const slot = stack.pop();
      if (slot === undefined) continue;
      if (isBucket(slot)) for (const leaf of slot) yield leaf.value;
      else for (let i = WIDTH - 1; i >= 0; i--) stack.push(slot.slots[i]);
    }
  }
}

/** Entries the last `set` added (0 or 1): a counter of the module's rather than an object per call. */
let added = 0;
/** The value the last `set` replaced, read and cleared by `set` itself. */
let replaced: unknown;

/** `slot` (a node or a bucket at `depth`) with `key` set, copying only what changes; `slot` itself when nothing does. */
function setIn<V>(slot: Slot<V>, h: number, key: string, value: V, depth: number): Slot<V> {
  if (slot === undefined) {
    added = 1;
    return [{ key, value }];
  }
  if (isBucket(slot)) {
    const at = find(slot, key);
    if (at >= 0) {
      if (Object.is((slot[at] as Leaf<V>).value, value)) return slot;
      replaced = (slot[at] as Leaf<V>).value;
      const next = slot.slice();
      next[at] = { key, value };
      return next;
    }
    if (slot.length < BUCKET || depth >= MAX_DEPTH) {
      added = 1;
      return [...slot, { key, value }];
    }
    // A full bucket splits into a node at its own depth.
    return setIn(split(slot, depth), h, key, value, depth);
  }
  const i = indexAt(h, key, depth);
  const child = slot.slots[i];
  const next = setIn(child, h, key, value, depth + 1);
  if (next === child) return slot;
  const slots = slot.slots.slice();
  slots[i] = next;
  return { slots };
}

/** A new node at `depth` holding the bucket's entries. */
function split<V>(bucket: Leaf<V>[], depth: number): Node<V> {
  const node: Node<V> = { slots: new Array(WIDTH) };
  for (const leaf of bucket) insertInPlace(node, hash(leaf.key), leaf.key, leaf.value, depth);
  return node;
}

function deleteIn<V>(slot: Slot<V>, h: number, key: string, depth: number): Slot<V> {
  if (slot === undefined) return undefined;
  if (isBucket(slot)) {
    const rest = slot.filter((leaf) => leaf.key !== key);
    return rest.length ? rest : undefined;
  }
  const i = indexAt(h, key, depth);
  const slots = slot.slots.slice();
  slots[i] = deleteIn(slot.slots[i], h, key, depth + 1);
  return { slots };
}

const EMPTY = new TrieMap<never>([], 0, undefined, undefined);

/**
 * An empty `IdMap`, or one holding `entries`; given `watch`, one that keeps
 * the ids of the entries `watch` holds true for (`watched`).
 *
 * @example
 * const byId = idMap<Message>().set('m1', message);
 * byId.get('m1') === message; // true
 */
export function idMap<V>(entries?: Iterable<readonly [string, V]>, watch?: Watch<V>): IdMap<V> {
  if (!entries && !watch) return EMPTY as IdMap<V>;
  // Every node and bucket is new and unshared while the map is built, so entries go in without copying paths.
  let root: Node<V> | Leaf<V>[] = [];
  let size = 0;
  const ids: string[] = [];
  for (const [id, value] of entries ?? []) {
    added = 0;
    root = insertInPlace(root, hash(id), id, value, 0);
    size += added;
    if (watch) ids.push(id);
  }
  if (!watch) return size ? new TrieMap(root, size, undefined, undefined) : (EMPTY as IdMap<V>);
  const marks: (readonly [string, Mark])[] = [];
  const read = new TrieMap(root, size, undefined, undefined);
  // Read back from the map: an id given twice counts once, with its last value.
  for (const id of new Set(ids)) if (watch(read.get(id) as V)) marks.push([id, { id, at: marks.length }]);
  return new TrieMap(root, size, watch, idMap(marks), marks.length);
}

/** `setIn` for a slot this build owns: mutates it, and returns it or the node a full bucket became. */
function insertInPlace<V>(slot: Node<V> | Leaf<V>[], h: number, key: string, value: V, depth: number): Node<V> | Leaf<V>[] {
  if (isBucket(slot)) {
    const at = find(slot, key);
    if (at >= 0) {
      slot[at] = { key, value };
      return slot;
    }
    if (slot.length < BUCKET || depth >= MAX_DEPTH) {
      added = 1;
      slot.push({ key, value });
      return slot;
    }
    return insertInPlace(split(slot, depth), h, key, value, depth);
  }
  const i = indexAt(h, key, depth);
  slot.slots[i] = insertInPlace(slot.slots[i] ?? [], h, key, value, depth + 1);
  return slot;
}
