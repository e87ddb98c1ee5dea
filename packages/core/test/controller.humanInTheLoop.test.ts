/**
 * Human-in-the-loop flows through the run controller, as a user who double
 * clicks, a network that drops, and an agent that sends what it should not.
 */
import { describe, expect, it } from 'vitest';
import { createRunController, type RunAgentInput } from '../src/index.js';
import { expectReplayed, finished, held, microScheduler, open, scripted, started, tick, toolCall } from './support/controllerHarness.js';

const ask = (input: RunAgentInput, interrupts: unknown[], extra: Record<string, unknown> = {}) =>
  finished(input, { outcome: { type: 'interrupt', interrupts }, ...extra });
const refund = (id = 'i1') => ({ id, reason: 'confirmation', message: 'Refund 42 USD?' });
const approve = (id = 'i1') => ({ interruptId: id, status: 'resolved' as const, payload: { approved: true } });
const reject = (id = 'i1') => ({ interruptId: id, status: 'resolved' as const, payload: { approved: false } });

/** A controller whose first run asks `i1`; later runs finish. */
async function asked(interrupts: unknown[] = [refund()]) {
  const { source, inputs } = scripted((n, input, emit) => {
    emit(started(input));
    emit(n === 0 ? ask(input, interrupts) : finished(input));
  });
  const controller = createRunController({ source, scheduler: microScheduler });
  await controller.run('Refund order A-1001');
  return { controller, inputs };
}

