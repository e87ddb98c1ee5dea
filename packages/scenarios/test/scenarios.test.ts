import { type Diagnostic, type RunAgentInput, type ThreadState, toAgUiMessages } from '@aguikit/core';
import { createThreadState, replayEvents } from '@aguikit/core/engine';
import { buildResume } from '@aguikit/core/schema';
import { describe, expect, it, vi } from 'vitest';
import { findScenario, play, type Scenario, scenarioEvents, scenarios } from '../src/index.js';

const NOW = Date.parse('2026-11-30T12:00:00Z');
let runCounter = 0;

function inputFor(thread: ThreadState, message: string | undefined, extra: Partial<RunAgentInput> = {}): RunAgentInput {
  return {
    threadId: 'scenario-thread',
    runId: `run-${++runCounter}`,
    messages: [...toAgUiMessages(thread), ...(message ? [{ id: `u-${runCounter}`, role: 'user' as const, content: message }] : [])],
    tools: [],
    context: [],
    state: thread.sharedState.document,
    ...extra,
  };
}

/** Plays one run of a scenario through the real pipeline, as a client would. */
function turn(scenario: Scenario, thread: ThreadState, input: RunAgentInput): ThreadState {
  const events = scenarioEvents(scenario, input, NOW).map((e) => e.event);
  const withUser = replayEvents([{ type: 'MESSAGES_SNAPSHOT', messages: input.messages }], thread, { open: true });
  return replayEvents(events, { ...withUser, diagnostics: [] });
}

const errors = (s: ThreadState): Diagnostic[] => s.diagnostics.filter((d) => d.severity === 'error');

describe('every scenario', () => {
  it.each(Object.values(scenarios).map((s) => [s.id, s] as const))('%s streams a protocol-clean first run', (id, scenario) => {
    const thread = createThreadState({ threadId: 'scenario-thread' });
    const state = turn(scenario, thread, inputFor(thread, scenario.prompt));
    if (id === 'cut-off') {
      expect(errors(state).map((d) => d.code)).toEqual(['STREAM_TRUNCATED']);
      expect(state.run.status).toBe('unknown');
    } else {
      expect(errors(state)).toEqual([]);
      expect(['success', 'interrupted', 'error']).toContain(state.run.status);
    }
    expect(findScenario(id)).toBe(scenario);
  });

  it('is a pure function of its input', () => {
    const thread = createThreadState();
    const input = inputFor(thread, 'hi');
    for (const scenario of Object.values(scenarios)) {
      expect(JSON.stringify(scenarioEvents(scenario, input, NOW))).toBe(
        JSON.stringify(scenarioEvents(scenario, structuredClone(input), NOW)),
      );
    }
  });

  it('ignores ids that are not scenarios', () => {
    expect(findScenario('__proto__')).toBeUndefined();
    expect(findScenario('constructor')).toBeUndefined();
  });
});

describe('refund', () => {
  const first = () => {
    const thread = createThreadState({ threadId: 'scenario-thread' });
    return turn(scenarios.refund, thread, inputFor(thread, scenarios.refund.prompt));
  };
  const resumeWith = (thread: ThreadState, responses: Parameters<typeof buildResume>[1], now = NOW) => {
    const r = buildResume(thread, responses, { now, runId: `run-${++runCounter}` });
    if (!r.ok) throw new Error(r.errors.map((e) => e.message).join(' '));
    return turn(scenarios.refund, thread, r.input);
  };

  it('pauses the refund call on a tool_call interrupt with a schema and an expiry', () => {
    const s = first();
    expect(s.run.status).toBe('interrupted');
    const [it] = s.interrupts;
    expect(it).toMatchObject({ reason: 'tool_call', responseSchema: { required: ['approved'] }, expiresAt: '2026-11-30T12:02:00.000Z' });
    expect(s.toolCalls.get(it?.toolCallId ?? '')).toMatchObject({
      name: 'refund_order',
      status: 'ready',
      args: { orderId: 'A-1001', amount: 42 },
    });
    expect(s.sharedState.document).toMatchObject({ refund: { status: 'awaiting_approval' } });
  });

  it('approve: the tool runs and the state goes to refunded', () => {
    const s0 = first();
    const s = resumeWith(s0, [{ interruptId: s0.interrupts[0]?.id ?? '', status: 'resolved', payload: { approved: true } }]);
    expect(errors(s)).toEqual([]);
    expect(s.run.status).toBe('success');
    expect(s.sharedState.document).toMatchObject({ refund: { status: 'refunded' }, order: { status: 'refunded' } });
    expect(s.toolCalls.get(s0.interrupts[0]?.toolCallId ?? '')?.status).toBe('succeeded');
  });

  it('reject: a resolved answer, and the agent explains', () => {
    const s0 = first();
    const s = resumeWith(s0, [
      { interruptId: s0.interrupts[0]?.id ?? '', status: 'resolved', payload: { approved: false, comment: 'Photo does not show damage' } },
    ]);
    expect(s.sharedState.document).toMatchObject({ refund: { status: 'rejected' } });
    const last = s.messages.byId.get(s.messages.ids.at(-1) ?? '');
    expect(last?.content).toContain('Photo does not show damage');
  });

  it('reject: a comment that ends its own sentence gets no second full stop', () => {
    const reply = (comment: string) => {
      const s0 = first();
      const s = resumeWith(s0, [{ interruptId: s0.interrupts[0]?.id ?? '', status: 'resolved', payload: { approved: false, comment } }]);
      return String(s.messages.byId.get(s.messages.ids.at(-1) ?? '')?.content);
    };
    expect(reply('Already replaced.')).toContain('refund: "Already replaced." Nothing was charged back.');
    expect(reply('客户已接受换货。')).toContain('refund: "客户已接受换货。" Nothing was charged back.');
    expect(reply('Photo does not show damage')).toContain('refund: "Photo does not show damage". Nothing was charged back.');
  });

  it('expiry: only a cancel is accepted, and nothing is refunded', () => {
    const s0 = first();
    const id = s0.interrupts[0]?.id ?? '';
    const late = NOW + 10 * 60_000;
    expect(buildResume(s0, [{ interruptId: id, status: 'resolved', payload: { approved: true } }], { now: late }).ok).toBe(false);
    const s = resumeWith(s0, [{ interruptId: id, status: 'cancelled' }], late);
    expect(s.sharedState.document).toMatchObject({ refund: { status: 'cancelled' } });
  });
});

