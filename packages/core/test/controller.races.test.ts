/**
 * The controller's actions racing each other and the stream: a stop, a reset
 * or a second action arriving while a run waits for its frontend tools, for
 * the resume builder, for the next frame, or while the stream is cut off.
 * Each case ends with the live thread equal to the replayed log.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createRunController, type FrameScheduler, loadEngine, type RunAgentInput, type RunController } from '../src/index.js';
import {
  expectReplayed,
  finished,
  held,
  heldPick,
  microScheduler,
  open,
  picksOnce,
  scripted,
  started,
  tick,
  toolCall,
  view,
} from './support/controllerHarness.js';

beforeAll(() => loadEngine());

describe('a stream cut off and resumed', () => {
  it("reconnect() keeps what the client did while the stream was down (a shared-state edit); the run's frontend tool runs once the run finishes", async () => {
    const { source, inputs } = scripted((n, input, emit) => {
      if (n === 0) {
        emit(started(input), '1');
        for (const [i, e] of toolCall('c1', 'lookup').entries()) emit(e, String(i + 2));
        return; // dropped inside the run
      }
      emit(finished(input), '5');
    });
    const controller = createRunController<{ n: number }>({
      source,
      initialState: { n: 0 },
      scheduler: microScheduler,
      tools: { lookup: { description: 'looks an order up', handler: async () => 'order A-1001: shipped' } },
    });
    await controller.run('Where is order A-1001?');
    await tick();
    expect(controller.getSnapshot().failure?.code).toBe('CONNECTION_LOST');
    await controller.updateSharedState((draft) => {
      draft.n = 42;
    });
    // The run is not over: its tool waits for the run's end, which the reconnect delivers.
    expect(controller.getSnapshot().thread.toolCalls.get('c1')?.status).toBe('ready');

    await controller.reconnect();
    await tick();
    const thread = controller.getSnapshot().thread;
    expect(thread.sharedState.document).toEqual({ n: 42 });
    expect(thread.toolCalls.get('c1')?.status).toBe('succeeded');
    expect(thread.toolCalls.get('c1')?.result?.content).toBe('order A-1001: shipped');
    // The run the reconnect finished had a frontend tool's result to hand back: the conversation goes on with it.
    expect(inputs).toHaveLength(3);
    expect(inputs[2]?.messages.some((m) => m.role === 'tool' && m.toolCallId === 'c1')).toBe(true);
    expectReplayed(controller);
  });
});

describe('a reconnect the agent has nothing more for', () => {
  it('leaves the run cut off as it was (not an error, no reply writing again), and Reconnect stays possible', async () => {
    const { source, inputs } = scripted((n, input, emit) => {
      if (n > 0) return; // the agent has nothing after the last id
      emit(started(input), '1');
      emit({ type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' }, '2');
      emit({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'Your refund of 42 USD ' }, '3');
    });
    const controller = createRunController({ source, scheduler: microScheduler });
    await controller.run('Refund order A-1001');
    await tick();
    expect(controller.getSnapshot().thread.run.status).toBe('unknown');

    const again = await controller.reconnect();
    await tick();
    expect(inputs).toHaveLength(2);
    expect(again).toMatchObject({ ok: true, status: 'unknown' });
    const snap = controller.getSnapshot();
    expect(snap.thread.run.status).toBe('unknown');
    expect(snap.thread.messages.byId.get('m1')).toMatchObject({ streaming: false, content: 'Your refund of 42 USD ' });
    expect(snap.failure?.code).toBe('CONNECTION_LOST');
    expect(snap.failure?.eventsReceived).toBeGreaterThan(0);
    await expect(controller.reconnect()).resolves.toMatchObject({ ok: true });
    expect(inputs).toHaveLength(3);
    expectReplayed(controller);
  });
});

describe('stop() while a frontend tool runs', () => {
  it('a tool whose run is still streaming has not started: stop() settles its call and it never runs', async () => {
    const { controller } = heldPick((_n, input, emit, signal) => {
      emit(started(input));
      for (const e of toolCall('c1', 'pick')) emit(e);
      return open(signal);
    });
    const run = controller.run('Pick a refund method');
    await tick();
    expect(controller.getSnapshot().thread.toolCalls.get('c1')?.status).toBe('ready');
    controller.stop();
    await run;
    await tick();
    expect(controller.log.entries.some((e) => e.type === 'tool_started')).toBe(false);
    const call = controller.getSnapshot().thread.toolCalls.get('c1');
    expect(call?.status).toBe('failed');
    expect(call?.failure).toBe('the run was stopped');
    expect(controller.getSnapshot().thread.run.status).toBe('cancelled');
    expectReplayed(controller);
  });

  it('the call is not left executing, and its late result is dropped', async () => {
    const release = held();
    let signal: AbortSignal | undefined;
    const { source } = scripted((_n, input, emit) => {
      emit(started(input));
      for (const e of toolCall('c1', 'pick')) emit(e);
      emit(finished(input));
    });
    const controller = createRunController({
      source,
      scheduler: microScheduler,
      tools: {
        pick: {
          description: 'asks the user to pick',
          handler: (_args, _call, context) => {
            signal = context.signal;
            return release.promise;
          },
        },
      },
    });
    const run = controller.run('Pick a refund method');
    await tick();
    expect(controller.getSnapshot().thread.toolCalls.get('c1')?.status).toBe('executing');
    controller.stop();
    release.settle('card');
    await run;
    await tick();
    const call = controller.getSnapshot().thread.toolCalls.get('c1');
    expect(signal?.aborted).toBe(true);
    expect(call?.status).toBe('failed');
    expect(call?.failure).toBe('the run was stopped');
    expect(controller.getSnapshot().thread.run.status).toBe('success');
    expectReplayed(controller);
  });

  it('after RUN_FINISHED too: the stop is logged and the call settled', async () => {
    const { controller, release, inputs } = heldPick((_n, input, emit) => {
      emit(started(input));
      for (const e of toolCall('c1', 'pick')) emit(e);
      emit(finished(input));
    });
    const run = controller.run('Pick a refund method');
    await tick();
    controller.stop();
    release.settle('card');
    await run;
    await tick();
    expect(controller.getSnapshot().thread.toolCalls.get('c1')?.status).toBe('failed');
    expect(controller.log.entries.some((e) => e.type === 'stop')).toBe(true);
    expect(inputs).toHaveLength(1);
    expectReplayed(controller);
  });
});

describe('the run after a stop that failed a tool call', () => {
  it('answers the call with why it failed: a model API refuses a tool call nobody answered', async () => {
    const { controller, release, inputs } = heldPick((n, input, emit) => {
      emit(started(input));
      if (n === 0) {
        emit({ type: 'TEXT_MESSAGE_START', messageId: 'a-c1', role: 'assistant' });
        emit({ type: 'TEXT_MESSAGE_END', messageId: 'a-c1' });
        for (const e of toolCall('c1', 'pick')) emit(e);
      }
      emit(finished(input));
    });
    const first = controller.run('Pick a refund method');
    await tick();
    controller.stop();
    release.settle('card');
    await first;
    await controller.run('Never mind, refund to the card');
    await tick();
    const sent = inputs[1]?.messages ?? [];
    const call = sent.findIndex((m) => m.role === 'assistant' && m.toolCalls?.some((c) => c.id === 'c1'));
    expect(call).toBeGreaterThanOrEqual(0);
    expect(sent[call + 1]).toMatchObject({ role: 'tool', toolCallId: 'c1', content: 'the run was stopped', error: 'the run was stopped' });
    expect(sent.at(-1)).toMatchObject({ role: 'user', content: 'Never mind, refund to the card' });
    // The thread itself is as it was: the answer is said to the agent, not added to the conversation.
    expect(
      controller.getSnapshot().thread.messages.ids.filter((id) => controller.getSnapshot().thread.messages.byId.get(id)?.role === 'tool'),
    ).toEqual([]);
    expectReplayed(controller);
  });
});

describe('a tool call the run left without a result', () => {
  const lookup = (emitCalls: (input: RunAgentInput, emit: (e: Record<string, unknown>) => void) => void) =>
    scripted(async (n, input, emit, signal) => {
      if (n > 0) {
        emit(started(input));
        emit(finished(input));
        return;
      }
      emitCalls(input, emit);
      if (!signal.aborted) await open(signal);
    });
  const answerTo = (input: RunAgentInput | undefined, id: string) =>
    input?.messages.find((m) => m.role === 'tool' && m.toolCallId === id) as { content?: string } | undefined;

  it('stopped while its result was still to come: the next run answers it as stopped', async () => {
    const { source, inputs } = lookup((input, emit) => {
      emit(started(input));
      for (const e of toolCall('c9', 'lookup_order')) emit(e);
    });
    const controller = createRunController({ source, scheduler: microScheduler });
    void controller.run('Where is my order?');
    await tick();
    expect(controller.getSnapshot().thread.toolCalls.get('c9')?.status).toBe('ready');
    controller.stop();
    await controller.run('Never mind');
    expect(answerTo(inputs[1], 'c9')?.content).toMatch(/stopped|no result/);
  });

  it('cut off with the stream: the next run answers it as left without a result', async () => {
    const { source, inputs } = scripted((n, input, emit) => {
      emit(started(input));
      if (n === 0) for (const e of toolCall('c9', 'lookup_order')) emit(e);
      else emit(finished(input));
    });
    const controller = createRunController({ source, scheduler: microScheduler });
    await controller.run('Where is my order?');
    await tick();
    expect(controller.getSnapshot().thread.run.status).toBe('unknown');
    await controller.run('Hello?');
    expect(answerTo(inputs[1], 'c9')?.content).toMatch(/no result/);
  });

  it("a resume answering the interrupt a call waits on makes up no answer for it: the agent's tool runs on", async () => {
    const { source, inputs } = scripted((n, input, emit) => {
      emit(started(input));
      if (n === 0) {
        for (const e of toolCall('c1', 'issue_refund')) emit(e);
        emit(
          finished(input, {
            outcome: { type: 'interrupt', interrupts: [{ id: 'i1', reason: 'tool_call', toolCallId: 'c1', message: 'Refund 42 USD?' }] },
          }),
        );
      } else emit(finished(input));
    });
    const controller = createRunController({ source, scheduler: microScheduler });
    await controller.run('Refund order A-1001');
    await tick();
    await controller.resume([{ interruptId: 'i1', status: 'resolved', payload: { approved: true } }]);
    expect(inputs[1]?.resume).toHaveLength(1);
    expect(answerTo(inputs[1], 'c1')).toBeUndefined();
  });
});

describe('what a stopped or failed run leaves open is settled, not left saying it goes on', () => {
  const open = (input: RunAgentInput, emit: (e: Record<string, unknown>) => void) => {
    emit(started(input));
    emit({ type: 'SUBAGENT_STARTED', subagentRunId: 'sa', name: 'researcher' });
    for (const e of toolCall('c9', 'lookup_order')) emit(e);
  };

  it('stop(): a call waiting for its result fails as stopped, a running subagent is stopped', async () => {
    const { source } = scripted(async (_n, input, emit, signal) => {
      open(input, emit);
      await new Promise((_r, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
    });
    const controller = createRunController({ source, scheduler: microScheduler });
    void controller.run('Look into order A-1001');
    await tick();
    controller.stop();
    const thread = controller.getSnapshot().thread;
    expect(thread.toolCalls.get('c9')).toMatchObject({ status: 'failed', failure: 'the run was stopped', failureCode: 'STOPPED' });
    expect(thread.subagents.sa?.status).toBe('cancelled');
    expectReplayed(controller);
  });

  it('stop() of an agent that never said RUN_STARTED: its reply stops streaming, marked stopped, and its half-sent call fails', async () => {
    const { source } = scripted(async (_n, _input, emit, signal) => {
      emit({ type: 'TEXT_MESSAGE_START', messageId: 'a1', role: 'assistant' });
      emit({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'a1', delta: '正在查询订单' });
      emit({ type: 'TOOL_CALL_START', toolCallId: 'c9', toolCallName: 'lookup_order', parentMessageId: 'a1' });
      emit({ type: 'TOOL_CALL_ARGS', toolCallId: 'c9', delta: '{"order":' });
      await new Promise((_r, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
    });
    const controller = createRunController({ source, scheduler: microScheduler });
    void controller.run('Look into order A-1001');
    await tick();
    expect(controller.getSnapshot().thread.messages.byId.get('a1')?.streaming).toBe(true);
    controller.stop();
    const thread = controller.getSnapshot().thread;
    expect(thread.messages.byId.get('a1')).toMatchObject({ streaming: false, stopped: true });
    expect(thread.toolCalls.get('c9')).toMatchObject({ status: 'failed', failure: 'the run was stopped' });
    expectReplayed(controller);
  });

  it('RUN_ERROR: a running subagent fails with the run', async () => {
    const { source } = scripted((_n, input, emit) => {
      open(input, emit);
      emit({ type: 'RUN_ERROR', message: 'the model is overloaded', code: 'OVERLOADED' });
    });
    const controller = createRunController({ source, scheduler: microScheduler });
    await controller.run('Look into order A-1001');
    await tick();
    const thread = controller.getSnapshot().thread;
    expect(thread.subagents.sa).toMatchObject({ status: 'error', error: { message: 'the model is overloaded', code: 'OVERLOADED' } });
    expect(thread.toolCalls.get('c9')?.status).toBe('failed');
  });
});

describe('a run whose frontend tools are still running', () => {
  it('keeps the controller busy: a new run is refused until the tools return and the conversation goes on with their results', async () => {
    const { controller, release, inputs } = heldPick(picksOnce);
    const first = controller.run('Refund order A-1001');
    await tick();
    expect(controller.getSnapshot().thread.run.status).toBe('success');
    expect(controller.getSnapshot().inFlight).toBe('run');
    const second = await controller.run('And order A-1002?');
    expect(second).toMatchObject({ ok: false, code: 'RUN_IN_PROGRESS' });
    expect(inputs).toHaveLength(1);

    release.settle('card');
    await first;
    await tick();
    expect(inputs).toHaveLength(2);
    const sent = inputs[1]?.messages ?? [];
    expect(sent.at(-1)).toMatchObject({ role: 'tool', toolCallId: 'c1', content: 'card' });
    expect(controller.getSnapshot().inFlight).toBeUndefined();
    expectReplayed(controller);
  });
});

describe('resume() and what races it', () => {
  const interrupted = (input: RunAgentInput, id: string) =>
    finished(input, { outcome: { type: 'interrupt', interrupts: [{ id, reason: 'confirmation', message: 'Refund 42 USD?' }] } });

  /** A controller whose first run asked interrupt i1, and the answer to it, just asked for. */
  async function answering() {
    const { source, inputs } = scripted((n, input, emit) => {
      emit(started(input));
      emit(n === 0 ? interrupted(input, 'i1') : finished(input));
    });
    const controller = createRunController({ source, scheduler: microScheduler });
    await controller.run('Refund order A-1001');
    const answer = controller.resume([{ interruptId: 'i1', status: 'resolved', payload: { approved: true } }]);
    return { controller, inputs, answer };
  }

  it('a cancelInterrupts() right after an answer its schema refuses is not lost: the cancel goes out', async () => {
    const { source, inputs } = scripted((n, input, emit) => {
      emit(started(input));
      emit(
        n === 0
          ? finished(input, {
              outcome: { type: 'interrupt', interrupts: [{ id: 'i1', reason: 'input_required', responseSchema: { type: 'string' } }] },
            })
          : finished(input),
      );
    });
    const controller = createRunController({ source, scheduler: microScheduler });
    await controller.run('Refund order A-1001');
    const answer = controller.resume([{ interruptId: 'i1', status: 'resolved', payload: 42 }]);
    const cancel = controller.cancelInterrupts();
    expect(await answer).toMatchObject({ ok: false, code: 'RESUME_REFUSED' });
    expect((await cancel).ok).toBe(true);
    expect(inputs).toHaveLength(2);
    expect(inputs[1]?.resume).toEqual([{ interruptId: 'i1', status: 'cancelled' }]);
    expectReplayed(controller);
  });

  it('claims the controller at once: a stop() right after it sends nothing', async () => {
    const { controller, inputs, answer } = await answering();
    expect(controller.getSnapshot().inFlight).toBe('resume');
    controller.stop();
    expect(controller.getSnapshot().inFlight).toBeUndefined();
    await answer;
    await tick();
    expect(inputs).toHaveLength(1);
    // The interrupt is still open: the stop came before the answer was recorded.
    expect(controller.getSnapshot().thread.interrupts.map((it) => it.id)).toEqual(['i1']);
    expectReplayed(controller);
  });

  it('a reset() right after it leaves no refusal behind', async () => {
    const { controller, inputs, answer } = await answering();
    controller.reset();
    await answer;
    await tick();
    expect(controller.getSnapshot().refusal).toBeUndefined();
    expect(inputs).toHaveLength(1);
    expect(controller.getSnapshot().thread.messages.ids).toEqual([]);
  });

  it('a second answer, to the interrupt the resumed run opened, is refused while the first is still busy, and sent once it is not', async () => {
    const release = held();
    const { source, inputs } = scripted((n, input, emit) => {
      emit(started(input));
      if (n === 0) emit(interrupted(input, 'i1'));
      else if (n === 1) {
        for (const e of toolCall('c1', 'note')) emit(e);
        emit(interrupted(input, 'i2'));
      } else emit(finished(input));
    });
    const controller = createRunController({
      source,
      scheduler: microScheduler,
      tools: { note: { description: 'notes the refund', handler: () => release.promise } },
    });
    await controller.run('Refund order A-1001');
    const first = controller.resume([{ interruptId: 'i1', status: 'resolved', payload: { approved: true } }]);
    await tick();
    expect(controller.getSnapshot().thread.interrupts.map((it) => it.id)).toEqual(['i2']);
    const early = await controller.resume([{ interruptId: 'i2', status: 'resolved', payload: { approved: true } }]);
    expect(early).toMatchObject({ ok: false, code: 'RUN_IN_PROGRESS' });
    release.settle('noted');
    await first;
    await tick();
    const later = await controller.resume([{ interruptId: 'i2', status: 'resolved', payload: { approved: true } }]);
    expect(later).toMatchObject({ ok: true });
    expect(inputs).toHaveLength(3);
    expect(inputs[2]?.resume?.map((r) => r.interruptId)).toEqual(['i2']);
    expectReplayed(controller);
  });
});

