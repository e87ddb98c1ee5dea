/**
 * An AgentProvider switched from one store to another (another thread: the
 * playground's New thread or another scenario) while a component still waits
 * on something it did for the first one: an answer being sent, a Reconnect, a
 * reply to read aloud once the Markdown renderer arrives. What the component
 * did belongs to the thread it did it in: the thread shown now is neither
 * blocked by it nor told of it.
 */
import type { AgentSource } from '@aguikit/core';
import { AgentProvider, type AgentStore, createAgentStore } from '@aguikit/react';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

// The Markdown renderer arrives only when the test says so: a reply's speech waits for it.
const gate = vi.hoisted(() => {
  let open: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open: () => open() };
});
vi.mock('../src/MarkdownRenderer.js', async (importOriginal) => {
  await gate.promise;
  return importOriginal();
});

import { InterruptDialog } from '../src/InterruptDialog.js';
import { markdownChunk } from '../src/lazyChunks.js';
import { MessageList } from '../src/Messages.js';
import { RunStatus } from '../src/RunStatus.js';
import { cutOffRun } from './support/cutOffRun.js';

const settle = () =>
  act(async () => {
    for (let i = 0; i < 5; i++) await new Promise<void>((r) => setTimeout(r, 0));
  });
const scheduler = (flush: () => void) => {
  const h = setTimeout(flush, 0);
  return () => clearTimeout(h);
};
const untilAborted = (signal: AbortSignal | undefined) =>
  new Promise<void>((resolve) => signal?.addEventListener('abort', () => resolve(), { once: true }));

/** A thread whose first run asked for a confirmation; the run that answer resumes starts, then streams until stopped. */
async function waitingForAnswer(threadId: string, interruptId: string, message: string) {
  const resumes: unknown[] = [];
  const source: AgentSource = {
    async *run(input, options = {}) {
      if (!input.resume) {
        yield { type: 'RUN_STARTED', threadId, runId: input.runId };
        yield {
          type: 'RUN_FINISHED',
          threadId,
          runId: input.runId,
          outcome: { type: 'interrupt', interrupts: [{ id: interruptId, reason: 'confirmation', message }] },
        };
        return;
      }
      resumes.push(input.resume);
      yield { type: 'RUN_STARTED', threadId, runId: input.runId };
      await untilAborted(options.signal);
    },
  };
  const store = createAgentStore({ source, threadId, scheduler });
  await store.getState().run('go');
  return { store, resumes };
}

const Shown = ({ store, children }: { store: AgentStore; children: React.ReactNode }) => (
  <AgentProvider store={store}>{children}</AgentProvider>
);

