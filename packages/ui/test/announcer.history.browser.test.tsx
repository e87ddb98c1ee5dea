// Vite's client types: they declare the stylesheet import below.
/// <reference types="vite/client" />
import type { Message as AgUiMessage } from '@aguikit/core';
import { AgentProvider } from '@aguikit/react';
import { describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { AgentChat } from '../src/AgentChat.js';
import { preloadMarkdown } from '../src/lazyChunks.js';
import { playedStore, runOf, say } from '../src/storybook/scripted.js';
import '../src/styles.css';

/**
 * An agent that restates the conversation (MESSAGES_SNAPSHOT of 3,000
 * messages the client never had) and then answers: what a screen reader hears
 * is the answer, once, never an old answer of the history, whichever rows the
 * virtualized list mounts after the answer has settled.
 */

const REPLY = 'We talked about 1500 orders; all of them are shipped.';

function history(count: number): AgUiMessage[] {
  return Array.from({ length: count }, (_, i) =>
    i % 2
      ? {
          id: `0b7c${String(i).padStart(4, '0')}-5f1e-4c2a-9d3b-8e7f6a5b4c3d`,
          role: 'assistant',
          content: `Answer ${(i + 1) / 2}: the order ${1000 + i} is on its way.`,
        }
      : {
          id: `0a7c${String(i).padStart(4, '0')}-5f1e-4c2a-9d3b-8e7f6a5b4c3d`,
          role: 'user',
          content: `Question ${i / 2 + 1}: where is order ${1000 + i}?`,
        },
  );
}

describe('a long thread restated by the agent, then answered', () => {
  for (const [width, height] of [
    [1366, 768],
    [390, 844],
  ] as const) {
    it(`announces the answer, and nothing of the history (${width}x${height})`, async () => {
      await page.viewport(width, height);
      await preloadMarkdown();
      const said: string[] = [];
      const events = runOf([{ type: 'MESSAGES_SNAPSHOT', messages: history(3000) }, ...say('9e8d7c6b-5a49-4838-a726-150493827160', REPLY)]);
      const store = await playedStore([], { pending: [events] });
      const screen = await render(
        <AgentProvider store={store}>
          <div style={{ height: '100vh', display: 'flex', flexDirection: 'column' }}>
            <AgentChat />
          </div>
        </AgentProvider>,
      );
      const region = document.querySelector('.agk-messages [role="status"]') as HTMLElement;
      const watch = new MutationObserver(() => {
        const text = region.textContent?.trim();
        if (text) said.push(text);
      });
      watch.observe(region, { childList: true, subtree: true, characterData: true });
      await store.getState().run('Summarise our conversation.');
      await expect.element(screen.getByText(REPLY)).toBeVisible();
      await new Promise((resolve) => setTimeout(resolve, 500));
      watch.disconnect();
      expect(
        said.filter((text) => /Answer \d+/.test(text)),
        'history announced',
      ).toEqual([]);
      expect(said.at(-1)).toBe(`Assistant: ${REPLY}`);
    });
  }
});
