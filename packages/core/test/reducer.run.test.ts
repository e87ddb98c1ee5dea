import { describe, expect, it } from 'vitest';
import { createThreadState, reduceThread, replayEvents } from '../src/engine.js';
import { cancelRun, recordResume } from '../src/internal.js';
import { codes, run, text, toolCall } from './support/examples.js';

const started = (runId = 'r1', extra: Record<string, unknown> = {}) => ({ type: 'RUN_STARTED', threadId: 't1', runId, ...extra });
const finished = (runId = 'r1', extra: Record<string, unknown> = {}) => ({ type: 'RUN_FINISHED', threadId: 't1', runId, ...extra });
const refundInterrupt = {
  id: 'i1',
  reason: 'tool_call',
  toolCallId: 'c',
  message: 'Approve?',
  responseSchema: { type: 'object' },
  expiresAt: '2030-01-01T00:00:00Z',
};

describe('reduceThread: run lifecycle', () => {
  it('starts idle, runs, and succeeds on a plain RUN_FINISHED', () => {
    let s = createThreadState();
    expect(s.run.status).toBe('idle');
    s = reduceThread(s, started('r1', { parentRunId: 'r0', protocolVersion: '1.0', timestamp: 5 }));
    expect(s.threadId).toBe('t1');
    expect(s.run).toEqual({ runId: 'r1', parentRunId: 'r0', protocolVersion: '1.0', status: 'running', steps: [] });
    expect(s.runs.r1).toEqual({ runId: 'r1', parentRunId: 'r0', status: 'running', startedAt: 5 });
    s = reduceThread(s, finished('r1', { result: { ok: 1 }, usage: [{ model: 'm', totalTokens: 3 }], timestamp: 9 }));
    expect(s.run).toMatchObject({ status: 'success', outcome: 'success', result: { ok: 1 }, usage: [{ model: 'm', totalTokens: 3 }] });
    expect(s.runs.r1).toMatchObject({ status: 'success', finishedAt: 9 });
  });

  it.each([
    [{ type: 'success', pendingToolCallIds: ['c'] }, 'success'],
    [{ type: 'cancelled' }, 'cancelled'],
    [{ type: 'interrupt', interrupts: [{ id: 'i', reason: 'confirmation' }] }, 'interrupted'],
  ])('maps outcome %j to %s', (outcome, status) => {
    const s = replayEvents([started(), ...toolCall('c', 'n', ['{}']), finished('r1', { outcome })]);
    expect(s.run.status).toBe(status);
    expect(s.run.outcome).toBe(outcome.type);
  });

  it('keeps the frontend tool calls a run stopped on (success, not an interrupt)', () => {
    const s = replayEvents([
      started(),
      ...toolCall('c', 'pick_color', ['{}']),
      finished('r1', { outcome: { type: 'success', pendingToolCallIds: ['c'] } }),
    ]);
    expect(s.run.pendingToolCallIds).toEqual(['c']);
    expect(s.toolCalls.get('c')?.status).toBe('ready');
    expect(s.interrupts).toEqual([]);
  });

  it('records RUN_ERROR with message and code, even after RUN_FINISHED', () => {
    const s = replayEvents([...run(text('m', 'kept')), { type: 'RUN_ERROR', message: 'late failure', code: 'E42' }]);
    expect(s.run).toMatchObject({ status: 'error', error: { message: 'late failure', code: 'E42' } });
    expect(s.run.outcome).toBeUndefined();
    expect(s.messages.byId.get('m')?.content).toBe('kept');
    expect(codes(s)).toEqual([]);
  });

  it('accepts a stream made only of RUN_ERROR', () => {
    const s = replayEvents([{ type: 'RUN_ERROR', message: 'refused', code: 'AUTH' }]);
    expect(s.run).toMatchObject({ status: 'error', error: { message: 'refused', code: 'AUTH' } });
    expect(codes(s)).toEqual([]);
  });

  it('a new run after RUN_ERROR starts clean', () => {
    const s = replayEvents([started('a'), { type: 'RUN_ERROR', message: 'x' }, ...run(text('m', 'ok'), 'b')]);
    expect(s.run).toEqual({ runId: 'b', status: 'success', outcome: 'success', steps: [] });
    expect(s.runs.a?.status).toBe('error');
  });

  it('accumulates messages across sequential runs and keeps every run', () => {
    const s = replayEvents([...run(text('a', '1'), 'r1'), ...run(text('b', '2'), 'r2', 't1')]);
    expect(s.messages.ids).toEqual(['a', 'b']);
    expect(Object.keys(s.runs)).toEqual(['r1', 'r2']);
    expect(s.messages.byId.get('b')?.runId).toBe('r2');
  });

  it('a truncated stream leaves the run unknown (never success) and nothing streaming', () => {
    const s = replayEvents([
      started(),
      { type: 'TEXT_MESSAGE_START', messageId: 'm' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'half' },
    ]);
    expect(s.run.status).toBe('unknown');
    expect(s.runs.r1?.status).toBe('unknown');
    expect(s.messages.byId.get('m')).toMatchObject({ content: 'half', streaming: false });
    expect(s.diagnostics.at(-1)).toMatchObject({ code: 'STREAM_TRUNCATED', severity: 'error', index: 3 });
  });

  it('a late RUN_FINISHED of a replaced run does not change the newer run', () => {
    let s = reduceThread(reduceThread(createThreadState(), started('old')), started('new'));
    s = reduceThread(s, finished('old', { outcome: { type: 'cancelled' } }));
    expect(s.run).toMatchObject({ runId: 'new', status: 'running' });
    expect(s.runs.old?.status).toBe('cancelled');
  });

  it('a RUN_FINISHED naming another thread than its RUN_STARTED does not end the run: cut there, it is unknown', () => {
    const wrong = finished('r1', { threadId: 'other' });
    const open = reduceThread(reduceThread(createThreadState(), started('r1')), wrong);
    expect(open.run).toMatchObject({ runId: 'r1', status: 'running' });
    expect(open.runs.r1?.status).toBe('running');
    const cut = replayEvents([started('r1'), wrong]);
    expect(cut.run).toMatchObject({ runId: 'r1', status: 'unknown' });
    expect(cut.runs.r1?.status).toBe('unknown');
    expect(codes(cut)).toEqual(['THREAD_MISMATCH', 'STREAM_TRUNCATED']);
    // The run's own close still ends it.
    expect(reduceThread(open, finished('r1')).run.status).toBe('success');
  });

  it('a run whose RUN_STARTED and RUN_FINISHED both name a thread other than the state’s ends as they say, reported', () => {
    const s = replayEvents([started('r1', { threadId: 'x' }), finished('r1', { threadId: 'x' })], createThreadState({ threadId: 'store' }));
    expect(s.threadId).toBe('store');
    expect(s.run).toEqual({ runId: 'r1', status: 'success', outcome: 'success', steps: [] });
    expect(s.runs.r1?.status).toBe('success');
    expect(codes(s)).toEqual(['THREAD_MISMATCH', 'THREAD_MISMATCH']);
    // Its close under the state's thread is the one that names another thread than the run's.
    const other = replayEvents(
      [started('r1', { threadId: 'x' }), finished('r1', { threadId: 'store' })],
      createThreadState({ threadId: 'store' }),
    );
    expect(other.run.status).toBe('unknown');
  });

  it('tracks active steps', () => {
    let s = replayEvents(
      [
        started(),
        { type: 'STEP_STARTED', stepName: 'plan' },
        { type: 'STEP_STARTED', stepName: 'act' },
        { type: 'STEP_FINISHED', stepName: 'plan' },
      ],
      undefined,
      { open: true },
    );
    expect(s.run.steps).toEqual(['act']);
    s = reduceThread(s, finished());
    expect(s.run.steps).toEqual([]);
  });
});

