/**
 * The engine is not in what an application loads up front: a controller asks
 * for it as it is made, and its first request waits for it. Each test file is
 * a fresh module graph, and each test here starts from a fresh one again
 * (`vi.resetModules`), so the engine has not loaded when it begins.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AgentSource, RunAgentInput, SessionEntry } from '../src/index.js';

const answer = (input: RunAgentInput) => [
  { type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId },
  { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' },
  { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: '退款已提交' },
  { type: 'TEXT_MESSAGE_END', messageId: 'm1' },
  { type: 'RUN_FINISHED', threadId: input.threadId, runId: input.runId },
];

function scripted(): AgentSource & { requests: number } {
  const source = {
    requests: 0,
    run(input: RunAgentInput) {
      source.requests++;
      return (async function* () {
        yield* answer(input);
      })();
    },
  };
  return source;
}

/** A session as a controller with the engine recorded it: a message and the agent's answer. */
const THREAD = 'thread-0b7c4f1e-5a2d-4c7e-9f1a-2d3e4f5a6b7c';
const saved: SessionEntry[] = [
  { type: 'init', threadId: THREAD, at: 1 },
  { type: 'user_message', message: { id: 'u1', role: 'user', content: '请退款 A-1001' }, at: 2 },
  { type: 'stream_start', kind: 'run', runId: 'run-1', at: 3 },
  ...answer({ threadId: THREAD, runId: 'run-1' } as RunAgentInput).map(
    (event, index): SessionEntry => ({ type: 'event', event, index, at: 4 + index }),
  ),
  { type: 'stream_end', open: false, at: 10 },
];

const fresh = async () => {
  vi.resetModules();
  return import('../src/index.js');
};

const texts = (thread: { messages: { ids: readonly string[]; byId: { get(id: string): { content?: unknown } | undefined } } }) =>
  thread.messages.ids.map((id) => thread.messages.byId.get(id)?.content);

afterEach(() => {
  vi.doUnmock('../src/controller/engineParts.js');
  vi.doUnmock('immer');
});

