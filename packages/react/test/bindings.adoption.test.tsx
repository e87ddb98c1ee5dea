/**
 * The bindings as an app adopting them uses them: a component unmounted while
 * a frontend tool runs, callbacks of the app that throw, concurrent rendering
 * while a reply streams, a long thread.
 */
import { act, render, screen } from '@testing-library/react';
import { memo, Profiler, StrictMode, startTransition, useDeferredValue, useLayoutEffect, useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AgentProvider, createAgentStore, useAgentRun, useMessage, useMessageIds, useRunStatus } from '../src/index.js';
import { manualFrames, manualSource, tick } from './support/sources.js';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const toolRun = (m: ReturnType<typeof manualSource>, runId: string) => {
  m.push(
    { type: 'RUN_STARTED', threadId: 't', runId },
    { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'confirm' },
    { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{}' },
    { type: 'TOOL_CALL_END', toolCallId: 'c1' },
    { type: 'RUN_FINISHED', threadId: 't', runId },
  );
  m.end();
};

describe('a component unmounted while a frontend tool of its store runs', () => {
  it('aborts the tool, destroys its store once, sends nothing more and logs no error', async () => {
    const errors = vi.spyOn(console, 'error');
    const m = manualSource();
    let signal: AbortSignal | undefined;
    let settle: (v: string) => void = () => undefined;
    const handler = vi.fn((_args: unknown, _call: unknown, ctx: { signal: AbortSignal }) => {
      signal = ctx.signal;
      return new Promise<string>((resolve) => (settle = resolve));
    });
    let store: ReturnType<typeof createAgentStore> | undefined;
    function Chat() {
      const agent = useAgentRun({
        source: m.source,
        threadId: 't',
        tools: { confirm: { description: 'Asks the user to confirm', handler } },
      });
      store = agent.store as never;
      return <p data-testid="s">{agent.status}</p>;
    }
    const view = render(
      <StrictMode>
        <Chat />
      </StrictMode>,
    );
    await act(async () => {
      void store?.getState().run('go');
      await tick();
      toolRun(m, m.requests[0]?.runId ?? '');
      await tick();
      await tick();
    });
    expect(handler).toHaveBeenCalledTimes(1);
    expect(signal?.aborted).toBe(false);
    const destroy = vi.spyOn(store?.controller as { destroy(): void }, 'destroy');
    view.unmount();
    await act(async () => {
      await tick();
      await tick();
    });
    expect(store?.getState().destroyed).toBe(true);
    expect(signal?.aborted).toBe(true);
    settle('yes');
    await tick();
    await tick();
    // The handler's late answer is recorded nowhere and sent nowhere.
    expect(store?.getState().thread.toolCalls.get('c1')?.result).toBeUndefined();
    expect(store?.session.entries.some((e) => JSON.stringify(e).includes('tool_result'))).toBe(false);
    expect(m.requests).toHaveLength(1);
    expect(errors).not.toHaveBeenCalled();
    expect(destroy).toHaveBeenCalledTimes(1);
  });
});

describe("the app's callbacks that throw", () => {
  it('are reported, and the store and its components go on streaming', async () => {
    const reported: unknown[] = [];
    const report = vi.fn((e: unknown) => reported.push(e));
    vi.stubGlobal('reportError', report);
    const m = manualSource();
    const store = createAgentStore({
      source: m.source,
      threadId: 't',
      onEvent: () => {
        throw new Error('onEvent');
      },
      onDiagnostic: () => {
        throw new Error('onDiagnostic');
      },
      tools: {
        confirm: {
          description: 'Asks the user to confirm',
          handler: () => {
            throw new Error('handler');
          },
        },
      },
    });
    function Status() {
      return <p data-testid="status">{useRunStatus()}</p>;
    }
    function Message() {
      const msg = useMessage('a');
      return <p data-testid="msg">{(msg?.content as string) ?? ''}</p>;
    }
    render(
      <AgentProvider store={store}>
        <Status />
        <Message />
      </AgentProvider>,
    );
    await act(async () => {
      void store.getState().run('go');
      await tick();
      const runId = m.requests[0]?.runId ?? '';
      m.push(
        { type: 'RUN_STARTED', threadId: 't', runId },
        { type: 'TEXT_MESSAGE_START', messageId: 'a', role: 'assistant' },
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: 'hel' },
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: 'lo' },
        { type: 'TEXT_MESSAGE_END', messageId: 'a' },
        // Content for a message that never started: a diagnostic.
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'ghost', delta: '?' },
      );
      toolRun(m, runId);
      await new Promise((r) => setTimeout(r, 50));
    });
    expect(screen.getByTestId('msg').textContent).toBe('hello');
    expect(screen.getByTestId('status').textContent).toBe('success');
    expect(store.getState().thread.toolCalls.get('c1')?.status).toBe('failed');
    expect(store.getState().thread.toolCalls.get('c1')?.result?.error).toBe('handler');
    expect(store.getState().thread.diagnostics.length).toBeGreaterThan(0);
    expect(new Set(reported.map((e) => (e as Error).message))).toEqual(new Set(['onEvent', 'onDiagnostic']));
  });
});