describe('updateSharedState while agent events wait for the next frame', () => {
  it('edits the document those events leave, not the one before them', async () => {
    let frame: (() => void) | undefined;
    const heldScheduler: FrameScheduler = (flush) => {
      frame = flush;
      return () => {
        frame = undefined;
      };
    };
    const gate = held<void>();
    const { source } = scripted(async (_n, input, emit) => {
      emit(started(input));
      emit({ type: 'STATE_DELTA', delta: [{ op: 'remove', path: '/items/0' }] });
      await gate.promise;
      emit(finished(input));
    });
    const controller = createRunController<{ items: string[] }>({
      source,
      initialState: { items: ['a', 'b', 'c'] },
      scheduler: heldScheduler,
    });
    const run = controller.run('Tidy the list');
    await tick();
    // RUN_STARTED and the delta are received; the frame that applies them has not come.
    expect(frame).toBeDefined();
    const edit = await controller.updateSharedState((draft) => {
      draft.items.splice(draft.items.indexOf('b'), 1);
    });
    expect(edit.ok).toBe(true);
    expect(controller.getSnapshot().thread.sharedState.document).toEqual({ items: ['c'] });
    gate.settle();
    await run;
    expect(controller.getSnapshot().thread.sharedState.document).toEqual({ items: ['c'] });
    expectReplayed(controller);
  });
});

