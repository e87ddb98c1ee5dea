import type { ResumeEntry, RunAgentInput } from '@aguikit/core';
import type { EventPlan } from './script.js';

export interface ScenarioContext {
  /** The time the run starts (ms since the epoch): the only input besides the RunAgentInput. */
  now: number;
  /** A per-run secret a server gives, mixed into interrupt ids so they cannot be guessed. */
  nonce?: string;
}

/**
 * A scripted agent: the events of a run as a pure function of its input (and
 * the clock), so a resume continues the story where the last run stopped.
 */
export interface Scenario {
  id: string;
  title: string;
  description: string;
  /** What to type to start it. */
  prompt: string;
  /** The run's events: an array, or a plan that makes them when asked for (`Script.plan`). */
  run(input: RunAgentInput, context: ScenarioContext): EventPlan;
}

/** The answer to the interrupt whose id ends with `suffix`, if this run resumes one. */
export function answerTo(input: RunAgentInput, suffix: string): ResumeEntry | undefined {
  return input.resume?.find((r) => r.interruptId.endsWith(suffix));
}

/**
 * A forwarded number option (for tests that need a short expiry or a fast
 * stream), clamped to `[min, max]`: a request cannot make a scenario build
 * millions of events or an expiry no date can hold.
 */
export function forwardedNumber(input: RunAgentInput, key: string, fallback: number, min: number, max: number): number {
  const props = input.forwardedProps as Record<string, unknown> | undefined;
  const value = props?.[key];
  return typeof value === 'number' && Number.isFinite(value) ? Math.min(max, Math.max(min, value)) : fallback;
}