describe('reduceThread: interrupts', () => {
  const interrupted = replayEvents([
    started(),
    ...toolCall('c', 'refund', ['{"amount":42}']),
    finished('r1', { outcome: { type: 'interrupt', interrupts: [refundInterrupt] } }),
  ]);

  it('opens the interrupts of an interrupt outcome and points the call at it', () => {
    expect(interrupted.run.status).toBe('interrupted');
    expect(interrupted.interrupts).toEqual([{ ...refundInterrupt, runId: 'r1' }]);
    expect(interrupted.toolCalls.get('c')).toMatchObject({ status: 'ready', interruptId: 'i1' });
  });

  it('a plain RUN_FINISHED of another run does not clear them', () => {
    const s = replayEvents(run(text('m', 'chit-chat'), 'r2'), interrupted);
    expect(s.interrupts.map((i) => i.id)).toEqual(['i1']);
    expect(codes(s)).toEqual([]);
  });

  it('a resume that covers them closes them and records the answers', () => {
    const resume = [{ interruptId: 'i1', status: 'resolved', payload: { approved: true } }];
    const s = replayEvents(
      [
        started('r2', { input: { threadId: 't1', runId: 'r2', messages: [], tools: [], context: [], resume } }),
        { type: 'TOOL_CALL_RESULT', messageId: 't', toolCallId: 'c', content: 'refunded' },
        finished('r2'),
      ],
      interrupted,
    );
    expect(s.interrupts).toEqual([]);
    expect(s.answers).toEqual([{ interruptId: 'i1', status: 'resolved', payload: { approved: true }, runId: 'r2' }]);
    expect(s.toolCalls.get('c')).toMatchObject({ status: 'succeeded' });
    expect(s.toolCalls.get('c')?.interruptId).toBeUndefined();
    expect(codes(s)).toEqual([]);
  });

  it('recordResume lets a client close what it answered before the agent replies', () => {
    const s = recordResume(interrupted, [{ interruptId: 'i1', status: 'cancelled' }], 'r2');
    expect(s.interrupts).toEqual([]);
    expect(s.answers).toEqual([{ interruptId: 'i1', status: 'cancelled', runId: 'r2' }]);
    expect(recordResume(s, [{ interruptId: 'i1', status: 'cancelled' }], 'r3')).toBe(s);
  });

  it('keeps an interrupt without id under a generated id, so it can still be answered', () => {
    const s = replayEvents([
      started(),
      finished('r1', { outcome: { type: 'interrupt', interrupts: [{ reason: 'confirmation', message: 'Sure?' }] } }),
    ]);
    expect(s.interrupts).toMatchObject([{ id: 'r1-interrupt-0', reason: 'confirmation', message: 'Sure?' }]);
    expect(codes(s)).toEqual(['INTERRUPT_WITHOUT_ID']);
  });

  it('keeps several interrupts in arrival order, with unknown reasons and their metadata', () => {
    const s = replayEvents([
      started(),
      finished('r1', {
        outcome: {
          type: 'interrupt',
          interrupts: [
            { id: 'a', reason: 'input_required', responseSchema: { type: 'string', enum: ['x', 'y'] } },
            { id: 'b', reason: 'risk:manual_review', metadata: { queue: 'fraud' } },
          ],
        },
      }),
    ]);
    expect(s.interrupts.map((i) => [i.id, i.reason])).toEqual([
      ['a', 'input_required'],
      ['b', 'risk:manual_review'],
    ]);
    expect(s.interrupts[1]?.metadata).toEqual({ queue: 'fraud' });
  });
});