describe('interrupt scenarios', () => {
  it('clarification offers an enum and continues with the choice', () => {
    const t0 = createThreadState({ threadId: 'scenario-thread' });
    const s0 = turn(scenarios.clarification, t0, inputFor(t0, 'x'));
    expect(s0.interrupts[0]).toMatchObject({ reason: 'input_required', responseSchema: { enum: ['email', 'sms', 'phone call'] } });
    const r = buildResume(s0, [{ interruptId: s0.interrupts[0]?.id ?? '', status: 'resolved', payload: 'sms' }], {
      now: NOW,
      runId: 'run-c2',
    });
    expect(r.ok).toBe(true);
    const s = r.ok ? turn(scenarios.clarification, s0, r.input) : s0;
    expect(String(s.messages.byId.get(s.messages.ids.at(-1) ?? '')?.content)).toContain('sms');
  });

  it('escalation carries a namespaced reason with queue metadata', () => {
    const t0 = createThreadState();
    const s0 = turn(scenarios.escalation, t0, inputFor(t0, 'x'));
    expect(s0.interrupts[0]).toMatchObject({ reason: 'risk:manual_review', metadata: { queue: 'fraud-review' } });
  });

  it('two interrupts are answered in one resume', () => {
    const t0 = createThreadState({ threadId: 'scenario-thread' });
    const s0 = turn(scenarios['two-interrupts'], t0, inputFor(t0, 'x'));
    expect(s0.interrupts).toHaveLength(2);
    const [a, b] = s0.interrupts;
    const r = buildResume(
      s0,
      [
        { interruptId: a?.id ?? '', status: 'resolved' },
        { interruptId: b?.id ?? '', status: 'resolved', payload: { reason: 'other' } },
      ],
      { now: NOW, runId: 'run-t2' },
    );
    const s = r.ok ? turn(scenarios['two-interrupts'], s0, r.input) : s0;
    expect(s.interrupts).toEqual([]);
    expect(s.run.status).toBe('success');
  });
});

describe('state and scale scenarios', () => {
  it('desync marks the state desynced, then the snapshot heals it', () => {
    const t0 = createThreadState();
    const s = turn(scenarios.desync, t0, inputFor(t0, 'x'));
    expect(s.diagnostics.map((d) => d.code)).toEqual(['PATCH_FAILED', 'DELTA_WHILE_DESYNCED']);
    expect(s.sharedState).toMatchObject({ sync: 'in-sync', document: { package: { hops: 4, eta: { day: 'Tuesday' } } } });
  });

  it('dashboard applies every delta', () => {
    const t0 = createThreadState();
    const s = turn(scenarios.dashboard, t0, inputFor(t0, 'x', { forwardedProps: { deltas: 50 } }));
    expect(s.sharedState.document).toMatchObject({ orders: 50, revenue: 50 * 37 });
    expect((s.sharedState.document as { series: unknown[] }).series).toHaveLength(50);
  });

  it("long thread restates the earlier conversation before the user's question, each answer about the order its question names", () => {
    const t0 = createThreadState();
    const s = turn(scenarios['long-thread'], t0, inputFor(t0, 'Summarise our conversation.', { forwardedProps: { messages: 6 } }));
    const texts = s.messages.ids.map((id) => s.messages.byId.get(id)?.content);
    expect(texts).toEqual([
      'Question 1: where is order 1000?',
      'Answer 1: the order 1000 is on its way.',
      'Question 2: where is order 1001?',
      'Answer 2: the order 1001 is on its way.',
      'Question 3: where is order 1002?',
      'Answer 3: the order 1002 is on its way.',
      'Summarise our conversation.',
      'We talked about 3 orders; all of them are shipped.',
    ]);
  });

  it('long thread restates thousands of messages; fast stream sends thousands of tokens', () => {
    const t0 = createThreadState();
    expect(turn(scenarios['long-thread'], t0, inputFor(t0, 'x')).messages.ids.length).toBeGreaterThan(3000);
    const fast = turn(scenarios['fast-stream'], t0, inputFor(t0, 'x', { forwardedProps: { tokens: 3000 } }));
    expect(
      String(fast.messages.byId.get(fast.messages.ids.at(-1) ?? '')?.content)
        .split(' ')
        .filter(Boolean),
    ).toHaveLength(3000);
  });
});

