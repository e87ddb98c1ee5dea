// Vite's client types: they declare the stylesheet import below.
/// <reference types="vite/client" />
import { AgentProvider } from '@aguikit/react';
import { afterEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { AgentChat } from '../src/AgentChat.js';
import { preloadInterruptForm } from '../src/lazyChunks.js';
import { playedStore, runOf, say } from '../src/storybook/scripted.js';
import '../src/styles.css';

/**
 * An approval that expired holds, at the bottom edge of what scrolls it, what happened and the one action left (Close
 * without answering): on a phone that is a compact line over its button, not a block that hides the card's content.
 */

afterEach(async () => {
  await page.viewport(414, 896);
});

describe('an expired approval on a phone (390x844)', () => {
  it('holds a one-line notice with Close without answering, leaving the card its content', async () => {
    await page.viewport(390, 844);
    await preloadInterruptForm();
    let ahead = 0;
    const now = () => Date.now() + ahead;
    const store = await playedStore(
      [
        {
          say: 'My teapot from order A-1001 arrived broken. Can I get a refund?',
          events: runOf(say('7d1c0e2a-3b4f-4a5e-8c6d-1e2f3a4b5c6d', 'A refund needs a reviewer.'), {
            outcome: {
              type: 'interrupt',
              interrupts: [
                {
                  id: '2b3c4d5e-6f70-4a81-9b2c-3d4e5f607182',
                  reason: 'tool_call',
                  message: 'Refund $42.00 to the customer’s card for order A-1001?',
                  expiresAt: new Date(Date.now() + 5 * 60_000).toISOString(),
                  responseSchema: {
                    type: 'object',
                    required: ['approved'],
                    properties: { approved: { type: 'boolean' }, comment: { type: 'string', title: 'Comment' } },
                  },
                },
              ],
            },
          }),
        },
      ],
      { now },
    );
    const screen = await render(
      <AgentProvider store={store}>
        <div style={{ height: '100vh', display: 'flex', flexDirection: 'column' }}>
          <AgentChat />
        </div>
      </AgentProvider>,
    );
    const card = screen.getByRole('article', { name: 'Approval needed' });
    await expect.element(card.getByRole('button', { name: 'Approve' })).toBeEnabled();
    ahead = 10 * 60_000;
    await expect.element(card).toHaveAttribute('data-state', 'expired');
    const close = card.getByRole('button', { name: 'Close without answering' });
    await expect.element(close).toBeVisible();

    const actions = document.querySelector<HTMLElement>('.agk-interrupt__actions');
    const status = document.querySelector<HTMLElement>('.agk-interrupt__status');
    if (!actions || !status) throw new Error('no actions or status');
    // Still held: sticky at the bottom edge of what scrolls the card.
    expect(getComputedStyle(actions).position).toBe('sticky');
    // The notice is one line: every box of its text on the same line.
    const range = document.createRange();
    range.selectNodeContents(status);
    const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
    // Notice and button together: a row of buttons with a line over it, leaving the rest of the decision area to the card.
    const height = actions.getBoundingClientRect().height;
    expect(height, 'height of the held notice and Close (px)').toBeLessThanOrEqual(88);
    expect(lines.size, 'lines of the held notice').toBe(1);
    expect(status.textContent).toMatch(/^Expired at .+/);
    // Why it can no longer be answered is said under the heading, with the card's content.
    expect(card.element().querySelector('.agk-interrupt__why')?.textContent).toMatch(/only closed/);
  });
});
