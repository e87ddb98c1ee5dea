// Vite's client types: they declare the stylesheet import below.
/// <reference types="vite/client" />
import { AgentProvider } from '@aguikit/react';
import { afterEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { InterruptDialog } from '../src/InterruptDialog.js';
import { preloadInterruptForm } from '../src/lazyChunks.js';
import { playedStore, runOf, say } from '../src/storybook/scripted.js';
import '../src/styles.css';

/**
 * `InterruptDialog` in a host page with a fixed header (64 px, over everything): the host says what the header hides
 * with the page's own `scroll-padding-top`, and then no field focus reaches (on opening, by Tab either way) and not
 * the interrupt's question is under the header.
 */

const HEADER = 64;
const properties = {
  decision: { type: 'string', title: 'Decision', enum: ['approve', 'deny', 'request more information'] },
  note: { type: 'string', title: 'Note for the audit trail' },
  reviewer: { type: 'string', title: 'Reviewer' },
  ticket: { type: 'string', title: 'Ticket' },
};

/** The dialog opened in the host page, which says in its scroll-padding-top what its header hides. */
async function underHeader(width: number, height: number) {
  await page.viewport(width, height);
  await preloadInterruptForm();
  document.documentElement.style.scrollPaddingTop = `${HEADER}px`;
  const run = runOf(say('m-1', 'This refund needs a second look.'), {
    outcome: {
      type: 'interrupt',
      interrupts: [
        {
          id: '5b0f8f0e-6a1d-4c55-9a57-2f1f0d7c9e11',
          reason: 'risk:manual_review',
          message: 'Review a $1,900.00 refund to a card added today.',
          responseSchema: { type: 'object', required: ['decision'], properties },
        },
      ],
    },
  });
  const store = await playedStore([], { pending: [run], now: () => Date.now() });
  const screen = await render(
    <AgentProvider store={store}>
      <header style={{ position: 'fixed', top: 0, left: 0, right: 0, height: HEADER, zIndex: 1000, background: '#eee' }}>Shop</header>
      <div style={{ height: 1200 }}>The order page.</div>
      <InterruptDialog />
      <div style={{ height: 1200 }}>The rest of the page.</div>
    </AgentProvider>,
  );
  await store.getState().run('Refund order A-1001.');
  await expect.element(screen.getByRole('button', { name: 'Submit' })).toBeEnabled();
  await expect.poll(() => document.querySelector('.agk-interrupt')?.contains(document.activeElement)).toBe(true);
  await new Promise(requestAnimationFrame);
}

/** How many px of what has focus (its ring included) are under the fixed header. */
function hiddenByHeader(): number {
  const focused = document.activeElement as HTMLElement;
  return Math.max(0, HEADER - (focused.getBoundingClientRect().top - 4));
}

afterEach(async () => {
  document.documentElement.style.scrollPaddingTop = '';
  await page.viewport(414, 896);
});

describe('InterruptDialog under a host page’s fixed header', () => {
  for (const [width, height] of [
    [1366, 768],
    [390, 844],
  ] as const) {
    it(`keeps the focused field and the question below a header the page's scroll-padding-top names (${width}x${height})`, async () => {
      await underHeader(width, height);
      const question = document.querySelector('.agk-interrupt__header') as HTMLElement;
      expect(question.getBoundingClientRect().top).toBeGreaterThanOrEqual(HEADER);
      expect(hiddenByHeader()).toBe(0);
      // Down to the end of the page, then Shift+Tab back up through every field: each lands below the header.
      window.scrollTo(0, document.documentElement.scrollHeight);
      document.querySelector<HTMLElement>('.agk-interrupt__actions button:last-of-type')?.focus();
      const seen: Record<string, number> = {};
      for (let i = 0; i < 20 && Object.keys(seen).length < Object.keys(properties).length; i++) {
        await userEvent.tab({ shift: true });
        await new Promise(requestAnimationFrame);
        const focused = document.activeElement as HTMLElement;
        if (focused.matches('.agk-interrupt__form :is(input, select, textarea)')) seen[focused.id] = hiddenByHeader();
      }
      expect(Object.values(seen)).toEqual(Object.keys(properties).map(() => 0));
    });
  }

  it('brings a field Shift+Tab reaches just under the header out from under it (1366x768)', async () => {
    await underHeader(1366, 768);
    const decision = document.querySelector('.agk-interrupt__form select') as HTMLElement;
    // The page scrolled so that the first field is 10 px from the window's top, behind the header; focus on the next.
    window.scrollBy(0, decision.getBoundingClientRect().top - 10);
    document.querySelector<HTMLElement>('.agk-interrupt__form :is(input, textarea)')?.focus({ preventScroll: true });
    await userEvent.tab({ shift: true });
    await new Promise(requestAnimationFrame);
    expect(document.activeElement).toBe(decision);
    expect(hiddenByHeader()).toBe(0);
  });
});
