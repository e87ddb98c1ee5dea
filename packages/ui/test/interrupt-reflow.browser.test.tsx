// Vite's client types: they declare the stylesheet import below.
/// <reference types="vite/client" />
import { AgentProvider, type AgentStore } from '@aguikit/react';
import { afterEach, describe, expect, it } from 'vitest';
import { cdp, page, userEvent } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { AgentChat } from '../src/AgentChat.js';
import { InterruptDialog } from '../src/InterruptDialog.js';
import { preloadInterruptForm } from '../src/lazyChunks.js';
import { call, playedStore, runOf, say } from '../src/storybook/scripted.js';
import '../src/styles.css';

/**
 * The interrupt in real Chromium at the widths reflow asks for: 320 CSS px,
 * and 200% / 400% zoom of a 1280x768 screen (emulated as a 640x384 and a
 * 320x192 CSS px viewport). However long its context, the actions stay on
 * screen and wrap, and nothing scrolls sideways.
 */

const longMessage = Array.from(
  { length: 10 },
  (_, i) => `Step ${i + 1}: the carrier's scan log and the customer's photos were checked against section 4.${i + 1} of the policy.`,
).join('\n');

async function longApproval(): Promise<AgentStore> {
  await preloadInterruptForm();
  return playedStore(
    [
      {
        say: 'Refund order A-1001',
        events: runOf(
          call('0c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f', 'refund_order_with_a_rather_long_tool_name_for_wrapping', {
            orderId: 'A-1001-7f3e9c2b4d6a8e0f1a2b3c4d5e6f7a8b9c0d',
            amount: 1284.5,
          }),
          {
            outcome: {
              type: 'interrupt',
              interrupts: [
                {
                  id: 'f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b',
                  reason: 'tool_call',
                  toolCallId: '0c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
                  message: longMessage,
                  metadata: { correlationId: 'run-8f14e45f-ceea-467f-a0a6-ad7f1c2e9b3d-6c8349cc7260ae62e3b1396831a8398f' },
                  expiresAt: new Date(Date.now() + 30 * 60_000).toISOString(),
                  responseSchema: {
                    type: 'object',
                    required: ['approved'],
                    properties: {
                      approved: { type: 'boolean' },
                      comment: { type: 'string', title: 'Comment for the customer record' },
                      // A field named by its key, one long word: its label wraps rather than widen the page.
                      Kundenbeziehungsverwaltungsreferenznummer: { type: 'string' },
                    },
                  },
                },
              ],
            },
          },
        ),
      },
    ],
    { now: () => Date.now(), pending: [runOf(say('after', 'Done.'))] },
  );
}

afterEach(async () => {
  await cdp().send('Emulation.setEmulatedMedia', { features: [] });
  await page.viewport(414, 896);
});

