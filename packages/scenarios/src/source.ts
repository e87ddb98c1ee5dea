import type { AgentSource, RunAgentInput } from '@aguikit/core';
import type { Scenario } from './scenario.js';
import type { TimedEvent } from './script.js';

export interface PlayOptions {
  /** Playback speed: 2 is twice as fast, `Infinity` sends everything at once. Default 1. */
  speed?: number;
  /** The clock given to the scenario (interrupt expiry). */
  now?: () => number;
  signal?: AbortSignal;
}

const MIN_SLEEP_MS = 4;

/**
 * Plays timed events in real time, scaled by `speed`. Pauses shorter than a
 * timer can wait are accumulated, so thousands of tokens per second keep
 * their average rate instead of being slowed to one per timer tick.
 */
export async function* play(
  events: readonly TimedEvent[],
  { speed = 1, signal }: PlayOptions = {},
): AsyncGenerator<Record<string, unknown>> {
  const start = performance.now();
  let due = 0;
  for (const { delayMs, event } of events) {
    due += Number.isFinite(speed) && speed > 0 ? delayMs / speed : 0;
    const wait = due - (performance.now() - start);
    if (wait >= MIN_SLEEP_MS) await sleep(wait, signal);
    if (signal?.aborted) throw signal.reason ?? new DOMException('Aborted', 'AbortError');
    yield event;
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', done);
      clearTimeout(timer);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** The events a scenario answers `input` with, now. */
export function scenarioEvents(scenario: Scenario, input: RunAgentInput, now = Date.now()): TimedEvent[] {
  return scenario.run(input, { now });
}

/**
 * A scenario as an `AgentSource` that runs in the browser (or any JS
 * runtime) with no server: each run plays the scenario's answer to its input.
 *
 * @example
 * const store = createAgentStore({ source: scriptedSource(scenarios.refund, { speed: 2 }) });
 */
export function scriptedSource(scenario: Scenario, options: Omit<PlayOptions, 'signal'> = {}): AgentSource {
  return {
    async *run(input, runOptions = {}) {
      runOptions.onConnection?.('open');
      const events = scenarioEvents(scenario, input, (options.now ?? Date.now)());
      yield* play(events, { ...options, ...(runOptions.signal ? { signal: runOptions.signal } : {}) });
      runOptions.onConnection?.('closed');
    },
  };
}