describe('a controller made before the engine has loaded', () => {
  it('refuses a saved log holding agent events, saying what to do, and replays it once loadEngine() has resolved', async () => {
    const core = await fresh();
    expect(() => core.createRunController({ source: scripted(), log: saved })).toThrow(
      /await loadEngine\(\) before createRunController\(\{ log \}\)/,
    );
    await core.loadEngine();
    const thread = core.createRunController({ source: scripted(), log: saved }).getSnapshot().thread;
    expect(thread.run.status).toBe('success');
    expect(texts(thread)).toEqual(['请退款 A-1001', '退款已提交']);
  });

  it('a recording holding agent events is read once loadEngine() has resolved: a read before says so, and leaves nothing half made', async () => {
    const core = await fresh();
    const recording = core.createRecording(saved, { every: 2 });
    // Client entries only need no engine.
    expect(texts(recording.stateAt(1))).toEqual(['请退款 A-1001']);
    expect(() => recording.stateAt(saved.length - 1)).toThrow(expect.objectContaining({ code: 'ENGINE_NOT_LOADED' }));
    expect(() => recording.stateAt(saved.length - 1)).toThrow(/await loadEngine\(\) before .*createRecording/);
    expect(() => core.createRecording(saved, { every: 0 })).toThrow(RangeError);
    // A controller's time travel, and one made from a recording of client entries, need none either.
    const fromRecording = core.createRunController({ source: scripted(), log: recording.until(1) });
    expect(texts(fromRecording.getSnapshot().thread)).toEqual(['请退款 A-1001']);
    expect(texts(fromRecording.stateAt(1))).toEqual(['请退款 A-1001']);
    await core.loadEngine();
    expect(texts(recording.stateAt(1))).toEqual(['请退款 A-1001']);
    expect(recording.stateAt(saved.length - 1).run.status).toBe('success');
    expect(texts(recording.stateAt(saved.length - 1))).toEqual(['请退款 A-1001', '退款已提交']);
    expect(recording.stateAt(4).run.status).toBe('running');
  });

  it('a recording prepared before the engine is loaded loads it, then reads', async () => {
    const core = await fresh();
    const recording = core.createRecording(saved, { every: 2 });
    await recording.prepare();
    expect(texts(recording.stateAt(saved.length - 1))).toEqual(['请退款 A-1001', '退款已提交']);
  });

  it('opens a saved log of client entries only (no agent event) at once', async () => {
    const core = await fresh();
    const controller = core.createRunController({ source: scripted(), log: saved.slice(0, 2) });
    expect(texts(controller.getSnapshot().thread)).toEqual(['请退款 A-1001']);
  });

  it('shows the user message at once, sends the request once the engine is there, and applies every event', async () => {
    const core = await fresh();
    const source = scripted();
    const controller = core.createRunController({ source, threadId: THREAD });
    const done = controller.run('请退款 A-1001');
    // The user's message needs no engine: it is on screen before the request goes.
    expect(texts(controller.getSnapshot().thread)).toEqual(['请退款 A-1001']);
    expect(controller.getSnapshot().inFlight).toBe('run');
    await expect(done).resolves.toMatchObject({ ok: true, status: 'success' });
    expect(source.requests).toBe(1);
    expect(texts(controller.getSnapshot().thread)).toEqual(['请退款 A-1001', '退款已提交']);
    expect(controller.log.entries.map((e) => e.type)).toEqual([
      'init',
      'user_message',
      'stream_start',
      ...Array(5).fill('event'),
      'stream_end',
    ]);
  });

  it('stop() while the first run waits for the engine sends nothing, and the next run goes', async () => {
    const core = await fresh();
    const source = scripted();
    const controller = core.createRunController({ source, threadId: THREAD });
    const first = controller.run('请退款 A-1001');
    controller.stop();
    await expect(first).resolves.toMatchObject({ ok: true });
    await core.loadEngine();
    expect(source.requests).toBe(0);
    expect(controller.getSnapshot()).toMatchObject({ connection: 'closed', inFlight: undefined });
    expect(controller.getSnapshot().thread.run.status).toBe('idle');
    await expect(controller.run('再试一次')).resolves.toMatchObject({ ok: true, status: 'success' });
    expect(source.requests).toBe(1);
    expect(texts(controller.getSnapshot().thread)).toEqual(['请退款 A-1001', '再试一次', '退款已提交']);
  });

  it('a shared-state edit made before the engine has loaded waits for it, and is sent with the next run', async () => {
    const core = await fresh();
    const inputs: RunAgentInput[] = [];
    const source: AgentSource = {
      run(input) {
        inputs.push(input);
        return (async function* () {
          yield* answer(input);
        })();
      },
    };
    const controller = core.createRunController<{ cart: string[] }>({ source, initialState: { cart: [] } });
    const edited = controller.updateSharedState((draft) => {
      draft.cart.push('A-1001');
    });
    await controller.run('结账');
    await edited;
    expect(inputs[0]?.state).toEqual({ cart: ['A-1001'] });
    expect(controller.getSnapshot().thread.sharedState.lastDelta).toEqual([{ op: 'add', path: '/cart/0', value: 'A-1001' }]);
  });

  it("a run asked for while an edit waits for its code shows the user's message at once, and a stop then keeps it and sends nothing", async () => {
    const core = await fresh();
    const source = scripted();
    const controller = core.createRunController<{ cart: string[] }>({ source, threadId: THREAD, initialState: { cart: [] } });
    void controller.updateSharedState((draft) => {
      draft.cart.push('A-1001');
    });
    const run = controller.run('结账 A-1001');
    expect(texts(controller.getSnapshot().thread)).toEqual(['结账 A-1001']);
    controller.stop();
    await expect(run).resolves.toMatchObject({ ok: true });
    expect(source.requests).toBe(0);
    expect(texts(controller.getSnapshot().thread)).toEqual(['结账 A-1001']);
    expect(controller.getSnapshot().inFlight).toBeUndefined();
  });

  it('an engine that cannot load fails the run with ENGINE_UNAVAILABLE, sends nothing, and retry() loads it and sends', async () => {
    let fail = true;
    vi.doMock('../src/controller/engineParts.js', async (original) => {
      if (fail) throw new TypeError('Failed to fetch dynamically imported module: /assets/engineParts-3f9a.js');
      return original();
    });
    const core = await fresh();
    const source = scripted();
    const controller = core.createRunController({ source, threadId: THREAD });
    const first = await controller.run('请退款 A-1001');
    expect(first).toMatchObject({ ok: true, status: 'error' });
    const snap = controller.getSnapshot();
    expect(source.requests).toBe(0);
    expect(snap.connection).toBe('failed');
    expect(snap.failure).toMatchObject({ code: 'ENGINE_UNAVAILABLE', retryable: true, eventsReceived: 0 });
    expect(snap.failure?.message).toMatch(/could not load its event engine, so nothing was sent/);
    expect(snap.thread.run).toMatchObject({ status: 'error', error: { code: 'ENGINE_UNAVAILABLE' } });

    fail = false;
    await expect(controller.retry()).resolves.toMatchObject({ ok: true, status: 'success' });
    expect(source.requests).toBe(1);
    expect(texts(controller.getSnapshot().thread)).toEqual(['请退款 A-1001', '退款已提交']);
  });

  it('a shared-state edit whose code cannot load is refused, not thrown, and the next edit loads it again', async () => {
    let fail = true;
    vi.doMock('immer', async (original) => {
      if (fail) throw new TypeError('Failed to fetch dynamically imported module: /assets/immer-9c1d.js');
      return original();
    });
    const core = await fresh();
    const controller = core.createRunController<{ cart: string[] }>({ source: scripted(), threadId: THREAD, initialState: { cart: [] } });
    const edit = await controller.updateSharedState((draft) => {
      draft.cart.push('A-1001');
    });
    expect(edit).toMatchObject({ ok: false, code: 'ENGINE_UNAVAILABLE' });
    expect(edit.ok === false && edit.message).toMatch(/nothing was done/);
    expect(controller.getSnapshot().refusal?.code).toBe('ENGINE_UNAVAILABLE');
    expect(controller.getSnapshot().thread.sharedState.document).toEqual({ cart: [] });

    fail = false;
    await expect(
      controller.updateSharedState((draft) => {
        draft.cart.push('A-1001');
      }),
    ).resolves.toMatchObject({ ok: true });
    expect(controller.getSnapshot().thread.sharedState.document).toEqual({ cart: ['A-1001'] });
  });
});