describe('forwarded options from a request', () => {
  const count = (scenario: Scenario, forwardedProps: unknown, type: string) => {
    const t0 = createThreadState();
    return scenarioEvents(scenario, inputFor(t0, 'x', { forwardedProps }), NOW).filter((e) => (e.event as { type: string }).type === type)
      .length;
  };

  it('are clamped: a request cannot make a scenario build millions of events', () => {
    expect(count(scenarios['fast-stream'], { tokens: 1e12 }, 'TEXT_MESSAGE_CONTENT')).toBe(100_000);
    expect(count(scenarios['fast-stream'], { tokens: -5 }, 'TEXT_MESSAGE_CONTENT')).toBe(1);
    expect(count(scenarios.dashboard, { deltas: 1e9 }, 'STATE_DELTA')).toBe(10_000);
    const t0 = createThreadState();
    const snapshot = scenarioEvents(scenarios['long-thread'], inputFor(t0, 'x', { forwardedProps: { messages: 1e9 } }), NOW).find(
      (e) => (e.event as { type: string }).type === 'MESSAGES_SNAPSHOT',
    );
    if (!snapshot) throw new Error('long-thread sent no MESSAGES_SNAPSHOT');
    // The user's message and 20,000 restated ones.
    expect((snapshot.event as { messages: unknown[] }).messages).toHaveLength(20_001);
  });

  it('are ignored when they are not finite numbers', () => {
    expect(count(scenarios['fast-stream'], { tokens: '1e12' }, 'TEXT_MESSAGE_CONTENT')).toBe(5000);
    expect(count(scenarios['fast-stream'], { tokens: Number.NaN }, 'TEXT_MESSAGE_CONTENT')).toBe(5000);
    expect(count(scenarios['fast-stream'], [1, 2], 'TEXT_MESSAGE_CONTENT')).toBe(5000);
  });

  it('keep an expiry any date can hold', () => {
    const t0 = createThreadState();
    for (const approvalWindowMs of [1e300, -1e300]) {
      const events = scenarioEvents(scenarios.refund, inputFor(t0, scenarios.refund.prompt, { forwardedProps: { approvalWindowMs } }), NOW);
      const finished = events.map((e) => e.event as { type: string; outcome?: { interrupts?: { expiresAt?: string }[] } }).at(-1);
      const at = Date.parse(finished?.outcome?.interrupts?.[0]?.expiresAt ?? '');
      expect(at).toBeGreaterThanOrEqual(NOW);
      expect(at).toBeLessThanOrEqual(NOW + 86_400_000);
    }
  });
});

describe('play', () => {
  it('keeps the timing, scaled by speed', async () => {
    vi.useFakeTimers();
    try {
      const events = [10, 10, 10].map((delayMs, i) => ({ delayMs, event: { i } }));
      const seen: unknown[] = [];
      const done = (async () => {
        for await (const e of play(events, { speed: 2 })) seen.push(e);
      })();
      await vi.advanceTimersByTimeAsync(5);
      expect(seen).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(10);
      expect(seen).toHaveLength(3);
      await done;
    } finally {
      vi.useRealTimers();
    }
  });

  it('sends everything at once at infinite speed, and stops on abort', async () => {
    const events = Array.from({ length: 100 }, (_, i) => ({ delayMs: 1000, event: { i } }));
    const all: unknown[] = [];
    for await (const e of play(events, { speed: Number.POSITIVE_INFINITY })) all.push(e);
    expect(all).toHaveLength(100);
    const controller = new AbortController();
    const some: unknown[] = [];
    await expect(
      (async () => {
        for await (const e of play(
          events.slice(0, 3).map((e) => ({ ...e, delayMs: 0 })),
          { signal: controller.signal },
        )) {
          some.push(e);
          controller.abort();
        }
      })(),
    ).rejects.toThrow();
    expect(some).toHaveLength(1);
  });
});
