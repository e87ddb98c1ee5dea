import type { Scenario } from './scenario.js';
import { cutOff, runError } from './scenarios/failures.js';
import { clarification, escalation, twoInterrupts } from './scenarios/interrupts.js';
import { REFUND_SCHEMA, refund } from './scenarios/refund.js';
import { fastStream, longThread } from './scenarios/scale.js';
import { activity, parallelTools, reasoning, subagents } from './scenarios/showcase.js';
import { dashboard, desync } from './scenarios/state.js';

export type { Scenario, ScenarioContext } from './scenario.js';
export type { EventPlan, SideEffect, TextOptions, TimedEvent, ToolOptions } from './script.js';
export { Script, tokens } from './script.js';
export type { PlayOptions } from './source.js';
export { eventPlan, play, scenarioEvents, scriptedSource } from './source.js';
export { REFUND_SCHEMA };

/**
 * Every scenario by id, in the order a playground lists them.
 *
 * @example
 * const source = scriptedSource(scenarios.refund);
 */
export const scenarios = {
  refund,
  clarification,
  escalation,
  'two-interrupts': twoInterrupts,
  'parallel-tools': parallelTools,
  subagents,
  reasoning,
  activity,
  dashboard,
  desync,
  'run-error': runError,
  'cut-off': cutOff,
  'long-thread': longThread,
  'fast-stream': fastStream,
} satisfies Record<string, Scenario>;

export type ScenarioId = keyof typeof scenarios;

/** The scenario with this id, or undefined (ids come from URLs and forms: never trust them). */
export function findScenario(id: string): Scenario | undefined {
  return Object.hasOwn(scenarios, id) ? scenarios[id as ScenarioId] : undefined;
}
