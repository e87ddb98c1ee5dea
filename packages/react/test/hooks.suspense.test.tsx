import { PassThrough } from 'node:stream';
import { act, render, screen } from '@testing-library/react';
import { type ReactElement, StrictMode, Suspense, use } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as hooks from '../src/index.js';
import { AgentProvider, type AgentStore, createAgentStore, useMessage, useMessageIds } from '../src/index.js';
import { manualFrames, manualSource, tick } from './support/sources.js';

afterEach(() => vi.restoreAllMocks());

async function streamHtml(app: (b: typeof hooks) => ReactElement): Promise<string> {
  vi.resetModules();
  vi.stubGlobal('window', undefined);
  try {
    const server = await import('react-dom/server');
    const bindings = await import('../src/index.js');
    return await new Promise<string>((resolve, reject) => {
      const out = new PassThrough();
      let html = '';
      out.on('data', (c) => {
        html += c;
      });
      out.on('end', () => resolve(html));
      const s = server.renderToPipeableStream(app(bindings), {
        onAllReady: () => s.pipe(out),
        onError: reject,
      });
    });
  } finally {
    vi.unstubAllGlobals();
    vi.resetModules();
  }
}

describe('the hooks with Suspense', () => {
  it('every hook streamed by renderToPipeableStream inside a boundary hydrates with no mismatch and no error', async () => {
    const errors = vi.spyOn(console, 'error');
    const m = manualSource();
    let store: AgentStore | undefined;
    const app = (b: typeof hooks) => {
      function Chat() {
        const agent = b.useAgentRun({
          source: m.source,
          threadId: 't',
          initialMessages: [{ id: 'u0', role: 'user', content: 'Hi' }],
          initialState: { step: 1 },
        });
        store = agent.store as AgentStore;
        return (
          <b.AgentProvider store={agent.store}>
            <All />
          </b.AgentProvider>
        );
      }
      function All() {
        const run = b.useRun();
        const summary = b.useRunSummary('r');
        const last = b.useLastReplyId('r');
        const attr = b.useMessageAttribution();
        const subs = b.useSubagents();
        const shared = b.useSharedState();
        const step = b.useAgentState((d: { step: number }) => d.step);
        const sel = b.useAgentSelector((s) => s.thread.messages.ids.filter((id) => id.startsWith('u')));
        const tool = b.useToolCall('x');
        const msg = b.useMessage('u0');
        const { count } = b.useEventLog();
        return (
          <p>
            {run.status} {String(summary)} {String(last)} {attr.size} {Object.keys(subs).length} {shared.sync} {step} {sel.join(',')}{' '}
            {String(tool)} {String(msg?.content)} {count} {b.useInterrupts().length} {b.useDiagnostics().length}{' '}
            {String(b.useCapabilities())} {b.useRunStatus()} {b.useMessageIds().length}
          </p>
        );
      }
      return (
        <StrictMode>
          <Suspense fallback="loading">
            <Chat />
          </Suspense>
        </StrictMode>
      );
    };
    const html = await streamHtml(app);
    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.append(container);
    const before = container.innerHTML;
    expect(container.textContent).toContain('in-sync 1 u0 undefined Hi');
    const recoverable: unknown[] = [];
    const root = await act(async () => hydrateRoot(container, app(hooks), { onRecoverableError: (e) => recoverable.push(e) }));
    expect(recoverable).toEqual([]);
    expect(container.innerHTML).toBe(before);
    expect(store).toBeDefined();
    act(() => root.unmount());
    container.remove();
    expect(errors).not.toHaveBeenCalled();
  });

  it('a boundary that suspends while a message streams shows the message as it is once it resolves', async () => {
    const errors = vi.spyOn(console, 'error');
    const m = manualSource();
    const frames = manualFrames();
    const store = createAgentStore({ source: m.source, threadId: 't', scheduler: frames.scheduler });
    let resolve!: (v: string) => void;
    const p = new Promise<string>((r) => {
      resolve = r;
    });
    function Slow() {
      const label = use(p);
      return (
        <p data-testid="slow">
          {label}:{String(useMessage('live')?.content ?? '')}
        </p>
      );
    }
    function Fast() {
      return (
        <p data-testid="fast">
          {String(useMessage('live')?.content ?? '')}
          {useMessageIds().length}
        </p>
      );
    }
    await act(async () => {
      render(
        <StrictMode>
          <AgentProvider store={store}>
            <Fast />
            <Suspense fallback={<p data-testid="fallback">wait</p>}>
              <Slow />
            </Suspense>
          </AgentProvider>
        </StrictMode>,
      );
    });
    await act(async () => {
      void store.getState().run('go');
      await tick();
      m.push(
        { type: 'RUN_STARTED', threadId: 't', runId: m.requests[0]?.runId },
        { type: 'TEXT_MESSAGE_START', messageId: 'live', role: 'assistant' },
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'live', delta: 'ab' },
      );
      await tick();
      frames.frame();
    });
    expect(screen.getByTestId('fallback')).toBeTruthy();
    await act(async () => {
      resolve('L');
      m.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'live', delta: 'c' });
      await tick();
      frames.frame();
    });
    expect(screen.getByTestId('slow').textContent).toBe('L:abc');
    expect(errors).not.toHaveBeenCalled();
  });
});
