/**
 * A stream that opens with RUN_ERROR, before its own RUN_STARTED: the agent
 * refused the request before its run began. The request ends as `error` with
 * the agent's code and message, as one that failed before any event does, and
 * the run that ended before it stays as it ended, live and replayed.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { replaySession } from '../src/engine.js';
import { createRunController, loadEngine, type RunAgentInput } from '../src/index.js';
import { expectReplayed, finished, microScheduler, scripted, started, tick, toolCall } from './support/controllerHarness.js';

beforeAll(() => loadEngine());

const refused = { type: 'RUN_ERROR', message: 'The model is overloaded.', code: 'OVERLOADED' };

describe('a request the agent refuses before its run starts (RUN_ERROR first)', () => {
  it('run(): the new request ends as error with the agent’s code; the run before stays a success', async () => {
    const { source, inputs } = scripted((n, input, emit) => {
      if (n === 1) return emit(refused);
      emit(started(input));
      emit(finished(input, { result: { done: true } }));
    });
    const controller = createRunController({ source, scheduler: microScheduler });
    await controller.run('Refund order A-1001');
    const first = inputs[0] as RunAgentInput;
    expect(await controller.run('And order A-1002')).toMatchObject({ ok: true, status: 'error' });
    const second = inputs[1] as RunAgentInput;
    const thread = controller.getSnapshot().thread;
    expect(thread.run).toMatchObject({
      runId: second.runId,
      status: 'error',
      error: { code: 'OVERLOADED', message: 'The model is overloaded.' },
    });
    expect(thread.runs[first.runId]).toMatchObject({ status: 'success', result: { done: true } });
    expect(thread.runs[second.runId]).toMatchObject({ status: 'error' });
    expectReplayed(controller);
    expect(replaySession(controller.log.entries).runs).toEqual(thread.runs);
    // A controller made from the saved log (a remount) shows the same.
    const remounted = createRunController({ source, log: controller.log.entries });
    expect(remounted.getSnapshot().thread.run).toEqual(thread.run);
    expect(remounted.getSnapshot().thread.runs).toEqual(thread.runs);
  });

  it('run(): a call the run before left for the client is not failed by the request refused after it', async () => {
    const { source, inputs } = scripted((n, input, emit) => {
      if (n === 1) return emit(refused);
      emit(started(input));
      if (n === 0) for (const e of toolCall('c1', 'lookup')) emit(e);
      emit(finished(input, n === 0 ? { outcome: { type: 'success', pendingToolCallIds: ['c1'] } } : {}));
    });
    const controller = createRunController({ source, scheduler: microScheduler });
    await controller.run('Refund order A-1001');
    const before = controller.getSnapshot().thread.toolCalls.get('c1');
    await controller.run('And order A-1002');
    const thread = controller.getSnapshot().thread;
    expect(thread.toolCalls.get('c1')).toEqual(before);
    expect(thread.runs[(inputs[0] as RunAgentInput).runId]?.status).toBe('success');
    expect(thread.run).toMatchObject({ runId: (inputs[1] as RunAgentInput).runId, status: 'error' });
    expectReplayed(controller);
  });

  it('resume(): its answers are given back, the interrupted run stays interrupted, and the resume’s run is the error', async () => {
    const { source, inputs } = scripted((n, input, emit) => {
      if (n === 1) return emit({ type: 'RUN_ERROR', message: 'The answer is not one this question takes.', code: 'RESUME_INVALID' });
      emit(started(input));
      emit(finished(input, { outcome: { type: 'interrupt', interrupts: [{ id: 'i1', reason: 'confirmation' }] } }));
    });
    const controller = createRunController({ source, scheduler: microScheduler });
    await controller.run('Refund order A-1001');
    expect(await controller.resume([{ interruptId: 'i1', status: 'resolved', payload: { approved: true } }])).toMatchObject({
      ok: true,
      status: 'error',
    });
    await tick();
    const thread = controller.getSnapshot().thread;
    const [first, second] = inputs as [RunAgentInput, RunAgentInput];
    expect(thread.interrupts.map((it) => it.id)).toEqual(['i1']);
    expect(thread.runs[first.runId]?.status).toBe('interrupted');
    expect(thread.run).toMatchObject({ runId: second.runId, status: 'error', error: { code: 'RESUME_INVALID' } });
    expectReplayed(controller);
  });

  it('a RUN_ERROR the thread refuses (no message) opens no run: a run the agent then starts under its own id is the only new one', async () => {
    const { source, inputs } = scripted((n, input, emit) => {
      if (n === 1) {
        emit({ type: 'RUN_ERROR', code: 'OVERLOADED' });
        emit({ type: 'RUN_STARTED', threadId: input.threadId, runId: 'agent-run-7' });
        emit({ type: 'RUN_FINISHED', threadId: input.threadId, runId: 'agent-run-7' });
        return;
      }
      emit(started(input));
      emit(finished(input));
    });
    const controller = createRunController({ source, scheduler: microScheduler });
    await controller.run('Refund order A-1001');
    expect(await controller.run('And order A-1002')).toMatchObject({ ok: true, status: 'success' });
    const thread = controller.getSnapshot().thread;
    expect(Object.keys(thread.runs)).toEqual([(inputs[0] as RunAgentInput).runId, 'agent-run-7']);
    expect(thread.diagnostics.map((d) => d.code)).toEqual(['MISSING_FIELD']);
    expectReplayed(controller);
    expect(replaySession(controller.log.entries).runs).toEqual(thread.runs);
  });

  it('a stream whose only event is a RUN_ERROR the thread refuses started no run: the request fails as INVALID_STREAM, not cut off', async () => {
    const { source, inputs } = scripted((n, input, emit) => {
      if (n === 1) return emit({ type: 'RUN_ERROR', code: 'OVERLOADED' });
      emit(started(input));
      emit(finished(input));
    });
    const controller = createRunController({ source, scheduler: microScheduler });
    await controller.run('Refund order A-1001');
    expect(await controller.run('And order A-1002')).toMatchObject({ ok: true, status: 'error' });
    const { thread, failure } = controller.getSnapshot();
    const [first, second] = inputs as [RunAgentInput, RunAgentInput];
    expect(failure).toMatchObject({ code: 'INVALID_STREAM', retryable: false });
    expect(thread.run).toMatchObject({ runId: second.runId, status: 'error' });
    expect(thread.runs[first.runId]?.status).toBe('success');
    expect(thread.diagnostics.map((d) => d.code)).toEqual(['MISSING_FIELD']);
    expectReplayed(controller);
  });
});