describe('a user answering an interrupt', () => {
  it('approve twice fast (a double click) sends one resume, and both clicks answer ok', async () => {
    const { controller, inputs } = await asked();
    const [a, b] = await Promise.all([controller.resume([approve()]), controller.resume([approve()])]);
    expect(a.ok && b.ok).toBe(true);
    expect(inputs).toHaveLength(2);
    expect(controller.getSnapshot().thread.interrupts).toEqual([]);
    expectReplayed(controller);
  });

  it('approve then reject at once: the reject is not answered ok while the approval is what goes out', async () => {
    const { controller, inputs } = await asked();
    const [a, b] = await Promise.all([controller.resume([approve()]), controller.resume([reject()])]);
    expect(a.ok).toBe(true);
    expect(inputs).toHaveLength(2);
    expect(inputs[1]?.resume).toEqual([approve()]);
    // The second decision was not sent: the user is told, not answered as if it were.
    expect(b).toMatchObject({ ok: false });
  });

  it('a double click whose answer lists payload before status: both clicks answer ok, one resume goes', async () => {
    const { controller, inputs } = await asked();
    const click = () => ({ interruptId: 'i1', payload: { approved: true }, status: 'resolved' as const });
    const [a, b] = await Promise.all([controller.resume([click()]), controller.resume([click()])]);
    expect(b).toMatchObject({ ok: true });
    expect(a.ok).toBe(true);
    expect(inputs).toHaveLength(2);
    expect(controller.getSnapshot().refusal).toBeUndefined();
    expectReplayed(controller);
  });

  it('the same answers twice with keys or interrupts in another order: both clicks answer ok, one resume goes', async () => {
    const { controller, inputs } = await asked([refund('i1'), refund('i2')]);
    const a = controller.resume([
      { interruptId: 'i1', status: 'resolved', payload: { approved: true, note: 'ok' } },
      { interruptId: 'i2', status: 'cancelled' },
    ]);
    const b = controller.resume([
      { status: 'cancelled', interruptId: 'i2' },
      { interruptId: 'i1', status: 'resolved', payload: { note: 'ok', approved: true } },
    ]);
    expect((await a).ok).toBe(true);
    expect(await b).toMatchObject({ ok: true });
    expect(inputs).toHaveLength(2);
    expectReplayed(controller);
  });

  it.each(['stop', 'reset', 'destroy'] as const)(
    'approve, then reject, then %s() before the approval is recorded: both calls settle and nothing is sent',
    async (end) => {
      const { controller, inputs } = await asked();
      const a = controller.resume([approve()]);
      const b = controller.resume([reject()]);
      const c = controller.resume([reject()]);
      controller[end]();
      const [ra, rb, rc] = await Promise.all([a, b, c]);
      expect(inputs).toHaveLength(1);
      expect(rb).toEqual(ra);
      expect(rc).toEqual(ra);
      if (end === 'destroy') expect(ra).toMatchObject({ ok: false, code: 'DESTROYED' });
      else expect(ra.ok).toBe(true);
      if (end !== 'destroy') expectReplayed(controller);
    },
  );

  it('approve then cancelInterrupts() at once: the cancel is not answered ok while the approval goes out', async () => {
    const { controller, inputs } = await asked();
    const a = controller.resume([approve()]);
    const b = controller.cancelInterrupts();
    expect((await a).ok).toBe(true);
    expect(inputs[1]?.resume).toEqual([approve()]);
    expect(await b).toMatchObject({ ok: false });
  });

  it('an approval of an interrupt that expired a millisecond ago is refused (only a cancel goes), and nothing is sent', async () => {
    let now = Date.parse('2026-12-04T10:00:00Z');
    const { source, inputs } = scripted((n, input, emit) => {
      emit(started(input));
      emit(n === 0 ? ask(input, [{ ...refund(), expiresAt: '2026-12-04T10:02:00Z' }]) : finished(input));
    });
    const controller = createRunController({ source, scheduler: microScheduler, now: () => now });
    await controller.run('Refund order A-1001');
    now = Date.parse('2026-12-04T10:02:00.001Z');
    const r = await controller.resume([approve()]);
    expect(r).toMatchObject({ ok: false, code: 'RESUME_REFUSED' });
    expect(r.ok ? [] : r.errors?.map((e) => e.code)).toEqual(['EXPIRED']);
    expect(inputs).toHaveLength(1);
    expect(controller.getSnapshot().thread.interrupts.map((it) => it.id)).toEqual(['i1']);
    expect((await controller.cancelInterrupts()).ok).toBe(true);
    expect(inputs[1]?.resume).toEqual([{ interruptId: 'i1', status: 'cancelled' }]);
  });

  it('offline: the answer that never reached the agent is given back, and retry() sends it again under the same run id', async () => {
    let offline = true;
    const { source, inputs } = scripted((n, input, emit) => {
      if (n === 1 && offline) throw Object.assign(new TypeError('Failed to fetch'), { name: 'TypeError' });
      emit(started(input));
      emit(n === 0 ? ask(input, [refund()]) : finished(input));
    });
    const controller = createRunController({ source, scheduler: microScheduler });
    await controller.run('Refund order A-1001');
    const failed = await controller.resume([approve()]);
    expect(failed.ok).toBe(true);
    await tick();
    expect(controller.getSnapshot().thread.interrupts.map((it) => it.id)).toEqual(['i1']);
    offline = false;
    const again = await controller.retry();
    expect(again.ok).toBe(true);
    expect(inputs).toHaveLength(3);
    expect(inputs[2]?.runId).toBe(inputs[1]?.runId);
    expect(inputs[2]?.resume).toEqual(inputs[1]?.resume);
    expect(controller.getSnapshot().thread.interrupts).toEqual([]);
    expect(controller.getSnapshot().thread.run.status).toBe('success');
    expectReplayed(controller);
  });

  it('refused by the agent in its stream (RUN_ERROR before its run started): the answer is given back, and the user answers again', async () => {
    const { source, inputs } = scripted((n, input, emit) => {
      if (n === 1) {
        emit({ type: 'RUN_ERROR', message: 'The answer is not one this question takes.', code: 'RESUME_INVALID' });
        return;
      }
      emit(started(input));
      if (n === 0) for (const e of toolCall('c1', 'refund')) emit(e);
      emit(n === 0 ? ask(input, [{ ...refund(), reason: 'tool_call', toolCallId: 'c1' }]) : finished(input));
    });
    const controller = createRunController({ source, scheduler: microScheduler });
    await controller.run('Refund order A-1001');
    expect((await controller.resume([approve()])).ok).toBe(true);
    await tick();
    const refused = controller.getSnapshot().thread;
    expect(refused.interrupts.map((it) => it.id)).toEqual(['i1']);
    expect(refused.answers).toEqual([]);
    expect(refused.run.error?.code).toBe('RESUME_INVALID');
    // The call the question holds is held again, not failed with the run that never began.
    expect(refused.toolCalls.get('c1')).toMatchObject({ status: 'ready', interruptId: 'i1' });
    expect(await controller.resume([reject()])).toMatchObject({ ok: true, status: 'success' });
    expect(inputs[2]?.resume).toEqual([reject()]);
    expect(controller.getSnapshot().thread.interrupts).toEqual([]);
    expect(controller.getSnapshot().thread.toolCalls.get('c1')?.status).toBe('denied');
    expectReplayed(controller);
  });

  it('stop() during the resumed run: the answer stays given (the agent took it), and no second run starts', async () => {
    const { source, inputs } = scripted(async (n, input, emit, signal) => {
      emit(started(input));
      if (n === 0) emit(ask(input, [refund()]));
      else await open(signal);
    });
    const controller = createRunController({ source, scheduler: microScheduler });
    await controller.run('Refund order A-1001');
    const answer = controller.resume([approve()]);
    await tick();
    controller.stop();
    await answer;
    await tick();
    expect(inputs).toHaveLength(2);
    expect(controller.getSnapshot().thread.interrupts).toEqual([]);
    expect(controller.getSnapshot().inFlight).toBeUndefined();
    expectReplayed(controller);
  });

  it('reset() while the resume request is in flight: its late events change nothing of the new thread', async () => {
    const gate = held<void>();
    const { source, inputs } = scripted(async (n, input, emit) => {
      if (n === 1) await gate.promise;
      emit(started(input));
      emit(n === 0 ? ask(input, [refund()]) : finished(input));
    });
    const controller = createRunController({ source, scheduler: microScheduler });
    await controller.run('Refund order A-1001');
    const oldThread = controller.getSnapshot().thread.threadId;
    const answer = controller.resume([approve()]);
    await tick();
    expect(inputs).toHaveLength(2);
    controller.reset();
    gate.settle();
    await answer;
    await tick();
    const s = controller.getSnapshot();
    expect(s.thread.threadId).not.toBe(oldThread);
    expect(s.thread.interrupts).toEqual([]);
    expect(s.thread.run.status).toBe('idle');
    expect(s.inFlight).toBeUndefined();
  });

  it('destroy() with an answer pending: the pending resume answers DESTROYED, and nothing more is sent', async () => {
    const gate = held<void>();
    const { source, inputs } = scripted(async (n, input, emit) => {
      if (n === 1) await gate.promise;
      emit(started(input));
      emit(n === 0 ? ask(input, [refund()]) : finished(input));
    });
    const controller = createRunController({ source, scheduler: microScheduler });
    await controller.run('Refund order A-1001');
    const answer = controller.resume([approve()]);
    await tick();
    controller.destroy();
    gate.settle();
    expect(await answer).toMatchObject({ ok: false, code: 'DESTROYED' });
    expect(inputs).toHaveLength(2);
  });

  it('destroy() right after the answer, before it is sent: DESTROYED, and nothing is sent', async () => {
    const { controller, inputs } = await asked();
    const answer = controller.resume([approve()]);
    controller.destroy();
    expect(await answer).toMatchObject({ ok: false, code: 'DESTROYED' });
    await tick();
    expect(inputs).toHaveLength(1);
  });
});