describe('reduceThread: replaced runs', () => {
  it('a run replaced by a new RUN_STARTED before its terminal is unknown, not running forever', () => {
    const s = replayEvents([started('a'), started('b'), finished('b')]);
    expect(s.runs.a?.status).toBe('unknown');
    expect(s.runs.b?.status).toBe('success');
    expect(codes(s)).toEqual(['NESTED_RUN_STARTED']);
  });

  it('a run that ended, started again inside the open one (its history sent again), is reported there, not at every event of the open run after it', () => {
    const s = replayEvents([
      ...run([], 'a', 't1'),
      started('b'),
      // Run a again, inside b: the thread keeps it as it ended, and b goes on.
      started('a'),
      ...text('ma', 'from run a'),
      finished('a'),
      ...text('mb', 'from run b'),
      finished('b'),
    ]);
    expect(s.run).toMatchObject({ runId: 'b', status: 'success' });
    expect(s.runs.a?.status).toBe('success');
    expect(codes(s)).toEqual(['NESTED_RUN_STARTED', 'DUPLICATE_RUN_ID', 'RUN_ID_MISMATCH']);
  });
});

describe('reduceThread: RUN_STARTED.input restates the run’s input', () => {
  const input = (runId: string, extra: Record<string, unknown>) => ({
    threadId: 't1',
    runId,
    messages: [],
    tools: [],
    context: [],
    ...extra,
  });
  const tools = [{ name: 'lookup', description: 'Finds an order', parameters: { type: 'object' } }];
  const context = [{ description: 'customer', value: 'ann' }];

  it('keeps tools, context and forwardedProps on the run', () => {
    const s = replayEvents(
      run([], 'r1').map((e) =>
        e.type === 'RUN_STARTED' ? { ...e, input: input('r1', { tools, context, forwardedProps: { beta: true } }) } : e,
      ),
    );
    expect(s.run).toMatchObject({ tools, context, forwardedProps: { beta: true } });
  });

  it('its state becomes the document while no snapshot has come', () => {
    const s = replayEvents([started('r1', { input: input('r1', { state: { cart: ['a'] } }) }), finished('r1')]);
    expect(s.sharedState).toMatchObject({ document: { cart: ['a'] }, sync: 'in-sync', basis: 'input' });
    expect(codes(s)).toEqual([]);
  });

  it('says so when it replaces a document the thread had changed', () => {
    let s = createThreadState({ state: { cart: [] } });
    s = reduceThread(s, { type: 'STATE_DELTA', delta: [{ op: 'add', path: '/cart/-', value: 'x' }] });
    s = replayEvents([started('r1', { input: input('r1', { state: { cart: ['a'] } }) }), finished('r1')], s);
    expect(s.sharedState.document).toEqual({ cart: ['a'] });
    expect(codes(s)).toEqual(['INPUT_STATE_CONFLICT']);
  });

  it('after a snapshot, the snapshot wins and a conflicting input state is reported', () => {
    const first = replayEvents(run([{ type: 'STATE_SNAPSHOT', snapshot: { n: 1 } }], 'r1'));
    const same = replayEvents([started('r2', { input: input('r2', { state: { n: 1 } }) }), finished('r2')], first);
    expect(codes(same)).toEqual([]);
    const other = replayEvents([started('r2', { input: input('r2', { state: { n: 2 } }) }), finished('r2')], first);
    expect(other.sharedState).toMatchObject({ document: { n: 1 }, basis: 'snapshot' });
    expect(codes(other)).toEqual(['INPUT_STATE_CONFLICT']);
    expect(other.diagnostics[0]?.severity).toBe('warning');
  });

  it('compares documents by value, whatever their key order', () => {
    const first = replayEvents(run([{ type: 'STATE_SNAPSHOT', snapshot: { a: 1, b: [{ x: 1, y: 2 }] } }], 'r1'));
    const s = replayEvents([started('r2', { input: input('r2', { state: { b: [{ y: 2, x: 1 }], a: 1 } }) }), finished('r2')], first);
    expect(codes(s)).toEqual([]);
  });
});

