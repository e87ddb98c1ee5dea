/**
 * The findings the run controller fixes, each through the store an app uses:
 * what a stop, a reset and an unmount leave behind, what the log holds,
 * mutating shared-state edits, and requests that fail before any event.
 */
import { AgentTransportError } from '@aguikit/core';
import { replaySession } from '@aguikit/core/engine';
import { act, render } from '@testing-library/react';
import { Activity, StrictMode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { AgentProvider, createAgentStore, useAgentRun } from '../src/index.js';
import { manualFrames, manualSource, tick } from './support/sources.js';

const started = (runId: string) => ({ type: 'RUN_STARTED', threadId: 't1', runId });
const finished = (runId: string, extra: object = {}) => ({ type: 'RUN_FINISHED', threadId: 't1', runId, ...extra });
const text = (id: string, delta: string) => [
  { type: 'TEXT_MESSAGE_START', messageId: id, role: 'assistant' },
  { type: 'TEXT_MESSAGE_CONTENT', messageId: id, delta },
  { type: 'TEXT_MESSAGE_END', messageId: id },
];
const toolCall = (id: string, name: string, args: string) => [
  { type: 'TOOL_CALL_START', toolCallId: id, toolCallName: name, parentMessageId: `m-${id}` },
  { type: 'TOOL_CALL_ARGS', toolCallId: id, delta: args },
  { type: 'TOOL_CALL_END', toolCallId: id },
];

function setup(extra: Partial<Parameters<typeof createAgentStore>[0]> = {}) {
  const m = manualSource();
  const frames = manualFrames();
  const store = createAgentStore({ source: m.source, threadId: 't1', scheduler: frames.scheduler, ...extra });
  return { m, frames, store };
}

/** A frontend tool whose result the test releases. */
function heldTool() {
  let release: (value: string) => void = () => undefined;
  const handler = vi.fn(
    () =>
      new Promise<string>((resolve) => {
        release = resolve;
      }),
  );
  return { handler, release: (value: string) => release(value) };
}

const messageTexts = (s: ReturnType<typeof setup>) => {
  const { thread } = s.store.getState();
  return thread.messages.ids.map((id) => `${thread.messages.byId.get(id)?.role}:${String(thread.messages.byId.get(id)?.content)}`);
};

describe('stop, reset and unmount leave nothing running', () => {
  it('after stop(), the stopped run’s frontend tool neither delays the next run nor starts a run of its own (finding 1)', async () => {
    const tool = heldTool();
    const s = setup({ tools: { lookup: { description: 'Look up', handler: tool.handler } } });
    const first = s.store.getState().run('one');
    await tick();
    const runId = s.m.requests[0]?.runId ?? '';
    // The run finished on its frontend tool, which runs until the stop.
    s.m.push(started(runId), ...toolCall('c1', 'lookup', '{}'), finished(runId));
    await tick();
    s.frames.frame();
    await tick();
    expect(tool.handler).toHaveBeenCalledTimes(1);
    s.store.getState().stop();
    await first;
    const second = s.store.getState().run('two');
    await tick();
    expect(s.m.requests).toHaveLength(2);
    const next = s.m.requests[1]?.runId ?? '';
    s.m.push(started(next), ...text('a2', 'ok'), finished(next));
    s.m.end();
    expect(await second).toEqual({ ok: true, status: 'success' });
    tool.release('late');
    await tick();
    await tick();
    // Nobody asked for a third run, and the stopped tool's result was dropped.
    expect(s.m.requests).toHaveLength(2);
    expect(s.store.getState().thread.toolCalls.get('c1')?.result).toBeUndefined();
  });

  it('a frontend tool that settles after reset() writes nothing into the fresh thread (finding 2)', async () => {
    const tool = heldTool();
    const s = setup({ tools: { lookup: { description: 'Look up', handler: tool.handler } } });
    const done = s.store.getState().run('one');
    await tick();
    const runId = s.m.requests[0]?.runId ?? '';
    s.m.push(started(runId), ...toolCall('c1', 'lookup', '{}'), finished(runId));
    s.m.end();
    await tick();
    await tick();
    expect(tool.handler).toHaveBeenCalledTimes(1);
    s.store.getState().reset();
    tool.release('late');
    await done;
    await tick();
    expect(s.store.getState().thread.messages.ids).toEqual([]);
    expect(s.m.requests).toHaveLength(1);
  });

  it('a tool aborted by stop() is told so through its signal', async () => {
    let signal: AbortSignal | undefined;
    const s = setup({
      tools: {
        lookup: {
          description: 'Look up',
          handler: (_args, _call, context) => {
            signal = context.signal;
            return new Promise(() => undefined);
          },
        },
      },
    });
    void s.store.getState().run('one');
    await tick();
    const runId = s.m.requests[0]?.runId ?? '';
    s.m.push(started(runId), ...toolCall('c1', 'lookup', '{}'), finished(runId));
    await tick();
    s.frames.frame();
    await tick();
    expect(signal?.aborted).toBe(false);
    s.store.getState().stop();
    expect(signal?.aborted).toBe(true);
  });

  it('a store that useAgentRun created is destroyed on unmount, StrictMode’s remount keeps it, and its stream is aborted (finding 3)', async () => {
    const m = manualSource();
    let seen: ReturnType<typeof createAgentStore> | undefined;
    function Chat() {
      const agent = useAgentRun({ source: m.source, threadId: 't1' });
      seen = agent.store;
      return <p>{agent.status}</p>;
    }
    const view = render(
      <StrictMode>
        <Chat />
      </StrictMode>,
    );
    await act(async () => {
      await tick();
    });
    const store = seen;
    if (!store) throw new Error('no store');
    // StrictMode unmounted and mounted the effects once: the store is alive.
    expect(store.getState().destroyed).toBe(false);
    void store.getState().run('hi');
    await tick();
    expect(m.channel(0)?.options.signal?.aborted).toBe(false);
    view.unmount();
    await tick();
    expect(store.getState().destroyed).toBe(true);
    expect(m.channel(0)?.options.signal?.aborted).toBe(true);
    expect(await store.getState().run('again')).toMatchObject({ ok: false, code: 'DESTROYED' });
  });

  it('a component <Activity> hid, long enough for its store to be destroyed, comes back with its thread and a working store', async () => {
    const m = manualSource();
    let agent: ReturnType<typeof useAgentRun> | undefined;
    function Chat() {
      agent = useAgentRun({ source: m.source, threadId: 't1' });
      return <p>{agent.status}</p>;
    }
    const at = (mode: 'visible' | 'hidden') => (
      <Activity mode={mode}>
        <Chat />
      </Activity>
    );
    const view = render(at('visible'));
    await act(async () => {
      void agent?.run('退款 A-1001');
      await tick();
      m.push(started('r1'), ...text('a1', 'Refunded.'), finished('r1'));
      m.end();
      await tick();
    });
    const first = agent?.store;
    view.rerender(at('hidden'));
    await act(async () => {
      await tick();
      await tick();
    });
    // Hidden, its effects are gone: the store it owned was destroyed, its stream with it.
    expect(first?.getState().destroyed).toBe(true);
    view.rerender(at('visible'));
    await act(async () => {
      await tick();
    });
    const store = agent?.store;
    expect(store?.getState().destroyed).toBe(false);
    const texts = (s: typeof store) => s?.getState().thread.messages.ids.map((id) => s.getState().thread.messages.byId.get(id)?.content);
    expect(texts(store)).toEqual(['退款 A-1001', 'Refunded.']);
    let result: unknown;
    await act(async () => {
      const running = agent?.run('And A-1002?');
      await tick();
      m.push(started('r2'), ...text('a2', 'Done too.'), finished('r2'));
      m.end();
      result = await running;
    });
    expect(result).toMatchObject({ ok: true, status: 'success' });
    expect(texts(agent?.store)).toEqual(['退款 A-1001', 'Refunded.', 'And A-1002?', 'Done too.']);
    view.unmount();
    await tick();
    expect(agent?.store.getState().destroyed).toBe(true);
  });

  it('a store passed to AgentProvider is left alone on unmount; one it created from options is destroyed', async () => {
    const given = setup().store;
    const view = render(
      <AgentProvider store={given}>
        <p>chat</p>
      </AgentProvider>,
    );
    view.unmount();
    await tick();
    expect(given.getState().destroyed).toBe(false);
    const m = manualSource();
    let own: ReturnType<typeof createAgentStore> | undefined;
    function Probe() {
      own = useAgentRun().store;
      return null;
    }
    const second = render(
      <AgentProvider options={{ source: m.source }}>
        <Probe />
      </AgentProvider>,
    );
    second.unmount();
    await tick();
    expect(own?.getState().destroyed).toBe(true);
  });
});

describe('the session log holds every change, and replays exactly (finding 4)', () => {
  it('replaying a session shows the user’s message before the agent’s reply, and the client’s edits', async () => {
    const s = setup({ initialState: { cart: ['x'] }, initialMessages: [{ id: 'sys', role: 'system', content: 'Be brief.' }] });
    await s.store.getState().updateSharedState((draft: unknown) => {
      (draft as { cart: string[] }).cart.push('y');
    });
    const done = s.store.getState().run('hello');
    await tick();
    const runId = s.m.requests[0]?.runId ?? '';
    s.m.push(started(runId), ...text('a1', 'hi there'), finished(runId));
    s.m.end();
    await done;
    expect(messageTexts(s)).toEqual(['system:Be brief.', 'user:hello', 'assistant:hi there']);
    const replayed = replaySession(s.store.session.entries);
    expect(replayed.messages.ids).toEqual(s.store.getState().thread.messages.ids);
    expect(replayed.sharedState.document).toEqual({ cart: ['x', 'y'] });
    expect(replayed.run.status).toBe('success');
    expect(s.store.session.entries.map((e) => e.type)).toEqual([
      'init',
      'state_edit',
      'user_message',
      'stream_start',
      'event',
      'event',
      'event',
      'event',
      'event',
      'stream_end',
    ]);
  });

  it('time travel over a live in-sync thread shows its document and messages, not an empty desynced one', async () => {
    const s = setup({ initialState: { cart: ['x'] } });
    const done = s.store.getState().run('hello');
    await tick();
    const runId = s.m.requests[0]?.runId ?? '';
    s.m.push(started(runId), { type: 'STATE_DELTA', delta: [{ op: 'add', path: '/cart/-', value: 'z' }] }, ...text('a1', 'ok'));
    await tick();
    s.frames.frame();
    // After the delta (agent event 1): the initial document with the agent's edit, in sync, the user's message shown.
    const atDelta = s.store.stateAfterEvent(1);
    expect(atDelta.sharedState).toMatchObject({ document: { cart: ['x', 'z'] }, sync: 'in-sync' });
    expect(atDelta.messages.ids).toHaveLength(1);
    // An index that names no event of the log is a RangeError, not the live thread passed off as that event's.
    for (const index of [-1, s.store.getState().eventCount, 0.5, Number.NaN])
      expect(() => s.store.stateAfterEvent(index), String(index)).toThrow(RangeError);
    s.m.push(finished(runId));
    s.m.end();
    await done;
  });
});

describe('shared-state edits with immer (finding 5)', () => {
  it('an updater that mutates the document and returns nothing is applied, and the old document is untouched', async () => {
    const s = setup({ initialState: { cart: ['x'] } });
    const before = s.store.getState().thread.sharedState.document;
    await s.store.getState().setState((draft: unknown) => {
      (draft as { cart: string[] }).cart.push('y');
    });
    expect(s.store.getState().thread.sharedState.document).toEqual({ cart: ['x', 'y'] });
    expect(before).toEqual({ cart: ['x'] });
    // The edit is a client STATE_DELTA: the inspector highlights its operations as it does the agent's.
    expect(s.store.getState().thread.sharedState.lastDelta).toEqual([{ op: 'add', path: '/cart/1', value: 'y' }]);
  });
});

describe('errors are outcomes (finding 8)', () => {
  const failing = async (error: unknown) => {
    const s = setup();
    const result = await (async () => {
      const done = s.store.getState().run('hi');
      await tick();
      s.m.fail(error);
      return done;
    })();
    return { s, result, state: s.store.getState() };
  };

  it('an HTTP 404 before any event ends the run as an error with the status, not idle', async () => {
    const { result, state } = await failing(new AgentTransportError('HTTP_STATUS', 'The agent answered HTTP 404', 404, 'no such agent'));
    expect(result).toEqual({ ok: true, status: 'error' });
    expect(state.thread.run).toMatchObject({ status: 'error', error: { code: 'HTTP_STATUS' } });
    expect(state.failure).toMatchObject({ code: 'HTTP_STATUS', status: 404, retryable: false });
    expect(state.failure?.message).toMatch(/not found/);
  });

  it('connection refused is NETWORK, and retry() sends the same input again', async () => {
    const { s, state } = await failing(new TypeError('fetch failed'));
    expect(state.thread.run.status).toBe('error');
    expect(state.failure).toMatchObject({ code: 'NETWORK', retryable: true });
    const again = s.store.getState().retry();
    await tick();
    expect(s.m.requests[1]).toEqual(s.m.requests[0]);
    const runId = s.m.requests[0]?.runId ?? '';
    s.m.push(started(runId), finished(runId));
    s.m.end();
    expect(await again).toEqual({ ok: true, status: 'success' });
    expect(s.store.getState().failure).toBeUndefined();
  });

  it('a proxy’s 502 can be retried; a 422 cannot', async () => {
    expect((await failing(new AgentTransportError('HTTP_STATUS', 'bad gateway', 502))).state.failure?.retryable).toBe(true);
    const refused = await failing(new AgentTransportError('HTTP_STATUS', 'unprocessable', 422));
    expect(refused.state.failure?.retryable).toBe(false);
    expect(await refused.s.store.getState().retry()).toMatchObject({ ok: false, code: 'NOTHING_TO_RETRY' });
  });

  it('an empty or unparsable URL is INVALID_URL before anything is sent', async () => {
    const { state } = await failing(new AgentTransportError('INVALID_URL', "The agent's URL is empty."));
    expect(state.thread.run).toMatchObject({ status: 'error', error: { code: 'INVALID_URL' } });
  });

  it('an answer that is not an event stream is INVALID_STREAM', async () => {
    const { state } = await failing(new AgentTransportError('NOT_EVENT_STREAM', 'text/html', 200));
    expect(state.failure).toMatchObject({ code: 'INVALID_STREAM', retryable: false });
  });
});
