/**
 * A stream that opens with RUN_ERROR, before its own RUN_STARTED: the agent
 * refused the request before its run began. The request ends as `error` with
 * the agent's code and message, as one that failed before any event does, and
 * the run that ended before it stays as it ended, live and replayed.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { replaySession } from '../src/engine.js';
import { AgentTransportError, createRecording, createRunController, loadEngine, type RunAgentInput } from '../src/index.js';
import { expectReplayed, finished, microScheduler, open, scripted, started, tick, toolCall } from './support/controllerHarness.js';

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

  it('run(): a RUN_ERROR after other events but before any RUN_STARTED ends the request’s own run, not the run before', async () => {
    const { source, inputs } = scripted((n, input, emit) => {
      if (n === 1) {
        emit({ type: 'CUSTOM', name: 'queue', value: { position: 3 } });
        emit({ type: 'RAW', event: { kind: 'heartbeat' } });
        return emit(refused);
      }
      emit(started(input));
      emit(finished(input, { result: { done: true } }));
    });
    const controller = createRunController({ source, scheduler: microScheduler });
    await controller.run('Refund order A-1001');
    expect(await controller.run('And order A-1002')).toMatchObject({ ok: true, status: 'error' });
    const [first, second] = inputs as [RunAgentInput, RunAgentInput];
    const thread = controller.getSnapshot().thread;
    expect(thread.runs[first.runId]).toMatchObject({ status: 'success', result: { done: true } });
    expect(thread.run).toMatchObject({ runId: second.runId, status: 'error', error: { code: 'OVERLOADED' } });
    expect(thread.runs[second.runId]).toMatchObject({ status: 'error' });
    expectReplayed(controller);
    expect(replaySession(controller.log.entries).runs).toEqual(thread.runs);
    const recording = createRecording(controller.log.entries);
    await recording.prepare();
    expect(recording.stateAt(controller.log.entries.length - 1).runs).toEqual(thread.runs);
  });

  it('a RUN_ERROR after the run the stream started has ended opens no run under the request’s id', async () => {
    const { source } = scripted((_n, input, emit) => {
      emit({ type: 'RUN_STARTED', threadId: input.threadId, runId: 'agent-run-7' });
      emit({ type: 'RUN_FINISHED', threadId: input.threadId, runId: 'agent-run-7' });
      emit(refused);
    });
    const controller = createRunController({ source, scheduler: microScheduler });
    await controller.run('Refund order A-1001');
    const thread = controller.getSnapshot().thread;
    expect(Object.keys(thread.runs)).toEqual(['agent-run-7']);
    expectReplayed(controller);
  });

  it('resume(): a RUN_ERROR after other events but before any RUN_STARTED gives its answers back', async () => {
    const { source, inputs } = scripted((n, input, emit) => {
      if (n === 1) {
        emit({ type: 'CUSTOM', name: 'queue', value: { position: 3 } });
        return emit({ type: 'RUN_ERROR', message: 'The answer is not one this question takes.', code: 'RESUME_INVALID' });
      }
      emit(started(input));
      emit(finished(input, { outcome: { type: 'interrupt', interrupts: [{ id: 'i1', reason: 'confirmation' }] } }));
    });
    const controller = createRunController({ source, scheduler: microScheduler });
    await controller.run('Refund order A-1001');
    await controller.resume([{ interruptId: 'i1', status: 'resolved', payload: { approved: true } }]);
    await tick();
    const thread = controller.getSnapshot().thread;
    const [first, second] = inputs as [RunAgentInput, RunAgentInput];
    expect(thread.interrupts.map((it) => it.id)).toEqual(['i1']);
    expect(thread.runs[first.runId]?.status).toBe('interrupted');
    expect(thread.run).toMatchObject({ runId: second.runId, status: 'error', error: { code: 'RESUME_INVALID' } });
    expectReplayed(controller);
  });

  it('resume(): stopped after an event but before its RUN_STARTED, it stays answered: the agent answered it', async () => {
    const { source } = scripted(async (n, input, emit, signal) => {
      if (n === 1) {
        emit({ type: 'CUSTOM', name: 'queue', value: { position: 3 } });
        return open(signal);
      }
      emit(started(input));
      emit(finished(input, { outcome: { type: 'interrupt', interrupts: [{ id: 'i1', reason: 'confirmation' }] } }));
    });
    const controller = createRunController({ source, scheduler: microScheduler });
    await controller.run('Refund order A-1001');
    const resumed = controller.resume([{ interruptId: 'i1', status: 'resolved', payload: { approved: true } }]);
    while (controller.getSnapshot().eventCount < 3) await tick();
    controller.stop();
    await resumed;
    expect(controller.getSnapshot().thread.interrupts).toEqual([]);
    expectReplayed(controller);
    expect(createRunController({ source, log: controller.log.entries }).getSnapshot().thread.interrupts).toEqual([]);
  });
});

describe('a request whose stream breaks after events but before its RUN_STARTED', () => {
  it('leaves its own run unknown with CONNECTION_LOST; the run before keeps its success and no error', async () => {
    const { source, inputs } = scripted((n, input, emit) => {
      if (n === 1) {
        emit({ type: 'CUSTOM', name: 'queue', value: { position: 3 } });
        throw new TypeError('network error');
      }
      emit(started(input));
      emit(finished(input, { result: { done: true } }));
    });
    const controller = createRunController({ source, scheduler: microScheduler });
    await controller.run('Refund order A-1001');
    const before = controller.getSnapshot().thread.run;
    expect(await controller.run('And order A-1002')).toMatchObject({ ok: true, status: 'unknown' });
    const [first, second] = inputs as [RunAgentInput, RunAgentInput];
    const { thread, failure } = controller.getSnapshot();
    expect(failure).toMatchObject({ code: 'CONNECTION_LOST', eventsReceived: 1 });
    expect(thread.run).toMatchObject({ runId: second.runId, status: 'unknown', error: { code: 'CONNECTION_LOST' } });
    expect(thread.runs[first.runId]).toMatchObject({ status: 'success', result: { done: true } });
    expect(thread.runs[second.runId]).toMatchObject({ status: 'unknown' });
    expect(before.error).toBeUndefined();
    expectReplayed(controller);
    expect(replaySession(controller.log.entries).runs).toEqual(thread.runs);
    // What the client does next starts from the failed request, not from the stream before it failed.
    await controller.setState({ note: 'after' });
    expect(controller.getSnapshot().thread.run).toEqual(thread.run);
    expectReplayed(controller);
  });
});

describe('a RUN_STARTED the thread refuses (no runId) begins no run', () => {
  it('a break after it leaves the request’s own run unknown; the run before keeps its success and no error', async () => {
    const { source, inputs } = scripted((n, input, emit) => {
      if (n === 1) {
        emit({ type: 'RUN_STARTED', threadId: input.threadId });
        throw new TypeError('network error');
      }
      emit(started(input));
      emit(finished(input));
    });
    const controller = createRunController({ source, scheduler: microScheduler });
    await controller.run('Refund order A-1001');
    expect(await controller.run('And order A-1002')).toMatchObject({ ok: true, status: 'unknown' });
    const [first, second] = inputs as [RunAgentInput, RunAgentInput];
    const thread = controller.getSnapshot().thread;
    expect(thread.diagnostics.map((d) => d.code)).toEqual(['MISSING_FIELD']);
    expect(thread.run).toMatchObject({ runId: second.runId, status: 'unknown', error: { code: 'CONNECTION_LOST' } });
    expect(thread.runs[first.runId]).toEqual(expect.objectContaining({ status: 'success' }));
    expectReplayed(controller);
  });

  it('a resume whose stream ends after it gives its answers back, as one whose events started no run', async () => {
    const { source } = scripted((n, input, emit) => {
      if (n === 1) return emit({ type: 'RUN_STARTED', threadId: input.threadId });
      emit(started(input));
      emit(finished(input, { outcome: { type: 'interrupt', interrupts: [{ id: 'i1', reason: 'confirmation' }] } }));
    });
    const controller = createRunController({ source, scheduler: microScheduler });
    await controller.run('Refund order A-1001');
    await controller.resume([{ interruptId: 'i1', status: 'resolved', payload: { approved: true } }]);
    await tick();
    expect(controller.getSnapshot().failure).toMatchObject({ code: 'INVALID_STREAM', eventsReceived: 0 });
    expect(controller.getSnapshot().thread.interrupts.map((it) => it.id)).toEqual(['i1']);
    expectReplayed(controller);
  });
});

describe('a retried request whose stream breaks after events but before its RUN_STARTED', () => {
  const script = (after: (emit: Parameters<Parameters<typeof scripted>[0]>[2]) => void) =>
    scripted((n, input, emit) => {
      if (n === 1) throw new AgentTransportError('HTTP_STATUS', 'The agent answered HTTP 503.', 503, 'busy');
      if (n === 2) {
        emit({ type: 'CUSTOM', name: 'queue', value: { position: 3 } });
        after(emit);
        throw new TypeError('network error');
      }
      emit(started(input));
      emit(finished(input, { result: { done: true } }));
    });

  it('leaves its run unknown, not the error the request it sends again failed with: the agent may be running it', async () => {
    const { source, inputs } = script(() => undefined);
    const controller = createRunController({ source, scheduler: microScheduler });
    await controller.run('Refund order A-1001');
    expect(await controller.run('And order A-1002')).toMatchObject({ ok: true, status: 'error' });
    expect(controller.getSnapshot().failure).toMatchObject({ code: 'HTTP_STATUS', retryable: true });
    expect(await controller.retry()).toMatchObject({ ok: true, status: 'unknown' });
    const [first, second, again] = inputs as [RunAgentInput, RunAgentInput, RunAgentInput];
    expect(again.runId).toBe(second.runId);
    const { thread, failure } = controller.getSnapshot();
    expect(failure).toMatchObject({ code: 'CONNECTION_LOST', eventsReceived: 1 });
    expect(thread.run).toMatchObject({ runId: second.runId, status: 'unknown', error: { code: 'CONNECTION_LOST' } });
    expect(thread.runs[second.runId]).toMatchObject({ status: 'unknown' });
    expect(thread.runs[first.runId]).toMatchObject({ status: 'success' });
    expectReplayed(controller);
    expect(replaySession(controller.log.entries).runs).toEqual(thread.runs);
    expect(controller.stateAt(controller.log.entries.length - 1).run).toEqual(thread.run);
    expect(createRunController({ source, log: controller.log.entries }).getSnapshot().thread.runs).toEqual(thread.runs);
  });

  it('a RUN_ERROR it took before the break ends the run as the agent said: the break leaves it an error', async () => {
    const { source, inputs } = script((emit) => emit(refused));
    const controller = createRunController({ source, scheduler: microScheduler });
    await controller.run('Refund order A-1001');
    await controller.run('And order A-1002');
    expect(await controller.retry()).toMatchObject({ ok: true, status: 'error' });
    const second = inputs[1] as RunAgentInput;
    const thread = controller.getSnapshot().thread;
    expect(thread.run).toMatchObject({ runId: second.runId, status: 'error' });
    expect(thread.runs[second.runId]).toMatchObject({ status: 'error' });
    expectReplayed(controller);
  });

  it('a new request: a RUN_ERROR it took before the break ends its run as an error, not unknown', async () => {
    const { source, inputs } = scripted((n, input, emit) => {
      if (n === 1) {
        emit({ type: 'CUSTOM', name: 'queue', value: { position: 3 } });
        emit(refused);
        throw new TypeError('network error');
      }
      emit(started(input));
      emit(finished(input));
    });
    const controller = createRunController({ source, scheduler: microScheduler });
    await controller.run('Refund order A-1001');
    expect(await controller.run('And order A-1002')).toMatchObject({ ok: true, status: 'error' });
    const second = inputs[1] as RunAgentInput;
    const thread = controller.getSnapshot().thread;
    expect(thread.run).toMatchObject({ runId: second.runId, status: 'error' });
    expect(thread.runs[second.runId]).toMatchObject({ status: 'error' });
    expectReplayed(controller);
  });
});

describe('a resume whose stream ends after events that started no run', () => {
  it('gives its answers back: the agent started nothing with them, and there is nothing to retry', async () => {
    const { source, inputs } = scripted((n, input, emit) => {
      if (n === 1) return emit({ type: 'CUSTOM', name: 'queue', value: { position: 3 } });
      emit(started(input));
      emit(finished(input, { outcome: { type: 'interrupt', interrupts: [{ id: 'i1', reason: 'confirmation' }] } }));
    });
    const controller = createRunController({ source, scheduler: microScheduler });
    await controller.run('Refund order A-1001');
    await controller.resume([{ interruptId: 'i1', status: 'resolved', payload: { approved: true } }]);
    await tick();
    const { thread, failure } = controller.getSnapshot();
    expect(failure).toMatchObject({ code: 'INVALID_STREAM', eventsReceived: 0, retryable: false });
    expect(thread.interrupts.map((it) => it.id)).toEqual(['i1']);
    expect(thread.runs[(inputs[0] as RunAgentInput).runId]?.status).toBe('interrupted');
    expect(thread.run).toMatchObject({ runId: (inputs[1] as RunAgentInput).runId, status: 'error' });
    expectReplayed(controller);
    expect(createRunController({ source, log: controller.log.entries }).getSnapshot().thread.interrupts).toEqual(thread.interrupts);
    // Answered again, the question goes to the agent again.
    expect(await controller.resume([{ interruptId: 'i1', status: 'resolved', payload: { approved: true } }])).toMatchObject({ ok: true });
    expect(inputs).toHaveLength(3);
  });
});