describe('the log owns what it records', () => {
  it("the app changing its own objects later changes neither the log nor stateAt (initial state, setState, a user's message)", async () => {
    const { source } = scripted((_n, input, emit) => {
      emit(started(input));
      emit(finished(input));
    });
    const initialState = { cart: ['a'] };
    const initialMessages = [{ id: 'u0', role: 'user' as const, content: '你好' }];
    const controller = createRunController({ source, initialState, initialMessages, scheduler: microScheduler });
    const doc = { cart: ['b'] };
    await controller.setState(doc);
    const message = { id: 'u1', role: 'user' as const, content: 'Refund order A-1001' };
    await controller.run({ message });
    initialState.cart.push('changed');
    for (const m of initialMessages as { content: string }[]) m.content = 'changed';
    doc.cart.push('changed');
    message.content = 'changed';
    const last = controller.log.entries.length - 1;
    expect(view(controller.stateAt(last))).toEqual(view(controller.getSnapshot().thread));
    expect(controller.stateAt(0).sharedState.document).toEqual({ cart: ['a'] });
    expect(controller.stateAt(0).messages.byId.get('u0')?.content).toBe('你好');
    expectReplayed(controller);
  });
});

describe('stop() or destroy() from a listener as a request starts', () => {
  const each = [
    ['stop()', (c: ReturnType<typeof createRunController>) => c.stop()],
    ['destroy()', (c: ReturnType<typeof createRunController>) => c.destroy()],
  ] as const;
  it.each(each)('%s sends nothing: the source is never asked, and run() settles (DESTROYED after a destroy)', async (name, end) => {
    const { source, inputs } = scripted((_n, input, emit) => {
      emit(started(input));
      emit(finished(input));
    });
    const c = createRunController({ source, scheduler: microScheduler });
    const off = c.subscribe(() => {
      if (c.getSnapshot().connection !== 'connecting') return;
      off();
      end(c);
    });
    const result = await c.run('Transfer 500 EUR');
    expect(result).toMatchObject(name === 'stop()' ? { ok: true } : { ok: false, code: 'DESTROYED' });
    expect(inputs).toHaveLength(0);
    expect(c.getSnapshot().inFlight).toBeUndefined();
    expectReplayed(c);
  });
});

