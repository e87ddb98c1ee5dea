/**
 * A list a batch writes in place is one it made and no one has seen. A
 * listener told of an event of a batch (a replay's `onEvent`) that reduces a
 * thread of its own, one event at a time, sees each state it is given: the
 * next event copies, never writes into a list of a state it returned.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createThreadMachine } from '../src/controller/machine.js';
import type { SessionEntryBody } from '../src/controller/sessionLog.js';
import { createEventPipeline, createThreadState, reduceThread, replayEvents } from '../src/engine.js';
import { createRecording, loadEngine, type SessionEntry, type ThreadState } from '../src/index.js';

const started = { type: 'RUN_STARTED', threadId: 't', runId: 'r' } as const;
const step = (type: 'STEP_STARTED' | 'STEP_FINISHED', stepName: string) => ({ type, stepName }) as never;

describe('a listener of a batch reduces threads of its own as a pure reducer does', () => {
  it('reduceThread in a replay’s onEvent leaves each state it returned as it was', () => {
    const seen: { state: ThreadState; steps: string[] }[] = [];
    let own = reduceThread(createThreadState(), started);
    const names = ['a', 'b', 'c', 'd'];
    replayEvents([started, ...names.map((n) => step('STEP_STARTED', `outer ${n}`))], undefined, {
      onEvent: (event) => {
        if (event.type !== 'STEP_STARTED') return;
        own = reduceThread(own, step('STEP_STARTED', (event as { stepName: string }).stepName));
        seen.push({ state: own, steps: [...own.run.steps] });
        own = reduceThread(own, step('STEP_FINISHED', (event as { stepName: string }).stepName));
        own = reduceThread(own, step('STEP_STARTED', (event as { stepName: string }).stepName));
        seen.push({ state: own, steps: [...own.run.steps] });
      },
    });
    for (const { state, steps } of seen) expect(state.run.steps).toEqual(steps);
    expect(own.run.steps).toEqual(names.map((n) => `outer ${n}`));
  });

  it('a pipeline pushed to from a replay’s onEvent publishes states that keep their steps', () => {
    const other = createEventPipeline(undefined, { now: () => 1 });
    other.push(started);
    const seen: { state: ThreadState; steps: string[] }[] = [];
    replayEvents([started, ...['a', 'b', 'c'].map((n) => step('STEP_STARTED', n))], undefined, {
      onEvent: (event) => {
        if (event.type !== 'STEP_STARTED') return;
        const state = other.push(step('STEP_STARTED', (event as { stepName: string }).stepName));
        seen.push({ state, steps: [...state.run.steps] });
      },
    });
    expect(seen.length).toBe(3);
    for (const { state, steps } of seen) expect(state.run.steps).toEqual(steps);
  });
});

/** Agent events over a few step names, and the entries between them that end a batch's ownership (a stop, a cut stream, a reconnect, a reset). */
const entryArb: fc.Arbitrary<SessionEntryBody> = fc.oneof(
  {
    weight: 12,
    arbitrary: fc
      .tuple(fc.constantFrom('STEP_STARTED', 'STEP_FINISHED'), fc.constantFrom('a', 'b', 'c', 'd'))
      .map(([type, stepName]) => ({ type: 'event' as const, event: { type, stepName }, index: 0 })),
  },
  {
    weight: 2,
    arbitrary: fc.nat(3).map((n) => ({ type: 'event' as const, event: { type: 'RUN_STARTED', threadId: 't', runId: `r${n}` }, index: 0 })),
  },
  {
    weight: 1,
    arbitrary: fc.nat(3).map((n) => ({ type: 'event' as const, event: { type: 'RUN_FINISHED', threadId: 't', runId: `r${n}` }, index: 0 })),
  },
  { weight: 1, arbitrary: fc.constant({ type: 'stop' as const }) },
  { weight: 1, arbitrary: fc.boolean().map((open) => ({ type: 'stream_end' as const, open })) },
  {
    weight: 1,
    arbitrary: fc.boolean().map((reconnect) => ({ type: 'stream_start' as const, kind: 'run' as const, runId: 'r0', reconnect })),
  },
  { weight: 1, arbitrary: fc.constant({ type: 'reset' as const }) },
);

describe('the open steps after every entry: in one batch, one entry at a time, and read back at any entry', () => {
  it('agree, with stops, cut streams, reconnects and resets between the events', async () => {
    const engine = await loadEngine();
    fc.assert(
      fc.property(fc.array(entryArb, { maxLength: 120 }), fc.array(fc.nat(), { maxLength: 8 }), (body, reads) => {
        const entries = [{ type: 'init', threadId: 't' }, ...body].map((e, i) => ({ ...e, at: i }) as SessionEntry);
        // One entry at a time, each state seen (no batch): the reference.
        const apart = createThreadMachine({ engine: () => engine });
        const expected = entries.map((e) => [...apart.apply(e).run.steps]);
        const batched = createThreadMachine({ engine: () => engine });
        batched.batch(() => {
          for (const e of entries) batched.apply(e);
        });
        expect(batched.thread.run.steps).toEqual(expected.at(-1));
        expect(apart.thread.run.steps).toEqual(expected.at(-1));
        const recording = createRecording(entries, { every: 7 });
        for (const read of [...reads, entries.length - 1, 0]) {
          const i = read % entries.length;
          expect(recording.stateAt(i).run.steps).toEqual(expected[i]);
        }
      }),
      { numRuns: 300 },
    );
  });
});
