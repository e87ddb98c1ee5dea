/**
 * A store a component makes from a saved log of agent events before anything
 * has loaded the engine: the render suspends until it has (a streaming server
 * render waits for it, hydration keeps the server's HTML), rather than
 * throwing; an engine that fails to load reaches the error boundary, and the
 * next mount asks for it again.
 */
import { act, render, screen } from '@testing-library/react';
import { Component, type ReactNode, Suspense } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AgentProvider, useAgentRun, useMessageIds } from '../src/index.js';
import { manualSource } from './support/sources.js';

const engine = vi.hoisted(() => ({
  loaded: false,
  loads: 0,
  settle: null as null | ((ok: boolean) => void),
  pending: null as null | Promise<void>,
}));

vi.mock('@aguikit/core', async (importOriginal) => {
  const original = await importOriginal<typeof import('@aguikit/core')>();
  return {
    ...original,
    // As the controller does before the engine has loaded, when its log holds agent events.
    createRunController: (options: Parameters<typeof original.createRunController>[0]) => {
      if (options?.log && !engine.loaded)
        throw Object.assign(new Error('aguikit: a session log of agent events needs the engine'), { code: 'ENGINE_NOT_LOADED' });
      return original.createRunController(options);
    },
    // As the real one: one load at a time, asked for again after one failed.
    loadEngine: () => {
      engine.pending ??= new Promise<void>((resolve, reject) => {
        engine.loads++;
        engine.settle = (ok) => {
          engine.loaded = ok;
          engine.pending = null;
          if (ok) resolve();
          else reject(new Error('the engine chunk failed to load (offline)'));
        };
      });
      return engine.pending;
    },
  };
});

const log = [
  { type: 'init', threadId: 't1', at: 0 },
  { type: 'user_message', message: { id: 'u-refund-a1', role: 'user', content: 'Refund order A-1' }, at: 1 },
] as const;

function Said() {
  return <p>{useMessageIds().join(', ')}</p>;
}

class Boundary extends Component<{ children: ReactNode }, { error: string | null }> {
  override state = { error: null as string | null };
  static getDerivedStateFromError(e: Error) {
    return { error: e.message };
  }
  override render() {
    return this.state.error ? <p role="alert">{this.state.error}</p> : this.props.children;
  }
}

afterEach(() => {
  vi.restoreAllMocks();
  engine.loaded = false;
  engine.loads = 0;
});

describe('a store made from a saved log before the engine has loaded', () => {
  it.each(['AgentProvider options', 'useAgentRun'] as const)('suspends the render until it has (%s), then shows the log', async (via) => {
    const { source } = manualSource();
    function Hooked() {
      const agent = useAgentRun({ source, log });
      return (
        <AgentProvider store={agent.store}>
          <Said />
        </AgentProvider>
      );
    }
    render(
      <Boundary>
        <Suspense fallback={<p>Loading the conversation</p>}>
          {via === 'useAgentRun' ? (
            <Hooked />
          ) : (
            <AgentProvider options={{ source, log }}>
              <Said />
            </AgentProvider>
          )}
        </Suspense>
      </Boundary>,
    );
    expect(screen.getByText('Loading the conversation')).toBeTruthy();
    expect(engine.loads).toBeGreaterThan(0);
    await act(async () => engine.settle?.(true));
    expect(await screen.findByText('u-refund-a1')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('that fails to load reaches the error boundary, and the next mount asks for it again', async () => {
    // React reports the error the boundary catches.
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { source } = manualSource();
    const tree = (
      <Boundary>
        <Suspense fallback={<p>Loading the conversation</p>}>
          <AgentProvider options={{ source, log }}>
            <Said />
          </AgentProvider>
        </Suspense>
      </Boundary>
    );
    const first = render(tree);
    await act(async () => engine.settle?.(false));
    expect((await screen.findByRole('alert')).textContent).toBe('the engine chunk failed to load (offline)');
    const asked = engine.loads;
    first.unmount();
    render(tree);
    expect(engine.loads).toBe(asked + 1);
    await act(async () => engine.settle?.(true));
    expect(await screen.findByText('u-refund-a1')).toBeTruthy();
  });

  it('that failed while nothing waited on it (the reader left) does not fail a mount made later: that one asks again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { source } = manualSource();
    const tree = (
      <Boundary>
        <Suspense fallback={<p>Loading the conversation</p>}>
          <AgentProvider options={{ source, log }}>
            <Said />
          </AgentProvider>
        </Suspense>
      </Boundary>
    );
    render(tree).unmount();
    await act(async () => engine.settle?.(false));
    await act(async () => new Promise((resolve) => setTimeout(resolve, 1_100)));
    const asked = engine.loads;
    render(tree);
    expect(engine.loads).toBe(asked + 1);
    expect(screen.queryByRole('alert')).toBeNull();
    await act(async () => engine.settle?.(true));
    expect(await screen.findByText('u-refund-a1')).toBeTruthy();
  });
});
