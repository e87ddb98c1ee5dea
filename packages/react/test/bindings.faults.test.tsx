/**
 * The React bindings as an app uses them at awkward moments: a thread reset
 * while a devtools tab is hidden, options a later render drops or changes
 * before a child's effect runs, an empty URL, and StrictMode's double start.
 */
import type { AgentSource } from '@aguikit/core';
import { act, render, screen } from '@testing-library/react';
import { Activity, StrictMode, useEffect, useState } from 'react';
import { expect, it, vi } from 'vitest';
import {
  AgentProvider,
  createAgentStore,
  useAgentRun,
  useAgentSelector,
  useAgentState,
  useAgentStore,
  useEventLog,
  useMessageIds,
  useRunStatus,
} from '../src/index.js';
import { manualFrames, manualSource, tick } from './support/sources.js';

it("useEventLog after a reset while its tab was hidden: the new thread's events, not the old ones of the same count", async () => {
  const m = manualSource();
  const store = createAgentStore({ source: m.source, threadId: 't' });
  function Log() {
    const { entries } = useEventLog();
    return <p data-testid="log">{entries.map((e) => (e.event as { runId: string }).runId).join(',')}</p>;
  }
  const ui = (mode: 'visible' | 'hidden') => (
    <AgentProvider store={store}>
      <Activity mode={mode}>
        <Log />
      </Activity>
    </AgentProvider>
  );
  const turn = async (runId: string) => {
    void store.getState().run('x');
    await tick();
    m.push({ type: 'RUN_STARTED', threadId: 't', runId }, { type: 'RUN_FINISHED', threadId: 't', runId });
    m.end();
    await tick();
  };
  const view = render(ui('visible'));
  await act(() => turn('old'));
  view.rerender(ui('hidden'));
  await act(async () => {
    store.getState().reset();
    await turn('new');
  });
  view.rerender(ui('visible'));
  await act(tick);
  expect(screen.getByTestId('log').textContent).toBe('new,new');
});

it("useEventLog after a reset and a run in one batch: the new thread's events", async () => {
  let runId = 'old';
  const source: AgentSource = {
    async *run() {},
    async deliver(_i, _o, onEvent) {
      onEvent({ type: 'RUN_STARTED', threadId: 't', runId });
      onEvent({ type: 'RUN_FINISHED', threadId: 't', runId });
    },
  };
  const store = createAgentStore({ source, threadId: 't' });
  function Log() {
    const { entries } = useEventLog();
    return <p data-testid="log">{entries.map((e) => (e.event as { runId: string }).runId).join(',')}</p>;
  }
  render(
    <AgentProvider store={store}>
      <Log />
    </AgentProvider>,
  );
  await act(async () => void (await store.getState().run('one')));
  await act(async () => {
    runId = 'new';
    store.getState().reset();
    await store.getState().run('two');
  });
  expect(screen.getByTestId('log').textContent).toBe('new,new');
});

it('an option the latest render no longer passes is no longer in force: no tool, no onEvent', async () => {
  const m = manualSource();
  const onEvent = vi.fn();
  const tools = { lookup: { description: 'Look up an order', handler: () => 'found' } };
  let agent: ReturnType<typeof useAgentRun> | undefined;
  function Chat({ debug }: { debug: boolean }) {
    agent = useAgentRun({ source: m.source, threadId: 't', ...(debug ? { tools, onEvent } : {}) });
    return null;
  }
  const view = render(<Chat debug />);
  view.rerender(<Chat debug={false} />);
  await act(async () => {
    void agent?.run('hi');
    await tick();
    const runId = m.requests[0]?.runId ?? '';
    m.push({ type: 'RUN_STARTED', threadId: 't', runId }, { type: 'RUN_FINISHED', threadId: 't', runId });
    m.end();
    await tick();
  });
  expect(m.requests[0]?.tools).toEqual([]);
  expect(onEvent).not.toHaveBeenCalled();
});

it("a child's effect after a render sends that render's options", async () => {
  const m = manualSource();
  function AskOnPage({ page, run }: { page: string; run: ReturnType<typeof useAgentRun>['run'] }) {
    useEffect(() => {
      if (page === 'checkout') void run('Anything to know about checkout?');
    }, [page, run]);
    return null;
  }
  function Page() {
    const [page, setPage] = useState('home');
    const agent = useAgentRun({ source: m.source, threadId: 't', context: [{ description: 'page', value: page }] });
    return (
      <>
        <button type="button" onClick={() => setPage('checkout')}>
          go
        </button>
        <AskOnPage page={page} run={agent.run} />
      </>
    );
  }
  render(<Page />);
  await act(async () => {
    screen.getByText('go').click();
    await tick();
  });
  expect(m.requests[0]?.context).toEqual([{ description: 'page', value: 'checkout' }]);
});

