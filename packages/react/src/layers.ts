import type { RunControllerOptions } from '@aguikit/core';
import { copyOf, tellApp } from '@aguikit/core/bindings';

/** The options a store can change after it is made: all but the source. */
export type StoreSettings<Doc = unknown> = Partial<Omit<RunControllerOptions<Doc>, 'source'>>;

type Settings = Record<string, unknown>;

/** The callbacks every layer is told through, in order, rather than the last one alone. */
const TOLD = new Set(['onEvent', 'onDiagnostic', 'onDecision']);

/**
 * The options in force: the store's own, then each layer (a component's
 * `useAgentRun` options below a provider) in the order they were added.
 * A layer adds `tools` by name and `context` entries, is told every
 * `onEvent`, `onDiagnostic` and `onDecision` beside the store's, and
 * overrides any other option while it is there.
 */
export function layered(base: Settings, layers: Iterable<Settings>): Settings {
  const out: Settings = { ...base };
  for (const layer of layers) {
    for (const key of Object.keys(layer)) {
      const value = layer[key];
      const before = out[key];
      if (value === undefined) continue;
      if (key === 'tools' && before) out.tools = { ...(before as object), ...(value as object) };
      else if (key === 'context' && Array.isArray(before)) out.context = [...before, ...(value as unknown[])];
      else if (TOLD.has(key) && typeof before === 'function' && typeof value === 'function')
        out[key] = (...args: unknown[]) => {
          // Each its own copy, as the controller hands one listener: what one changes (a redaction), the next does not see.
          tellApp(before as (...a: unknown[]) => void, ...args.map(copyOf));
          tellApp(value as (...a: unknown[]) => void, ...args);
        };
      else out[key] = value;
    }
  }
  return out;
}

/** Whether `a` and `b` hold the same own keys, in the same order, with the same values (`Object.is`). */
export function sameMembers(a: Settings, b: Settings): boolean {
  const keys = Object.keys(a);
  const other = Object.keys(b);
  return keys.length === other.length && keys.every((k, i) => k === other[i] && Object.is(a[k], b[k]));
}

/** A component's own options over a store it does not own: `set` them on each render, `remove` them on unmount. */
export interface OptionsLayer<Doc = unknown> {
  set(options: StoreSettings<Doc>): void;
  remove(): void;
}

/**
 * Keeps a controller's options as its own plus the layers on top:
 * `configure` changes its own, `layer()` adds one, and every change hands
 * the controller the whole composition, with a key no longer given set back
 * to `undefined` (the controller's default).
 */
export function optionLayers<Doc>(own: StoreSettings<Doc>, configure: (options: StoreSettings<Doc>) => void) {
  let base: Settings = { ...own };
  const layers = new Map<object, Settings>();
  /** Where each key first joined: a layer removed and added again (a component hidden and shown) goes back there. */
  const places = new WeakMap<object, number>();
  let joined = 0;
  const inPlace = () => [...layers.keys()].sort((a, b) => (places.get(a) ?? 0) - (places.get(b) ?? 0)).map((k) => layers.get(k) ?? {});
  let applied: Settings = base;
  const apply = () => {
    const next = layered(base, inPlace());
    for (const key of Object.keys(applied)) if (!Object.hasOwn(next, key)) next[key] = undefined;
    applied = next;
    configure(next as StoreSettings<Doc>);
  };
  return {
    configure(options: StoreSettings<Doc>) {
      base = { ...base, ...options };
      if (layers.size) apply();
      else {
        applied = base;
        configure(options);
      }
    },
    layer(key: object = {}): OptionsLayer<Doc> {
      if (!places.has(key)) places.set(key, joined++);
      layers.set(key, {});
      return {
        set(options) {
          const before = layers.get(key);
          // The same options as the last render's (a bare `useAgentRun()`, stable callbacks): nothing to hand over.
          if (!before || sameMembers(before, options)) return;
          layers.set(key, { ...options });
          apply();
        },
        remove() {
          if (layers.delete(key)) apply();
        },
      };
    },
  };
}
