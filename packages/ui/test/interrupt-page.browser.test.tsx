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
 * `InterruptDialog` on its own in a page that scrolls as a whole (not in `AgentChat`): the actions are held at the
 * window's bottom edge, and the page's scroller is the host's, not aguikit's. A field the browser scrolls into view
 * (Tab, find in page, a screen reader's cursor) still lands wholly above the held actions, on a phone held either way.
 */

const properties = {
  name: { type: 'string', title: '收件人姓名 (recipient)' },
  phone: { type: 'string', title: 'Phone number for the courier' },
  channel: { type: 'string', title: 'Contact channel', enum: ['email', 'sms', 'phone call'] },
  address: { type: 'string', title: 'Delivery address for order 0d9c4f1e-7a2b-4c3d-8e5f-6a7b8c9d0e1f' },
  note: { type: 'string', title: 'Anything the courier should know' },
};

async function openInPage(width: number, height: number): Promise<void> {
  await page.viewport(width, height);
  await preloadInterruptForm();
  const run = runOf(say('8a7b6c5d-4e3f-4a1b-9c8d-7e6f5a4b3c2d', 'I need a few details for the replacement.'), {
    outcome: {
      type: 'interrupt',
      interrupts: [
        {
          id: 'd3c2b1a0-9f8e-4d7c-8b6a-5f4e3d2c1b0a-details',
          reason: 'input_required',
          message: '请补充配送信息 — where should the replacement teapot go?',
          responseSchema: { type: 'object', properties, required: ['name', 'channel'] },
        },
      ],
    },
  });
  const store = await playedStore([], { pending: [run], now: () => Date.now() });
  const screen = await render(
    <AgentProvider store={store}>
      <div style={{ height: 1200 }}>The order page.</div>
      <InterruptDialog />
      <div style={{ height: 1200 }}>The rest of the page.</div>
    </AgentProvider>,
  );
  await store.getState().run('Please send a replacement for order 0d9c4f1e-7a2b-4c3d-8e5f-6a7b8c9d0e1f.');
  await expect.element(screen.getByRole('button', { name: 'Submit' })).toBeEnabled();
  await expect.poll(() => document.querySelector('.agk-interrupt')?.contains(document.activeElement)).toBe(true);
  await new Promise(requestAnimationFrame);
}

const fields = () => [...document.querySelectorAll<HTMLElement>('.agk-interrupt__form :is(input, select, textarea)')];

/** Where `field` is not wholly seen between the window's top (no heading is held there) and the held actions, or null. */
function hidden(field: HTMLElement): string | null {
  const box = field.getBoundingClientRect();
  const actions = document.querySelector('.agk-interrupt__actions')?.getBoundingClientRect();
  if (!actions) return 'no actions';
  if (box.top < -0.5 || box.bottom > actions.top + 0.5) {
    return `${field.id} at ${box.top}-${box.bottom}, the actions at ${actions.top}-${actions.bottom} of a ${innerHeight}px window`;
  }
  return null;
}

afterEach(async () => {
  await page.viewport(414, 896);
});

describe('InterruptDialog on its own in a page that scrolls', () => {
  for (const [width, height] of [
    [844, 390],
    [390, 844],
  ] as const) {
    it(`brings each field into view above the held actions, from above and from below (${width}x${height})`, async () => {
      await openInPage(width, height);
      expect(fields()).toHaveLength(Object.keys(properties).length);
      for (const field of fields()) {
        for (const from of [0, document.documentElement.scrollHeight]) {
          window.scrollTo(0, from);
          field.scrollIntoView({ block: 'nearest' });
          await new Promise(requestAnimationFrame);
          expect(hidden(field), `scrolled to from ${from === 0 ? 'above' : 'below'}`).toBeNull();
        }
      }
    });

    it(`shows each field Tab reaches above the held actions (${width}x${height})`, async () => {
      await openInPage(width, height);
      const seen: string[] = [];
      for (let i = 0; i < 20 && seen.length < Object.keys(properties).length; i++) {
        await userEvent.tab();
        await new Promise(requestAnimationFrame);
        const field = document.activeElement as HTMLElement;
        if (!fields().includes(field)) continue;
        seen.push(field.id);
        expect(hidden(field)).toBeNull();
      }
      expect(seen).toHaveLength(Object.keys(properties).length);
    });
  }
});
