/**
 * The hooks under React's concurrent features and an app's usual mistakes:
 * selectors that build objects, stores swapped under a provider, components
 * mounted and unmounted many times, StrictMode's double effects.
 */
import { act, render, screen } from '@testing-library/react';
import { StrictMode, useEffect, useTransition } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  AgentProvider,
  type AgentStore,
  createAgentStore,
  useAgentRun,
  useAgentSelector,
  useAgentState,
  useCapabilities,
  useDiagnostics,
  useEventLog,
  useInterrupts,
  useLastReplyId,
  useMessage,
  useMessageAttribution,
  useMessageIds,
  useRun,
  useRunStatus,
  useRunSummary,
  useSharedState,
  useSubagents,
  useToolCall,
} from '../src/index.js';
import { manualSource, tick } from './support/sources.js';

afterEach(() => vi.restoreAllMocks());

/** Counts the store's subscriptions still open. */
function countSubscriptions(store: AgentStore) {
  let open = 0;
  const subscribe = store.subscribe;
  store.subscribe = (listener) => {
    open++;
    const off = subscribe(listener);
    let done = false;
    return () => {
      if (!done) open--;
      done = true;
      off();
    };
  };
  return () => open;
}

/** Long enough for the store's next frame. */
const frame = () => new Promise<void>((resolve) => setTimeout(resolve, 40));

const turn = async (m: ReturnType<typeof manualSource>, store: AgentStore, runId: string, text = 'hi') => {
  await act(async () => {
    void store.getState().run(text);
    await tick();
    m.push(
      { type: 'RUN_STARTED', threadId: 't', runId },
      { type: 'TEXT_MESSAGE_START', messageId: `m-${runId}`, role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: `m-${runId}`, delta: 'hello' },
      { type: 'TEXT_MESSAGE_END', messageId: `m-${runId}` },
      { type: 'RUN_FINISHED', threadId: 't', runId },
    );
    m.end();
    await tick();
    await tick();
  });
};

describe('every hook', () => {
  it('gives the same value for an unchanged store: no "getSnapshot should be cached" warning, no extra render', async () => {
    const errors = vi.spyOn(console, 'error');
    const m = manualSource();
    const store = createAgentStore({ source: m.source, threadId: 't' });
    let renders = 0;
    function All() {
      renders++;
      useMessageIds();
      useMessage('m-r1');
      useToolCall('c');
      useAgentState((d) => d);
      useInterrupts();
      useRunStatus();
      useDiagnostics();
      useEventLog();
      useCapabilities();
      useLastReplyId('r1');
      useMessageAttribution();
      useRun();
      useRunSummary('r1');
      useSharedState();
      useSubagents();
      useAgentRun();
      return null;
    }
    render(
      <StrictMode>
        <AgentProvider store={store}>
          <All />
        </AgentProvider>
      </StrictMode>,
    );
    await turn(m, store, 'r1');
    const before = renders;
    // A change no hook reads: none re-renders.
    await act(async () => {
      store.setState({ extra: 1 } as never);
      await tick();
    });
    expect(renders).toBe(before);
    expect(errors).not.toHaveBeenCalled();
  });
});

describe('while a message streams', () => {
  it('no hook but the message re-renders for its tokens, useAgentRun and built selectors included', async () => {
    const m = manualSource();
    const store = createAgentStore({ source: m.source, threadId: 't' });
    const renders: Record<string, number> = {};
    const readers: Record<string, () => unknown> = {
      useAgentRun: () => useAgentRun(),
      useMessageIds: () => useMessageIds(),
      useCapabilities: () => useCapabilities(),
      useRun: () => useRun(),
      useSubagents: () => useSubagents(),
      useSharedState: () => useSharedState(),
      useDiagnostics: () => useDiagnostics(),
      useMessageAttribution: () => useMessageAttribution(),
      useRunSummary: () => useRunSummary('r1'),
      useLastReplyId: () => useLastReplyId('r1'),
      useInterrupts: () => useInterrupts(),
      useRunStatus: () => useRunStatus(),
      useAgentState: () => useAgentState((doc: unknown) => ({ doc })),
      useAgentSelector: () => useAgentSelector((s) => [s.thread.run.status, s.thread.messages.ids.length]),
    };
    function Reader({ name }: { name: string }) {
      renders[name] = (renders[name] ?? 0) + 1;
      readers[name]?.();
      return null;
    }
    render(
      <AgentProvider store={store}>
        {Object.keys(readers).map((name) => (
          <Reader key={name} name={name} />
        ))}
      </AgentProvider>,
    );
    const token = (delta: string) =>
      act(async () => {
        m.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'x', delta });
        await frame();
      });
    await act(async () => {
      void store.getState().run('go');
      await tick();
      m.push({ type: 'RUN_STARTED', threadId: 't', runId: 'r1' }, { type: 'TEXT_MESSAGE_START', messageId: 'x', role: 'assistant' });
      await frame();
    });
    await token('a');
    const before = { ...renders };
    for (const delta of 'bcdef') await token(delta);
    expect(store.getState().thread.messages.byId.get('x')?.content).toBe('abcdef');
    expect(renders).toEqual(before);
  });
});

