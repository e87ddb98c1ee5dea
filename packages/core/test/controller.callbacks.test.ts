/**
 * What an application hands the controller and calls on it at awkward
 * moments: actions called from its own callbacks (`onEvent`, a listener),
 * callbacks that throw, a reset while an edit waits, an edit holding values
 * JSON has no place for, and a destroy while a frontend tool runs. Each case
 * ends with the live thread equal to the replayed log where there is one.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { replaySession } from '../src/engine.js';
import {
  createRunController,
  type FrameScheduler,
  httpSseSource,
  loadEngine,
  parseSession,
  type RunController,
  type RunControllerOptions,
  serializeSession,
} from '../src/index.js';
import {
  expectReplayed,
  finished,
  held,
  microScheduler,
  open,
  picksOnce,
  scripted,
  started,
  tick,
  toolCall,
} from './support/controllerHarness.js';

beforeAll(() => loadEngine());
afterEach(() => {
  vi.unstubAllGlobals();
});

const reply = (messageId = 'm1') => [
  { type: 'TEXT_MESSAGE_START', messageId, role: 'assistant' },
  { type: 'TEXT_MESSAGE_CONTENT', messageId, delta: 'hello' },
  { type: 'TEXT_MESSAGE_END', messageId },
];

/** A source whose every run starts and finishes, saying nothing. */
const quiet = () =>
  scripted((_n, input, emit) => {
    emit(started(input));
    emit(finished(input));
  });

/** A source whose every run replies `hello` (message m1). */
const replying = () =>
  scripted((_n, input, emit) => {
    emit(started(input));
    for (const e of reply()) emit(e);
    emit(finished(input));
  });

/** A source whose first run replies `hello` (message m1), and whose later runs say nothing. */
const replyingOnce = () =>
  scripted((n, input, emit) => {
    emit(started(input));
    if (n === 0) for (const e of reply()) emit(e);
    emit(finished(input));
  });

/** A controller whose onEvent does `action` to it at every event of type `at`. */
function actingAt<Doc>(options: RunControllerOptions<Doc>, at: string, action: (controller: RunController<Doc>) => void) {
  const controller: RunController<Doc> = createRunController<Doc>({
    scheduler: microScheduler,
    ...options,
    onEvent: (event) => {
      if (event.type === at) action(controller);
    },
  });
  return controller;
}

