/**
 * A persistent map from string ids to records: `set` returns a new map and
 * leaves the old one intact, copying only the path to the changed entry (a
 * 32-way hash trie: three small arrays for ten thousand entries). This is
 * what keeps one streaming token O(1) in the length of the thread, where
 * spreading a plain object of N messages would cost O(N) per token.
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

type Leaf<V> = { key: string; value: V };
type Slot<V> = Node<V> | Leaf<V>[] | undefined;
type Node<V> = { slots: Slot<V>[] };

const BITS = 5;
const WIDTH = 1 << BITS;
const MAX_DEPTH = 6;

function hash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

class TrieMap<V> implements IdMap<V> {
  constructor(
    private readonly root: Node<V>,
    readonly size: number,
  ) {}

  get(id: string): V | undefined {
    const h = hash(id);
    let node: Slot<V> = this.root;
    for (let depth = 0; node !== undefined; depth++) {
      if (Array.isArray(node)) {
        for (const leaf of node) if (leaf.key === id) return leaf.value;
        return undefined;
      }
      node = node.slots[(h >>> (depth * BITS)) & (WIDTH - 1)];
    }
    return undefined;
  }

  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  set(id: string, value: V): IdMap<V> {
    const added = { count: 0 };
    const root = setIn(this.root, hash(id), id, value, 0, added);
    return root === this.root ? this : new TrieMap(root, this.size + added.count);
  }

  delete(id: string): IdMap<V> {
    if (!this.has(id)) return this;
    return new TrieMap(deleteIn(this.root, hash(id), id, 0), this.size - 1);
  }

  *[Symbol.iterator](): Iterator<V> {
    const stack: Slot<V>[] = [this.root];
    while (stack.length) {
      const slot = stack.pop();
      if (slot === undefined) continue;
      if (Array.isArray(slot)) for (const leaf of slot) yield leaf.value;
      else for (let i = WIDTH - 1; i >= 0; i--) stack.push(slot.slots[i]);
    }
  }
}

function setIn<V>(node: Node<V>, h: number, key: string, value: V, depth: number, added: { count: number }): Node<V> {
  const i = (h >>> (depth * BITS)) & (WIDTH - 1);
  const slot = node.slots[i];
  let next: Slot<V>;
  if (slot === undefined) {
    added.count = 1;
    next = [{ key, value }];
  } else if (Array.isArray(slot)) {
    const at = slot.findIndex((leaf) => leaf.key === key);
    if (at >= 0) {
      if (Object.is(slot[at]?.value, value)) return node;
      next = slot.slice();
      next[at] = { key, value };
    } else if (depth + 1 >= MAX_DEPTH) {
      added.count = 1;
      next = [...slot, { key, value }];
    } else {
      // Split the bucket one level down.
      let child: Node<V> = { slots: new Array(WIDTH) };
      const ignore = { count: 0 };
      for (const leaf of slot) child = setIn(child, hash(leaf.key), leaf.key, leaf.value, depth + 1, ignore);
      next = setIn(child, h, key, value, depth + 1, added);
    }
  } else {
    next = setIn(slot, h, key, value, depth + 1, added);
    if (next === slot) return node;
  }
  const slots = node.slots.slice();
  slots[i] = next;
  return { slots };
}

function deleteIn<V>(node: Node<V>, h: number, key: string, depth: number): Node<V> {
  const i = (h >>> (depth * BITS)) & (WIDTH - 1);
  const slot = node.slots[i];
  const slots = node.slots.slice();
  if (Array.isArray(slot)) {
    const rest = slot.filter((leaf) => leaf.key !== key);
    slots[i] = rest.length ? rest : undefined;
  } else if (slot !== undefined) {
    slots[i] = deleteIn(slot, h, key, depth + 1);
  }
  return { slots };
}

const EMPTY = new TrieMap<never>({ slots: new Array(WIDTH) }, 0);

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
  const root: Node<V> = { slots: new Array(WIDTH) };
  let size = 0;
  for (const [id, value] of entries) size += insertInPlace(root, hash(id), id, value, 0);
  return size ? new TrieMap(root, size) : (EMPTY as IdMap<V>);
}

/** `setIn` for a node this build owns: mutates it; returns 1 when `key` is new. */
function insertInPlace<V>(node: Node<V>, h: number, key: string, value: V, depth: number): number {
  const i = (h >>> (depth * BITS)) & (WIDTH - 1);
  const slot = node.slots[i];
  if (slot === undefined) {
    node.slots[i] = [{ key, value }];
    return 1;
  }
  if (!Array.isArray(slot)) return insertInPlace(slot, h, key, value, depth + 1);
  const at = slot.findIndex((leaf) => leaf.key === key);
  if (at >= 0) {
    slot[at] = { key, value };
    return 0;
  }
  if (depth + 1 >= MAX_DEPTH) {
    slot.push({ key, value });
    return 1;
  }
  const child: Node<V> = { slots: new Array(WIDTH) };
  for (const leaf of slot) insertInPlace(child, hash(leaf.key), leaf.key, leaf.value, depth + 1);
  node.slots[i] = child;
  return insertInPlace(child, h, key, value, depth + 1);
}
