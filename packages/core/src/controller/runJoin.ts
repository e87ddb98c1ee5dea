import type { ActionResult, RunRequest } from './types.js';

/**
 * The run `run()` started, while it is in flight: the same request asked for
 * again (React StrictMode's second mount effect, a double click on Send)
 * joins it and answers as it does, rather than being refused as another run.
 * A request is the same when it reads the same as JSON; one JSON cannot
 * write is never the same.
 */
export function runJoin() {
  let held: { key: string; result: Promise<ActionResult> } | undefined;
  const keyOf = (request: RunRequest): string | undefined => {
    try {
      return JSON.stringify(request);
    } catch {
      return undefined;
    }
  };
  return {
    /** The answer of the run in flight when `request` is the one that started it. */
    join(request: RunRequest): Promise<ActionResult> | undefined {
      const key = held && keyOf(request);
      return key !== undefined && key === held?.key ? held.result : undefined;
    },
    /** Holds the run `request` started until it settles; returns its answer. */
    hold(request: RunRequest, result: Promise<ActionResult>): Promise<ActionResult> {
      const key = keyOf(request);
      const entry = key === undefined ? undefined : { key, result };
      held = entry;
      const release = () => {
        if (held === entry) held = undefined;
      };
      result.then(release, release);
      return result;
    },
  };
}