describe('a shared-state edit asked for while immer loads', () => {
  type Doc = { name: string; tags: string[] };
  it('applies at once on a copy, as an input bound to the document needs: each keystroke lands, in order, as a delta', async () => {
    const core = await fresh();
    await core.loadEngine();
    const controller = core.createRunController<Doc>({ source: scripted(), threadId: THREAD, initialState: { name: '', tags: ['a'] } });
    // A controlled field: each key's edit is made from what the field shows, which is the document now.
    const shown = () => (controller.getSnapshot().thread.sharedState.document as Doc).name;
    const results = [...'你好 hello'].map((key) => {
      const value = shown() + key;
      return controller.updateSharedState((draft) => {
        draft.name = value;
      });
    });
    expect(shown()).toBe('你好 hello');
    for (const result of results) await expect(result).resolves.toMatchObject({ ok: true });
    const edits = controller.log.entries.filter((e) => e.type === 'state_edit');
    expect(edits).toHaveLength(8);
    expect(edits[0]).toMatchObject({ delta: [{ op: 'replace', path: '/name', value: '你' }] });
    expect(controller.getSnapshot().thread.sharedState.lastDelta).toEqual([{ op: 'replace', path: '/name', value: '你好 hello' }]);
    expect(controller.stateAt(controller.log.entries.length - 1).sharedState.document).toEqual({ name: '你好 hello', tags: ['a'] });
  });

  it('a copy edit keeps what a recipe does to arrays, keys and the whole document, and refuses what it cannot take', async () => {
    const core = await fresh();
    await core.loadEngine();
    const controller = core.createRunController<Doc | number[]>({
      source: scripted(),
      threadId: THREAD,
      initialState: { name: 'x', tags: ['a', 'b', 'c'] },
    });
    const doc = () => controller.getSnapshot().thread.sharedState.document;
    const first = controller.updateSharedState((d) => {
      const draft = d as Doc & { extra?: unknown };
      draft.tags.splice(0, 2, 'z');
      draft.extra = { 'a/b': [1, undefined] };
    });
    expect(doc()).toEqual({ name: 'x', tags: ['z', 'c'], extra: { 'a/b': [1, null] } });
    await expect(first).resolves.toMatchObject({ ok: true });
    const whole = controller.updateSharedState(() => [1, 2]);
    expect(doc()).toEqual([1, 2]);
    await whole;
    const thrown = await controller.updateSharedState(() => {
      throw new Error('no such order');
    });
    expect(thrown).toMatchObject({ ok: false, code: 'EDIT_REFUSED' });
    expect(thrown.ok === false && thrown.message).toMatch(/its recipe threw: no such order/);
    const later = await controller.updateSharedState((async () => undefined) as never);
    expect(later).toMatchObject({ ok: false, code: 'EDIT_REFUSED' });
    expect(doc()).toEqual([1, 2]);
    // `d => d.push(x)` returns the new length: the draft changed and a value came back. Neither wins; nothing is edited.
    const both = controller.updateSharedState((d) => (d as number[]).push(3) as never);
    expect(doc()).toEqual([1, 2]);
    await expect(both).resolves.toMatchObject({
      ok: false,
      code: 'EDIT_REFUSED',
      message: expect.stringMatching(/^The edit was not applied: the recipe changed its draft and returned a value too/),
    });
    // Returning the draft itself is the draft's edit.
    await expect(controller.updateSharedState((d) => (d as number[]).concat() && d)).resolves.toMatchObject({ ok: true });
    expect(controller.stateAt(controller.log.entries.length - 1).sharedState.document).toEqual([1, 2]);
  });
});

