/**
 * Keys open now (the verifier's open steps, reasoning spans, subagents,
 * messages and tool calls), each with a value. A key closed is marked, not
 * deleted: a key deleted from a Map and set again, again and again,
 * lengthens the Map's chain for it until the Map is rebuilt, and an agent
 * that closes and opens the newest of 40,000 open steps 40,000 times took
 * seconds. The Map is made again from the open keys once the closed ones
 * outnumber them. A key opened again goes last, as in a Set.
 */
interface Entry<V> {
  value: V;
  /** When it was last opened (increasing); 0 once closed. */
  order: number;
}

export class OpenKeys<V = true> {
  #all = new Map<string, Entry<V>>();
  #size = 0;
  #next = 1;

  constructor(from?: OpenKeys<V>) {
    for (const [key, value] of from?.entries() ?? []) this.set(key, value);
  }

  /** Open keys. */
  get size(): number {
    return this.#size;
  }

  has(key: string): boolean {
    return (this.#all.get(key)?.order ?? 0) > 0;
  }

  get(key: string): V | undefined {
    const entry = this.#all.get(key);
    return entry?.order ? entry.value : undefined;
  }

  /** Opens `key` (one open already keeps its place, with `value`). */
  set(key: string, value: V = true as V): void {
    const entry = this.#all.get(key);
    if (!entry) this.#all.set(key, { value, order: this.#next++ });
    else {
      entry.value = value;
      if (entry.order) return;
      entry.order = this.#next++;
    }
    this.#size++;
  }

  /** Closes `key`; whether it was open. */
  delete(key: string): boolean {
    const entry = this.#all.get(key);
    if (!entry?.order) return false;
    entry.order = 0;
    this.#size--;
    if (this.#all.size > 2 * this.#size + 64) {
      const open = this.entries();
      this.clear();
      for (const [k, value] of open) this.set(k, value);
    }
    return true;
  }

  clear(): void {
    this.#all = new Map();
    this.#size = 0;
  }

  /** The open keys and their values, in the order they were last opened. */
  entries(): [string, V][] {
    return [...this.#all]
      .filter(([, entry]) => entry.order)
      .sort(([, a], [, b]) => a.order - b.order)
      .map(([key, entry]) => [key, entry.value]);
  }

  keys(): string[] {
    return this.entries().map(([key]) => key);
  }
}
