import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createThreadState, replayEvents } from '../src/engine.js';
import type { ResumeResponse, ThreadState } from '../src/index.js';
import { buildResume } from '../src/schema.js';

interface Golden {
  name: string;
  description: string;
  /** The fixture whose final state this one continues from. */
  after?: string;
  /** The answers a user gives before this fixture's events; built with buildResume. */
  resume?: ResumeResponse[];
  now?: string;
  events: unknown[];
  expect: { status: string; messageIds: string[]; interrupts: string[]; toolCalls: Record<string, string>; state: unknown };
}

const dir = new URL('./fixtures/', import.meta.url);
const goldens = new Map<string, Golden>(
  readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => {
      const g = JSON.parse(readFileSync(new URL(f, dir), 'utf8')) as Golden;
      return [g.name, g];
    }),
);

function finalState(name: string): ThreadState {
  const g = goldens.get(name);
  if (!g) throw new Error(`no golden stream named ${name}`);
  return replayEvents(g.events, g.after ? finalState(g.after) : createThreadState());
}

describe('golden event streams', () => {
  it('are present', () => {
    expect([...goldens.keys()].sort()).toEqual(['refund-approved', 'refund-expired', 'refund-interrupt', 'refund-rejected']);
  });

  for (const g of goldens.values()) {
    it(`${g.name}: ${g.description}`, () => {
      const s = finalState(g.name);
      expect(s.diagnostics).toEqual([]);
      expect(s.run.status).toBe(g.expect.status);
      expect(s.messages.ids).toEqual(g.expect.messageIds);
      expect(s.interrupts.map((i) => i.id)).toEqual(g.expect.interrupts);
      for (const [id, status] of Object.entries(g.expect.toolCalls)) expect(s.toolCalls.get(id)?.status, id).toBe(status);
      expect(s.sharedState.document).toMatchObject(g.expect.state as object);
      for (const id of s.messages.ids) expect(s.messages.byId.get(id)?.streaming, id).toBe(false);
    });

    if (g.resume && g.after) {
      it(`${g.name}: buildResume produces the resume the stream's run carries`, () => {
        const before = finalState(g.after as string);
        const now = g.now ? Date.parse(g.now) : Date.parse('2026-11-30T12:00:00Z');
        const started = g.events[0] as { runId: string; input: { resume: unknown; messages: unknown; parentRunId: string } };
        const r = buildResume(before, g.resume as ResumeResponse[], { now, runId: started.runId });
        expect(r.ok).toBe(true);
        if (!r.ok) return;
        expect(r.input.resume).toEqual(started.input.resume);
        expect(r.input.messages).toEqual(started.input.messages);
        expect(r.input.parentRunId).toBe(started.input.parentRunId);
      });
    }
  }

  it('refund-interrupt: the refund waits on the reviewer with what will be done', () => {
    const s = finalState('refund-interrupt');
    expect(s.toolCalls.get('call-refund')).toMatchObject({
      name: 'refund_order',
      args: { orderId: 'A-1001', amount: 42 },
      interruptId: 'int-refund-1',
    });
    expect(s.interrupts[0]).toMatchObject({ reason: 'tool_call', expiresAt: '2026-12-01T12:00:00Z', runId: 'run-1' });
  });

  it('refund-expired: an expired approval can only be cancelled', () => {
    const before = finalState('refund-interrupt');
    const r = buildResume(before, [{ interruptId: 'int-refund-1', status: 'resolved', payload: { approved: true } }], {
      now: Date.parse('2026-12-02T00:00:00Z'),
    });
    expect(r.ok ? [] : r.errors.map((e) => e.code)).toEqual(['EXPIRED']);
  });
});