const READERS = Array.from({ length: 20 }, (_, i) => `reader-${i}`);

describe('a transition render while a message streams', () => {
  it('shows every reader of the message the same text in each commit, and the deferred one catches up', async () => {
    const m = manualSource();
    const frames = manualFrames();
    const store = createAgentStore({ source: m.source, threadId: 't', scheduler: frames.scheduler });
    const seen: string[][] = [];
    const busy = () => {
      const end = performance.now() + 2;
      while (performance.now() < end);
    };
    function Reader() {
      const text = (useMessage('a')?.content as string) ?? '';
      busy();
      // After the commit's DOM changes: what every reader shows now.
      useLayoutEffect(() => {
        seen.push([...document.querySelectorAll('.reader')].map((e) => e.textContent ?? ''));
      });
      return <span className="reader">{text}</span>;
    }
    function Deferred() {
      const text = (useMessage('a')?.content as string) ?? '';
      const deferred = useDeferredValue(text);
      return <span data-testid="deferred">{deferred}</span>;
    }
    let grow: (n: number) => void = () => undefined;
    function App() {
      const [n, setN] = useState(0);
      grow = setN;
      return (
        <AgentProvider store={store}>
          {READERS.slice(0, n).map((key) => (
            <Reader key={key} />
          ))}
          {n > 0 && <Deferred />}
        </AgentProvider>
      );
    }
    render(<App />);
    await act(async () => {
      void store.getState().run('go');
      await tick();
      const runId = m.requests[0]?.runId ?? '';
      m.push({ type: 'RUN_STARTED', threadId: 't', runId }, { type: 'TEXT_MESSAGE_START', messageId: 'a', role: 'assistant' });
      await tick();
      frames.frame();
    });
    // A transition mounts 20 slow readers (outside act, so React yields between them, and tokens land meanwhile).
    startTransition(() => grow(20));
    for (let k = 0; k < 20; k++) {
      m.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: 'x' });
      await new Promise((r) => setImmediate(r));
      frames.frame();
    }
    await act(async () => {
      await new Promise((r) => setTimeout(r, 100));
    });
    expect(seen.filter((texts) => new Set(texts).size > 1)).toEqual([]);
    expect(seen.at(-1)).toEqual(Array(20).fill('x'.repeat(20)));
    expect(screen.getByTestId('deferred').textContent).toBe('x'.repeat(20));
  }, 20_000);
});

describe('a thread of 1,000 messages', () => {
  it('re-renders only the streaming message for its tokens', async () => {
    const m = manualSource();
    const frames = manualFrames();
    const initialMessages = Array.from({ length: 999 }, (_, i) => ({ id: `h${i}`, role: 'user' as const, content: `m${i}` }));
    const store = createAgentStore({ source: m.source, threadId: 't', initialMessages, scheduler: frames.scheduler });
    const commits = new Map<string, number>();
    const Row = memo(function Row({ id }: { id: string }) {
      const msg = useMessage(id);
      return (
        <Profiler id={id} onRender={(pid) => commits.set(pid, (commits.get(pid) ?? 0) + 1)}>
          <p data-testid={id}>{msg?.content as string}</p>
        </Profiler>
      );
    });
    let listRenders = 0;
    function List() {
      listRenders++;
      return useMessageIds().map((id) => <Row key={id} id={id} />);
    }
    render(
      <AgentProvider store={store}>
        <List />
      </AgentProvider>,
    );
    await act(async () => {
      void store.getState().run('go');
      await tick();
      const runId = m.requests[0]?.runId ?? '';
      m.push({ type: 'RUN_STARTED', threadId: 't', runId }, { type: 'TEXT_MESSAGE_START', messageId: 'live', role: 'assistant' });
      await tick();
      frames.frame();
    });
    expect(store.getState().thread.messages.ids).toHaveLength(1001);
    commits.clear();
    const before = listRenders;
    for (let f = 0; f < 20; f++) {
      await act(async () => {
        m.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'live', delta: 'y' });
        await tick();
        frames.frame();
      });
    }
    expect(screen.getByTestId('live').textContent).toBe('y'.repeat(20));
    expect(listRenders).toBe(before);
    expect([...commits.entries()]).toEqual([['live', 20]]);
  }, 20_000);
});
