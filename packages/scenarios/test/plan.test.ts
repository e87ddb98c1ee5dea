/**
 * A run's events as a plan: its length and outcome known at once, each event
 * made when it is asked for, so that a server streaming a run of 100,000
 * tokens does not hold 100,000 event objects while it streams.
 */
import type { RunAgentInput } from '@aguikit/core';
import { describe, expect, it } from 'vitest';
import { type Scenario, scenarioEvents, scenarios } from '../src/index.js';
import { eventPlan } from '../src/source.js';

const NOW = Date.parse('2026-11-30T12:00:00Z');
const input = (forwardedProps: Record<string, unknown> = {}): RunAgentInput => ({
  threadId: 'plan-thread',
  runId: 'plan-run',
  messages: [{ id: 'u1', role: 'user', content: 'hi' }],
  tools: [],
  context: [],
  forwardedProps,
});

/** Heap grown by making `make`'s result, which is kept alive until measured. */
function heapGrowth(make: () => unknown): number {
  const before = process.memoryUsage().heapUsed;
  const kept = make();
  const grown = process.memoryUsage().heapUsed - before;
  expect(kept).toBeDefined();
  return grown;
}

describe('a scenario run as a plan', () => {
  it('gives every scenario the same events, in order, as the whole array', () => {
    for (const scenario of Object.values(scenarios) as Scenario[]) {
      const plan = eventPlan(scenario, input(), { now: NOW, nonce: 'a'.repeat(32) });
      const all = scenario.run(input(), { now: NOW, nonce: 'a'.repeat(32) });
      const expanded = Array.from({ length: all.length }, (_, i) => all.at(i));
      expect(plan.length, scenario.id).toBe(expanded.length);
      for (let i = 0; i < plan.length; i++) expect(plan.at(i), `${scenario.id} #${i}`).toEqual(expanded[i]);
      expect(plan.at(-1), scenario.id).toEqual(expanded.at(-1));
      expect(plan.at(plan.length), scenario.id).toBeUndefined();
    }
  });

  it('makes the tokens of fast-stream when asked: 100,000 of them hold well under 1 MB', () => {
    const tokens = 100_000;
    const grown = heapGrowth(() => eventPlan(scenarios['fast-stream'], input({ tokens }), { now: NOW }));
    expect(grown).toBeLessThan(1024 * 1024);
    const plan = eventPlan(scenarios['fast-stream'], input({ tokens }), { now: NOW });
    expect(plan.length).toBe(tokens + 4);
    expect(plan.at(tokens + 1)?.event).toMatchObject({ type: 'TEXT_MESSAGE_CONTENT', delta: `${tokens} ` });
    expect(plan.at(-1)?.event).toMatchObject({ type: 'RUN_FINISHED' });
    // Asked again, the same event (a reconnect streams from any index).
    expect(plan.at(5)).toEqual(plan.at(5));
    expect(scenarioEvents(scenarios['fast-stream'], input({ tokens: 10 }), NOW)).toHaveLength(14);
  });

  it('makes the deltas of dashboard and the history of long-thread when asked', () => {
    const dashboard = heapGrowth(() => eventPlan(scenarios.dashboard, input({ deltas: 10_000 }), { now: NOW }));
    expect(dashboard).toBeLessThan(1024 * 1024);
    const longThread = heapGrowth(() => eventPlan(scenarios['long-thread'], input({ messages: 20_000 }), { now: NOW }));
    expect(longThread).toBeLessThan(1024 * 1024);
    const plan = eventPlan(scenarios['long-thread'], input({ messages: 20_000 }), { now: NOW });
    const snapshot = plan.at(1)?.event as { type: string; messages: unknown[] };
    expect(snapshot.type).toBe('MESSAGES_SNAPSHOT');
    expect(snapshot.messages).toHaveLength(20_001);
  });
});
