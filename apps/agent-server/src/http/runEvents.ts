import type { RunAgentInput } from '@aguikit/core';
import { type EventPlan, eventPlan, type Scenario } from '@aguikit/scenarios';

/**
 * The events of a run, recomputed from its record (scenarios are pure
 * functions of input, clock and nonce), as a plan: each event is made as it
 * is sent, so a long run is not held in memory while it streams.
 */
export function eventsOf(scenario: Scenario, input: RunAgentInput, now: number, nonce: string): EventPlan {
  return eventPlan(scenario, input, { now, nonce });
}