describe('an action called from onEvent applies after the event that prompted it', () => {
  it('reset(): the thread is empty and the next run sends none of the old conversation', async () => {
    const { source, inputs } = replyingOnce();
    const controller = actingAt({ source }, 'TEXT_MESSAGE_START', (c) => c.reset());
    await controller.run('a private question');
    await tick();
    const thread = controller.getSnapshot().thread;
    expect(thread.messages.ids).toEqual([]);
    expect(thread.run.status).toBe('idle');
    expectReplayed(controller);
    await controller.run('a new topic');
    await tick();
    expect(inputs[1]?.messages.map((m) => m.content)).toEqual(['a new topic']);
  });

  it('stop() at a message start: the message stops streaming, live as in the replay', async () => {
    const { source } = replying();
    const controller = actingAt({ source }, 'TEXT_MESSAGE_START', (c) => c.stop());
    await controller.run('Clean up');
    await tick();
    const thread = controller.getSnapshot().thread;
    expect(thread.run.status).toBe('cancelled');
    expect(thread.messages.byId.get('m1')?.streaming).toBe(false);
    expectReplayed(controller);
  });

  it('setState() on the agent snapshot it answers: the edit wins, and the log says so in that order', async () => {
    const { source } = scripted((_n, input, emit) => {
      emit(started(input));
      emit({ type: 'STATE_SNAPSHOT', snapshot: { status: 'from the agent' } });
      emit(finished(input));
    });
    const controller = actingAt<{ status: string }>({ source, initialState: { status: 'new' } }, 'STATE_SNAPSHOT', (c) => {
      void c.setState({ status: 'acknowledged' });
    });
    await controller.run('go');
    await tick();
    expect(controller.getSnapshot().thread.sharedState.document).toEqual({ status: 'acknowledged' });
    const types = controller.log.entries.map((e) => (e.type === 'event' ? (e.event as { type: string }).type : e.type));
    expect(types.indexOf('state_set')).toBe(types.indexOf('STATE_SNAPSHOT') + 1);
    expectReplayed(controller);
  });

  it('destroy() at RUN_FINISHED: the last snapshot shows the run finished, and the log says nothing was cut or stopped', async () => {
    const { source } = scripted((_n, input, emit) => {
      emit(started(input));
      emit({ type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' });
      emit({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: '订单 A-1001 已退款。' });
      emit({ type: 'TEXT_MESSAGE_END', messageId: 'm1' });
      emit(finished(input));
    });
    const controller = actingAt({ source }, 'RUN_FINISHED', (c) => c.destroy());
    await controller.run('Refund order A-1001');
    await tick();
    const snapshot = controller.getSnapshot();
    expect(snapshot).toMatchObject({ destroyed: true, connection: 'closed', inFlight: undefined });
    expect(snapshot.thread.run.status).toBe('success');
    expectReplayed(controller);
    const last = controller.log.entries.slice(-2).map((e) => ({ type: e.type, open: e.type === 'stream_end' ? e.open : undefined }));
    expect(last).toEqual([
      { type: 'event', open: undefined },
      { type: 'stream_end', open: false },
    ]);
  });

  it('destroy() at a token: the last snapshot shows the token, and the run cut off as the log replays it', async () => {
    const { source } = scripted((_n, input, emit, signal) => {
      emit(started(input));
      emit({ type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' });
      emit({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: '订单' });
      return open(signal);
    });
    const controller = actingAt({ source }, 'TEXT_MESSAGE_CONTENT', (c) => c.destroy());
    await controller.run('Refund order A-1001');
    await tick();
    const { thread } = controller.getSnapshot();
    expect(thread.messages.byId.get('m1')?.content).toBe('订单');
    expect(thread.run.status).not.toBe('running');
    expectReplayed(controller);
  });

  it('stop() at the first token: the rest of the batch is dropped with the run', async () => {
    const { source } = scripted((_n, input, emit) => {
      emit(started(input));
      emit({ type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' });
      emit({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'I will now ' });
      emit({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'delete everything' });
      emit({ type: 'TEXT_MESSAGE_END', messageId: 'm1' });
      emit(finished(input));
    });
    const controller = actingAt({ source }, 'TEXT_MESSAGE_CONTENT', (c) => c.stop());
    await controller.run('Clean up');
    await tick();
    const thread = controller.getSnapshot().thread;
    expect(thread.run.status).toBe('cancelled');
    expect(thread.messages.byId.get('m1')?.content).toBe('I will now ');
    const after = controller.log.entries.slice(controller.log.entries.findIndex((e) => e.type === 'stop') + 1);
    expect(after.filter((e) => e.type === 'event')).toEqual([]);
    expectReplayed(controller);
  });
});

describe('what an action from onEvent works on: the thread as the event left it', () => {
  it('two edits on the agent snapshot they answer each start from the document the one before left', async () => {
    const { source } = scripted((_n, input, emit) => {
      emit(started(input));
      emit({ type: 'STATE_SNAPSHOT', snapshot: { count: 5 } });
      emit(finished(input));
    });
    const controller = actingAt<{ count: number }>({ source, initialState: { count: 0 } }, 'STATE_SNAPSHOT', (c) => {
      for (let i = 0; i < 2; i++)
        void c.updateSharedState((draft) => {
          draft.count++;
        });
    });
    // immer loaded: the edits apply at once, not after a load.
    await controller.updateSharedState(() => undefined);
    await controller.run('count');
    await tick();
    expect(controller.getSnapshot().thread.sharedState.document).toEqual({ count: 7 });
    expectReplayed(controller);
  });

  it('run() right after stop(): the request carries the conversation, the event that prompted it and the new message', async () => {
    const { source, inputs } = replyingOnce();
    const controller = actingAt({ source }, 'TEXT_MESSAGE_START', (c) => {
      c.stop();
      void c.run('and now this');
    });
    await controller.run('first');
    await tick();
    const sent = inputs[1];
    expect(sent?.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'first'],
      ['assistant', ''],
      ['user', 'and now this'],
    ]);
    expect(sent?.parentRunId).toBe(inputs[0]?.runId);
    expectReplayed(controller);
  });

  it('run() right after reset(): the request carries the new message alone', async () => {
    const { source, inputs } = replyingOnce();
    const controller = actingAt({ source, initialState: { step: 1 } }, 'TEXT_MESSAGE_START', (c) => {
      c.reset();
      void c.run('a new topic');
    });
    await controller.run('old topic');
    await tick();
    expect(inputs[1]?.messages.map((m) => m.content)).toEqual(['a new topic']);
    expect(inputs[1]?.parentRunId).toBeUndefined();
    expectReplayed(controller);
  });
});

describe("a callback that throws is the app's error, not the run's", () => {
  it('a listener that throws: the run still succeeds, the other listeners still hear it, and the error is reported', async () => {
    const reported = vi.fn();
    vi.stubGlobal('reportError', reported);
    const controller = createRunController({ source: quiet().source, scheduler: microScheduler });
    const bug = new Error('a render bug');
    controller.subscribe(() => {
      if (controller.getSnapshot().thread.run.status === 'success') throw bug;
    });
    const heard: string[] = [];
    controller.subscribe(() => heard.push(controller.getSnapshot().thread.run.status));
    await controller.run('hi');
    await tick();
    expect(controller.getSnapshot().failure).toBeUndefined();
    expect(controller.getSnapshot().connection).toBe('closed');
    expect(heard).toContain('success');
    expect(reported).toHaveBeenCalledWith(bug);
  });

  it('where there is no reportError (Node 20), the error is logged and the process goes on', async () => {
    vi.stubGlobal('reportError', undefined);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const controller = createRunController({ source: quiet().source, scheduler: microScheduler });
    const bug = new Error('a render bug');
    controller.subscribe(() => {
      throw bug;
    });
    await controller.run('hi');
    await new Promise((r) => setTimeout(r, 20));
    expect(controller.getSnapshot().thread.run.status).toBe('success');
    expect(logged).toHaveBeenCalledWith(expect.stringContaining('aguikit'), bug);
    logged.mockRestore();
  });

  it('a scheduler or a clock of the app that throws: the events are applied all the same', async () => {
    const reported = vi.fn();
    vi.stubGlobal('reportError', reported);
    const { source } = replying();
    let calls = 0;
    const controller = createRunController({
      source,
      scheduler: () => {
        throw new Error('a scheduler bug');
      },
      now: () => {
        if (++calls > 3) throw new Error('a clock bug');
        return 1;
      },
    });
    await controller.run('hi');
    await tick();
    expect(controller.getSnapshot().thread.run.status).toBe('success');
    expect(controller.getSnapshot().thread.messages.byId.get('m1')?.content).toBe('hello');
    expect(controller.getSnapshot().failure).toBeUndefined();
    expect(reported).toHaveBeenCalled();
  });

  it('an onEvent that throws: every event of the batch is applied, live as in the replay', async () => {
    const reported = vi.fn();
    vi.stubGlobal('reportError', reported);
    const { source } = replying();
    const controller = createRunController({
      source,
      scheduler: microScheduler,
      onEvent: (event) => {
        if (event.type === 'TEXT_MESSAGE_START') throw new Error('a listener bug');
      },
      onDiagnostic: () => {
        throw new Error('never reached: the stream is valid');
      },
    });
    await controller.run('hi');
    await tick();
    const thread = controller.getSnapshot().thread;
    expect(thread.run.status).toBe('success');
    expect(thread.messages.byId.get('m1')?.content).toBe('hello');
    expect(reported).toHaveBeenCalledTimes(1);
    expectReplayed(controller);
  });

  it('an onDiagnostic that throws: the rest of the stream is applied', async () => {
    const reported = vi.fn();
    vi.stubGlobal('reportError', reported);
    const { source } = scripted((_n, input, emit) => {
      emit(started(input));
      emit({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'nobody', delta: 'orphan' });
      for (const e of reply()) emit(e);
      emit(finished(input));
    });
    const controller = createRunController({
      source,
      scheduler: microScheduler,
      onDiagnostic: () => {
        throw new Error('a logging bug');
      },
    });
    await controller.run('hi');
    await tick();
    expect(controller.getSnapshot().thread.run.status).toBe('success');
    expect(controller.getSnapshot().thread.messages.byId.get('m1')?.content).toBe('hello');
    expect(reported).toHaveBeenCalled();
    expectReplayed(controller);
  });
});

describe('updateSharedState with values JSON has no place for', () => {
  it('a member set to undefined is removed, as JSON.stringify drops it, with the rest of the edit', async () => {
    const { source, inputs } = scripted((_n, input, emit) => {
      emit(started(input));
      emit(finished(input));
    });
    const controller = createRunController<{ count: number; note?: string | undefined; list: unknown[] }>({
      source,
      scheduler: microScheduler,
      initialState: { count: 0, note: 'x', list: [1] },
    });
    const result = await controller.updateSharedState((draft) => {
      draft.count = 1;
      draft.note = undefined;
      draft.list.push(undefined, () => 'a function');
    });
    expect(result.ok).toBe(true);
    expect(controller.getSnapshot().thread.sharedState.document).toEqual({ count: 1, list: [1, null, null] });
    await controller.run('go');
    expect(inputs[0]?.state).toEqual({ count: 1, list: [1, null, null] });
    expectReplayed(controller);
  });

  it('a Date becomes its JSON text, a nested undefined member disappears, NaN becomes null', async () => {
    const controller = createRunController<Record<string, unknown>>({ source: scripted(() => undefined).source, initialState: {} });
    const at = new Date(Date.UTC(2026, 11, 2));
    await controller.updateSharedState((draft) => {
      draft.at = at;
      draft.nested = { kept: 1, gone: undefined, ratio: Number.NaN };
    });
    expect(controller.getSnapshot().thread.sharedState.document).toEqual({
      at: '2026-12-02T00:00:00.000Z',
      nested: { kept: 1, ratio: null },
    });
  });
});

describe('edits the document cannot take are refused, never reported done', () => {
  const nested = (depth: number): unknown => JSON.parse('['.repeat(depth) + ']'.repeat(depth));

  it('an edit through a member the document only inherits: EDIT_REFUSED, nothing logged, the document as it was', async () => {
    await loadEngine();
    const initialState = JSON.parse('{"constructor":{"prototype":{"x":1}}}') as Record<string, { prototype: { x: number } }>;
    const controller = createRunController<typeof initialState>({ source: quiet().source, initialState });
    const entries = controller.log.entries.length;
    const result = await controller.updateSharedState((draft) => {
      (draft.constructor as { prototype: { x: number } }).prototype.x = 2;
    });
    expect(result).toMatchObject({ ok: false, code: 'EDIT_REFUSED', message: expect.stringMatching(/prototype/) });
    expect(controller.getSnapshot().thread.sharedState.document).toEqual({ constructor: { prototype: { x: 1 } } });
    expect(controller.log.entries).toHaveLength(entries);
  });

  it('a recipe that throws, or that returns a document and changes its draft too: EDIT_REFUSED saying why, never a rejection', async () => {
    await loadEngine();
    const controller = createRunController<{ items: string[] }>({ source: quiet().source, initialState: { items: ['A-1001'] } });
    const entries = controller.log.entries.length;
    const threw = await controller.updateSharedState(() => {
      throw new Error('订单不存在');
    });
    expect(threw).toMatchObject({ ok: false, code: 'EDIT_REFUSED', message: 'The edit was not applied: its recipe threw: 订单不存在' });
    // `d => d.items.push(x)` returns the new length, and changed the draft.
    const both = await controller.updateSharedState((draft) => draft.items.push('A-1002') as unknown as { items: string[] });
    expect(both).toMatchObject({
      ok: false,
      code: 'EDIT_REFUSED',
      message: expect.stringMatching(/^The edit was not applied: the recipe changed its draft and returned a value too/),
    });
    expect(controller.getSnapshot().refusal).toMatchObject({ code: 'EDIT_REFUSED' });
    expect(controller.getSnapshot().thread.sharedState.document).toEqual({ items: ['A-1001'] });
    expect(controller.log.entries).toHaveLength(entries);
    // A recipe that returns a new document and leaves its draft alone is no "changed and returned", even when immer throws:
    // a draft kept from an earlier edit, read now, is revoked.
    await import('immer');
    await new Promise((resolve) => setTimeout(resolve, 20));
    let stale: { items: string[] } | undefined;
    await controller.updateSharedState((draft) => {
      stale = draft;
    });
    const revoked = await controller.updateSharedState(() => ({ items: ['A-1001'], kept: stale }) as never);
    expect(revoked).toMatchObject({ ok: false, code: 'EDIT_REFUSED', message: expect.stringMatching(/its recipe threw: .*revoked/) });
    // The next edit is taken.
    expect(await controller.updateSharedState((draft) => void draft.items.push('A-1003'))).toMatchObject({ ok: true });
    expect(controller.getSnapshot().thread.sharedState.document).toEqual({ items: ['A-1001', 'A-1003'] });
  });

  it('a member keyed by a symbol is none JSON writes: the edit leaves it out, as it does before immer loads', async () => {
    await loadEngine();
    const controller = createRunController<Record<string | symbol, unknown>>({ source: quiet().source, initialState: { a: 1 } });
    // The first edit starts loading immer; once it has loaded, the next is made on its draft.
    await controller.updateSharedState((draft) => {
      draft.a = 1;
    });
    await import('immer');
    await new Promise((resolve) => setTimeout(resolve, 20));
    const result = await controller.updateSharedState((draft) => {
      draft[Symbol('s')] = 1;
      draft.b = 2;
    });
    expect(result).toMatchObject({ ok: true });
    expect(controller.getSnapshot().thread.sharedState.document).toEqual({ a: 1, b: 2 });
    expect(JSON.stringify(controller.log.entries.at(-1))).not.toMatch(/Symbol/);
  });

  it('a value at the limit, by setState or by an edit, is taken, and the session saves and reopens', async () => {
    await loadEngine();
    const controller = createRunController<Record<string, unknown>>({
      source: quiet().source,
      scheduler: microScheduler,
      initialState: {},
    });
    expect(
      await controller.updateSharedState((draft) => {
        draft.deep = nested(511);
      }),
    ).toMatchObject({ ok: true });
    expect(await controller.setState({ other: nested(511) })).toMatchObject({ ok: true });
    const again = createRunController({ source: quiet().source, log: parseSession(serializeSession(controller.log.entries)).entries });
    expect(again.getSnapshot().thread.sharedState.document).toEqual({ other: nested(511) });
    expectReplayed(controller);
  });

  it('a value nested too deep, by setState or by an edit: EDIT_REFUSED, and the next run sends the document it had', async () => {
    await loadEngine();
    const { source, inputs } = quiet();
    const controller = createRunController<Record<string, unknown>>({ source, scheduler: microScheduler, initialState: { kept: 1 } });
    for (const depth of [513, 600, 5000]) {
      expect(await controller.setState({ deep: nested(depth) })).toMatchObject({
        ok: false,
        code: 'EDIT_REFUSED',
        message: expect.stringMatching(/deep/),
      });
      const edit = await controller.updateSharedState((draft) => {
        draft.deep = nested(depth);
      });
      expect(edit).toMatchObject({ ok: false, code: 'EDIT_REFUSED', message: expect.stringMatching(/deep/) });
    }
    expect(controller.getSnapshot().thread.sharedState.document).toEqual({ kept: 1 });
    expect(await controller.run('go')).toMatchObject({ ok: true });
    expect(inputs[0]?.state).toEqual({ kept: 1 });
    expectReplayed(controller);
  });
});

describe('setState with values JSON has no place for', () => {
  it('keeps the document as JSON would, as an edit does, and a saved log replays it', async () => {
    const controller = createRunController<Record<string, unknown>>({
      source: scripted(() => undefined).source,
      initialState: { kept: 1 },
    });
    await controller.setState({ kept: 1, gone: undefined, at: new Date(Date.UTC(2026, 11, 2)), ratio: Number.NaN, list: [undefined] });
    expect(controller.getSnapshot().thread.sharedState.document).toEqual({
      kept: 1,
      at: '2026-12-02T00:00:00.000Z',
      ratio: null,
      list: [null],
    });
    expect(Object.keys(controller.getSnapshot().thread.sharedState.document as object)).toEqual(['kept', 'at', 'ratio', 'list']);
    await controller.setState(undefined as unknown as Record<string, unknown>);
    expect(controller.getSnapshot().thread.sharedState.document).toBeNull();
    const saved = parseSession(serializeSession(controller.log.entries));
    expect(saved.errors).toEqual([]);
    expect(replaySession(saved.entries).sharedState.document).toBeNull();
  });
});

describe('destroy() while a frontend tool runs', () => {
  it('the log says the tool was stopped: a controller made from it shows the call failed and answers it', async () => {
    const release = held();
    const { source, inputs } = scripted(picksOnce);
    const tools = { pick: { description: 'asks the user to pick', handler: () => release.promise } };
    const first = createRunController({ source, scheduler: microScheduler, tools });
    void first.run('Pick a refund method');
    await tick();
    expect(first.getSnapshot().thread.toolCalls.get('c1')?.status).toBe('executing');
    first.destroy();
    release.settle('card');
    await tick();
    const again = createRunController({ source, scheduler: microScheduler, tools, log: first.log.entries });
    expect(again.getSnapshot().thread.toolCalls.get('c1')).toMatchObject({ status: 'failed' });
    expectReplayed(again);
    await again.run('next');
    expect(inputs[1]?.messages).toContainEqual(expect.objectContaining({ role: 'tool', toolCallId: 'c1' }));
  });

  it('the run() still pending answers DESTROYED, mid-stream or while its tool runs: an app awaiting it can tell it from a finished run', async () => {
    const release = held();
    const { source } = scripted(async (n, input, emit, signal) => {
      if (n === 0) return picksOnce(n, input, emit, signal);
      emit(started(input));
      await new Promise((_r, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
    });
    const tools = { pick: { description: 'asks the user to pick', handler: () => release.promise } };
    const whileTool = createRunController({ source, scheduler: microScheduler, tools });
    const waiting = whileTool.run('Pick a refund method');
    await tick();
    whileTool.destroy();
    expect(await waiting).toMatchObject({ ok: false, code: 'DESTROYED' });
    const midStream = createRunController({ source, scheduler: microScheduler });
    const streaming = midStream.run('hi');
    await tick();
    midStream.destroy();
    expect(await streaming).toMatchObject({ ok: false, code: 'DESTROYED' });
  });

  it('a run already over when a listener destroys the controller answers as it ended; a retry in flight answers DESTROYED', async () => {
    const { source } = scripted((_n, input, emit) => {
      emit(started(input));
      emit(finished(input));
    });
    const c = createRunController({ source, scheduler: microScheduler });
    const off = c.subscribe(() => {
      const snapshot = c.getSnapshot();
      if (snapshot.thread.run.status !== 'success' || snapshot.inFlight !== undefined) return;
      off();
      c.destroy();
    });
    expect(await c.run('hi')).toMatchObject({ ok: true, status: 'success' });

    let n = 0;
    const retried = createRunController({
      source: httpSseSource({
        url: 'http://agent.test/run',
        fetch: (_url, init) => {
          n++;
          if (n === 1) return Promise.resolve(new Response('busy', { status: 503 }));
          return new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)));
        },
      }),
      scheduler: microScheduler,
    });
    expect(await retried.run('hi')).toMatchObject({ ok: true, status: 'error' });
    const again = retried.retry();
    await tick();
    expect(n).toBe(2);
    retried.destroy();
    expect(await again).toMatchObject({ ok: false, code: 'DESTROYED' });
  });

  it('a stream open at destroy ends cut off in the log, as a reload shows it', async () => {
    const { source } = scripted(async (_n, input, emit, signal) => {
      emit(started(input));
      await new Promise((_r, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
    });
    const first = createRunController({ source, scheduler: microScheduler });
    void first.run('hi');
    await tick();
    first.destroy();
    expect(first.log.entries.at(-1)).toMatchObject({ type: 'stream_end', open: true });
    const again = createRunController({ source, scheduler: microScheduler, log: first.log.entries });
    expect(again.getSnapshot().thread.run.status).toBe(first.getSnapshot().thread.run.status);
    expect(again.log.entries.length).toBe(first.log.entries.length);
  });
});

describe('callbacks hear what happens live, never history', () => {
  it('a destroy mid-stream tells onDiagnostic nothing, and a controller made from the log tells onEvent and onDiagnostic nothing', async () => {
    const { source } = scripted(async (_n, input, emit, signal) => {
      emit(started(input));
      emit({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'nobody', delta: 'orphan' });
      await new Promise((_r, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
    });
    const heard: string[] = [];
    const callbacks = {
      onEvent: (e: { type: string }) => heard.push(e.type),
      onDiagnostic: (d: { code: string }) => heard.push(d.code),
    };
    const first = createRunController({ source, scheduler: microScheduler, ...callbacks });
    void first.run('hi');
    await tick();
    const live = [...heard];
    expect(live).toContain('RUN_STARTED');
    first.destroy();
    expect(heard).toEqual(live);
    createRunController({ source, scheduler: microScheduler, log: first.log.entries, ...callbacks });
    expect(heard).toEqual(live);
  });
});

describe('reset() starts a new thread', () => {
  it('with a thread id of its own: an agent that keeps the old thread (its open interrupts) never sees it again', async () => {
    const { source, inputs } = scripted((n, input, emit) => {
      emit(started(input));
      emit(
        n === 0
          ? finished(input, { outcome: { type: 'interrupt', interrupts: [{ id: 'i1', reason: 'confirmation', message: 'Refund?' }] } })
          : finished(input),
      );
    });
    const controller = createRunController({ source, scheduler: microScheduler, initialState: { cart: [] } });
    await controller.run('Refund order A-1001');
    await tick();
    const first = inputs[0]?.threadId;
    controller.reset();
    const fresh = controller.getSnapshot().thread;
    expect(fresh.threadId).not.toBe(first);
    expect(fresh.interrupts).toEqual([]);
    expect(fresh.sharedState.document).toEqual({ cart: [] });
    await controller.run('Something else');
    await tick();
    expect(inputs[1]?.threadId).toBe(fresh.threadId);
    expect(inputs[1]?.parentRunId).toBeUndefined();
    expect(inputs[1]?.resume).toBeUndefined();
    expectReplayed(controller);
    const again = createRunController({ source, log: parseSession(serializeSession(controller.log.entries)).entries });
    expect(again.getSnapshot().thread.threadId).toBe(fresh.threadId);
  });

  it('a thread the app named keeps its name', async () => {
    const controller = createRunController({ source: quiet().source, scheduler: microScheduler, threadId: 'order-A-1001' });
    await controller.run('hi');
    controller.reset();
    expect(controller.getSnapshot().thread.threadId).toBe('order-A-1001');
    expect(controller.getSnapshot().thread.messages.ids).toEqual([]);
  });
});

describe('reset() while an edit waits for immer and the engine', () => {
  it('the edit of the old thread is dropped: the fresh thread and its first run never see it', async () => {
    // Fresh modules: nothing loaded yet, so the edit waits.
    vi.resetModules();
    const fresh = await import('../src/index.js');
    const { source, inputs } = scripted((_n, input, emit) => {
      emit(started(input));
      emit(finished(input));
    });
    const controller = fresh.createRunController<{ cart: string[] }>({ source, scheduler: microScheduler, initialState: { cart: [] } });
    const edit = controller.updateSharedState((draft) => {
      draft.cart.push('an item of the old conversation');
    });
    controller.reset();
    expect(await edit).toMatchObject({ ok: false, code: 'THREAD_RESET' });
    await controller.run('a fresh start');
    await tick();
    expect(controller.getSnapshot().thread.sharedState.document).toEqual({ cart: [] });
    expect(inputs[0]?.state).toEqual({ cart: [] });
  });
});

describe('what an agent names or asks that could trip the controller', () => {
  const asking = (responseSchema: unknown) =>
    scripted((n, input, emit) => {
      emit(started(input));
      emit(
        n === 0
          ? finished(input, { outcome: { type: 'interrupt', interrupts: [{ id: 'i1', reason: 'x', responseSchema }] } })
          : finished(input),
      );
    });

  it('an interrupt whose schema refers to itself without end: the answer is refused, and a cancel still goes through', async () => {
    const { source, inputs } = asking({ allOf: [{ $ref: '#' }] });
    const controller = createRunController({ source, scheduler: microScheduler });
    await controller.run('hi');
    const answer = await controller.resume([{ interruptId: 'i1', status: 'resolved', payload: { approved: true } }]);
    expect(answer).toMatchObject({ ok: false, code: 'RESUME_REFUSED', errors: [{ code: 'SCHEMA_INVALID' }] });
    expect(controller.getSnapshot().inFlight).toBeUndefined();
    expect(await controller.resume([{ interruptId: 'i1', status: 'cancelled' }])).toMatchObject({ ok: true });
    expect(inputs[1]?.resume).toEqual([{ interruptId: 'i1', status: 'cancelled' }]);
    expectReplayed(controller);
  });

  it('an answer nested past the limit is refused before anything is recorded, and a cancel still goes through', async () => {
    const { source, inputs } = asking(undefined);
    const controller = createRunController({ source, scheduler: microScheduler });
    await controller.run('hi');
    const entries = controller.log.entries.length;
    const deep = JSON.parse(`{"v":${'['.repeat(600)}${']'.repeat(600)}}`) as unknown;
    const answer = await controller.resume([{ interruptId: 'i1', status: 'resolved', payload: deep }]);
    expect(answer).toMatchObject({ ok: false, code: 'RESUME_REFUSED', errors: [{ code: 'PAYLOAD_INVALID' }] });
    expect(controller.log.entries).toHaveLength(entries);
    expect(await controller.resume([{ interruptId: 'i1', status: 'cancelled' }])).toMatchObject({ ok: true });
    expect(inputs).toHaveLength(2);
    expectReplayed(controller);
  });

  it("a clock of the app that gives no time is reported, and the system's time is used", async () => {
    const reported = vi.fn();
    vi.stubGlobal('reportError', reported);
    const { source, inputs } = asking({ type: 'object' });
    const controller = createRunController({ source, scheduler: microScheduler, now: () => Number.NaN });
    await controller.run('hi');
    expect(await controller.resume([{ interruptId: 'i1', status: 'resolved', payload: {} }])).toMatchObject({ ok: true });
    expect(inputs).toHaveLength(2);
    expect(reported).toHaveBeenCalledWith(expect.objectContaining({ message: expect.stringMatching(/now\(\).*NaN/) }));
  });

  it('a snapshot nested 5,000 deep is refused; the rest of the stream is applied, and the session saves and reopens', async () => {
    const deep = JSON.parse(`{"type":"STATE_SNAPSHOT","snapshot":${'['.repeat(5000)}${']'.repeat(5000)}}`) as Record<string, unknown>;
    const { source } = scripted((_n, input, emit) => {
      emit(started(input));
      emit({ type: 'STATE_SNAPSHOT', snapshot: { kept: true } });
      emit(deep);
      for (const e of reply()) emit(e);
      emit(finished(input));
    });
    const controller = createRunController({ source, scheduler: microScheduler });
    await controller.run('hi');
    const { thread } = controller.getSnapshot();
    expect(thread.run.status).toBe('success');
    expect(thread.messages.byId.get('m1')?.content).toBe('hello');
    expect(thread.sharedState.document).toEqual({ kept: true });
    expect(thread.diagnostics.map((d) => d.code)).toEqual(['TOO_DEEP']);
    const saved = serializeSession(controller.log.entries);
    const reopened = parseSession(saved);
    expect(reopened.errors).toEqual([]);
    const again = createRunController({ source, log: reopened.entries });
    expect(again.getSnapshot().thread.sharedState.document).toEqual({ kept: true });
    expect(again.getSnapshot().thread.diagnostics.map((d) => d.code)).toEqual(['TOO_DEEP']);
    expectReplayed(controller);
  });

  it('a tool call named after a member every object has (toString, constructor) is no tool of the app: it fails, and the agent is told', async () => {
    const { source, inputs } = scripted((n, input, emit) => {
      emit(started(input));
      if (n === 0) for (const name of ['toString', 'constructor', '__proto__']) for (const e of toolCall(`c-${name}`, name)) emit(e);
      emit(finished(input));
    });
    const controller = createRunController({ source, scheduler: microScheduler, tools: {} });
    await controller.run('hi');
    await tick();
    const calls = controller.getSnapshot().thread.toolCalls;
    for (const name of ['toString', 'constructor', '__proto__']) {
      expect(calls.get(`c-${name}`), name).toMatchObject({
        status: 'failed',
        result: { error: expect.stringContaining(`no tool named "${name}"`) },
      });
    }
    expect(inputs).toHaveLength(2);
    expect(inputs[1]?.messages.filter((m) => m.role === 'tool')).toHaveLength(3);
  });
});

describe('shared-state edits at the edges of the controller', () => {
  type Doc = Record<string, unknown>;

  it.each(['destroy()', 'reset()'] as const)(
    'an edit asked for while events wait for the frame, whose flush runs an onEvent that calls %s, is refused and logs nothing',
    async (how) => {
      let c!: RunController<Doc>;
      const frames: (() => void)[] = [];
      const { source } = scripted(async (_n, input, emit, signal) => {
        emit(started(input));
        emit({ type: 'STATE_DELTA', delta: [{ op: 'add', path: '/warm', value: 1 }] });
        await new Promise((_r, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
      });
      c = createRunController<Doc>({
        source,
        initialState: { base: 1 },
        scheduler: (flush) => {
          frames.push(flush);
          return () => undefined;
        },
        onEvent: (event) => {
          if (event.type !== 'STATE_DELTA') return;
          if (how === 'destroy()') c.destroy();
          else c.reset();
        },
      });
      await c.updateSharedState((d) => {
        d.first = 1;
      });
      void c.run('go');
      for (let i = 0; i < 5 && frames.length === 0; i++) await tick();
      const length = () => c.log.entries.length;
      const result = await c.updateSharedState((d) => {
        d.late = 1;
      });
      expect(result).toMatchObject({ ok: false, code: how === 'destroy()' ? 'DESTROYED' : 'THREAD_RESET' });
      expect(c.getSnapshot().thread.sharedState.document).not.toHaveProperty('late');
      const before = length();
      expect((await c.setState({ replaced: true })).ok).toBe(how === 'reset()');
      expect(length() - before).toBe(how === 'reset()' ? 1 : 0);
    },
  );

  it('an edit made while the run request is in flight is kept when RUN_STARTED restates the input the client sent before it', async () => {
    const gate = held<void>();
    const { source, inputs } = scripted(async (_n, input, emit) => {
      await gate.promise;
      emit({ type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId, input: { ...input } });
      emit(finished(input));
    });
    const c = createRunController<Doc>({ source, scheduler: microScheduler, initialState: { cart: [] } });
    const run = c.run('Add the teapot');
    await tick();
    expect(inputs).toHaveLength(1);
    expect(
      (
        await c.updateSharedState((d) => {
          d.note = '送货前请来电';
        })
      ).ok,
    ).toBe(true);
    gate.settle();
    await run;
    expect(c.getSnapshot().thread.sharedState.document).toEqual({ cart: [], note: '送货前请来电' });
    expect(c.getSnapshot().thread.diagnostics).toEqual([]);
    await c.run('And a cup');
    expect(inputs[1]?.state).toEqual({ cart: [], note: '送货前请来电' });
    expectReplayed(c);
  });

  it('setState from onEvent, applied after the event, takes the document as it was given: the app changing its object afterwards changes nothing', async () => {
    let c!: RunController<Doc>;
    const { source } = scripted((_n, input, emit) => {
      emit(started(input));
      emit(finished(input));
    });
    c = createRunController<Doc>({
      source,
      scheduler: microScheduler,
      initialState: {},
      onEvent: (event) => {
        if (event.type !== 'RUN_STARTED') return;
        const doc = { items: ['a'] as string[], n: 1 };
        void c.setState(doc);
        doc.items.push('changed later');
        doc.n = 99;
      },
    });
    await c.run('go');
    expect(c.getSnapshot().thread.sharedState.document).toEqual({ items: ['a'], n: 1 });
    expectReplayed(c);
  });

  it('initialState, setState and edits keep what JSON would: a Date as its text, no undefined member, no hole, no inherited member', async () => {
    const at = new Date(Date.UTC(2026, 11, 4));
    const c = createRunController<Doc>({
      source: scripted(() => undefined).source,
      initialState: { at, gone: undefined, ratio: Number.NaN },
    });
    expect(c.getSnapshot().thread.sharedState.document).toEqual({ at: '2026-12-04T00:00:00.000Z', ratio: null });
    expect(Object.keys(c.getSnapshot().thread.sharedState.document as Doc)).toEqual(['at', 'ratio']);
    expect(
      (
        await c.updateSharedState((d) => {
          d.gone = 1;
        })
      ).ok,
    ).toBe(true);
    // biome-ignore lint/suspicious/noSparseArray: a hole is what is tested
    const list = [1, , 3];
    const inherited = Object.assign(Object.create({ secret: 1 }) as Doc, { own: 2 });
    expect((await c.setState({ list, inherited })).ok).toBe(true);
    expect(c.getSnapshot().thread.sharedState.document).toEqual({ list: [1, null, 3], inherited: { own: 2 } });
    expect(Object.keys((c.getSnapshot().thread.sharedState.document as { inherited: object }).inherited)).toEqual(['own']);
    expect(
      (
        await c.updateSharedState((d) => {
          (d.list as number[])[1] = 2;
        })
      ).ok,
    ).toBe(true);
    expect((c.getSnapshot().thread.sharedState.document as { list: number[] }).list).toEqual([1, 2, 3]);
    expectReplayed(c);
  });

  it('an edit that puts a cycle in the document is refused, never thrown', async () => {
    const c = createRunController<Doc>({ source: scripted(() => undefined).source, initialState: {} });
    const loop: Doc = { name: 'loop' };
    loop.self = loop;
    const result = await c.updateSharedState((d) => {
      d.loop = loop;
    });
    expect(result).toMatchObject({ ok: false, code: 'EDIT_REFUSED' });
    expect(c.getSnapshot().thread.sharedState.document).toEqual({});
  });
});

describe('an edit of a document that holds a 100,000-key object', () => {
  it('costs what it changes: an edit beside the large object does not copy it, one inside it copies that object alone', async () => {
    const big = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, i]));
    const { source } = scripted((_n, input, emit) => {
      emit(started(input));
      emit({ type: 'STATE_SNAPSHOT', snapshot: { big, cart: { items: [] } } });
      emit({ type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/big/k0', value: 'zero' }] });
      emit(finished(input));
    });
    const c = createRunController<{ big: Record<string, unknown>; cart: { items: string[] } }>({ source, scheduler: microScheduler });
    await c.run('Load the catalogue');
    // immer and the engine loaded, and the code warm, before the edits timed. The first edit starts loading immer and
    // is made on a copy of the document (a walk of it): the next ones, once immer has loaded, on its draft.
    await c.updateSharedState((d) => void d.cart.items.push('warm'));
    await Promise.all([import('immer'), import('../src/controller/immerEdit.js')]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await c.updateSharedState((d) => void d.cart.items.push('warm'));
    const began = performance.now();
    expect((await c.updateSharedState((d) => void d.cart.items.push('茶壶'))).ok).toBe(true);
    const beside = performance.now() - began;
    /** ms an edit of `key` inside the large object takes. */
    const editInside = async (key: string, value: string) => {
      const at = performance.now();
      expect(
        (
          await c.updateSharedState((d) => {
            d.big[key] = value;
          })
        ).ok,
      ).toBe(true);
      return performance.now() - at;
    };
    // Made again (another key) when over the bound, up to three edits in all, the quickest kept: a busy machine
    // slows one edit now and then, a walk of the whole document slows every one.
    let inside = await editInside('k5', 'five');
    for (let tries = 1; tries < 3 && inside >= 1_000; tries++) inside = Math.min(inside, await editInside(`k${5 + tries}`, 'again'));
    const document = c.getSnapshot().thread.sharedState.document as { big: Record<string, unknown>; cart: { items: string[] } };
    expect(document.cart.items).toEqual(['warm', 'warm', '茶壶']);
    expect([document.big.k0, document.big.k5, Object.keys(document.big).length]).toEqual(['zero', 'five', 100_000]);
    // A walk of the whole document (100,000 keys) took 100-450 ms per edit; what is measured is far under it.
    expect(beside).toBeLessThan(50);
    expect(inside).toBeLessThan(1_000);
    expectReplayed(c);
  });
});

describe('a client edit and the run inputs that restate the document after it', () => {
  it('stops holding off the inputs once a run restated it: a later input that differs becomes the document, as without an edit', async () => {
    const { source, inputs } = scripted((n, input, emit) => {
      // The first run restates what the client sent; the second, the agent's own version.
      emit({
        type: 'RUN_STARTED',
        threadId: input.threadId,
        runId: input.runId,
        input: { ...input, state: n === 0 ? input.state : { a: 2 } },
      });
      emit(finished(input));
    });
    const c = createRunController({ source, scheduler: microScheduler });
    await c.setState({ a: 1 });
    await c.run('one');
    expect(inputs[0]?.state).toEqual({ a: 1 });
    await c.run('two');
    expect(c.getSnapshot().thread.sharedState).toMatchObject({ document: { a: 2 }, basis: 'input' });
    expectReplayed(c);
  });
});

describe('listeners: one call per change, each subscription its own, and none after destroy', () => {
  /** A run that has started and holds its stream open, with events waiting for the next frame (the scheduler never flushes). */
  const never: FrameScheduler = () => () => undefined;
  const streaming = async () => {
    const { source } = scripted(async (_n, input, emit, signal) => {
      emit(started(input));
      emit({ type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' });
      emit({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'hello' });
      await open(signal);
    });
    const controller = createRunController({ source, scheduler: never });
    const run = controller.run('x');
    await tick();
    return { controller, run };
  };

  it('the same function subscribed twice is two subscriptions: removing one leaves the other', () => {
    const controller = createRunController({ source: quiet().source });
    let calls = 0;
    const listener = () => {
      calls++;
    };
    const off = controller.subscribe(listener);
    controller.subscribe(listener);
    off();
    off();
    controller.reset();
    expect(calls).toBe(1);
  });

  it('a lone listener that subscribes again while told is told once per change, not in a loop', () => {
    const controller = createRunController({ source: quiet().source });
    let calls = 0;
    let off = () => {};
    const again = () => {
      calls++;
      if (calls > 10) return;
      off();
      off = controller.subscribe(again);
    };
    off = controller.subscribe(again);
    controller.reset();
    expect(calls).toBe(1);
    controller.reset();
    expect(calls).toBe(2);
  });

  it('a listener added while another is told hears the next change, not that one', () => {
    const controller = createRunController({ source: quiet().source });
    let late = 0;
    const first = controller.subscribe(() => {
      first();
      controller.subscribe(() => {
        late++;
      });
    });
    controller.reset();
    expect(late).toBe(0);
    controller.reset();
    expect(late).toBe(1);
  });

  it('a listener removed while others are told is not told of that change', () => {
    const controller = createRunController({ source: quiet().source });
    let removed = 0;
    let off = () => {};
    controller.subscribe(() => off());
    off = controller.subscribe(() => {
      removed++;
    });
    controller.reset();
    expect(removed).toBe(0);
  });

  it('destroy() from a listener: no listener is told anything after it, and a refused action leaves the last snapshot', async () => {
    const { controller, run } = await streaming();
    const seen: boolean[] = [];
    controller.subscribe(() => {
      if (!controller.getSnapshot().destroyed) controller.destroy();
    });
    controller.subscribe(() => {
      seen.push(controller.getSnapshot().destroyed);
    });
    controller.stop();
    await run;
    expect(seen.slice(seen.indexOf(true) + 1)).toEqual([]);
    const last = controller.getSnapshot();
    expect(await controller.run('again')).toMatchObject({ ok: false, code: 'DESTROYED' });
    expect(controller.getSnapshot()).toBe(last);
  });

  it.each(['stop', 'reset'] as const)(
    'destroy() from a listener told while %s() applies the waiting events: nothing is logged after it',
    async (action) => {
      const { controller, run } = await streaming();
      let length = -1;
      controller.subscribe(() => {
        if (length >= 0) return;
        controller.destroy();
        length = controller.log.entries.length;
      });
      const threadId = controller.getSnapshot().thread.threadId;
      controller[action]();
      await run;
      expect(length).toBeGreaterThan(0);
      expect(controller.log.entries.slice(length)).toEqual([]);
      expect(controller.getSnapshot()).toMatchObject({ destroyed: true, connection: 'closed' });
      expect(controller.getSnapshot().thread.threadId).toBe(threadId);
    },
  );

  it('reset() from a listener told while stop() applies the waiting events: the new thread starts clean, with no stop after its start', async () => {
    const { controller, run } = await streaming();
    let reset = false;
    controller.subscribe(() => {
      if (reset) return;
      reset = true;
      controller.reset();
    });
    controller.stop();
    await run;
    const types = controller.log.entries.map((e) => e.type);
    expect(types.slice(types.lastIndexOf('reset'))).toEqual(['reset', 'init']);
    expect(controller.getSnapshot()).toMatchObject({ connection: 'idle', inFlight: undefined });
    expect(controller.getSnapshot().thread.run.status).toBe('idle');
    expectReplayed(controller);
  });

  it('stop() from a listener told while reset() applies the waiting events: the reset still starts a new thread', async () => {
    const { controller, run } = await streaming();
    const threadId = controller.getSnapshot().thread.threadId;
    let stopped = false;
    controller.subscribe(() => {
      if (stopped) return;
      stopped = true;
      controller.stop();
    });
    controller.reset();
    await run;
    const types = controller.log.entries.map((e) => e.type);
    expect(types.slice(-2)).toEqual(['reset', 'init']);
    expect(controller.getSnapshot().thread.threadId).not.toBe(threadId);
    expect(controller.getSnapshot()).toMatchObject({ connection: 'idle' });
    expectReplayed(controller);
  });
});

describe('an async recipe', () => {
  // The compiler takes one where the app's own type says the recipe returns nothing.
  const asyncRecipe =
    (edit: (draft: Record<string, number>) => void, wait: boolean): ((draft: Record<string, number>) => void) =>
    async (draft) => {
      if (wait) await tick();
      edit(draft);
    };

  it.each([
    ['edits after an await', true],
    ['edits before its first await', false],
  ])('that %s is refused (EDIT_REFUSED), and the document is as it was', async (_name, wait) => {
    const controller = createRunController<Record<string, number>>({ source: quiet().source, initialState: { keep: 1 } });
    await controller.updateSharedState((draft) => {
      draft.warm = 1;
    });
    const entries = controller.log.entries.length;
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const result = await controller.updateSharedState(
        asyncRecipe((draft) => {
          draft.b = 2;
        }, wait),
      );
      expect(result).toMatchObject({ ok: false, code: 'EDIT_REFUSED', message: expect.stringMatching(/promise/) });
      await tick();
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(controller.getSnapshot().thread.sharedState.document).toEqual({ keep: 1, warm: 1 });
      expect(controller.log.entries).toHaveLength(entries);
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });
});
