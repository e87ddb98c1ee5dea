/**
 * Property tests of the engine as a whole: `replayEvents` is total (any input,
 * no throw, a coherent state), and `compactEvents` never changes where a
 * stream leads.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compactEvents, replayEvents } from '../src/engine.js';
import { type RunStatus, type ThreadState, toAgUiMessages } from '../src/index.js';
import { validStream } from './support/arbitraries.js';
import { anyValue, mostlyValidStream } from './support/arbitrariesInvalid.js';

const RUN_STATUSES: readonly RunStatus[] = ['idle', 'running', 'success', 'interrupted', 'cancelled', 'error', 'unknown'];

function expectCoherent(state: ThreadState) {
  const { ids, byId } = state.messages;
  expect(new Set(ids).size).toBe(ids.length);
  for (const id of ids) expect(byId.get(id)?.id).toBe(id);
  expect(byId.size).toBe(ids.length);
  // A call's id finds it, or the later run's call that took its id (the earlier one then sits under `<id>#<runId>`).
  for (const call of state.toolCalls) {
    const current = state.toolCalls.get(call.id);
    if (current !== call) expect(current?.runId !== undefined && current.runId !== call.runId).toBe(true);
  }
  // Ids are opaque strings: one named `constructor` or `__proto__` gets a record like any other.
  for (const [id, run] of Object.entries(state.runs)) expect(run.runId).toBe(id);
  for (const [id, subagent] of Object.entries(state.subagents)) expect(subagent.subagentRunId).toBe(id);
  for (const [id, span] of Object.entries(state.reasoning)) expect(span.id).toBe(id);
  expect(RUN_STATUSES).toContain(state.run.status);
  // replayEvents ends the stream: a run still open there is truncated, never left looking live.
  expect(state.run.status).not.toBe('running');
}

/** A copy to compare with after the replay: the events a caller passes in are theirs, and are not written to. */
const snapshotOf = (values: unknown[]) => structuredClone(values);

// Hundreds of generated streams each: seconds of CPU, which a busy two-core machine can stretch past Vitest's 5 s default.
const PROPERTY_TIME = { timeout: 60_000 };

describe('replayEvents is total', PROPERTY_TIME, () => {
  it('never throws on any sequence of values, and returns a coherent state', () => {
    fc.assert(
      fc.property(fc.array(anyValue, { maxLength: 30 }), (values) => {
        const before = snapshotOf(values);
        expectCoherent(replayEvents(values));
        expect(values).toEqual(before);
      }),
      { numRuns: 400 },
    );
  });

  it('never throws on valid streams with noise inserted and events damaged', () => {
    fc.assert(
      fc.property(mostlyValidStream, (events) => {
        const before = snapshotOf(events);
        expectCoherent(replayEvents(events));
        expect(events).toEqual(before);
      }),
      { numRuns: 200 },
    );
  });

  it('reports a run cut off mid-stream as unknown, never as running or success', () => {
    fc.assert(
      fc.property(validStream, fc.nat(), (events, cut) => {
        const prefix = events.slice(0, cut % (events.length + 1));
        const state = replayEvents(prefix);
        const lastStart = prefix.findLastIndex((e) => e.type === 'RUN_STARTED');
        const lastEnd = prefix.findLastIndex((e) => e.type === 'RUN_FINISHED' || e.type === 'RUN_ERROR');
        if (lastStart > lastEnd) {
          expect(state.run.status).toBe('unknown');
          expect(state.diagnostics.map((d) => d.code)).toContain('STREAM_TRUNCATED');
          for (const id of state.messages.ids) expect(state.messages.byId.get(id)?.streaming).toBe(false);
        } else {
          expect(state.diagnostics).toEqual([]);
        }
      }),
      { numRuns: 200 },
    );
  });
});

/**
 * What a compacted replay must reproduce: every record, metadata and times
 * included. Not `eventCount`, the state's `version` and `lastDelta`, nor
 * diagnostics: those count or point at events, and compaction joins events.
 */
function projection(state: ThreadState) {
  return {
    messages: toAgUiMessages(state, { includeActivity: true }),
    records: state.messages.ids.map((id) => {
      const m = state.messages.byId.get(id);
      return [id, m?.streaming, m?.startedAt, m?.endedAt, m?.metadata];
    }),
    listMetadata: state.messages.metadata,
    toolCalls: [...state.toolCalls]
      .map((c) => ({ id: c.id, status: c.status, argsText: c.argsText, args: c.args, result: c.result, metadata: c.metadata }))
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
    run: state.run,
    runs: state.runs,
    interrupts: state.interrupts,
    document: state.sharedState.document,
    sync: state.sharedState.sync,
    stateMetadata: state.sharedState.metadata,
    subagents: state.subagents,
    reasoning: state.reasoning,
    custom: state.custom,
    raw: state.raw,
  };
}

/** A clock that stands still, so that two replays stamp the same times. */
const still = { now: () => 0 };

describe('compactEvents keeps the final state', PROPERTY_TIME, () => {
  it('the streams compared carry metadata, on messages, calls, runs and the shared state', () => {
    const samples = fc.sample(validStream, { numRuns: 50, seed: 2 }).map((events) => replayEvents(events, undefined, still));
    expect(samples.some((s) => [...s.toolCalls].some((c) => c.metadata !== undefined))).toBe(true);
    expect(samples.some((s) => s.messages.ids.some((id) => s.messages.byId.get(id)?.metadata !== undefined))).toBe(true);
    expect(samples.some((s) => s.run.metadata !== undefined)).toBe(true);
    expect(samples.some((s) => s.sharedState.metadata !== undefined)).toBe(true);
  });

  it('compacts valid streams: adjacent deltas join, a snapshot absorbs the deltas after it', () => {
    const samples = fc.sample(validStream, { numRuns: 50, seed: 1 });
    expect(samples.filter((events) => compactEvents(events).length < events.length).length).toBeGreaterThan(25);
  });

  it('replaying the compacted stream gives the state the stream gives', () => {
    fc.assert(
      fc.property(fc.oneof(validStream, mostlyValidStream), (events) => {
        const compacted = compactEvents(events);
        expect(compacted.length).toBeLessThanOrEqual(events.length);
        expect(projection(replayEvents(compacted, undefined, still))).toEqual(projection(replayEvents(events, undefined, still)));
      }),
      { numRuns: 300 },
    );
  });

  it('never throws, and keeps anything it cannot safely join', () => {
    fc.assert(
      fc.property(fc.array(anyValue, { maxLength: 30 }), (values) => {
        const before = snapshotOf(values);
        expect(projection(replayEvents(compactEvents(values), undefined, still))).toEqual(
          projection(replayEvents(values, undefined, still)),
        );
        expect(values).toEqual(before);
      }),
      { numRuns: 300 },
    );
  });
});
