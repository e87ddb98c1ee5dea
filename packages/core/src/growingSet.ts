/**
 * Maps and sets keyed by id that only grow (the verifier's known tool calls,
 * their results and lanes, the run ids: every one the thread ever had),
 * forked without copying. A fork reads the entries there were as it was
 * made, through layers it shares with the one it came from, and writes its
 * own apart; both go on from the fork, and what either writes after it is
 * its own. A layer is merged with the older one beside it while it holds at
 * least half as many entries (each layer holds over twice the newer one
 * beside it): a lookup reads about log2 of the entries' count of maps, and a
 * chain of forks (a recording's checkpoints) copies each entry about as
 * many times, not once every few forks. Past `MAX_LAYERS` layers the newest
 * are merged too.
 */
const MAX_LAYERS = 24;

export class GrowingMap<V> {
  #own: Map<string, V>;
  /** Maps no one writes to any more, newest first. */
  #layers: readonly ReadonlyMap<string, V>[];

  constructor(initial?: Iterable<readonly [string, V]>, layers: readonly ReadonlyMap<string, V>[] = []) {
    this.#own = new Map(initial);
    this.#layers = layers;
  }

  get(id: string): V | undefined {
    const own = this.#own.get(id);
    if (own !== undefined || this.#own.has(id)) return own;
    for (const layer of this.#layers) if (layer.has(id)) return layer.get(id);
    return undefined;
  }

  has(id: string): boolean {
    if (this.#own.has(id)) return true;
    for (const layer of this.#layers) if (layer.has(id)) return true;
    return false;
  }

  /** Writes `id` (a later write of the same id reads over an earlier one, in whichever layer it is). */
  set(id: string, value: V): void {
    this.#own.set(id, value);
  }

  /** A map with this one's entries, which goes on apart from it. */
  fork(): GrowingMap<V> {
    let layers = this.#own.size ? [this.#own, ...this.#layers] : this.#layers;
    while (layers.length > 1) {
      const [newer, older, ...rest] = layers as [ReadonlyMap<string, V>, ReadonlyMap<string, V>, ...ReadonlyMap<string, V>[]];
      if (newer.size * 2 < older.size && layers.length <= MAX_LAYERS) break;
      // Layers are shared with other forks: merged into a new map, the newer one's writes over the older one's.
      const merged = new Map(older);
      for (const [id, value] of newer) merged.set(id, value);
      layers = [merged, ...rest];
    }
    // What this one had is a layer of both now: it writes to a map of its own from here on.
    this.#own = new Map();
    this.#layers = layers;
    return new GrowingMap<V>(undefined, layers);
  }
}

/** A `GrowingMap` of ids alone. */
export class GrowingSet {
  readonly #map: GrowingMap<true>;

  constructor(initial?: Iterable<string>, map?: GrowingMap<true>) {
    this.#map = map ?? new GrowingMap<true>(initial ? [...initial].map((id): [string, true] => [id, true]) : undefined);
  }

  has(id: string): boolean {
    return this.#map.has(id);
  }

  add(id: string): void {
    this.#map.set(id, true);
  }

  /** A set with this one's ids, which goes on apart from it. */
  fork(): GrowingSet {
    return new GrowingSet(undefined, this.#map.fork());
  }
}
