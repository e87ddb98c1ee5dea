/// <reference types="vite/client" />
import type { Message as AgUiMessage } from '@aguikit/core';
import { AgentProvider, createAgentStore } from '@aguikit/react';
import { describe, expect, it } from 'vitest';
import { userEvent } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { preloadMarkdown } from '../src/lazyChunks.js';
import { MessageList } from '../src/Messages.js';
import '../src/styles.css';

/**
 * A keyboard user in a long (virtualized) thread: focus on a link in one
 * reply, and the list scrolled far from it (Home, Page Up, the wheel).
 */

const THREAD = 400;
const thread: AgUiMessage[] = Array.from({ length: THREAD }, (_, i) =>
  i % 2
    ? { id: `a${i}`, role: 'assistant', content: `Reply ${i}: see [the order ${i}](https://shop.example/orders/${i}).` }
    : { id: `u${i}`, role: 'user', content: `Question ${i}` },
);

const nextFrame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));
async function settle(frames = 12) {
  for (let i = 0; i < frames; i++) await nextFrame();
}

describe('MessageList in Chromium: focus inside a virtualized thread', () => {
  it('keeps the focused reply (and focus) when the list is scrolled far from it, and Tab goes on from there', async () => {
    await preloadMarkdown();
    const store = createAgentStore({ source: { run: async function* () {} }, threadId: 't', initialMessages: thread });
    const screen = await render(
      <AgentProvider store={store}>
        <div style={{ width: 390, height: 700, display: 'flex', flexDirection: 'column' }}>
          <MessageList />
        </div>
      </AgentProvider>,
    );
    const root = screen.container.querySelector<HTMLElement>('.agk-messages');
    const log = screen.container.querySelector<HTMLElement>('[role="log"]');
    if (!root || !log) throw new Error('no message list');
    await settle();
    expect(root).toHaveAttribute('data-virtualization', 'on');
    const link = [...log.querySelectorAll<HTMLAnchorElement>('a')].find((a) => a.textContent?.includes(`the order ${THREAD - 1}`));
    if (!link) throw new Error('no link in the last reply');
    link.focus();
    expect(document.activeElement).toBe(link);

    // Home on the focused link scrolls the list to its top: the last reply is hundreds of rows away.
    await userEvent.keyboard('{Home}');
    await settle();
    if (log.scrollTop > 0) {
      log.scrollTop = 0;
      await settle();
    }
    expect(log.scrollTop).toBe(0);
    expect(document.activeElement, 'focus stays on the link').toBe(link);
    expect(link.isConnected).toBe(true);
    // Tab goes on from the link (to "Jump to latest", the list being scrolled up), not from the top of the page.
    await userEvent.keyboard('{Tab}');
    expect(document.activeElement).toBe(root.querySelector('.agk-messages__jump'));
  });
});

describe('MessageList in Chromium: the focused reply moved by a snapshot while the list is scrolled far from it', () => {
  it('keeps it rendered where it went, and focus in it', async () => {
    await preloadMarkdown();
    // The agent restates the thread with the last reply moved up (as many messages as before).
    const moved = [...thread.slice(0, 300), thread[THREAD - 1], ...thread.slice(300, THREAD - 1)] as AgUiMessage[];
    const store = createAgentStore({
      threadId: 't',
      initialMessages: thread,
      source: {
        run: async function* () {
          yield { type: 'RUN_STARTED', threadId: 't', runId: 'r1' };
          yield { type: 'MESSAGES_SNAPSHOT', messages: moved };
          yield { type: 'RUN_FINISHED', threadId: 't', runId: 'r1' };
        },
      },
    });
    const screen = await render(
      <AgentProvider store={store}>
        <div style={{ width: 390, height: 700, display: 'flex', flexDirection: 'column' }}>
          <MessageList />
        </div>
      </AgentProvider>,
    );
    const log = screen.container.querySelector<HTMLElement>('[role="log"]');
    if (!log) throw new Error('no message list');
    await settle();
    const link = [...log.querySelectorAll<HTMLAnchorElement>('a')].find((a) => a.textContent?.includes(`the order ${THREAD - 1}`));
    if (!link) throw new Error('no link in the last reply');
    link.focus();
    log.scrollTop = 0;
    await settle();
    expect(link.isConnected).toBe(true);

    await store.getState().run();
    await settle();
    expect(store.getState().thread.messages.ids[300]).toBe(`a${THREAD - 1}`);
    expect(link.isConnected, 'the focused reply is still rendered').toBe(true);
    expect(document.activeElement, 'focus stays on the link').toBe(link);
  });
});

describe('MessageList in Chromium: focus in a reply while the window is in the background', () => {
  it('keeps the focused reply rendered when the list is scrolled far from it before the reader comes back', async () => {
    await preloadMarkdown();
    const store = createAgentStore({ source: { run: async function* () {} }, threadId: 't', initialMessages: thread });
    const screen = await render(
      <AgentProvider store={store}>
        <div style={{ width: 390, height: 700, display: 'flex', flexDirection: 'column' }}>
          <MessageList />
        </div>
      </AgentProvider>,
    );
    const log = screen.container.querySelector<HTMLElement>('[role="log"]');
    if (!log) throw new Error('no message list');
    await settle();
    const link = [...log.querySelectorAll<HTMLAnchorElement>('a')].find((a) => a.textContent?.includes(`the order ${THREAD - 1}`));
    if (!link) throw new Error('no link in the last reply');
    link.focus();
    // The reader opens the link in a new tab: the window loses focus, the link keeps it (it gets it back on return).
    link.dispatchEvent(new FocusEvent('blur', { relatedTarget: null }));
    link.dispatchEvent(new FocusEvent('focusout', { bubbles: true, relatedTarget: null }));
    expect(document.activeElement).toBe(link);
    // Meanwhile the list is scrolled far from it (in a real window, a reply that grows while it is followed does the same).
    log.scrollTop = 0;
    await settle();
    expect(link.isConnected, 'the focused reply is still rendered').toBe(true);
    expect(document.activeElement, 'focus is still on the link').toBe(link);
  });
});
