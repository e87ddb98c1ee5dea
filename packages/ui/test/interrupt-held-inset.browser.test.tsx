// Vite's client types: they declare the stylesheet import below.
/// <reference types="vite/client" />
import { AgentProvider } from '@aguikit/react';
import type * as React from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { InterruptDialog } from '../src/InterruptDialog.js';
import { preloadInterruptForm } from '../src/lazyChunks.js';
import { playedStore } from '../src/storybook/scripted.js';
import '../src/styles.css';
import { escalationRun, formFields, obscured } from './support/escalation.js';

/**
 * WCAG 2.4.11 (Focus Not Obscured) where what scrolls the dialog has padding of its own: in `em`, in `%`, on the
 * page's root, or on a body that scrolls by itself. A field Tab reaches is drawn wholly above the held actions.
 */

type Where = 'box-em' | 'box-percent' | 'root-padding' | 'body-scroller';

async function escalation(where: Where): Promise<void> {
  await page.viewport(390, 844);
  await preloadInterruptForm();
  const run = escalationRun();
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

afterEach(async () => {
  document.documentElement.style.cssText = '';
  document.body.style.cssText = '';
  await page.viewport(414, 896);
});

describe('a focused field is never under the held actions when what scrolls them has padding', () => {
  for (const where of ['box-em', 'box-percent', 'root-padding', 'body-scroller'] as const) {
    it(`Tab forward through the form (${where})`, async () => {
      await escalation(where);
      const order = formFields();
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
