import { act, render, screen } from '@testing-library/react';
import { Component, type ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AgentProvider, createAgentStore, useAgentSelector, useMessage } from '../src/index.js';
import { manualFrames, manualSource, tick } from './support/sources.js';

afterEach(() => vi.restoreAllMocks());

class Boundary extends Component<{ children: ReactNode }, { error?: unknown }> {
  override state: { error?: unknown } = {};
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  override render() {
    return this.state.error ? <p data-testid="caught">{String((this.state.error as Error).message)}</p> : this.props.children;
  }
}

async function started(
  m: ReturnType<typeof manualSource>,
  store: ReturnType<typeof createAgentStore>,
  frames: ReturnType<typeof manualFrames>,
) {
  await act(async () => {
    void store.getState().run('go');
    await tick();
    const runId = m.requests.at(-1)?.runId ?? '';
    m.push({ type: 'RUN_STARTED', threadId: 't', runId }, { type: 'TEXT_MESSAGE_START', messageId: 'live', role: 'assistant' });
    await tick();
    frames.frame();
  });
}

describe('a selector hook that fails, or a tree unmounted as the store tells it', () => {
  it('a selector that throws mid-stream reaches the error boundary, and the other components go on streaming', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const m = manualSource();
    const frames = manualFrames();
    const store = createAgentStore({ source: m.source, threadId: 't', scheduler: frames.scheduler });
    let calls = 0;
    function Bad() {
      const n = useAgentSelector((s) => {
        calls++;
        const msg = s.thread.messages.byId.get('live');
        if (typeof msg?.content === 'string' && msg.content.length > 2) throw new Error('boom');
        return msg?.content;
      });
      return <p>{String(n)}</p>;
    }
    function Good() {
      return <p data-testid="good">{String(useMessage('live')?.content ?? '')}</p>;
    }
    render(
      <AgentProvider store={store}>
        <Boundary>
          <Bad />
        </Boundary>
        <Good />
      </AgentProvider>,
    );
    await started(m, store, frames);
    for (let i = 0; i < 5; i++)
      await act(async () => {
        m.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'live', delta: 'x' });
        await tick();
        frames.frame();
      });
    expect(screen.getByTestId('caught').textContent).toBe('boom');
    expect(screen.getByTestId('good').textContent).toBe('xxxxx');
    // The selector ran once per change of the store, not again and again (no loop).
    expect(calls).toBeLessThan(20);
  });

  it('a root unmounted by a store listener during a flush leaves no error', async () => {
    const errors = vi.spyOn(console, 'error');
    const m = manualSource();
    const frames = manualFrames();
    const store = createAgentStore({ source: m.source, threadId: 't', scheduler: frames.scheduler });
    function Item({ id }: { id: string }) {
      return <p>{String(useMessage(id)?.content ?? '')}</p>;
    }
    const view = render(
      <AgentProvider store={store}>
        <Item id="live" />
        <Item id="live" />
      </AgentProvider>,
    );
    await started(m, store, frames);
    const off = store.subscribe(() => {
      view.unmount();
    });
    await act(async () => {
      m.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'live', delta: 'ab' });
      await tick();
      frames.frame();
    });
    off();
    expect(errors).not.toHaveBeenCalled();
  });
});