it("useAgentRun({ url: '' }) makes a store whose run fails with INVALID_URL, instead of throwing", async () => {
  let agent: ReturnType<typeof useAgentRun> | undefined;
  function Chat() {
    agent = useAgentRun({ url: '' });
    return <p>{agent.status}</p>;
  }
  expect(() => render(<Chat />)).not.toThrow();
  await act(async () => void (await agent?.run('hi')));
  expect(agent?.failure?.code).toBe('INVALID_URL');
});

it("inside a provider, useAgentRun({ url: '' }) drives a store of its own, not the provider's thread", () => {
  const other = createAgentStore({ source: manualSource().source, threadId: 'other' });
  let agent: ReturnType<typeof useAgentRun> | undefined;
  function Chat() {
    agent = useAgentRun({ url: '' });
    return null;
  }
  render(
    <AgentProvider store={other}>
      <Chat />
    </AgentProvider>,
  );
  expect(agent?.store).not.toBe(other);
});

it("StrictMode: the agent's capabilities are asked once, not once per controller React made and dropped", async () => {
  const m = manualSource();
  const capabilities = vi.fn(async () => ({}));
  m.source.capabilities = capabilities;
  function Chat() {
    useAgentRun({ source: m.source, threadId: 't' });
    return null;
  }
  render(
    <StrictMode>
      <Chat />
    </StrictMode>,
  );
  await act(tick);
  expect(capabilities).toHaveBeenCalledTimes(1);
});

it("a store listener of the app's that throws is reported, and the components and the app's other listeners still update", async () => {
  const reported = vi.fn();
  vi.stubGlobal('reportError', reported);
  try {
    const m = manualSource();
    const store = createAgentStore({ source: m.source, threadId: 't' });
    const bug = new Error('listener bug');
    store.subscribe(() => {
      throw bug;
    });
    const seen: string[] = [];
    store.subscribe((s) => seen.push(s.thread.run.status));
    function Status() {
      const { status } = useAgentRun();
      return <p data-testid="status">{status}</p>;
    }
    render(
      <AgentProvider store={store}>
        <Status />
      </AgentProvider>,
    );
    await act(async () => {
      void store.getState().run('退款 A-1001');
      await tick();
      m.push({ type: 'RUN_STARTED', threadId: 't', runId: 'r1' }, { type: 'RUN_FINISHED', threadId: 't', runId: 'r1' });
      m.end();
      await tick();
    });
    expect(screen.getByTestId('status').textContent).toBe('success');
    expect(seen.at(-1)).toBe('success');
    expect(reported).toHaveBeenCalledWith(bug);
  } finally {
    vi.unstubAllGlobals();
  }
});

it("a child's useAgentRun options under a provider add to the provider's and leave with the child", async () => {
  const m = manualSource();
  const appEvents = vi.fn();
  const childEvents = vi.fn();
  const lookup = { description: 'Look up an order', handler: () => 'found' };
  const locate = { description: '查找附近的门店', handler: () => 'Shanghai' };
  const store = createAgentStore({ source: m.source, threadId: 't', tools: { lookup }, onEvent: appEvents });
  function MapPanel({ extra }: { extra: boolean }) {
    useAgentRun({ tools: { locate }, onEvent: childEvents, ...(extra ? { context: [{ description: 'page', value: 'map' }] } : {}) });
    return null;
  }
  const ui = (shown: boolean, extra = true) => <AgentProvider store={store}>{shown ? <MapPanel extra={extra} /> : null}</AgentProvider>;
  const turn = async (runId: string) => {
    await act(async () => {
      void store.getState().run('hi');
      await tick();
      m.push({ type: 'RUN_STARTED', threadId: 't', runId }, { type: 'RUN_FINISHED', threadId: 't', runId });
      m.end();
      await tick();
    });
  };
  const view = render(ui(true));
  await turn('r1');
  expect(m.requests[0]?.tools.map((t) => t.name).sort()).toEqual(['locate', 'lookup']);
  expect(m.requests[0]?.context).toEqual([{ description: 'page', value: 'map' }]);
  expect(appEvents).toHaveBeenCalledTimes(2);
  expect(childEvents).toHaveBeenCalledTimes(2);
  // A later render without `context` takes the child's context away, and nothing of the provider's.
  view.rerender(ui(true, false));
  await turn('r2');
  expect(m.requests[1]?.tools.map((t) => t.name).sort()).toEqual(['locate', 'lookup']);
  expect(m.requests[1]?.context).toEqual([]);
  // Once the child is gone, the provider's options are what they were.
  view.rerender(ui(false));
  await turn('r3');
  expect(m.requests[2]?.tools.map((t) => t.name)).toEqual(['lookup']);
  expect(appEvents).toHaveBeenCalledTimes(6);
  expect(childEvents).toHaveBeenCalledTimes(4);
});

