// Vite's client types: they declare the stylesheet import below.
/// <reference types="vite/client" />
import { AgentProvider } from '@aguikit/react';
import type * as React from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { InterruptDialog } from '../src/InterruptDialog.js';
import { preloadInterruptForm } from '../src/lazyChunks.js';
import { playedStore, runOf, say } from '../src/storybook/scripted.js';
import '../src/styles.css';

/**
 * WCAG 2.4.11 (Focus Not Obscured) where what scrolls the dialog has padding of its own: in `em`, in `%`, on the
 * page's root, or on a body that scrolls by itself. A field Tab reaches is drawn wholly above the held actions.
 */

const properties = {
  decision: { type: 'string', title: 'Decision', enum: ['approve', 'deny', 'request more information'] },
  note: { type: 'string', title: 'Note for the audit trail' },
  reviewer: { type: 'string', title: 'Reviewer' },
  ticket: { type: 'string', title: 'Ticket' },
  followUp: { type: 'string', title: 'Follow-up' },
};

type Where = 'box-em' | 'box-percent' | 'root-padding' | 'body-scroller';

async function escalation(where: Where): Promise<void> {
  await page.viewport(390, 844);
  await preloadInterruptForm();
  const run = runOf(say('m-1', 'This refund needs a second look.'), {
    outcome: {
      type: 'interrupt',
      interrupts: [
        {
          id: '5b0f8f0e-6a1d-4c55-9a57-2f1f0d7c9e11',
          reason: 'risk:manual_review',
          message: 'Review a $1,900.00 refund to a card added today.',
          metadata: { queue: 'fraud-review', riskScore: 0.87, slaMinutes: 30, signals: ['new card', 'amount over limit'] },
          responseSchema: { type: 'object', required: ['decision'], properties },
        },
      ],
    },
  });
  const store = await playedStore([], { pending: [run], now: () => Date.now() });
  const root = document.documentElement;
  if (where === 'root-padding') root.style.paddingBottom = '80px';
  if (where === 'body-scroller') {
    root.style.cssText = 'height: 100%; overflow: hidden';
    document.body.style.cssText = 'height: 100%; margin: 0; overflow: auto; box-sizing: border-box; padding-bottom: 72px';
  }
  const content = (
    <>
      <div style={{ height: 1200 }}>The order page.</div>
      <InterruptDialog initialFocus="none" />
      <div style={{ height: 1200 }}>The rest of the page.</div>
    </>
  );
  const box: Record<string, React.CSSProperties> = {
    'box-em': { height: '80vh', overflow: 'auto', padding: '3em', boxSizing: 'border-box' },
    'box-percent': { height: '80vh', overflow: 'auto', padding: '0 0 20%', boxSizing: 'content-box' },
  };
  const style = box[where];
  const screen = await render(<AgentProvider store={store}>{style ? <div style={style}>{content}</div> : content}</AgentProvider>);
  await store.getState().run('Refund order A-1001.');
  await expect.element(screen.getByRole('button', { name: 'Submit' })).toBeEnabled();
  await new Promise(requestAnimationFrame);
}

const fields = () => [...document.querySelectorAll<HTMLElement>('.agk-interrupt__form :is(input, select, textarea)')];

/** How many px of `field` and its focus ring are under the held actions (0: none). */
function obscured(field: HTMLElement): number {
  const box = field.getBoundingClientRect();
  const style = getComputedStyle(field);
  const ring = Number.parseFloat(style.outlineWidth) + Number.parseFloat(style.outlineOffset);
  const actions = document.querySelector('.agk-interrupt__actions')?.getBoundingClientRect();
  if (!actions) throw new Error('no actions');
  return Math.max(0, box.bottom + ring - actions.top);
}

afterEach(async () => {
  document.documentElement.style.cssText = '';
  document.body.style.cssText = '';
  await page.viewport(414, 896);
});

describe('a focused field is never under the held actions when what scrolls them has padding', () => {
  for (const where of ['box-em', 'box-percent', 'root-padding', 'body-scroller'] as const) {
    it(`Tab forward through the form (${where})`, async () => {
      await escalation(where);
      const order = fields();
      document.querySelector<HTMLElement>('.agk-interrupt')?.focus();
      const seen: Record<string, number> = {};
      for (let i = 0; i < 30 && Object.keys(seen).length < order.length; i++) {
        await userEvent.tab();
        await new Promise(requestAnimationFrame);
        await new Promise(requestAnimationFrame);
        const field = document.activeElement as HTMLElement;
        if (!order.includes(field)) continue;
        seen[field.id] = obscured(field);
      }
      expect(Object.keys(seen)).toHaveLength(order.length);
      expect(seen).toEqual(Object.fromEntries(order.map((f) => [f.id, 0])));
    });
  }
});