describe('a frontend tool whose run is stopped as it starts', () => {
  const charging = () =>
    scripted((n, input, emit) => {
      emit(started(input));
      if (n === 0) for (const e of toolCall('c1', 'charge_card')) emit(e);
      emit(finished(input));
    });

  it.each([
    ['stop()', (c: ReturnType<typeof createRunController>) => c.stop()],
    ['reset()', (c: ReturnType<typeof createRunController>) => c.reset()],
    ['destroy()', (c: ReturnType<typeof createRunController>) => c.destroy()],
  ] as const)('by %s from a listener that sees the call executing: its handler is never called', async (_name, end) => {
    let charged = 0;
    const { source, inputs } = charging();
    const c = createRunController({
      source,
      scheduler: microScheduler,
      tools: { charge_card: { description: 'Charges the card', handler: () => ++charged } },
    });
    let ended = false;
    c.subscribe(() => {
      if (ended || c.getSnapshot().thread.toolCalls.get('c1')?.status !== 'executing') return;
      ended = true;
      end(c);
    });
    await c.run('Charge 500 EUR');
    for (let i = 0; i < 5; i++) await tick();
    expect(ended).toBe(true);
    expect(charged).toBe(0);
    expect(inputs).toHaveLength(1);
    expectReplayed(c);
  });

  it('by stop() from its own handler: its signal is aborted at once', async () => {
    const seen: boolean[] = [];
    const { source } = charging();
    const c: RunController = createRunController({
      source,
      scheduler: microScheduler,
      tools: {
        charge_card: {
          description: 'Charges the card',
          handler: async (_args, _call, { signal }) => {
            c.stop();
            seen.push(signal.aborted);
            await tick();
            seen.push(signal.aborted);
            return 'charged';
          },
        },
      },
    });
    await c.run('Charge 500 EUR');
    for (let i = 0; i < 5; i++) await tick();
    expect(seen).toEqual([true, true]);
    expect(c.getSnapshot().thread.toolCalls.get('c1')?.status).toBe('failed');
    expectReplayed(c);
  });
});

