// Vite's client types: they declare the stylesheet import below.
/// <reference types="vite/client" />
import { AgentProvider } from '@aguikit/react';
import { afterEach, describe, expect, it } from 'vitest';
import { render } from 'vitest-browser-react';
import { InterruptDialog } from '../src/InterruptDialog.js';
import { preloadInterruptForm } from '../src/lazyChunks.js';
import { playedStore, runOf } from '../src/storybook/scripted.js';
import '../src/styles.css';

/**
 * An interrupt closed without answering, among several, that then expires keeps its answer (`cancelled` is still
 * sent): its notice is drawn as an answer, in the answered colour on the card's own background, not as the red
 * expired notice.
 */

/** The computed value of `color` for `value` (a custom property's colour), as the browser writes it. */
function resolved(value: string): string {
  const probe = document.createElement('span');
  probe.style.color = value;
  probe.className = 'agk-root';
  document.body.append(probe);
  const color = getComputedStyle(probe).color;
  probe.remove();
  return color;
}

/** An approval expiring in five minutes and a question, played; `ahead` moves the store's clock on. */
async function twoOpen() {
  await preloadInterruptForm();
  const clock = { ahead: 0 };
  const now = () => Date.now() + clock.ahead;
  const store = await playedStore(
    [
      {
        say: 'Refund order A-1001 and tell the customer.',
        events: runOf([], {
          outcome: {
            type: 'interrupt',
            interrupts: [
              {
                id: 'int-a',
                reason: 'tool_call',
                message: 'Refund $42 to the customer?',
                expiresAt: new Date(Date.now() + 5 * 60_000).toISOString(),
                responseSchema: {
                  type: 'object',
                  required: ['approved'],
                  properties: { approved: { type: 'boolean' }, comment: { type: 'string', title: 'Comment' } },
                },
              },
              { id: 'int-b', reason: 'confirmation', message: 'Send the customer a voucher too?' },
            ],
          },
        }),
      },
    ],
    { now },
  );
  return { store, clock };
}

const rgb = (color: string) => (color.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map(Number);
const luminance = (color: string) => {
  const [r = 0, g = 0, b = 0] = rgb(color).map((c) => {
    const v = c / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return ((hi ?? 0) + 0.05) / ((lo ?? 0) + 0.05);
};

/** The first background colour that is not transparent, from `element` up. */
function backgroundOf(element: HTMLElement): string {
  for (let at: HTMLElement | null = element; at; at = at.parentElement) {
    const color = getComputedStyle(at).backgroundColor;
    if (color !== 'rgba(0, 0, 0, 0)') return color;
  }
  return 'rgb(255, 255, 255)';
}

afterEach(() => {
  for (const el of document.body.querySelectorAll(':scope > div[data-theme]')) el.remove();
});

describe('an interrupt closed without answering that then expires', () => {
  it('draws its notice in the answered colour, without the expired background', async () => {
    const { store, clock } = await twoOpen();
    const screen = await render(
      <AgentProvider store={store}>
        <InterruptDialog />
      </AgentProvider>,
    );
    const card = screen.getByRole('article', { name: 'Approval needed' });
    await card.getByRole('button', { name: 'Close without answering' }).click();
    await expect.element(card).toHaveAttribute('data-answer', 'cancelled');
    clock.ahead = 10 * 60_000;
    await expect.element(card).toHaveAttribute('data-state', 'expired');
    const status = card.element().querySelector<HTMLElement>('.agk-interrupt__status');
    if (!status) throw new Error('no status');
    await expect.element(status).toHaveTextContent('Your answer: none, closed without answering.');
    const style = getComputedStyle(status);
    expect(style.color, 'colour of the notice').toBe(resolved('var(--agk-success)'));
    expect(style.backgroundColor, 'background of the notice').not.toBe(resolved('var(--agk-danger-bg)'));
    expect(style.backgroundColor, 'background of the notice').toBe('rgba(0, 0, 0, 0)');
  });
  for (const [theme, dir] of [
    ['light', 'ltr'],
    ['dark', 'ltr'],
    ['dark', 'rtl'],
  ] as const) {
    it(`${theme}, ${dir}: its notice is legible on the card (4.5:1)`, async () => {
      const { store, clock } = await twoOpen();
      const host = document.createElement('div');
      host.setAttribute('data-theme', theme);
      host.setAttribute('dir', dir);
      document.body.append(host);
      const screen = await render(
        <AgentProvider store={store}>
          <InterruptDialog />
        </AgentProvider>,
        { container: host },
      );
      const card = screen.getByRole('article', { name: 'Approval needed' });
      await card.getByRole('button', { name: 'Close without answering' }).click();
      clock.ahead = 10 * 60_000;
      await expect.element(card).toHaveAttribute('data-state', 'expired');
      const status = card.element().querySelector<HTMLElement>('.agk-interrupt__status');
      if (!status) throw new Error('no status');
      await expect.element(status).toHaveTextContent('Your answer: none, closed without answering.');
      expect(contrast(getComputedStyle(status).color, backgroundOf(status))).toBeGreaterThanOrEqual(4.5);
    });
  }

  it('moves focus from its Change answer, gone at expiry, to the card', async () => {
    const { store, clock } = await twoOpen();
    const screen = await render(
      <AgentProvider store={store}>
        <InterruptDialog />
      </AgentProvider>,
    );
    const card = screen.getByRole('article', { name: 'Approval needed' });
    await card.getByRole('button', { name: 'Close without answering' }).click();
    const change = card.getByRole('button', { name: 'Change answer' });
    await expect.element(change).toBeInTheDocument();
    change.element().focus();
    clock.ahead = 10 * 60_000;
    await expect.element(card).toHaveAttribute('data-state', 'expired');
    await expect.element(card).toHaveFocus();
  });
});
