/**
 * A frontend tool runs once its run has finished, so its result lands after
 * RUN_FINISHED, most often after the stream has closed: that result is
 * logged, and the run that sends it starts by itself. Only a stop, a reset or
 * a destroy of what started it drops it (README: "`stop()` and `reset()`
 * abort the tools of what they stop ... and drop their late results").
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createRunController, loadEngine, type RunAgentInput, type RunController } from '../src/index.js';
import { expectReplayed, finished, held, microScheduler, open, scripted, started, tick, toolCall } from './support/controllerHarness.js';

beforeAll(() => loadEngine());

const toolMessages = (input: RunAgentInput | undefined) => (input?.messages ?? []).filter((m) => m.role === 'tool');
const toolResults = (c: RunController) => c.log.entries.filter((e) => e.type === 'tool_result');
const settle = async () => {
  for (let i = 0; i < 5; i++) await tick();
};

describe('a frontend tool that settles after its stream ended', () => {
  it('is logged, and its result goes out with the run the controller starts', async () => {
    const release = held();
    let closed = false;
    const { source, inputs } = scripted((n, input, emit) => {
      emit(started(input));
      if (n === 0) for (const e of toolCall('c1', 'pick')) emit(e);
      emit(finished(input));
      if (n === 0) closed = true;
    });
    const controller = createRunController({
      source,
      scheduler: microScheduler,
      tools: { pick: { description: 'asks the user to pick', handler: () => release.promise } },
    });
    const running = controller.run('Pick an order');
    await settle();
    expect(closed).toBe(true);
    expect(controller.getSnapshot().connection).toBe('closed');
    expect(controller.getSnapshot().thread.toolCalls.get('c1')?.status).toBe('executing');
    expect(controller.getSnapshot().inFlight).toBe('run');
    release.settle('A-1001');
    const result = await running;
    expect(result).toMatchObject({ ok: true, status: 'success' });
    expect(toolResults(controller)).toHaveLength(1);
    expect(controller.getSnapshot().thread.toolCalls.get('c1')?.status).toBe('succeeded');
    expect(inputs).toHaveLength(2);
    expect(toolMessages(inputs[1]).map((m) => [m.toolCallId, m.content])).toEqual([['c1', 'A-1001']]);
    expectReplayed(controller);
    controller.destroy();
  });

  it('of two tools, one settling while the stream is open and one after it closed, both results go out in one run', async () => {
    const first = held();
    const second = held();
    const close = held<void>();
    const { source, inputs } = scripted(async (n, input, emit) => {
      emit(started(input));
      if (n === 0) {
        for (const e of toolCall('c1', 'first')) emit(e);
        for (const e of toolCall('c2', 'second', 'a-c1')) emit(e);
      }
      emit(finished(input));
      // The stream stays open a while after its run's end.
      if (n === 0) await close.promise;
    });
    const controller = createRunController({
      source,
      scheduler: microScheduler,
      tools: {
        first: { description: 'first', handler: () => first.promise },
        second: { description: 'second', handler: () => second.promise },
      },
    });
    const running = controller.run('Two things');
    await settle();
    expect(controller.getSnapshot().thread.toolCalls.get('c1')?.status).toBe('executing');
    expect(controller.getSnapshot().thread.toolCalls.get('c2')?.status).toBe('executing');
    first.settle('one');
    await settle();
    expect(controller.getSnapshot().thread.toolCalls.get('c1')?.status).toBe('succeeded');
    close.settle();
    await settle();
    expect(inputs).toHaveLength(1);
    second.settle('two');
    await running;
    expect(toolResults(controller)).toHaveLength(2);
    expect(inputs).toHaveLength(2);
    expect(toolMessages(inputs[1]).map((m) => [m.toolCallId, m.content])).toEqual([
      ['c1', 'one'],
      ['c2', 'two'],
    ]);
    expectReplayed(controller);
    controller.destroy();
  });

  it('after a reconnect delivered its run’s end, the result is logged and sent', async () => {
    const release = held();
    const { source, inputs } = scripted((n, input, emit) => {
      if (n === 0) {
        emit(started(input), '1');
        for (const [i, e] of toolCall('c1', 'pick').entries()) emit(e, String(i + 2));
        return; // cut off inside the run
      }
      emit(finished(input), '5');
    });
    const controller = createRunController({
      source,
      scheduler: microScheduler,
      tools: { pick: { description: 'asks the user to pick', handler: () => release.promise } },
    });
    await controller.run('Pick an order');
    await settle();
    expect(controller.getSnapshot().failure?.code).toBe('CONNECTION_LOST');
    const resumed = controller.reconnect();
    await settle();
    expect(controller.getSnapshot().thread.toolCalls.get('c1')?.status).toBe('executing');
    release.settle('A-1001');
    expect(await resumed).toMatchObject({ ok: true });
    expect(toolResults(controller)).toHaveLength(1);
    expect(inputs).toHaveLength(3);
    expect(toolMessages(inputs[2]).map((m) => m.toolCallId)).toEqual(['c1']);
    expectReplayed(controller);
    controller.destroy();
  });

  for (const action of ['stop', 'reset'] as const)
    it(`after a ${action}(), its late result is dropped: nothing logged, nothing sent`, async () => {
      const release = held();
      let signal: AbortSignal | undefined;
      const { source, inputs } = scripted((n, input, emit) => {
        emit(started(input));
        if (n === 0) for (const e of toolCall('c1', 'pick')) emit(e);
        emit(finished(input));
      });
      const controller = createRunController({
        source,
        scheduler: microScheduler,
        tools: {
          pick: {
            description: 'asks the user to pick',
            handler: (_args, _call, options) => {
              signal = options.signal;
              return release.promise;
            },
          },
        },
      });
      const running = controller.run('Pick an order');
      await settle();
      expect(controller.getSnapshot().thread.toolCalls.get('c1')?.status).toBe('executing');
      controller[action]();
      expect(signal?.aborted).toBe(true);
      release.settle('A-1001');
      await running;
      await settle();
      expect(toolResults(controller)).toHaveLength(0);
      expect(inputs).toHaveLength(1);
      if (action === 'stop') expect(controller.getSnapshot().thread.toolCalls.get('c1')?.status).toBe('failed');
      expectReplayed(controller);
      controller.destroy();
    });
});

describe('a stream still open after its run ended', () => {
  it('the tool result lands while the stream is open, and is logged', async () => {
    const release = held();
    const { source, inputs } = scripted(async (n, input, emit, signal) => {
      emit(started(input));
      if (n === 0) {
        for (const e of toolCall('c1', 'pick')) emit(e);
        emit(finished(input));
        await open(signal).catch(() => undefined);
        return;
      }
      emit(finished(input));
    });
    const controller = createRunController({
      source,
      scheduler: microScheduler,
      tools: { pick: { description: 'asks the user to pick', handler: () => release.promise } },
    });
    void controller.run('Pick an order');
    await settle();
    release.settle('A-1001');
    await settle();
    expect(toolResults(controller)).toHaveLength(1);
    expect(controller.getSnapshot().thread.toolCalls.get('c1')?.status).toBe('succeeded');
    expect(inputs).toHaveLength(1);
    expectReplayed(controller);
    controller.destroy();
  });
});