describe('the same run asked for again while it is in flight', () => {
  it('joins it: one request, one user message, no refusal, and the answer of that run (StrictMode, a double click)', async () => {
    const { controller, release, inputs } = heldPick(picksOnce);
    const first = controller.run('Refund order A-1001');
    const again = controller.run('Refund order A-1001');
    const asObject = controller.run({ message: 'Refund order A-1001' });
    await tick();
    expect(controller.getSnapshot().refusal).toBeUndefined();
    const other = await controller.run('And order A-1002?');
    expect(other).toMatchObject({ ok: false, code: 'RUN_IN_PROGRESS' });
    release.settle('card');
    const answers = await Promise.all([first, again, asObject]);
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    expect(inputs).toHaveLength(2);
    expect(
      controller.getSnapshot().thread.messages.ids.filter((id) => controller.getSnapshot().thread.messages.byId.get(id)?.role === 'user'),
    ).toHaveLength(1);
    // Once it has ended, the same words are a new run.
    await controller.run('Refund order A-1001');
    expect(inputs).toHaveLength(3);
    expectReplayed(controller);
  });
});

describe("a run's frontend tool when the same stream starts another run right after", () => {
  for (const together of [true, false]) {
    it(`runs, whether the next RUN_STARTED arrives ${together ? 'in the same chunk' : 'in a later chunk'}: the chunking decides nothing`, async () => {
      const ran: string[] = [];
      const { source, inputs } = scripted(async (n, input, emit) => {
        emit(started(input));
        if (n > 0) return emit(finished(input));
        for (const e of toolCall('c1', 'pick')) emit(e);
        emit(finished(input));
        if (!together) await tick();
        const next = { ...input, runId: `${input.runId}-next` };
        emit(started(next));
        emit(finished(next));
      });
      const controller = createRunController({
        source,
        scheduler: microScheduler,
        tools: {
          pick: {
            description: 'asks the user to pick',
            handler: (args) => {
              ran.push(JSON.stringify(args));
              return 'card';
            },
          },
        },
      });
      await controller.run('Refund order A-1001');
      await tick();
      expect(ran).toEqual(['{"orderId":"A-1001"}']);
      expect(controller.getSnapshot().thread.toolCalls.get('c1')?.status).toBe('succeeded');
      expect(inputs.at(-1)?.messages.at(-1)).toMatchObject({ role: 'tool', toolCallId: 'c1', content: 'card' });
      expectReplayed(controller);
    });
  }
});
