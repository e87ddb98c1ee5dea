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

/** A second approval, still open, asked with the expired one. */
const NEXT = {
  id: '2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d',
  reason: 'tool_call',
  toolCallId: 'call_0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
  message: 'Email the customer that the refund is on its way?',
  responseSchema: { type: 'object', required: ['approved'], properties: { approved: { type: 'boolean' } } },
};

async function expiredApproval(withNext = false) {
  await preloadInterruptForm();
  return playedStore(
    [
      {
        say: 'Refund order A-1001.',
        events: runOf(
          [
            ...say('5d7f3a4e-2b1c-4d8e-9f0a-1b2c3d4e5f60', 'The order is eligible: I will refund it once you approve.'),
            ...call(CALL, 'refund_order', { orderId: 'A-1001', amount: 42, currency: 'EUR', reason: 'damaged in transit' }),
            ...(withNext ? call(NEXT.toolCallId, 'notify_customer', { orderId: 'A-1001', channel: 'email' }) : []),
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
                ...(withNext ? [NEXT] : []),
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

describe('an expired approval above one still open, in the chat', () => {
  for (const [width, height] of [
    [390, 844],
    [1366, 768],
  ] as const) {
    it(`keeps its notice and Close without answering inside its card, clear of the next one (${width}x${height})`, async () => {
      await page.viewport(width, height);
      const store = await expiredApproval(true);
      const screen = await render(
        <AgentProvider store={store}>
          <div style={{ height: '100vh' }}>
            <AgentChat />
          </div>
        </AgentProvider>,
      );
      await expect.element(screen.getByRole('button', { name: 'Approve' })).toBeVisible();
      await frames();
      const card = document.querySelector<HTMLElement>('.agk-interrupt[data-state="expired"]');
      const actions = card?.querySelector<HTMLElement>('.agk-interrupt__actions');
      const next = card?.nextElementSibling;
      if (!card || !actions || !next) throw new Error('no expired card, its actions or the card after it');
      const cardBox = card.getBoundingClientRect();
      const actionsBox = actions.getBoundingClientRect();
      expect(actionsBox.bottom).toBeLessThanOrEqual(cardBox.bottom + 0.5);
      expect(actionsBox.bottom).toBeLessThanOrEqual(next.getBoundingClientRect().top + 0.5);
    });
  }
});
