import type { AgentSource, RunAgentInput } from '@aguikit/core';
import type { Scenario, ScenarioContext } from './scenario.js';
import type { EventPlan, TimedEvent } from './script.js';

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

/** Every event a scenario answers `input` with, made now: at `now` (ms since the epoch), or in a whole context (a server's nonce). */
export function scenarioEvents(scenario: Scenario, input: RunAgentInput, now: number | ScenarioContext = Date.now()): TimedEvent[] {
  const plan = scenario.run(input, typeof now === 'number' ? { now } : now);
  return Array.isArray(plan) ? plan : Array.from({ length: plan.length }, (_, i) => plan.at(i) as TimedEvent);
}

/**
 * The events of a run as a plan: its length and its last event (the run's
 * outcome) at once, each event made when asked for. What a server streams
 * from: a run of 100,000 tokens holds a few objects, not 100,000.
 *
 * @example
 * const plan = eventPlan(scenarios['fast-stream'], input, { now: Date.now() });
 * for (let i = 0; i < plan.length; i++) send(plan.at(i));
 */
export function eventPlan(scenario: Scenario, input: RunAgentInput, context: ScenarioContext): EventPlan {
  return scenario.run(input, context);
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