it("the provider's onEvent and a child's each get an event of their own: what one changes, the other does not see", async () => {
  const m = manualSource();
  // The provider's listener redacts what it logs, in place (the controller hands each listener a copy of its own).
  const logged: unknown[] = [];
  const store = createAgentStore({
    source: m.source,
    threadId: 't',
    onEvent: (event) => {
      if ('delta' in event) (event as { delta: unknown }).delta = '[redacted]';
      logged.push(event);
    },
  });
  const shown: unknown[] = [];
  function Subtitles() {
    useAgentRun({ onEvent: (event) => 'delta' in event && shown.push(event.delta) });
    return null;
  }
  render(
    <AgentProvider store={store}>
      <Subtitles />
    </AgentProvider>,
  );
  await act(async () => {
    void store.getState().run('退款 A-1001');
    await tick();
    m.push(
      { type: 'RUN_STARTED', threadId: 't', runId: 'r1' },
      { type: 'TEXT_MESSAGE_START', messageId: 'a1', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a1', delta: '已退款' },
      { type: 'RUN_FINISHED', threadId: 't', runId: 'r1' },
    );
    m.end();
    await tick();
  });
  expect(logged).toContainEqual(expect.objectContaining({ delta: '[redacted]' }));
  expect(shown).toEqual(['已退款']);
  expect(store.getState().thread.messages.byId.get('a1')?.content).toBe('已退款');
});

it("a child's onDiagnostic is heard from its mount to its unmount, mid-stream too", async () => {
  const m = manualSource();
  const frames = manualFrames();
  const store = createAgentStore({ source: m.source, threadId: 't', scheduler: frames.scheduler });
  const heard = vi.fn();
  function Inspector() {
    useAgentRun({ onDiagnostic: (d) => heard(d.code) });
    return null;
  }
  const ui = (shown: boolean) => <AgentProvider store={store}>{shown ? <Inspector /> : null}</AgentProvider>;
  // Arguments of a tool call that never started: a diagnostic each.
  const stray = (n: number) => ({ type: 'TOOL_CALL_ARGS', toolCallId: `ghost-${n}`, delta: 'x' });
  const view = render(ui(false));
  await act(async () => {
    void store.getState().run('hi');
    await tick();
    m.push({ type: 'RUN_STARTED', threadId: 't', runId: 'r1' });
    await tick();
    frames.frame();
  });
  // Mounted after the stream opened with no one listening: it hears what comes next.
  view.rerender(ui(true));
  await act(async () => {
    m.push(stray(1));
    await tick();
    frames.frame();
  });
  expect(heard).toHaveBeenCalledTimes(1);
  // Gone: the stream goes on without calling it.
  view.rerender(ui(false));
  await act(async () => {
    m.push(stray(2), { type: 'RUN_FINISHED', threadId: 't', runId: 'r1' });
    m.end();
    await tick();
  });
  expect(store.getState().thread.diagnostics.length).toBeGreaterThanOrEqual(2);
  expect(heard).toHaveBeenCalledTimes(1);
});

it('a bare useAgentRun() under a provider leaves options set on the controller itself in force, render after render', async () => {
  const m = manualSource();
  const first = vi.fn();
  const store = createAgentStore({ source: m.source, threadId: 't', onEvent: first });
  const seen = vi.fn();
  function Status() {
    useAgentRun();
    return null;
  }
  const view = render(
    <AgentProvider store={store}>
      <Status />
    </AgentProvider>,
  );
  store.controller.configure({ onEvent: seen });
  view.rerender(
    <AgentProvider store={store}>
      <Status />
    </AgentProvider>,
  );
  await act(async () => {
    void store.getState().run('hi');
    await tick();
    m.push({ type: 'RUN_STARTED', threadId: 't', runId: 'r1' }, { type: 'RUN_FINISHED', threadId: 't', runId: 'r1' });
    m.end();
    await tick();
  });
  expect(seen).toHaveBeenCalledTimes(2);
  expect(first).not.toHaveBeenCalled();
});

it('an AgentProvider given a store, then options, says what went wrong and how to start over', () => {
  const store = createAgentStore({ source: manualSource().source, threadId: 't' });
  function Chat() {
    useAgentRun();
    return null;
  }
  const view = render(
    <AgentProvider store={store}>
      <Chat />
    </AgentProvider>,
  );
  const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
  try {
    expect(() =>
      view.rerender(
        <AgentProvider options={{ source: manualSource().source }}>
          <Chat />
        </AgentProvider>,
      ),
    ).toThrow(/AgentProvider was given a `store` when it mounted.*`key`/);
  } finally {
    quiet.mockRestore();
  }
});

function thrownBy(ui: React.ReactElement): unknown {
  const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
  try {
    render(ui);
    return undefined;
  } catch (e) {
    return e;
  } finally {
    quiet.mockRestore();
  }
}

it.each([
  ['neither `store` nor `options`', {}],
  ['`store={undefined}` (a store not made yet)', { store: undefined }],
])('an AgentProvider given %s says it needs one of them, not a TypeError of the controller', (_name, props) => {
  function Chat() {
    useAgentRun();
    return null;
  }
  const error = thrownBy(
    <AgentProvider {...(props as { store: never })}>
      <Chat />
    </AgentProvider>,
  );
  expect(String(error)).toMatch(/AgentProvider needs a `store`.*or `options`/);
});

it('an AgentProvider whose options have no source says the options need one', () => {
  const error = thrownBy(
    <AgentProvider options={{} as never}>
      <p />
    </AgentProvider>,
  );
  expect(String(error)).toMatch(/createRunController needs a `source`/);
});

it.each([
  ['useMessageIds', () => useMessageIds()],
  ['useRunStatus', () => useRunStatus()],
  ['useAgentState', () => useAgentState((d) => d)],
  ['useEventLog', () => useEventLog()],
  ['useAgentSelector', () => useAgentSelector((s) => s.eventCount)],
])('%s used outside an AgentProvider names itself and says how to provide the store', (name, hook) => {
  function Lost() {
    hook();
    return null;
  }
  const error = String(thrownBy(<Lost />));
  expect(error).toContain(`${name} must be used below <AgentProvider>`);
  expect(error).toMatch(/<AgentProvider store=\{agent\.store\}>/);
});

it("an app's own component that reads the store outside an AgentProvider is named as the app wrote it", () => {
  function MyChat() {
    useAgentStore('<MyChat>');
    return null;
  }
  function Plain() {
    useAgentStore();
    return null;
  }
  expect(String(thrownBy(<MyChat />))).toContain(
    '<MyChat> must be rendered below <AgentProvider>: wrap it in <AgentProvider store={agent.store}>',
  );
  expect(String(thrownBy(<Plain />))).toContain('useAgentStore must be used below <AgentProvider>: wrap the components that call it in');
});

it.each(['useAgentRun({ source })', 'AgentProvider options'] as const)(
  'StrictMode: a run() from a mount effect (%s) sends one request and shows no "already in progress" refusal',
  async (owner) => {
    const m = manualSource();
    function Greeter({ own }: { own?: boolean }) {
      const agent = useAgentRun(own ? { source: m.source, threadId: 't' } : {});
      useEffect(() => {
        void agent.run('你好');
      }, [agent.run]);
      return <p data-testid="greeter">{`${agent.inFlight ?? '-'}|${agent.refusal?.code ?? 'no refusal'}`}</p>;
    }
    render(
      <StrictMode>
        {owner === 'AgentProvider options' ? (
          <AgentProvider options={{ source: m.source, threadId: 't' }}>
            <Greeter />
          </AgentProvider>
        ) : (
          <Greeter own />
        )}
      </StrictMode>,
    );
    await act(async () => {
      await tick();
      await tick();
    });
    expect(m.requests).toHaveLength(1);
    expect(screen.getByTestId('greeter').textContent).toBe('run|no refusal');
  },
);