describe('a flaky network', () => {
  it('a resume cut off after the agent took it: reconnect() goes on with the same run, the answer is not sent as a new one', async () => {
    const { source, inputs } = scripted((n, input, emit) => {
      if (n === 0) {
        emit(started(input), '1');
        emit(ask(input, [refund()]), '2');
      } else if (n === 1) emit(started(input), '3');
      else emit(finished(input), '4');
    });
    const controller = createRunController({ source, scheduler: microScheduler });
    await controller.run('Refund order A-1001');
    await controller.resume([approve()]);
    await tick();
    expect(controller.getSnapshot().failure?.code).toBe('CONNECTION_LOST');
    // The agent took the answer: it is not open again, and a second answer is not asked for.
    expect(controller.getSnapshot().thread.interrupts).toEqual([]);
    expect(await controller.resume([reject()])).toMatchObject({ ok: false });
    expect((await controller.reconnect()).ok).toBe(true);
    await tick();
    expect(inputs).toHaveLength(3);
    expect(inputs[2]?.runId).toBe(inputs[1]?.runId);
    expect(controller.getSnapshot().thread.run.status).toBe('success');
    expect(controller.getSnapshot().thread.answers.map((a) => a.interruptId)).toEqual(['i1']);
    expectReplayed(controller);
  });

  it('an answer given back after a failure, then answered and retried at once: one request, never two runs of the thread', async () => {
    let offline = true;
    const gate = held<void>();
    const { source, inputs } = scripted(async (n, input, emit) => {
      if (n === 1 && offline) throw new TypeError('Failed to fetch');
      if (n > 1) await gate.promise;
      emit(started(input));
      emit(n === 0 ? ask(input, [refund()]) : finished(input));
    });
    const controller = createRunController({ source, scheduler: microScheduler });
    await controller.run('Refund order A-1001');
    await controller.resume([approve()]);
    offline = false;
    const both = Promise.all([controller.resume([approve()]), controller.retry(), controller.run('Hello?')]);
    await tick();
    await tick();
    expect(inputs).toHaveLength(3);
    gate.settle();
    const [a, b, c] = await both;
    expect(a.ok).toBe(true);
    expect(b).toMatchObject({ ok: false, code: 'RUN_IN_PROGRESS' });
    expect(c).toMatchObject({ ok: false, code: 'RUN_IN_PROGRESS' });
    await tick();
    expect(inputs).toHaveLength(3);
    expect(controller.getSnapshot().thread.interrupts).toEqual([]);
  });
});

