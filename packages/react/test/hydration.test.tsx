/**
 * Hydration in the browser: the first render must give the server's HTML
 * whatever the store did since it was made (a boundary React hydrates late,
 * after the agent has answered), then show the thread as it is.
 */
import { act } from '@testing-library/react';
import { useState } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { expect, it, vi } from 'vitest';
import * as hooks from '../src/index.js';
import { AgentProvider, createAgentStore, useMessageIds } from '../src/index.js';
import { manualSource, tick } from './support/sources.js';

it('a store that ran before its components hydrate hydrates from the HTML it was rendered to, then shows the run', async () => {
  const m = manualSource();
  const store = createAgentStore({ source: m.source, threadId: 't', initialMessages: [{ id: 'u0', role: 'user', content: 'Hello' }] });
  function Ids() {
    return <p>{useMessageIds().join(' ')}</p>;
  }
  const ui = (
    <AgentProvider store={store}>
      <Ids />
    </AgentProvider>
  );
  const container = document.createElement('div');
  container.innerHTML = renderToString(ui);
  document.body.append(container);
  expect(container.textContent).toBe('u0');
  const done = store.getState().run({ message: { id: 'u1', role: 'user', content: 'Refund order A-1001' } });
  await tick();
  m.push({ type: 'RUN_STARTED', threadId: 't', runId: 'r' }, { type: 'RUN_FINISHED', threadId: 't', runId: 'r' });
  m.end();
  await done;
  const recoverable: unknown[] = [];
  const root = await act(async () => hydrateRoot(container, ui, { onRecoverableError: (e) => recoverable.push(e) }));
  expect(recoverable).toEqual([]);
  expect(container.textContent).toBe('u0 u1');
  act(() => root.unmount());
  container.remove();
});

it.each(['useAgentRun', 'AgentProvider'] as const)(
  "a store %s makes, its thread's id shown, hydrates with the server's id, then shows its own",
  async (maker) => {
    const errors = vi.spyOn(console, 'error');
    const app = (b: typeof hooks) => {
      const source = { async *run() {} };
      function Chat() {
        const agent = b.useAgentRun({ source });
        return (
          <b.AgentProvider store={agent.store}>
            <ThreadId />
          </b.AgentProvider>
        );
      }
      function ThreadId() {
        return <p>{b.useAgentSelector((s) => s.thread.threadId)}</p>;
      }
      return maker === 'useAgentRun' ? (
        <Chat />
      ) : (
        <b.AgentProvider options={{ source }}>
          <ThreadId />
        </b.AgentProvider>
      );
    };
    vi.resetModules();
    vi.stubGlobal('window', undefined);
    let html: string;
    try {
      const server = await import('react-dom/server');
      html = server.renderToString(app(await import('../src/index.js')));
    } finally {
      vi.unstubAllGlobals();
      vi.resetModules();
    }
    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.append(container);
    expect(container.textContent).toBe('thread-server-render');
    const recoverable: unknown[] = [];
    const root = await act(async () => hydrateRoot(container, app(hooks), { onRecoverableError: (e) => recoverable.push(e) }));
    expect(recoverable).toEqual([]);
    expect(errors).not.toHaveBeenCalled();
    expect(container.textContent).toMatch(/^thread-(?!server-render)/);
    act(() => root.unmount());
    container.remove();
    vi.restoreAllMocks();
  },
);

it("a store useAgentRun makes shows its own thread's id to a client-only render and to a component mounted after hydration", async () => {
  let showMore: (more: boolean) => void = () => undefined;
  const app = (b: typeof hooks) => {
    const source = { async *run() {} };
    function Chat() {
      const agent = b.useAgentRun({ source });
      const [more, setMore] = useState(false);
      showMore = setMore;
      return (
        <b.AgentProvider store={agent.store}>
          <ThreadId />
          {more ? <ThreadId /> : null}
        </b.AgentProvider>
      );
    }
    function ThreadId() {
      return <p>{b.useAgentSelector((s) => s.thread.threadId)}</p>;
    }
    return <Chat />;
  };
  // A client-only render: no server snapshot is read.
  const alone = document.createElement('div');
  document.body.append(alone);
  const client = createRoot(alone);
  await act(async () => client.render(app(hooks)));
  expect(alone.textContent).toMatch(/^thread-(?!server-render)/);
  act(() => client.unmount());
  alone.remove();
  // Hydrated from the server's HTML, then a component mounted after hydration.
  vi.resetModules();
  vi.stubGlobal('window', undefined);
  let html: string;
  try {
    const server = await import('react-dom/server');
    html = server.renderToString(app(await import('../src/index.js')));
  } finally {
    vi.unstubAllGlobals();
    vi.resetModules();
  }
  const container = document.createElement('div');
  container.innerHTML = html;
  document.body.append(container);
  const root = await act(async () => hydrateRoot(container, app(hooks)));
  const own = container.textContent ?? '';
  expect(own).toMatch(/^thread-(?!server-render)/);
  await act(async () => showMore(true));
  expect([...container.querySelectorAll('p')].map((p) => p.textContent)).toEqual([own, own]);
  act(() => root.unmount());
  container.remove();
});