describe('reduceThread: an answered approval settles its call', () => {
  const interrupted = replayEvents([
    started(),
    ...toolCall('c', 'refund', ['{"amount":42}']),
    finished('r1', { outcome: { type: 'interrupt', interrupts: [refundInterrupt] } }),
  ]);
  const resumeWith = (entry: Record<string, unknown>) =>
    replayEvents(
      [started('r2', { input: { threadId: 't1', runId: 'r2', messages: [], tools: [], context: [], resume: [entry] } })],
      interrupted,
      {
        open: true,
      },
    );

  it('a rejection (a resolved answer with approved: false) denies the call', () => {
    const s = resumeWith({ interruptId: 'i1', status: 'resolved', payload: { approved: false, comment: 'Too much' } });
    expect(s.toolCalls.get('c')).toMatchObject({
      status: 'denied',
      answer: { interruptId: 'i1', status: 'resolved', payload: { approved: false, comment: 'Too much' }, runId: 'r2' },
    });
    expect(s.toolCalls.get('c')?.interruptId).toBeUndefined();
  });

  it('a cancellation (which is also all an expired approval can get) cancels the call', () => {
    expect(resumeWith({ interruptId: 'i1', status: 'cancelled' }).toolCalls.get('c')?.status).toBe('cancelled');
    const s = recordResume(interrupted, [{ interruptId: 'i1', status: 'cancelled' }], 'r2');
    expect(s.toolCalls.get('c')).toMatchObject({ status: 'cancelled', answer: { status: 'cancelled' } });
  });

  it('an approval, or any other answer, leaves the call ready for its result', () => {
    expect(resumeWith({ interruptId: 'i1', status: 'resolved', payload: { approved: true } }).toolCalls.get('c')?.status).toBe('ready');
    expect(resumeWith({ interruptId: 'i1', status: 'resolved', payload: 'blue' }).toolCalls.get('c')?.status).toBe('ready');
  });

  it('a later TOOL_CALL_RESULT still settles the call', () => {
    const denied = resumeWith({ interruptId: 'i1', status: 'resolved', payload: { approved: false } });
    const s = reduceThread(denied, { type: 'TOOL_CALL_RESULT', messageId: 't', toolCallId: 'c', content: 'not refunded' });
    expect(s.toolCalls.get('c')).toMatchObject({ status: 'succeeded', result: { content: 'not refunded' } });
  });
});