describe('a copy edit inside a large object the agent sent', () => {
  it('reads the object through its overlay and records the one key it changed', async () => {
    const core = await fresh();
    await core.loadEngine();
    const rows = Object.fromEntries(Array.from({ length: 1_000 }, (_, i) => [`r${i}`, { done: false, title: `第 ${i} 行` }]));
    const source: AgentSource = {
      run: (input) =>
        (async function* () {
          yield { type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId };
          yield { type: 'STATE_SNAPSHOT', snapshot: { rows } };
          yield { type: 'RUN_FINISHED', threadId: input.threadId, runId: input.runId };
        })(),
    };
    const controller = core.createRunController<{ rows: Record<string, { done: boolean }> }>({ source, threadId: THREAD });
    await controller.run('list the rows');
    const result = controller.updateSharedState((draft) => {
      (draft.rows.r42 as { done: boolean }).done = true;
    });
    await expect(result).resolves.toMatchObject({ ok: true });
    const edit = controller.log.entries.findLast((e) => e.type === 'state_edit');
    expect(edit).toMatchObject({ delta: [{ op: 'replace', path: '/rows/r42/done', value: true }] });
    const rowsNow = (controller.getSnapshot().thread.sharedState.document as { rows: Record<string, { done: boolean }> }).rows;
    expect(rowsNow.r42?.done).toBe(true);
    expect(rowsNow.r41?.done).toBe(false);
    expect(Object.keys(rowsNow)).toHaveLength(1_000);
  });
});

describe('a request that fails once the engine has loaded', () => {
  it('is read by the engine that loaded on the second try: a source that throws at once, a 503, and a refused connection', async () => {
    let fail = true;
    vi.doMock('../src/controller/engineParts.js', async (original) => {
      if (fail) throw new TypeError('Failed to fetch dynamically imported module: /assets/engineParts-3f9a.js');
      return original();
    });
    const core = await fresh();
    let thrown: () => unknown = () => new core.AgentTransportError('HTTP_STATUS', 'HTTP 503', 503, '{"error":{"message":"overloaded"}}');
    let requests = 0;
    const source: AgentSource = {
      run() {
        requests++;
        // Thrown as `run` is called, not from the iteration.
        throw thrown();
      },
    };
    const controller = core.createRunController({ source, threadId: THREAD });
    await controller.run('请退款 A-1001');
    expect(controller.getSnapshot().failure).toMatchObject({ code: 'ENGINE_UNAVAILABLE', retryable: true });
    expect(requests).toBe(0);

    fail = false;
    await controller.retry();
    expect(requests).toBe(1);
    expect(controller.getSnapshot().failure).toMatchObject({ code: 'HTTP_STATUS', status: 503, said: 'overloaded', retryable: true });
    expect(controller.getSnapshot().failure?.message).toBe(
      'The agent could not take the request (HTTP 503); try again. It said: overloaded',
    );

    thrown = () => new TypeError('Failed to fetch');
    await controller.retry();
    expect(requests).toBe(2);
    expect(controller.getSnapshot().failure).toMatchObject({ code: 'NETWORK', retryable: true, eventsReceived: 0 });
    controller.destroy();
  });
});