describe('the interrupt reflows', () => {
  for (const [width, height, what] of [
    [320, 640, '320 CSS px'],
    [640, 384, '200% zoom'],
    [320, 192, '400% zoom'],
  ] as const) {
    it(`keeps its actions on screen with no sideways scroll at ${what} (${width}x${height})`, async () => {
      await page.viewport(width, height);
      const store = await longApproval();
      const screen = await render(
        <AgentProvider store={store}>
          <InterruptDialog initialFocus="none" />
        </AgentProvider>,
      );
      await expect.element(screen.getByRole('button', { name: 'Approve' })).toBeEnabled();
      window.scrollTo(0, 0);
      await new Promise(requestAnimationFrame);
      for (const name of ['Approve', 'Reject', 'Close without answering']) {
        const box = screen.getByRole('button', { name }).element().getBoundingClientRect();
        expect(box.top, `${name} top`).toBeGreaterThanOrEqual(0);
        expect(box.bottom, `${name} bottom`).toBeLessThanOrEqual(window.innerHeight + 0.5);
        expect(box.left, `${name} left`).toBeGreaterThanOrEqual(0);
        expect(box.right, `${name} right`).toBeLessThanOrEqual(window.innerWidth + 0.5);
      }
      expect(document.documentElement.scrollWidth, 'no horizontal scroll').toBeLessThanOrEqual(window.innerWidth);
      // The card is never narrower than its actions.
      const card = document.querySelector('.agk-interrupt')?.getBoundingClientRect();
      const actions = document.querySelector('.agk-interrupt__buttons')?.getBoundingClientRect();
      expect(card && actions && card.width >= actions.width).toBe(true);
    });
  }

  for (const [width, height, what] of [
    [640, 384, '200% zoom'],
    [320, 192, '400% zoom'],
  ] as const) {
    it(`in the chat, keeps the actions on screen and the composer reachable at ${what} (${width}x${height})`, async () => {
      await page.viewport(width, height);
      const store = await longApproval();
      const screen = await render(
        <AgentProvider store={store}>
          <div style={{ height: '100vh' }}>
            <AgentChat />
          </div>
        </AgentProvider>,
      );
      await expect.element(screen.getByRole('button', { name: 'Approve' })).toBeEnabled();
      // Where a keyboard user lands: the first field. Its interrupt's actions are then on screen, uncovered.
      screen.getByRole('textbox', { name: 'Comment for the customer record' }).element().focus();
      await new Promise(requestAnimationFrame);
      for (const name of ['Approve', 'Reject', 'Close without answering']) {
        const button = screen.getByRole('button', { name }).element();
        const box = button.getBoundingClientRect();
        expect(box.height, `${name} has a height`).toBeGreaterThan(0);
        expect(box.bottom, `${name} bottom`).toBeLessThanOrEqual(window.innerHeight + 0.5);
        expect(box.top, `${name} top`).toBeGreaterThanOrEqual(0);
        const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
        expect(hit && button.contains(hit), `${name} is not covered`).toBe(true);
      }
      expect(document.documentElement.scrollWidth, 'no horizontal scroll').toBeLessThanOrEqual(window.innerWidth);
    });
  }

  it('tells answered and expired apart in forced colors by the border, not by color alone', async () => {
    await cdp().send('Emulation.setEmulatedMedia', { features: [{ name: 'forced-colors', value: 'active' }] });
    const store = await longApproval();
    const screen = await render(
      <AgentProvider store={store}>
        <InterruptDialog initialFocus="none" />
      </AgentProvider>,
    );
    await expect.element(screen.getByRole('button', { name: 'Approve' })).toBeEnabled();
    const card = document.querySelector<HTMLElement>('.agk-interrupt');
    expect(card).not.toBeNull();
    if (!card) return;
    const open = getComputedStyle(card).borderLeftStyle;
    card.dataset.state = 'answered';
    const answered = getComputedStyle(card).borderLeftStyle;
    card.dataset.state = 'expired';
    const expired = getComputedStyle(card).borderLeftStyle;
    expect(new Set([open, answered, expired]).size).toBe(3);
  });

  it('on a phone, an empty composer is one line while the agent waits, leaving the decision its room; what is typed grows it to six lines', async () => {
    await page.viewport(390, 844);
    const store = await longApproval();
    const screen = await render(
      <AgentProvider store={store}>
        <div style={{ height: '100vh' }}>
          <AgentChat placeholder="我家的茶壶从订单 A-1001 寄到时已经摔碎了，能帮我退款吗？My teapot from order A-1001 arrived broken." />
        </div>
      </AgentProvider>,
    );
    await expect.element(screen.getByRole('button', { name: 'Approve' })).toBeEnabled();
    const input = document.querySelector<HTMLTextAreaElement>('.agk-composer__input');
    if (!input) throw new Error('no composer');
    const style = getComputedStyle(input);
    const lineHeight = Number.parseFloat(style.lineHeight);
    const padding = Number.parseFloat(style.paddingTop) + Number.parseFloat(style.paddingBottom);
    const lines = () => (input.clientHeight - padding) / lineHeight;
    expect(input.getBoundingClientRect().height, 'one line and its padding').toBeLessThan(lineHeight * 2);
    const box = screen.getByRole('textbox', { name: 'Message' });
    await box.fill('第一行\n第二行\n第三行');
    await new Promise(requestAnimationFrame);
    expect(lines(), 'three lines typed, three shown').toBeGreaterThanOrEqual(2.9);
    expect(input.scrollHeight, 'three lines typed: none scrolled out of sight').toBeLessThanOrEqual(input.clientHeight + 1);
    await box.fill(Array.from({ length: 10 }, (_, i) => `第${i + 1}行`).join('\n'));
    await new Promise(requestAnimationFrame);
    // Six lines shown, the rest a scroll away in the box (the decision keeps its room: geometry.e2e in the playground).
    expect(lines(), 'ten lines typed, six shown').toBeCloseTo(6, 0);
    expect(input.scrollHeight, 'ten lines typed: the rest scrolled to').toBeGreaterThan(input.clientHeight);
    await expect.element(screen.getByRole('button', { name: 'Approve' })).toBeVisible();
  });

  it('typing a draft while the agent waits does not measure the open cards on every keystroke', async () => {
    await page.viewport(1366, 768);
    const store = await longApproval();
    const screen = await render(
      <AgentProvider store={store}>
        <div style={{ height: '100vh' }}>
          <AgentChat />
        </div>
      </AgentProvider>,
    );
    await expect.element(screen.getByRole('button', { name: 'Approve' })).toBeEnabled();
    const input = document.querySelector<HTMLTextAreaElement>('.agk-composer__input');
    if (!input) throw new Error('no composer');
    input.focus();
    await new Promise(requestAnimationFrame);
    // Each measurement of a card's heading (what the held actions read) counted while 80 characters are typed, over ten lines.
    const real = Element.prototype.getBoundingClientRect;
    let measured = 0;
    Element.prototype.getBoundingClientRect = function (this: Element) {
      if (this.matches('.agk-interrupt__header, .agk-interrupt')) measured++;
      return real.call(this);
    };
    try {
      await userEvent.type(input, 'Broken lid.{Shift>}{Enter}{/Shift}'.repeat(8));
      await new Promise(requestAnimationFrame);
    } finally {
      Element.prototype.getBoundingClientRect = real;
    }
    expect(measured, 'cards measured while typing').toBeLessThan(20);
  });
});
