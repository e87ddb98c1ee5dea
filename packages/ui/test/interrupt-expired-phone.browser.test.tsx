// Vite's client types: they declare the stylesheet import below.
/// <reference types="vite/client" />
import { AgentProvider } from '@aguikit/react';
import { afterEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { AgentChat } from '../src/AgentChat.js';
import { preloadInterruptForm } from '../src/lazyChunks.js';
import { call, playedStore, runOf, say } from '../src/storybook/scripted.js';
import '../src/styles.css';

/**
 * An approval that expired has one thing left to do (close it) and nothing to answer: on a phone its notice and
 * button are not held over the card, where at 390x844 they took 128 px of the 300 px the decision area shows of it
 * (the tool and its arguments under them); they follow the card's content.
 */

afterEach(async () => {
  await page.viewport(414, 896);
});

const CALL = 'call_8f14e45f-ceea-467f-a0e6-cbbf1d3a8b1c';

async function expiredApproval() {
  await preloadInterruptForm();
  return playedStore(
    [
      {
        say: 'Refund order A-1001.',
        events: runOf(
          [
            ...say('5d7f3a4e-2b1c-4d8e-9f0a-1b2c3d4e5f60', 'The order is eligible: I will refund it once you approve.'),
            ...call(CALL, 'refund_order', { orderId: 'A-1001', amount: 42, currency: 'EUR', reason: 'damaged in transit' }),
          ],
          {
            outcome: {
              type: 'interrupt',
              interrupts: [
                {
                  id: '1f2e3d4c-5b6a-4978-8a9b-0c1d2e3f4a5b',
                  reason: 'tool_call',
                  toolCallId: CALL,
                  message: 'Refund €42.00 to the customer for order A-1001?',
                  expiresAt: new Date(Date.now() - 60_000).toISOString(),
                  responseSchema: {
                    type: 'object',
                    required: ['approved'],
                    properties: { approved: { type: 'boolean' }, comment: { type: 'string', title: 'Comment' } },
                  },
                },
              ],
            },
          },
        ),
      },
    ],
    { now: () => Date.now() },
  );
}

const frames = async () => {
  await new Promise(requestAnimationFrame);
  await new Promise(requestAnimationFrame);
};

describe('an expired approval in the chat on a phone (390x844)', () => {
  it('leaves its subject, tool and arguments uncovered, and shows its notice whole above Close without answering', async () => {
    await page.viewport(390, 844);
    const store = await expiredApproval();
    const screen = await render(
      <AgentProvider store={store}>
        <div style={{ height: '100vh' }}>
          <AgentChat />
        </div>
      </AgentProvider>,
    );
    await expect.element(screen.getByRole('button', { name: 'Close without answering' })).toBeVisible();
    await frames();
    const area = document.querySelector<HTMLElement>('.agk-interrupts');
    const card = area?.querySelector<HTMLElement>('.agk-interrupt');
    const actions = card?.querySelector<HTMLElement>('.agk-interrupt__actions');
    if (!area || !card || !actions) throw new Error('no decision area, card or actions');
    const areaBox = area.getBoundingClientRect();
    const actionsBox = actions.getBoundingClientRect();
    // What the card says before its actions, where the area shows it: none of it is under them.
    for (const part of card.querySelectorAll<HTMLElement>(
      '.agk-interrupt__header, .agk-interrupt__why, .agk-interrupt__message, .agk-interrupt__facts dt, .agk-interrupt__facts dd',
    )) {
      const box = part.getBoundingClientRect();
      if (box.top >= areaBox.bottom) continue;
      expect(box.bottom <= actionsBox.top + 0.5 || box.top >= actionsBox.bottom - 0.5, part.className || part.tagName).toBe(true);
    }
    // Nothing is held at the chat's bottom edge: no room is kept there for actions (its scroll padding: a ring's 4 px).
    const chat = document.querySelector<HTMLElement>('.agk-chat');
    expect(Number.parseFloat(chat?.style.getPropertyValue('--agk-held-bottom') ?? '')).toBeLessThanOrEqual(4);
    // Scrolled to, the notice and the button are inside the area, whole.
    actions.scrollIntoView({ block: 'nearest' });
    await frames();
    const status = actions.querySelector<HTMLElement>('.agk-interrupt__status');
    const close = screen.getByRole('button', { name: 'Close without answering' }).element();
    const shown = area.getBoundingClientRect();
    for (const el of [status, close]) {
      const box = el?.getBoundingClientRect();
      expect(box && box.top >= shown.top - 0.5 && box.bottom <= shown.bottom + 0.5).toBe(true);
    }
    expect(status).toHaveTextContent(/expired .*only closed/);
  });
});
