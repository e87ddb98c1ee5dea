/**
 * The bindings as an app uses them: components that make their own store,
 * mounted and unmounted many times under StrictMode, runs cut off by an
 * unmount, hooks outside a provider, and a server render hydrated.
 */
import { act, render } from '@testing-library/react';
import { type ReactElement, StrictMode, Suspense } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as hooks from '../src/index.js';
import { AgentProvider, type AgentStore, useAgentRun, useRunStatus } from '../src/index.js';
import { manualSource, tick } from './support/sources.js';

afterEach(() => vi.restoreAllMocks());

/**
 * `app` rendered to HTML by this package as a server loads it (no `window`): modules loaded apart from the test's,
 * React's included, and `app` is given the server's bindings.
 */
async function serverHtml(app: (bindings: typeof hooks) => ReactElement): Promise<string> {
  vi.resetModules();
  vi.stubGlobal('window', undefined);
  try {
    const server = await import('react-dom/server');
    const bindings = await import('../src/index.js');
    return server.renderToString(app(bindings));
  } finally {
    vi.unstubAllGlobals();
    vi.resetModules();
  }
}

const macrotask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe('a component that makes its own store', () => {
  it('mounted and unmounted 1,000 times under StrictMode destroys every store it made and aborts every stream', async () => {
    const errors = vi.spyOn(console, 'error');
    const m = manualSource();
    const stores = new Set<AgentStore>();
    function Chat() {
      const agent = useAgentRun({ source: m.source, threadId: 't' });
      stores.add(agent.store as AgentStore);
      return <p>{agent.status}</p>;
    }
    const ui = (shown: boolean) => <StrictMode>{shown ? <Chat /> : null}</StrictMode>;
    const view = render(ui(false));
    for (let i = 0; i < 1000; i++) {
      view.rerender(ui(true));
      if (i % 100 === 0) {
        // Now and then a run that streams as the component goes.
        const store = [...stores].at(-1);
        await act(async () => {
          void store?.getState().run('hi');
          await tick();
          m.push(
            { type: 'RUN_STARTED', threadId: 't', runId: `r${i}` },
            { type: 'TEXT_MESSAGE_START', messageId: `m${i}`, role: 'assistant' },
          );
        });
      }
      view.rerender(ui(false));
    }
    await act(async () => {
      await macrotask();
      await macrotask();
    });
    const alive = [...stores].filter((s) => !s.getState().destroyed);
    expect(stores.size).toBe(1000);
    expect(alive).toHaveLength(0);
    expect(m.requests).toHaveLength(10);
    for (let i = 0; i < 10; i++) expect(m.channel(i)?.options.signal?.aborted).toBe(true);
    // Tokens that arrive after the unmount change nothing and warn of nothing.
    m.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm900', delta: 'late' });
    await macrotask();
    expect(errors).not.toHaveBeenCalled();
  });
});

describe('every hook outside a provider', () => {
  it('throws an error that names it and says how to give it a store', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const calls: Record<string, () => unknown> = {
      useAgentSelector: () => hooks.useAgentSelector((s) => s.connection),
      useAgentState: () => hooks.useAgentState((d) => d),
      useCapabilities: () => hooks.useCapabilities(),
      useDiagnostics: () => hooks.useDiagnostics(),
      useEventLog: () => hooks.useEventLog(),
      useInterrupts: () => hooks.useInterrupts(),
      useLastReplyId: () => hooks.useLastReplyId('r'),
      useMessage: () => hooks.useMessage('m'),
      useMessageAttribution: () => hooks.useMessageAttribution(),
      useMessageIds: () => hooks.useMessageIds(),
      useRun: () => hooks.useRun(),
      useRunStatus: () => hooks.useRunStatus(),
      useRunSummary: () => hooks.useRunSummary('r'),
      useSharedState: () => hooks.useSharedState(),
      useSubagents: () => hooks.useSubagents(),
      useToolCall: () => hooks.useToolCall('c'),
      useAgentStore: () => hooks.useAgentStore(),
    };
    for (const [name, call] of Object.entries(calls)) {
      function Lone() {
        call();
        return null;
      }
      expect(() => render(<Lone />), name).toThrow(`${name} must be used below <AgentProvider>`);
    }
    function Bare() {
      useAgentRun();
      return null;
    }
    expect(() => render(<Bare />)).toThrow('useAgentRun needs a `source` (or `url`) option, or an <AgentProvider> above it.');
  });
});

describe('a server render of a component that makes its store', () => {
  it('hydrates in the browser with the same HTML and no mismatch, then streams', async () => {
    const errors = vi.spyOn(console, 'error');
    const m = manualSource();
    let store: AgentStore | undefined;
    /** The app, written with the bindings it is given (the server's, or the browser's). */
    const app = (b: typeof hooks) => {
      function Chat() {
        const agent = b.useAgentRun({
          source: m.source,
          threadId: 't',
          initialMessages: [{ id: 'u0', role: 'user', content: 'Hello' }],
          initialState: { step: 1 },
        });
        store = agent.store as AgentStore;
        return (
          <b.AgentProvider store={agent.store}>
            <p>
              {agent.status} {agent.interrupts.length} <Step /> <Ids /> <Caps />
            </p>
          </b.AgentProvider>
        );
      }
      function Step() {
        return b.useAgentState((d: { step: number }) => ({ step: d.step })).step;
      }
      function Ids() {
        const { count } = b.useEventLog();
        return (
          <span>
            {b.useMessageIds().join(' ')} {count} {b.useRunStatus()} {b.useDiagnostics().length}
          </span>
        );
      }
      function Caps() {
        return String(b.useCapabilities() === undefined);
      }
      return (
        <StrictMode>
          <Suspense fallback="loading">
            <Chat />
          </Suspense>
        </StrictMode>
      );
    };
    const container = document.createElement('div');
    container.innerHTML = await serverHtml(app);
    document.body.append(container);
    const html = container.innerHTML;
    expect(container.textContent).toBe('idle 0 1 u0 0 idle 0 true');
    const recoverable: unknown[] = [];
    const root = await act(async () => hydrateRoot(container, app(hooks), { onRecoverableError: (e) => recoverable.push(e) }));
    expect(recoverable).toEqual([]);
    expect(container.innerHTML).toBe(html);
    await act(async () => {
      void store?.getState().run({ message: { id: 'u1', role: 'user', content: 'Refund' } });
      await tick();
      m.push({ type: 'RUN_STARTED', threadId: 't', runId: 'r' });
      await new Promise((resolve) => setTimeout(resolve, 40));
    });
    expect(container.textContent).toBe('running 0 1 u0 u1 1 running 0 true');
    act(() => root.unmount());
    container.remove();
    expect(errors).not.toHaveBeenCalled();
  });
});

it('a status read in many components re-renders each once per change', async () => {
  const m = manualSource();
  const store = hooks.createAgentStore({ source: m.source, threadId: 't' });
  const readers = Array.from({ length: 200 }, (_, i) => `status-${i}`);
  let renders = 0;
  function Status() {
    renders++;
    return <i>{useRunStatus()}</i>;
  }
  render(
    <AgentProvider store={store}>
      {readers.map((id) => (
        <Status key={id} />
      ))}
    </AgentProvider>,
  );
  renders = 0;
  await act(async () => {
    void store.getState().run('go');
    await tick();
    m.push({ type: 'RUN_STARTED', threadId: 't', runId: 'r' });
    await new Promise((resolve) => setTimeout(resolve, 40));
  });
  expect(store.getState().thread.run.status).toBe('running');
  expect(renders).toBe(200);
});
