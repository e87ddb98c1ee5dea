/**
 * Hydration in the browser: the first render must give the server's HTML
 * whatever the store did since it was made (a boundary React hydrates late,
 * after the agent has answered), then show the thread as it is.
 */
import { act } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
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
