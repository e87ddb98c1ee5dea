import type { RunAgentInput, ThreadState } from '@aguikit/core';
import { createThreadState, replayEvents } from '@aguikit/core/engine';
import { buildResume } from '@aguikit/core/schema';
import { describe, expect, it } from 'vitest';
import { scenarioEvents, scenarios } from '../src/index.js';
import { nonceOf, Script } from '../src/script.js';

const NOW = Date.parse('2026-11-30T12:00:00Z');
const NONCE = '0123456789abcdef0123456789abcdef';

const input = (runId: string, extra: Partial<RunAgentInput> = {}): RunAgentInput => ({
  threadId: 'thread',
  runId,
  messages: [{ id: `${runId}-u`, role: 'user', content: scenarios.refund.prompt }],
  tools: [],
  context: [],
  ...extra,
});

/** A run of the refund scenario with a server's context (`nonce`), replayed through the real reducer. */
function turn(thread: ThreadState, runInput: RunAgentInput, nonce?: string): ThreadState {
  const context = { now: NOW, ...(nonce === undefined ? {} : { nonce }) };
  const events = scenarioEvents(scenarios.refund, runInput, context).map((e) => e.event);
  return replayEvents(events, { ...thread, diagnostics: [] });
}

describe('a run secret (nonce) in interrupt ids', () => {
  it('mixes the nonce into the approval and its tool call, and the flow ends as without one', () => {
    const t0 = createThreadState({ threadId: 'thread' });
    const s1 = turn(t0, input('r1'), NONCE);
    const [approval] = s1.interrupts;
    expect(approval?.id).toBe(`r1.${NONCE}-refund-approval`);
    expect(approval?.toolCallId).toBe(`r1.${NONCE}-refund`);
    expect(s1.toolCalls.get(`r1.${NONCE}-refund`)).toMatchObject({ name: 'refund_order', status: 'ready' });

    const resume = buildResume(s1, [{ interruptId: approval?.id ?? '', status: 'resolved', payload: { approved: true } }], {
      now: NOW,
      runId: 'r2',
    });
    if (!resume.ok) throw new Error('resume refused');
    const events = scenarioEvents(scenarios.refund, resume.input, { now: NOW });
    // The refund is keyed by the secret id, and reports on the call the first run made.
    expect(events.find((e) => e.effect)?.effect).toMatchObject({ kind: 'refund', key: `r1.${NONCE}-refund-approval` });
    const s2 = turn(s1, resume.input);
    expect(s2.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(s2.run.status).toBe('success');
    expect(s2.toolCalls.get(`r1.${NONCE}-refund`)?.status).toBe('succeeded');
    expect(s2.sharedState.document).toMatchObject({ refund: { status: 'refunded' } });
  });

  it('keeps the ids of a run without a nonce (the playground in the browser)', () => {
    const s1 = turn(createThreadState({ threadId: 'thread' }), input('r1'));
    expect(s1.interrupts[0]?.id).toBe('r1-refund-approval');
    expect(s1.interrupts[0]?.toolCallId).toBe('r1-refund');
  });

  it('is a pure function of input, clock and nonce: another nonce, other ids; the same, the same events', () => {
    const same = { now: NOW, nonce: NONCE };
    const other = { now: NOW, nonce: 'fedcba9876543210fedcba9876543210' };
    const a = scenarioEvents(scenarios.refund, input('r1'), same);
    const b = scenarioEvents(scenarios.refund, input('r1'), same);
    const c = scenarioEvents(scenarios.refund, input('r1'), other);
    expect(a).toEqual(b);
    expect(JSON.stringify(a)).not.toEqual(JSON.stringify(c));
  });

  it('takes only a plain token for a nonce: anything else is ignored, not spliced into ids', () => {
    for (const bad of ['', 'short', 'has-dash-0123456789abcdef', 'a'.repeat(65), '../../etc', 42, null]) {
      expect(nonceOf({ now: NOW, nonce: bad })).toBeUndefined();
    }
    expect(nonceOf({ now: NOW })).toBeUndefined();
    expect(nonceOf({ nonce: NONCE })).toBe(NONCE);
    expect(new Script(input('r1'), NONCE).secretId('x')).toBe(`r1.${NONCE}-x`);
    expect(new Script(input('r1')).secretId('x')).toBe('r1-x');
  });
});
