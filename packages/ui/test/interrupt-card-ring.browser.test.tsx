// Vite's client types: they declare the stylesheet import below.
/// <reference types="vite/client" />
import { AgentProvider } from '@aguikit/react';
import { afterEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { AgentChat } from '../src/AgentChat.js';
import { preloadInterruptForm } from '../src/lazyChunks.js';
import { interruptChat } from '../src/storybook/chat.js';
import '../src/styles.css';

/**
 * Alt+Shift+D from the composer focuses the open approval in the chat, its start scrolled up to the decision area's
 * heading, which is held at the area's top edge: the card's focus ring is drawn wholly below that heading, its top
 * edge included, not under it.
 */

afterEach(async () => {
  for (const el of document.body.querySelectorAll(':scope > div')) el.remove();
  await page.viewport(414, 896);
});

const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

describe('an approval focused with Alt+Shift+D in the chat', () => {
  for (const [width, height] of [
    [1366, 768],
    [390, 844],
  ] as const)
    it(`shows the top edge of its focus ring below the held heading (${width}x${height})`, async () => {
      await page.viewport(width, height);
      await preloadInterruptForm();
      const store = await interruptChat();
      const host = document.createElement('div');
      host.style.height = '100vh';
      document.body.append(host);
      const screen = await render(
        <AgentProvider store={store}>
          <AgentChat placeholder="Ask about an order, a refund or a delivery" />
        </AgentProvider>,
        { container: host },
      );
      await expect.element(screen.getByRole('button', { name: 'Approve' })).toBeEnabled();
      // Into the composer by the keyboard (a letter typed and taken back), as a reviewer at a keyboard is.
      (screen.getByRole('textbox', { name: 'Message' }).element() as HTMLElement).focus();
      await userEvent.keyboard('x{Backspace}');
      await userEvent.keyboard('{Alt>}{Shift>}D{/Shift}{/Alt}');
      const card = host.querySelector<HTMLElement>('.agk-chat > .agk-interrupts .agk-interrupt');
      if (!card) throw new Error('no card');
      await expect.poll(() => document.activeElement === card, { message: 'focus on the card' }).toBe(true);
      await frame();
      expect(card.matches(':focus-visible'), 'the ring is drawn: focus came from the keyboard').toBe(true);
      const heading = host.querySelector<HTMLElement>('.agk-chat > .agk-interrupts > .agk-interrupts__title');
      if (!heading) throw new Error('no heading');
      expect(getComputedStyle(heading).position, 'the heading is held at the area’s top edge').toBe('sticky');
      const style = getComputedStyle(card);
      const ringTop = card.getBoundingClientRect().top - Number.parseFloat(style.outlineOffset) - Number.parseFloat(style.outlineWidth);
      expect(ringTop, 'the ring’s top edge against the heading’s bottom').toBeGreaterThanOrEqual(
        heading.getBoundingClientRect().bottom - 0.5,
      );
    });
});