describe('a component whose provider switches to another thread', () => {
  it('InterruptDialog: an answer sent in thread A, its run still streaming, leaves thread B answerable and untold', async () => {
    const a = await waitingForAnswer('5f0c2a8e-thread-a', 'a1b2c3d4-interrupt-a', 'Refund order A-1001 (¥42)?');
    const b = await waitingForAnswer('9d8e7f6a-thread-b', 'e5f6a7b8-interrupt-b', '退还订单 B-2002 的运费？');
    const view = render(
      <Shown store={a.store}>
        <InterruptDialog />
      </Shown>,
    );
    await settle();
    await act(async () => {
      fireEvent.click(within(screen.getByRole('article')).getByRole('button', { name: 'Yes' }));
    });
    await settle();
    expect(a.resumes).toHaveLength(1);
    expect(a.store.getState().inFlight).toBeDefined();

    view.rerender(
      <Shown store={b.store}>
        <InterruptDialog />
      </Shown>,
    );
    await settle();
    const card = screen.getByRole('article');
    expect(card).toHaveAccessibleDescription('退还订单 B-2002 的运费？');
    expect(screen.getByRole('dialog')).toHaveAttribute('data-state', 'open');
    expect(card).toHaveAttribute('data-state', 'open');
    const yes = within(card).getByRole('button', { name: 'Yes' });
    expect(yes).toBeEnabled();

    // A's resumed run ends while B is shown: nothing of it is said in B.
    await act(async () => a.store.getState().stop());
    await settle();
    expect(document.querySelector('[data-agk-interrupt-announcer]')?.textContent ?? '').toBe('');

    await act(async () => {
      fireEvent.click(yes);
    });
    await settle();
    expect(b.resumes).toEqual([[expect.objectContaining({ interruptId: 'e5f6a7b8-interrupt-b', status: 'resolved' })]]);
    view.unmount();
    a.store.destroy();
    b.store.destroy();
  });

  it('RunStatus: a Reconnect pressed in thread A, its stream still open, does not show thread B as reconnecting', async () => {
    const cutOff = cutOffRun('tA', 'open');
    const a = createAgentStore({ source: cutOff, threadId: 'tA', scheduler });
    await a.getState().run('a');
    const finished: AgentSource = {
      async *run() {
        yield { type: 'RUN_STARTED', threadId: 'tB', runId: 'rb' };
        yield { type: 'RUN_FINISHED', threadId: 'tB', runId: 'rb' };
      },
    };
    const b = createAgentStore({ source: finished, threadId: 'tB', scheduler });
    await b.getState().run('b');

    const view = render(
      <Shown store={a}>
        <RunStatus />
      </Shown>,
    );
    await settle();
    const state = () => view.container.querySelector('.agk-runstatus')?.getAttribute('data-state');
    expect(state()).toBe('disconnected');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Reconnect' }));
    });
    await settle();
    expect(state()).toBe('reconnecting');

    view.rerender(
      <Shown store={b}>
        <RunStatus />
      </Shown>,
    );
    await settle();
    expect(state()).toBe('done');
    expect(screen.queryByRole('button', { name: 'Reconnect' })).toBeNull();
    // Back in A, its own Reconnect is still going on.
    view.rerender(
      <Shown store={a}>
        <RunStatus />
      </Shown>,
    );
    await settle();
    expect(state()).toBe('reconnecting');
    view.unmount();
    a.destroy();
    b.destroy();
  });

  it("MessageList: a reply of thread A whose speech waits for the Markdown renderer is not read out in thread B's list", async () => {
    // Both threads hold a message under one id (an agent that numbers its messages the same way in every thread).
    const thread = (threadId: string, text: string) => {
      let go: () => void = () => undefined;
      const ready = new Promise<void>((r) => {
        go = r;
      });
      const source: AgentSource = {
        async *run() {
          await ready;
          yield { type: 'RUN_STARTED', threadId, runId: `${threadId}-r` };
          yield { type: 'TEXT_MESSAGE_START', messageId: 'msg-1', role: 'assistant' };
          yield { type: 'TEXT_MESSAGE_CONTENT', messageId: 'msg-1', delta: text };
          yield { type: 'TEXT_MESSAGE_END', messageId: 'msg-1' };
          yield { type: 'RUN_FINISHED', threadId, runId: `${threadId}-r` };
        },
      };
      return { store: createAgentStore({ source, threadId, scheduler }), go: () => go() };
    };
    const a = thread('tA', 'Alpha: the refund was issued.');
    const b = thread('tB', '贝塔：运费已退还。');
    b.go();
    await b.store.getState().run('b');
    const view = render(
      <Shown store={a.store}>
        <MessageList />
      </Shown>,
    );
    await settle();
    // A's reply completes after the list mounted, while the renderer its speech needs is still loading.
    const running = a.store.getState().run('a');
    a.go();
    await act(async () => {
      await running;
    });
    await settle();
    expect(markdownChunk.state().status).toBe('loading');

    view.rerender(
      <Shown store={b.store}>
        <MessageList />
      </Shown>,
    );
    await settle();
    gate.open();
    await act(async () => {
      await markdownChunk.load();
    });
    await settle();
    const region = view.container.querySelector('.agk-messages > p[role="status"]');
    expect(region).not.toBeNull();
    expect(region?.textContent).toBe('');
    expect(view.container.querySelector('[role="log"]')).toHaveTextContent('贝塔：运费已退还。');
    view.unmount();
    a.store.destroy();
    b.store.destroy();
  });
});
