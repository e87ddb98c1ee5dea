// Vite's client types: they declare the stylesheet import below.
/// <reference types="vite/client" />
import { AgentProvider } from '@aguikit/react';
import { afterEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { AgentChat } from '../src/AgentChat.js';
import { preloadInterruptForm } from '../src/lazyChunks.js';
import { playedStore } from '../src/storybook/scripted.js';
import '../src/styles.css';
import { escalationRun } from './support/escalation.js';

/**
 * In a short window (200% zoom of a laptop, a phone held sideways) the chat is the one scroll box of a decision, and
 * its actions are held at the chat's bottom edge: flush with it, so no strip of the form scrolling under them shows
 * below the buttons.
 */

afterEach(async () => {
  await page.viewport(414, 896);
});

describe('held actions in a short window', () => {
  for (const [width, height] of [
    [683, 384],
    [844, 390],
  ] as const) {
    it(`reach the chat's bottom edge, with nothing of the form under them (${width}x${height})`, async () => {
      await page.viewport(width, height);
      await preloadInterruptForm();
      const store = await playedStore([], { pending: [escalationRun()], now: () => Date.now() });
      const screen = await render(
        <AgentProvider store={store}>
          <div style={{ height: '100vh' }}>
            <AgentChat />
          </div>
        </AgentProvider>,
      );
      await store.getState().run('Refund order A-1001.');
      await expect.element(screen.getByRole('button', { name: 'Submit' })).toBeEnabled();
      const chat = document.querySelector<HTMLElement>('.agk-chat');
      const card = document.querySelector<HTMLElement>('.agk-interrupt');
      const actions = document.querySelector<HTMLElement>('.agk-interrupt__actions');
      if (!chat || !card || !actions) throw new Error('no chat, card or actions');
      // The card's top at the chat's top: its form runs on past the chat's bottom edge, under the held actions.
      chat.scrollTop += card.getBoundingClientRect().top - chat.getBoundingClientRect().top;
      await new Promise(requestAnimationFrame);
      await new Promise(requestAnimationFrame);
      const edge = chat.getBoundingClientRect().bottom - Number.parseFloat(getComputedStyle(chat).borderBottomWidth);
      expect(card.getBoundingClientRect().bottom).toBeGreaterThan(edge);
      expect(Math.round(edge - actions.getBoundingClientRect().bottom)).toBe(0);
    });
  }
});
