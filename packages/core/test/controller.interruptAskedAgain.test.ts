/**
 * An agent asking again, in a later run, a question it asked before under the
 * same interrupt id (ids derived from the tool call, or fixed per step): the
 * question opens again whenever it comes in a run that started after the
 * answer, whatever became of the resume that answered it.
 */
import { describe, expect, it } from 'vitest';
import { createRunController, type RunAgentInput } from '../src/index.js';
import { expectReplayed, finished, microScheduler, scripted, started, tick } from './support/controllerHarness.js';

const ask = (input: RunAgentInput, runId = input.runId) =>
  finished(
    { ...input, runId },
    { outcome: { type: 'interrupt', interrupts: [{ id: 'i1', reason: 'confirmation', message: 'Refund 42 USD?' }] } },
  );
const approve = { interruptId: 'i1', status: 'resolved' as const, payload: { approved: true } };

describe('an answered interrupt asked again in a later run', () => {
  it('a resume the agent ran under a run id of its own: the same question asked again in that run opens', async () => {
    const { source } = scripted((n, input, emit) => {
      // An agent naming its runs itself (not by the input's runId).
      const runId = `agent-run-${n}`;
      emit({ ...started(input), runId });
      emit(ask(input, runId));
    });
    const c = createRunController({ source, scheduler: microScheduler });
    await c.run('Refund order A-1001');
    expect(c.getSnapshot().thread.interrupts.map((i) => i.id)).toEqual(['i1']);
    expect((await c.resume([approve])).ok).toBe(true);
    await tick();
    expect(c.getSnapshot().thread.run).toMatchObject({ runId: 'agent-run-1', status: 'interrupted' });
    expect(c.getSnapshot().thread.interrupts.map((i) => [i.id, i.runId])).toEqual([['i1', 'agent-run-1']]);
    expectReplayed(c);
  });

  it('a resume answered by streaming the whole thread again (every earlier run, then the resumed one): the answered question stays answered', async () => {
    const earlier: RunAgentInput[] = [];
    const { source } = scripted((n, input, emit) => {
      if (n < 2) earlier.push(input);
      if (n === 2) {
        const [w, x] = earlier as [RunAgentInput, RunAgentInput];
        emit(started(w));
        emit(finished(w));
        emit(started(x));
        emit(ask(x));
      }
      emit(started(input));
      emit(n === 1 ? ask(input) : finished(input));
    });
    const c = createRunController({ source, scheduler: microScheduler });
    await c.run('Hello');
    await c.run('Refund order A-1001');
    expect((await c.resume([approve])).ok).toBe(true);
    await tick();
    const t = c.getSnapshot().thread;
    expect(t.interrupts).toEqual([]);
    expect(t.run.status).toBe('success');
    expect(Object.values(t.runs).map((r) => r.status)).toEqual(['success', 'interrupted', 'success']);
    expect(t.answers.map((a) => a.interruptId)).toEqual(['i1']);
    expectReplayed(c);
  });

  it('a resume whose run starts first, then streams the whole thread again: the answered question stays closed, a new one opens', async () => {
    const earlier: RunAgentInput[] = [];
    const { source } = scripted((n, input, emit) => {
      if (n < 2) earlier.push(input);
      emit(started(input));
      if (n === 2) {
        // The resumed run's RUN_STARTED first, then every earlier run again (the one that asked i1 among them).
        const [w, x] = earlier as [RunAgentInput, RunAgentInput];
        emit(started(w));
        emit(finished(w));
        emit(started(x));
        emit(ask(x));
        const next = { id: 'i2', reason: 'confirmation', message: 'Also refund shipping?' };
        emit(finished(input, { outcome: { type: 'interrupt', interrupts: [next] } }));
        return;
      }
      emit(n === 1 ? ask(input) : finished(input));
    });
    const c = createRunController({ source, scheduler: microScheduler });
    await c.run('Hello');
    await c.run('Refund order A-1001');
    expect((await c.resume([approve])).ok).toBe(true);
    await tick();
    const t = c.getSnapshot().thread;
    const resumed = c.getSnapshot().thread.answers[0]?.runId;
    expect(t.interrupts.map((i) => [i.id, i.runId])).toEqual([['i2', resumed]]);
    expect(t.run).toMatchObject({ runId: resumed, status: 'interrupted' });
    expect(Object.values(t.runs).map((r) => r.status)).toEqual(['success', 'interrupted', 'interrupted']);
    expect(t.answers.map((a) => a.interruptId)).toEqual(['i1']);
    expectReplayed(c);
  });

  it("the resumed run's own events after the thread streamed again are no events outside a run: only the history's runs are reported", async () => {
    const earlier: RunAgentInput[] = [];
    const { source } = scripted((n, input, emit) => {
      if (n < 2) earlier.push(input);
      emit(started(input));
      if (n === 2) {
        const [w, x] = earlier as [RunAgentInput, RunAgentInput];
        emit(started(w));
        emit(finished(w));
        emit(started(x));
        emit(ask(x));
        // The resumed run's answer, after the history.
        emit({ type: 'TEXT_MESSAGE_START', messageId: 'm3', role: 'assistant' });
        for (const delta of ['Refunded ', '42 ', 'USD.']) emit({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm3', delta });
        emit({ type: 'TEXT_MESSAGE_END', messageId: 'm3' });
        emit(finished(input));
        return;
      }
      emit(n === 1 ? ask(input) : finished(input));
    });
    const c = createRunController({ source, scheduler: microScheduler });
    await c.run('Hello');
    await c.run('Refund order A-1001');
    const before = c.getSnapshot().thread.diagnostics.length;
    expect((await c.resume([approve])).ok).toBe(true);
    await tick();
    const t = c.getSnapshot().thread;
    expect(t.run.status).toBe('success');
    expect(t.messages.byId.get('m3')?.content).toBe('Refunded 42 USD.');
    // Each run of the history started inside the resumed one, and its end naming another run: once each.
    expect(t.diagnostics.slice(before).map((d) => `${d.code}@${d.index}`)).toEqual([
      'NESTED_RUN_STARTED@5',
      'RUN_ID_MISMATCH@6',
      'NESTED_RUN_STARTED@7',
      'RUN_ID_MISMATCH@8',
    ]);
    expectReplayed(c);
  });
});
