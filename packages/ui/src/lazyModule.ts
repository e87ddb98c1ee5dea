/** Where a module loaded on demand is: not asked for yet, on its way, there, or failed (asking again retries). */
export type LazyState<T> =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'ready'; module: T }
  | { status: 'failed'; error: unknown };

/** A module loaded on demand, once: its state, to read synchronously, and its loader, shared by every caller. */
export interface LazyModule<T> {
  /** Starts loading (once: every call while it loads or after it has loaded returns the same promise). */
  load(): Promise<T>;
  /** The current state; the same object until the state changes (a `useSyncExternalStore` snapshot). */
  state(): LazyState<T>;
  /** Calls `listener` on every change of state; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
}

const IDLE = { status: 'idle' } as const;
const LOADING = { status: 'loading' } as const;

/**
 * A module-level cache around a dynamic `import()`: the bundler puts the
 * imported module (and what only it imports) in a chunk of its own, fetched
 * the first time anything asks for it and never again. A failed load (a
 * network error) is forgotten, so the next `load()` tries again.
 *
 * @example
 * const charts = lazyModule(() => import('./Charts.js'));
 * void charts.load(); // warm it
 */
export function lazyModule<T>(importer: () => Promise<T>): LazyModule<T> {
  let current: LazyState<T> = IDLE;
  let pending: Promise<T> | undefined;
  const listeners = new Set<() => void>();
  const set = (next: LazyState<T>) => {
    current = next;
    for (const listener of [...listeners]) listener();
  };
  return {
    load() {
      if (current.status === 'ready') return Promise.resolve(current.module);
      if (pending) return pending;
      const loading = importer().then(
        (module) => {
          pending = undefined;
          set({ status: 'ready', module });
          return module;
        },
        (error: unknown) => {
          pending = undefined;
          set({ status: 'failed', error });
          throw error;
        },
      );
      pending = loading;
      set(LOADING);
      return loading;
    },
    state: () => current,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