describe('an AgentProvider given another store', () => {
  it("shows the new thread, and closes every subscription to the last one and takes a child's tools off it", async () => {
    const m1 = manualSource();
    const m2 = manualSource();
    const s1 = createAgentStore({ source: m1.source, threadId: 't' });
    const s2 = createAgentStore({ source: m2.source, threadId: 't' });
    const open1 = countSubscriptions(s1);
    const open2 = countSubscriptions(s2);
    const lookup = { description: 'Look up an order', handler: () => 'found' };
    function Thread() {
      const agent = useAgentRun({ tools: { lookup } });
      return (
        <p data-testid="thread">
          {useMessageIds().length} {agent.status}
        </p>
      );
    }
    const ui = (store: AgentStore) => (
      <AgentProvider store={store}>
        <Thread />
      </AgentProvider>
    );
    const view = render(ui(s1));
    await turn(m1, s1, 'r1');
    expect(screen.getByTestId('thread').textContent).toBe('2 success');
    expect(open1()).toBeGreaterThan(0);
    view.rerender(ui(s2));
    expect(screen.getByTestId('thread').textContent).toBe('0 idle');
    expect(open1()).toBe(0);
    await turn(m2, s2, 'r2');
    expect(m2.requests[0]?.tools.map((t) => t.name)).toEqual(['lookup']);
    await turn(m1, s1, 'r3');
    expect(m1.requests[1]?.tools).toEqual([]);
    view.unmount();
    expect(open2()).toBe(0);
  });
});

