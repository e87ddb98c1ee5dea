/**
 * Loads the engine (`engineParts.ts`) on demand: a controller asks for it
 * when it is created and waits for it before its first request, so the code
 * an application loads up front holds the controller, not the engine. What
 * is loaded is code without state of any thread, shared by every controller.
 */
import type * as EngineParts from './engineParts.js';

export type Engine = typeof EngineParts;

let loading: Promise<Engine> | undefined;
let loaded: Engine | undefined;

/** The engine if it has loaded, else `undefined`. */
export const loadedEngine = (): Engine | undefined => loaded;

/**
 * `engine`, or the error an entry that needs it throws before it has loaded,
 * with the code `ENGINE_NOT_LOADED`: a binding that makes a controller while
 * rendering waits for `loadEngine()` on it (React's suspends).
 */
export function needed(engine: Engine | undefined): Engine {
  if (engine) return engine;
  throw Object.assign(
    new Error(
      'aguikit: a session log of agent events needs the engine: await loadEngine() before createRunController({ log }), createRecording(entries) or stateAt(i).',
    ),
    { code: 'ENGINE_NOT_LOADED' },
  );
}

/**
 * Resolves when the engine has loaded (at once if it has). A controller
 * loads it by itself; an application awaits it only before it creates a
 * controller from a saved session log (`createRunController({ log })` replays
 * the log's agent events at once, with the engine).
 *
 * @example
 * await loadEngine();
 * const controller = createRunController({ source, log: parseSession(text).entries });
 */
export function loadEngine(): Promise<Engine> {
  if (loaded) return Promise.resolve(loaded);
  loading ??= import('./engineParts.js').then((m) => {
    loaded = m;
    return m;
  });
  // A chunk that failed to load (offline, a deploy that replaced it) is asked for again next time.
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}
