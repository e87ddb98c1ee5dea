import { act, render, screen } from '@testing-library/react';
import { memo, Profiler, StrictMode, useEffect } from 'react';
import { describe, expect, it, vi } from 'vitest';
import {
  AgentProvider,
  createAgentStore,
  useAgentRun,
  useAgentState,
  useInterrupts,
  useMessage,
  useMessageIds,
  useRunStatus,
  useToolCall,
} from '../src/index.js';
import { manualFrames, manualSource, tick } from './support/sources.js';

const history = Array.from({ length: 499 }, (_, i) => ({
  id: `h${i}`,
  role: i % 2 ? ('assistant' as const) : ('user' as const),
  content: `message ${i}`,
}));

describe('fine-grained hooks: one token re-renders one message', () => {
  it('streams 1,000 tokens into one message of a 500-message thread without re-rendering the list or the other messages', async () => {
    const m = manualSource();
    const frames = manualFrames();
    const store = createAgentStore({ source: m.source, threadId: 't', initialMessages: history, scheduler: frames.scheduler });
    const messageCommits = new Map<string, number>();
    let listRenders = 0;
    const onRender = (id: string) => messageCommits.set(id, (messageCommits.get(id) ?? 0) + 1);
    const MessageView = memo(function MessageView({ id }: { id: string }) {
      const message = useMessage(id);
      return (
        <Profiler id={id} onRender={onRender}>
          <p data-testid={id}>{typeof message?.content === 'string' ? message.content : ''}</p>
        </Profiler>
      );
    });
    function List() {
      listRenders++;
      const ids = useMessageIds();
      return ids.map((id) => <MessageView key={id} id={id} />);
    }
    render(
      <AgentProvider store={store}>
        <List />
      </AgentProvider>,
    );
    await act(async () => {
      void store.getState().run('stream please');
      await tick();
      const runId = m.requests[0]?.runId ?? '';
      m.push({ type: 'RUN_STARTED', threadId: 't', runId }, { type: 'TEXT_MESSAGE_START', messageId: 'live' });
      await tick();
      frames.frame();
    });
    expect(store.getState().thread.messages.ids).toHaveLength(501);
    const listBefore = listRenders;
    messageCommits.clear();
    for (let frame = 0; frame < 100; frame++) {
      await act(async () => {
        for (let t = 0; t < 10; t++) m.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'live', delta: 'x' });
        await tick();
        frames.frame();
      });
    }
    expect(screen.getByTestId('live').textContent).toBe('x'.repeat(1000));
    expect(listRenders - listBefore).toBe(0);
    expect(messageCommits.get('live')).toBe(100);
    expect([...messageCommits.keys()]).toEqual(['live']);
  });

  it('tool calls, shared state, interrupts and status each re-render only their readers', async () => {
    const m = manualSource();
    const frames = manualFrames();
    const store = createAgentStore({
      source: m.source,
      threadId: 't',
      scheduler: frames.scheduler,
      initialState: { count: 0, other: 'x' },
    });
    const renders = { call: 0, other: 0, status: 0, interrupts: 0 };
    function Call() {
      renders.call++;
      return <span data-testid="args">{useToolCall('c')?.argsText ?? ''}</span>;
    }
    function Other() {
      renders.other++;
      return <span>{String(useAgentState((d) => (d as { other: string }).other))}</span>;
    }
    function Status() {
      renders.status++;
      return <span data-testid="status">{useRunStatus()}</span>;
    }
    function Interrupts() {
      renders.interrupts++;
      return <span>{useInterrupts().length}</span>;
    }
    render(
      <AgentProvider store={store}>
        <Call />
        <Other />
        <Status />
        <Interrupts />
      </AgentProvider>,
    );
    await act(async () => {
      void store.getState().run('go');
      await tick();
      m.push(
        { type: 'RUN_STARTED', threadId: 't', runId: m.requests[0]?.runId ?? '' },
        { type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'n' },
      );
      await tick();
      frames.frame();
    });
    const before = { ...renders };
    for (const delta of ['{"a"', ':', '1}']) {
      await act(async () => {
        m.push(
          { type: 'TOOL_CALL_ARGS', toolCallId: 'c', delta },
          { type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/count', value: delta.length }] },
        );
        await tick();
        frames.frame();
      });
    }
    expect(screen.getByTestId('args').textContent).toBe('{"a":1}');
    expect(renders.call - before.call).toBe(3);
    expect(renders.other).toBe(before.other);
    expect(renders.status).toBe(before.status);
    expect(renders.interrupts).toBe(before.interrupts);
  });
});

describe('useAgentRun', () => {
  it('inline options on every render never recreate the store or the source', async () => {
    const sources = [manualSource(), manualSource(), manualSource()] as const;
    let renderCount = 0;
    const stores = new Set<unknown>();
    function Chat() {
      const agent = useAgentRun({
        source: sources[(renderCount++ % 3) as 0 | 1 | 2].source,
        threadId: 't',
        context: [{ description: 'n', value: String(renderCount) }],
      });
      stores.add(agent.store);
      return <span data-testid="status">{agent.status}</span>;
    }
    const view = render(<Chat />);
    view.rerender(<Chat />);
    view.rerender(<Chat />);
    expect(stores.size).toBe(1);
    const [store] = stores as Set<ReturnType<typeof createAgentStore>>;
    await act(async () => {
      void store?.getState().run('hi');
      await tick();
    });
    expect(sources[0].requests).toHaveLength(1);
    expect(sources[1].requests).toHaveLength(0);
    expect(sources[0].requests[0]?.context).toEqual([{ description: 'n', value: '3' }]);
  });

  it('a resume fired from an effect under StrictMode sends one request', async () => {
    const m = manualSource();
    const store = createAgentStore({
      source: m.source,
      threadId: 't',
      scheduler: (f) => {
        queueMicrotask(f);
        return () => undefined;
      },
    });
    await act(async () => {
      void store.getState().run('go');
      await tick();
      const runId = m.requests[0]?.runId ?? '';
      m.push(
        { type: 'RUN_STARTED', threadId: 't', runId },
        { type: 'RUN_FINISHED', threadId: 't', runId, outcome: { type: 'interrupt', interrupts: [{ id: 'i', reason: 'confirmation' }] } },
      );
      m.end();
      await tick();
    });
    expect(store.getState().thread.interrupts).toHaveLength(1);
    function AutoApprove() {
      const agent = useAgentRun();
      useEffect(() => {
        void agent.resume([{ interruptId: 'i', status: 'resolved', payload: { approved: true } }]);
      }, [agent.resume]);
      return <span data-testid="status">{agent.status}</span>;
    }
    await act(async () => {
      render(
        <StrictMode>
          <AgentProvider store={store}>
            <AutoApprove />
            <AutoApprove />
          </AgentProvider>
        </StrictMode>,
      );
      await tick();
    });
    // The first resume loads the resume builder (a dynamic import) before it sends.
    await vi.waitFor(() => expect(m.requests).toHaveLength(2));
    await act(tick);
    expect(m.requests).toHaveLength(2);
    expect(m.requests[1]?.resume).toEqual([{ interruptId: 'i', status: 'resolved', payload: { approved: true } }]);
  });

  it('explains what is missing outside a provider', () => {
    function Lost() {
      useAgentRun();
      return null;
    }
    expect(() => render(<Lost />)).toThrow(/needs a `source`/);
    function LostHook() {
      useMessageIds();
      return null;
    }
    expect(() => render(<LostHook />)).toThrow(/useMessageIds must be used below <AgentProvider>/);
  });
});