describe('a component with useAgentRun below a provider', () => {
  it('mounted and unmounted 1,000 times leaves no subscription and none of its options on the store', async () => {
    const m = manualSource();
    const store = createAgentStore({ source: m.source, threadId: 't' });
    const open = countSubscriptions(store);
    const onEvent = vi.fn();
    const lookup = { description: 'Look up an order', handler: () => 'found' };
    function Panel() {
      useAgentRun({ tools: { lookup }, context: [{ description: 'page', value: 'orders' }], onEvent });
      useMessageIds();
      return null;
    }
    const ui = (shown: boolean) => <AgentProvider store={store}>{shown ? <Panel /> : null}</AgentProvider>;
    const view = render(ui(false));
    for (let i = 0; i < 1000; i++) {
      view.rerender(ui(true));
      view.rerender(ui(false));
    }
    expect(open()).toBe(0);
    await turn(m, store, 'r1');
    expect(m.requests[0]?.tools).toEqual([]);
    expect(m.requests[0]?.context).toEqual([]);
    expect(onEvent).not.toHaveBeenCalled();
  });

  it('under StrictMode adds its tool and context once, and its tool runs once', async () => {
    const m = manualSource();
    const store = createAgentStore({ source: m.source, threadId: 't' });
    const handler = vi.fn(() => 'found');
    function Panel() {
      useAgentRun({ tools: { lookup: { description: 'Look up an order', handler } }, context: [{ description: 'page', value: 'orders' }] });
      return null;
    }
    render(
      <StrictMode>
        <AgentProvider store={store}>
          <Panel />
        </AgentProvider>
      </StrictMode>,
    );
    await act(async () => {
      void store.getState().run('go');
      await tick();
      m.push(
        { type: 'RUN_STARTED', threadId: 't', runId: 'r1' },
        { type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'lookup' },
        { type: 'TOOL_CALL_ARGS', toolCallId: 'c', delta: '{}' },
        { type: 'TOOL_CALL_END', toolCallId: 'c' },
        { type: 'RUN_FINISHED', threadId: 't', runId: 'r1' },
      );
      m.end();
      await tick();
      await tick();
    });
    expect(m.requests[0]?.tools.map((t) => t.name)).toEqual(['lookup']);
    expect(m.requests[0]?.context).toEqual([{ description: 'page', value: 'orders' }]);
    expect(handler).toHaveBeenCalledTimes(1);
    // The follow-up run carries the one result.
    expect(m.requests[1]?.messages.filter((msg) => msg.role === 'tool')).toHaveLength(1);
  });

  it('unmounted mid-stream and mounted again with the same store shows what streamed meanwhile', async () => {
    const m = manualSource();
    const store = createAgentStore({ source: m.source, threadId: 't' });
    function Reply() {
      const { status } = useAgentRun();
      return (
        <p data-testid="reply">
          {status} {String(useMessage('x')?.content ?? '')}
        </p>
      );
    }
    const ui = (shown: boolean) => <AgentProvider store={store}>{shown ? <Reply /> : null}</AgentProvider>;
    const view = render(ui(true));
    await act(async () => {
      void store.getState().run('go');
      await tick();
      m.push(
        { type: 'RUN_STARTED', threadId: 't', runId: 'r1' },
        { type: 'TEXT_MESSAGE_START', messageId: 'x', role: 'assistant' },
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'x', delta: 'Refund ' },
      );
      await frame();
    });
    expect(screen.getByTestId('reply').textContent).toBe('running Refund ');
    view.rerender(ui(false));
    await act(async () => {
      m.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'x', delta: 'approved' });
      await frame();
    });
    view.rerender(ui(true));
    expect(screen.getByTestId('reply').textContent).toBe('running Refund approved');
    await act(async () => {
      m.push({ type: 'TEXT_MESSAGE_END', messageId: 'x' }, { type: 'RUN_FINISHED', threadId: 't', runId: 'r1' });
      m.end();
      await tick();
    });
    expect(screen.getByTestId('reply').textContent).toBe('success Refund approved');
    expect(store.getState().destroyed).toBe(false);
  });
});

describe('run() from a transition', () => {
  it('shows the run as it goes while the transition is pending, and ends it', async () => {
    const m = manualSource();
    const store = createAgentStore({ source: m.source, threadId: 't' });
    function Send() {
      const agent = useAgentRun();
      const [pending, start] = useTransition();
      return (
        <>
          <button
            type="button"
            onClick={() =>
              start(async () => {
                await agent.run('Refund order A-1001');
              })
            }
          >
            Send
          </button>
          <p data-testid="state">
            {agent.status} {pending ? 'pending' : 'done'}
          </p>
        </>
      );
    }
    render(
      <AgentProvider store={store}>
        <Send />
      </AgentProvider>,
    );
    await act(async () => {
      screen.getByText('Send').click();
      await tick();
      m.push({ type: 'RUN_STARTED', threadId: 't', runId: 'r1' });
      await frame();
    });
    expect(screen.getByTestId('state').textContent).toBe('running pending');
    await act(async () => {
      m.push({ type: 'RUN_FINISHED', threadId: 't', runId: 'r1' });
      m.end();
      await tick();
      await tick();
    });
    expect(screen.getByTestId('state').textContent).toBe('success done');
  });
});

describe('useEventLog', () => {
  it('gives the same object from render to render until an event arrives, so an effect that depends on it runs once per change', async () => {
    const m = manualSource();
    const store = createAgentStore({ source: m.source, threadId: 't' });
    const saved: number[] = [];
    function Saver({ label }: { label: string }) {
      const log = useEventLog();
      useEffect(() => {
        saved.push(log.count);
      }, [log]);
      return <p>{label}</p>;
    }
    const ui = (label: string) => (
      <AgentProvider store={store}>
        <Saver label={label} />
      </AgentProvider>
    );
    const view = render(ui('a'));
    view.rerender(ui('b'));
    view.rerender(ui('c'));
    expect(saved).toEqual([0]);
    await turn(m, store, 'r1');
    view.rerender(ui('d'));
    expect(saved).toEqual([0, 5]);
  });
});