describe('a hostile agent', () => {
  it('an interrupt with 10,000 options: applied and answered in reasonable time', async () => {
    const options = Array.from({ length: 10_000 }, (_, i) => `option-${i}`);
    const t0 = performance.now();
    const { controller, inputs } = await asked([{ id: 'i1', reason: 'input_required', responseSchema: { type: 'string', enum: options } }]);
    const applied = performance.now() - t0;
    const t1 = performance.now();
    const r = await controller.resume([{ interruptId: 'i1', status: 'resolved', payload: 'option-9999' }]);
    const answered = performance.now() - t1;
    console.info(`10,000 options: applied in ${applied.toFixed(1)} ms, answered in ${answered.toFixed(1)} ms`);
    expect(r.ok).toBe(true);
    expect(inputs).toHaveLength(2);
    expect(applied + answered).toBeLessThan(2_000);
  });

  it('a responseSchema of 20,000 properties (about 1 MB): refused at once as too large to check, and a cancel goes', async () => {
    const properties = Object.fromEntries(
      Array.from({ length: 20_000 }, (_, i) => [`field${i}`, { type: 'string', description: 'x'.repeat(20) }]),
    );
    const schema = { type: 'object', properties, required: ['field0'] };
    const t0 = performance.now();
    const { controller, inputs } = await asked([{ id: 'i1', reason: 'input_required', responseSchema: schema }]);
    const applied = performance.now() - t0;
    const t1 = performance.now();
    const r = await controller.resume([{ interruptId: 'i1', status: 'resolved', payload: { field0: 'yes' } }]);
    const answered = performance.now() - t1;
    console.info(
      `${(JSON.stringify(schema).length / 1e6).toFixed(2)} MB schema: applied in ${applied.toFixed(1)} ms, answered (${r.ok ? 'sent' : (r as { code: string }).code}) in ${answered.toFixed(1)} ms`,
    );
    // Too large to check: refused as a schema that cannot be used, so only a cancel goes.
    expect(r.ok ? [] : r.errors?.map((e) => e.code)).toEqual(['SCHEMA_INVALID']);
    expect(inputs).toHaveLength(1);
    expect((await controller.cancelInterrupts()).ok).toBe(true);
    expect(inputs).toHaveLength(2);
    expect(applied + answered).toBeLessThan(5_000);
  });

  it('10,000 interrupts in one RUN_FINISHED: all open, and cancelInterrupts() answers every one in one request', async () => {
    const many = Array.from({ length: 10_000 }, (_, i) => refund(`i${i}`));
    const t0 = performance.now();
    const { controller, inputs } = await asked(many);
    const applied = performance.now() - t0;
    expect(controller.getSnapshot().thread.interrupts).toHaveLength(10_000);
    const t1 = performance.now();
    expect((await controller.cancelInterrupts()).ok).toBe(true);
    const answered = performance.now() - t1;
    console.info(`10,000 interrupts: applied in ${applied.toFixed(1)} ms, all cancelled in ${answered.toFixed(1)} ms`);
    expect(inputs[1]?.resume).toHaveLength(10_000);
    expect(controller.getSnapshot().thread.interrupts).toEqual([]);
    expect(applied + answered).toBeLessThan(3_000);
  });

  it('an interrupt id reused for another question after it was answered: the new question is open, and its answer goes to it', async () => {
    const { source, inputs } = scripted((n, input, emit) => {
      emit(started(input));
      if (n === 0) emit(ask(input, [refund()]));
      else if (n === 1) emit(ask(input, [{ id: 'i1', reason: 'confirmation', message: 'Also cancel the subscription?' }]));
      else emit(finished(input));
    });
    const controller = createRunController({ source, scheduler: microScheduler });
    await controller.run('Refund order A-1001');
    await controller.resume([approve()]);
    await tick();
    const t = controller.getSnapshot().thread;
    expect(t.interrupts.map((it) => it.message)).toEqual(['Also cancel the subscription?']);
    expect(t.run.status).toBe('interrupted');
    expect((await controller.resume([reject()])).ok).toBe(true);
    expect(inputs).toHaveLength(3);
    expect(inputs[2]?.resume).toEqual([reject()]);
    expectReplayed(controller);
  });

  it("an interrupt that names a tool call of another run holds no call of this one, and the answer's decision names it", async () => {
    const decisions: unknown[] = [];
    const { source } = scripted((n, input, emit) => {
      emit(started(input));
      if (n === 0) {
        for (const e of toolCall('c1', 'lookup_order')) emit(e);
        emit({ type: 'TOOL_CALL_RESULT', messageId: 'r1', toolCallId: 'c1', content: 'found' });
        emit(finished(input));
      } else if (n === 1) emit(ask(input, [{ ...refund(), toolCallId: 'c1' }]));
      else emit(finished(input));
    });
    const controller = createRunController({ source, scheduler: microScheduler, onDecision: (d) => decisions.push(d) });
    await controller.run('Look up order A-1001');
    await controller.run('Refund it');
    const before = controller.getSnapshot().thread.toolCalls.get('c1');
    expect(before?.status).toBe('succeeded');
    expect((await controller.resume([approve()])).ok).toBe(true);
    await tick();
    expect(controller.getSnapshot().thread.toolCalls.get('c1')?.status).toBe('succeeded');
    expect(controller.getSnapshot().thread.run.status).toBe('success');
    expectReplayed(controller);
  });

  it('an interrupt that names a frontend tool call an earlier run already ran, or one the user stopped: approving it runs neither', async () => {
    const ran: string[] = [];
    const { source, inputs } = scripted(async (n, input, emit, signal) => {
      emit(started(input));
      if (n === 0) {
        for (const e of toolCall('c1', 'pick')) emit(e);
        emit(finished(input));
      } else if (n === 2) {
        for (const e of toolCall('c2', 'pick')) emit(e);
        await open(signal);
      } else if (n === 3)
        emit(
          ask(input, [
            { ...refund('i1'), toolCallId: 'c1' },
            { ...refund('i2'), toolCallId: 'c2' },
          ]),
        );
      else emit(finished(input));
    });
    const controller = createRunController({
      source,
      scheduler: microScheduler,
      tools: {
        pick: {
          description: 'picks',
          handler: (_args, call) => {
            ran.push(call.id);
            return 'picked';
          },
        },
      },
    });
    await controller.run('Pick one');
    await tick();
    expect(ran).toEqual(['c1']);
    const stopped = controller.run('Pick another');
    await tick();
    controller.stop();
    await stopped;
    await controller.run('Refund it');
    expect(controller.getSnapshot().thread.interrupts.map((it) => it.id)).toEqual(['i1', 'i2']);
    expect((await controller.resume([approve('i1'), approve('i2')])).ok).toBe(true);
    await tick();
    await tick();
    expect(ran).toEqual(['c1']);
    expect(inputs.length).toBeGreaterThanOrEqual(5);
  });

  it('RUN_FINISHED with outcome interrupt but no interrupts: nothing to answer, and the next message is taken', async () => {
    const { source, inputs } = scripted((n, input, emit) => {
      emit(started(input));
      emit(n === 0 ? ask(input, []) : finished(input));
    });
    const controller = createRunController({ source, scheduler: microScheduler });
    await controller.run('Refund order A-1001');
    expect(controller.getSnapshot().thread.interrupts).toEqual([]);
    const next = await controller.run('Hello?');
    expect(next.ok).toBe(true);
    expect(inputs).toHaveLength(2);
  });

  it('interrupts after RUN_FINISHED (a second end of the same run): they do not open', async () => {
    const { source } = scripted((n, input, emit) => {
      emit(started(input));
      emit(finished(input));
      if (n === 0) emit(ask(input, [refund()]));
    });
    const controller = createRunController({ source, scheduler: microScheduler });
    await controller.run('Refund order A-1001');
    await tick();
    const t = controller.getSnapshot().thread;
    expect(t.interrupts).toEqual([]);
    expect(t.run.status).toBe('success');
    expect((await controller.run('Hello?')).ok).toBe(true);
  });

  it("the answered run's end sent again after the resumed run ended: the answered interrupt does not open again", async () => {
    let first: RunAgentInput | undefined;
    const { source } = scripted((n, input, emit) => {
      emit(started(input));
      if (n === 0) {
        first = input;
        emit(ask(input, [refund()]));
      } else {
        emit(finished(input));
        if (n === 1 && first) emit(ask(first, [refund()]));
      }
    });
    const controller = createRunController({ source, scheduler: microScheduler });
    await controller.run('Refund order A-1001');
    await controller.resume([approve()]);
    await tick();
    const t = controller.getSnapshot().thread;
    expect(t.interrupts).toEqual([]);
    expect(t.run.status).toBe('success');
    expect(t.run.runId).not.toBe(first?.runId);
    expect(t.answers.map((a) => a.interruptId)).toEqual(['i1']);
    expectReplayed(controller);
  });

  it('the answered run sent again whole (its start too) ahead of the resumed run: the answered interrupt does not open again', async () => {
    let first: RunAgentInput | undefined;
    const { source } = scripted((n, input, emit) => {
      if (n === 0) first = input;
      // An agent that streams the thread from its start in answer to the resume.
      else if (first) {
        emit(started(first));
        emit(ask(first, [refund()]));
      }
      emit(started(input));
      emit(n === 0 ? ask(input, [refund()]) : finished(input));
    });
    const controller = createRunController({ source, scheduler: microScheduler });
    await controller.run('Refund order A-1001');
    expect((await controller.resume([approve()])).ok).toBe(true);
    await tick();
    const t = controller.getSnapshot().thread;
    expect(t.interrupts).toEqual([]);
    expect(t.run.status).toBe('success');
    expect(t.answers.map((a) => a.interruptId)).toEqual(['i1']);
    expectReplayed(controller);
  });

  it('the same interrupt id twice in one run: one open question, answered once', async () => {
    const { controller, inputs } = await asked([refund(), { ...refund(), message: 'Refund 4,200 USD?' }]);
    const open = controller.getSnapshot().thread.interrupts;
    expect(open.map((it) => it.id)).toEqual(['i1']);
    expect((await controller.resume([approve()])).ok).toBe(true);
    expect(inputs[1]?.resume).toEqual([approve()]);
  });

  it('a responseSchema that refers to itself without end: the answer is refused, never thrown, and a cancel goes', async () => {
    const { controller, inputs } = await asked([
      {
        id: 'i1',
        reason: 'input_required',
        responseSchema: { $ref: '#/$defs/a', $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } } },
      },
    ]);
    const r = await controller.resume([{ interruptId: 'i1', status: 'resolved', payload: 'x' }]);
    expect(r.ok).toBe(false);
    expect(inputs).toHaveLength(1);
    expect((await controller.cancelInterrupts()).ok).toBe(true);
    expect(inputs).toHaveLength(2);
  });
});
