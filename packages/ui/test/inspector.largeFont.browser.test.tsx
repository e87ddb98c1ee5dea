// Vite's client types: they declare the stylesheet import below.
/// <reference types="vite/client" />
import { AgentProvider } from '@aguikit/react';
import { afterEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { StateInspectorPanel } from '../src/StateInspector.js';
import { playedStore, runOf } from '../src/storybook/scripted.js';
import '../src/styles.css';

/**
 * A shared state two levels deep whose keys carry UUIDs (customers by id), on
 * a phone whose browser is set to a large default font: the document wraps
 * its keys inside its box. It does not scroll sideways, with its keys cut at
 * the screen's edge and its scroll bar under a document thousands of pixels
 * tall.
 */

const UUIDS = [
  'e489b812-3a0a-4a32-a9b7-38128b5b825e',
  'a6b20e09-edf4-4b6c-b8bd-72b8fe8bfbe1',
  'cb5e4cbd-e4d9-4419-81b0-cc1684ac0a20',
  '357e81a1-735b-4afc-9b22-99e747df5ffa',
];
const snapshot = {
  orders: Object.fromEntries(UUIDS.map((id, i) => [`customer_${id}`, { name: i % 2 ? '张伟' : 'محمد', refund: { amount: 42 + i } }])),
};

afterEach(async () => {
  await page.viewport(414, 896);
  document.documentElement.style.fontSize = '';
});

describe('the state inspector on a phone with a large default font', () => {
  for (const [width, height, font] of [
    [390, 844, 24],
    [320, 568, 16],
  ] as const) {
    it(`${width}x${height}, a ${font}px font: a document two levels deep wraps in its box, nothing scrolls sideways`, async () => {
      await page.viewport(width, height);
      document.documentElement.style.fontSize = `${font}px`;
      const store = await playedStore([{ say: 'Show the customers', events: runOf([{ type: 'STATE_SNAPSHOT', snapshot }]) }]);
      // The playground's panel on a phone: the screen less its padding (8 px) and the panel's (4 px), each side.
      await render(
        <div style={{ width: width - 24, fontSize: '1rem' }}>
          <AgentProvider store={store}>
            <StateInspectorPanel />
          </AgentProvider>
        </div>,
      );
      await expect.element(page.getByText(`customer_${UUIDS[0]}`)).toBeVisible();
      const box = document.querySelector('.agk-inspector__document') as HTMLElement;
      const right = box.getBoundingClientRect().right;
      const past = [...box.querySelectorAll('.agk-json__key, .agk-inspector__title')]
        .map((k) => ({ text: k.textContent, over: Math.round(k.getBoundingClientRect().right - right) }))
        .filter((k) => k.over > 0);
      expect(past, 'what ends past the box (px)').toEqual([]);
      expect(box.scrollWidth - box.clientWidth, 'the box scrolls sideways by (px)').toBeLessThanOrEqual(0);
    });
  }
});
