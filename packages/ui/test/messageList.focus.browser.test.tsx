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
