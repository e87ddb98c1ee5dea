/**
 * What the reducer calls of the app's while it reduces an event of a batch
 * (a replay's clock, a getter of an in-process agent's event) runs under no
 * batch: a thread it reduces meanwhile, one event at a time, keeps each state
 * it was handed, as it does when a listener reduces it.
 */
import { describe, expect, it } from 'vitest';
import { createEventPipeline, createThreadState, reduceThread, replayEvents } from '../src/engine.js';
import type { ThreadState } from '../src/index.js';

const started = { type: 'RUN_STARTED', threadId: 't', runId: 'r' } as const;
const step = (stepName: string) => ({ type: 'STEP_STARTED', stepName }) as never;
/** Events that each read the clock (a message's start is stamped with it). */
const messages = (n: number) =>
  Array.from({ length: n }, (_, i) => [
    { type: 'TEXT_MESSAGE_START', messageId: `m${i}`, role: 'assistant' },
    { type: 'TEXT_MESSAGE_END', messageId: `m${i}` },
  ]).flat();

describe('the app’s code the reducer calls in a batch', () => {
  it('a replay’s clock that pushes into a pipeline of its own leaves each state it returned as it was', () => {
    const other = createEventPipeline(undefined, { now: () => 1 });
    other.push(started);
    const seen: { state: ThreadState; steps: string[] }[] = [];
    let n = 0;
    replayEvents([started, ...messages(4)], undefined, {
      now: () => {
        const state = other.push(step(`s${n++}`));
        seen.push({ state, steps: [...state.run.steps] });
        return 1;
      },
    });
    expect(seen.length).toBeGreaterThan(2);
    for (const { state, steps } of seen) expect(state.run.steps).toEqual(steps);
  });

  it('a replay’s clock that reduces a thread of its own leaves each state it returned as it was', () => {
    let own = reduceThread(createThreadState(), started);
    const seen: { state: ThreadState; steps: string[] }[] = [];
    let n = 0;
    replayEvents([started, ...messages(4)], undefined, {
      now: () => {
        own = reduceThread(own, step(`s${n++}`));
        seen.push({ state: own, steps: [...own.run.steps] });
        return 1;
      },
    });
    expect(seen.length).toBeGreaterThan(2);
    for (const { state, steps } of seen) expect(state.run.steps).toEqual(steps);
  });

  it('a getter of an event that pushes into a pipeline of its own leaves each state it returned as it was', () => {
    const other = createEventPipeline(undefined, { now: () => 1 });
    other.push(started);
    const seen: { state: ThreadState; steps: string[] }[] = [];
    let n = 0;
    const withGetter = (i: number) => ({
      type: 'TEXT_MESSAGE_START',
      role: 'assistant',
      get messageId() {
        const state = other.push(step(`s${n++}`));
        seen.push({ state, steps: [...state.run.steps] });
        return `m${i}`;
      },
    });
    replayEvents([started, ...[0, 1, 2, 3].map(withGetter)], undefined, { now: () => 1 });
    expect(seen.length).toBeGreaterThan(2);
    for (const { state, steps } of seen) expect(state.run.steps).toEqual(steps);
  });
});