describe('a terminal event for a run that has already ended', () => {
  it('a second RUN_FINISHED (a duplicate a reconnect replayed, say) is reported and changes nothing: the run stays interrupted, its interrupts open', () => {
    const interrupt = { type: 'interrupt', interrupts: [{ id: 'i1', reason: 'confirmation' }] };
    const now = () => 1_796_205_544_785;
    const once = replayEvents([started(), finished('r1', { outcome: interrupt })], undefined, { now });
    for (const late of [finished(), finished('r1', { outcome: interrupt }), finished('r1', { outcome: { type: 'cancelled' } })]) {
      const twice = replayEvents([started(), finished('r1', { outcome: interrupt }), late], undefined, { now });
      expect(codes(twice)).toEqual(['EVENT_AFTER_RUN_END']);
      expect(twice.run).toEqual(once.run);
      expect(twice.runs).toEqual(once.runs);
      expect(twice.interrupts).toEqual(once.interrupts);
    }
  });
});

describe('a stop while a reply streams', () => {
  it('marks the reply it cut short as stopped, and no message that had ended', () => {
    const events = [
      { type: 'RUN_STARTED', threadId: 't1', runId: 'r1' },
      ...text('a1', 'The order shipped.'),
      { type: 'TEXT_MESSAGE_START', messageId: 'a2', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a2', delta: 'I will refund' },
    ];
    // Reduced one by one: `replayEvents` ends a stream left open as cut off.
    const stopped = cancelRun(
      events.reduce((state, event) => reduceThread(state, event as Parameters<typeof reduceThread>[1]), createThreadState()),
      1_000,
    );
    expect(stopped.messages.byId.get('a2')).toMatchObject({ streaming: false, stopped: true, endedAt: 1_000 });
    expect(stopped.messages.byId.get('a1')?.stopped).toBeUndefined();
  });

  it('drops the mark when a later run reopens the message and ends it', () => {
    const reduce = (state: ReturnType<typeof createThreadState>, events: Record<string, unknown>[]) =>
      events.reduce((s, event) => reduceThread(s, event as Parameters<typeof reduceThread>[1]), state);
    const cut = cancelRun(
      reduce(createThreadState(), [
        { type: 'RUN_STARTED', threadId: 't1', runId: 'r1' },
        { type: 'TEXT_MESSAGE_START', messageId: 'a2', role: 'assistant' },
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a2', delta: 'I will ' },
      ]),
      1_000,
    );
    const finished = reduce(cut, run([...text('a2', 'refund.')], 'r2'));
    expect(finished.messages.byId.get('a2')).toMatchObject({ content: 'I will refund.', streaming: false });
    expect(finished.messages.byId.get('a2')?.stopped).toBeUndefined();
  });
});

describe('the end of an earlier run, arriving after a newer run ended', () => {
  const interrupt = { type: 'interrupt', interrupts: [{ id: 'i1', reason: 'confirmation' }] };

  it('an earlier run that ended with RUN_ERROR: its RUN_FINISHED changes nothing', () => {
    const s = replayEvents([
      started('r1'),
      { type: 'RUN_ERROR', message: 'boom' },
      started('r2'),
      finished('r2'),
      finished('r1', { outcome: interrupt }),
    ]);
    expect(s.run).toMatchObject({ runId: 'r2', status: 'success' });
    expect(s.runs.r1?.status).toBe('error');
    expect(s.interrupts).toEqual([]);
  });

  it('an earlier run left unknown (a newer RUN_STARTED replaced it): its end settles it, and the newer run stays as it ended', () => {
    const s = replayEvents([started('r1'), started('r2'), finished('r2'), finished('r1', { outcome: interrupt })]);
    expect(s.runs.r1?.status).toBe('interrupted');
    expect(s.run).toMatchObject({ runId: 'r2', status: 'success' });
    expect(s.interrupts).toEqual([]);
  });

  it('a run never started: its RUN_FINISHED does not change the run that ended', () => {
    const s = replayEvents([started('r1'), finished('r1'), finished('ghost', { outcome: interrupt })]);
    expect(s.run).toMatchObject({ runId: 'r1', status: 'success' });
    expect(s.interrupts).toEqual([]);
  });
});
