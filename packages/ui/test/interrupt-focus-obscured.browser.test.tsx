// Vite's client types: they declare the stylesheet import below.
/// <reference types="vite/client" />
import { AgentProvider } from '@aguikit/react';
import { afterEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { AgentChat } from '../src/AgentChat.js';
import { InterruptDialog } from '../src/InterruptDialog.js';
import { preloadInterruptForm } from '../src/lazyChunks.js';
import { playedStore } from '../src/storybook/scripted.js';
import '../src/styles.css';
import { escalationRun, formFields, obscured } from './support/escalation.js';

/**
 * WCAG 2.4.11 (Focus Not Obscured): a field Tab reaches in an escalation form, with the dialog on its own in a page
 * that scrolls, is drawn wholly above the actions held at the window's bottom edge, focus ring included.
 */

async function escalation(width: number, height: number, where: 'page' | 'chat' | 'box'): Promise<void> {
  await page.viewport(width, height);
  await preloadInterruptForm();
  const run = escalationRun();
  const store = await playedStore([], { pending: [run], now: () => Date.now() });
  const screen = await render(
    <AgentProvider store={store}>
      {where === 'box' ? (
        <div style={{ height: '80vh', overflow: 'auto', padding: 12, boxSizing: 'border-box' }}>
          <div style={{ height: 1200 }}>The order page.</div>
          <InterruptDialog initialFocus="none" />
          <div style={{ height: 1200 }}>The rest of the page.</div>
        </div>
      ) : where === 'chat' ? (
        <div style={{ height: '100vh' }}>
          <AgentChat />
        </div>
      ) : (
        <>
          <div style={{ height: 1200 }}>The order page.</div>
          <InterruptDialog initialFocus="none" />
          <div style={{ height: 1200 }}>The rest of the page.</div>
        </>
      )}
    </AgentProvider>,
  );
  await store.getState().run('Refund order A-1001.');
  await expect.element(screen.getByRole('button', { name: 'Submit' })).toBeEnabled();
  await new Promise(requestAnimationFrame);
}

afterEach(async () => {
  await page.viewport(414, 896);
});

describe('a focused escalation field is never under the held actions', () => {
  for (const [width, height] of [
    [1366, 768],
    [390, 844],
  ] as const) {
    for (const [from, where] of [
      ['above', 'page'],
      ['below', 'page'],
      ['above', 'chat'],
      ['below', 'chat'],
      ['above', 'box'],
      ['below', 'box'],
    ] as const) {
      it(`Tab ${from === 'above' ? 'forward from above' : 'backward from below'} the dialog in the ${where} (${width}x${height})`, async () => {
        await escalation(width, height, where);
        const order = from === 'above' ? formFields() : formFields().reverse();
        // Start from the page's edge: the dialog is off screen, and Tab scrolls each field into view.
        window.scrollTo(0, from === 'above' ? 0 : document.documentElement.scrollHeight);
        const start =
          from === 'above'
            ? (document.querySelector<HTMLElement>('.agk-interrupt') ?? document.body)
            : document.querySelector<HTMLElement>('.agk-interrupt__actions button:last-of-type');
        start?.focus();
        const seen: Record<string, number> = {};
        for (let i = 0; i < 30 && Object.keys(seen).length < order.length; i++) {
          await userEvent.tab({ shift: from === 'below' });
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
  }
});
