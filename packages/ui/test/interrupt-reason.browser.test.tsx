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
 * An agent's own reason (`acme:…`) is shown as a badge in the interrupt's
 * header. Badges elsewhere stay on one line; this one is the agent's text,
 * of any length: it wraps inside the card, and the card is never wider than
 * the area it is in.
 */

const REASON = 'acme:escalation_to_regional_compliance_review_for_high_value_refunds_over_threshold';
const MESSAGE =
  'Please review this refund of $1,900.00 to a card that was added today; the customer says the original card was lost and asks for the money to go to the new one instead.';

async function escalation() {
  await preloadInterruptForm();
  return playedStore(
    [
      {
        say: 'Refund $1,900 for order B-7 to my new card, please.',
        events: runOf(say('3f2a1b0c-9d8e-4f7a-8b6c-5d4e3f2a1b0c', 'This refund needs a review.'), {
          outcome: {
            type: 'interrupt',
            interrupts: [
              {
                id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
                reason: REASON,
                message: MESSAGE,
                metadata: { queue: 'fraud-review' },
                responseSchema: {
                  type: 'object',
                  required: ['decision'],
                  properties: {
                    decision: { type: 'string', title: 'Decision', enum: ['approve', 'deny'] },
                    note: { type: 'string', title: 'Note for the audit trail' },
                  },
                },
              },
            ],
          },
        }),
      },
    ],
    { now: () => Date.now() },
  );
}

afterEach(async () => {
  await page.viewport(414, 896);
});

describe('an interrupt with a long reason of its own', () => {
  for (const [width, height, what] of [
    [390, 844, 'a phone'],
    [1366, 768, 'a laptop'],
  ] as const) {
    it(`wraps the reason inside the card, which does not overflow, on ${what} (${width}x${height})`, async () => {
      await page.viewport(width, height);
      const store = await escalation();
      const screen = await render(
        <AgentProvider store={store}>
          <div style={{ height: '100vh', display: 'flex', flexDirection: 'column' }}>
            <AgentChat />
          </div>
        </AgentProvider>,
      );
      await expect.element(screen.getByRole('button', { name: 'Submit' })).toBeEnabled();
      await new Promise(requestAnimationFrame);
      const card = document.querySelector<HTMLElement>('.agk-interrupt');
      const reason = document.querySelector<HTMLElement>('.agk-interrupt__reason');
      const message = document.querySelector<HTMLElement>('.agk-interrupt__message');
      if (!card || !reason || !message) throw new Error('no interrupt card');
      expect(reason.textContent).toBe(REASON);
      expect(card.scrollWidth, `the card's content, ${card.scrollWidth}px in a ${card.clientWidth}px card`).toBeLessThanOrEqual(
        card.clientWidth,
      );
      const box = card.getBoundingClientRect();
      const badge = reason.getBoundingClientRect();
      expect(badge.right, 'the reason ends inside the card').toBeLessThanOrEqual(box.right + 0.5);
      expect(badge.left, 'the reason starts inside the card').toBeGreaterThanOrEqual(box.left - 0.5);
      expect(message.getBoundingClientRect().right, 'the message ends inside the card').toBeLessThanOrEqual(box.right + 0.5);
      expect(message.scrollWidth).toBeLessThanOrEqual(message.clientWidth);
      expect(document.documentElement.scrollWidth, 'no horizontal scroll').toBeLessThanOrEqual(window.innerWidth);
    });
  }
});
