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
 * An agent whose STATE_DELTA names a path thousands of characters long (a
 * chain of UUIDs, Chinese keys) that the document does not have: the state
 * desyncs, and the alert that says so names the operation by the head of its
 * path, a few lines on a phone, not the whole path in a banner taller than
 * the screen (and read out whole by a screen reader).
 */

const PATH = `/${Array.from({ length: 100 }, (_, i) => (i % 2 ? '订单退款记录' : '7f3c2a91-4b6e-4d0f-9a85-2e1b7c6d9f40')).join('/')}`;

afterEach(async () => {
  await page.viewport(414, 896);
});

describe('a delta with a very long path that cannot apply', () => {
  for (const [what, operation, shown] of [
    ['a path inside itself', { op: 'move', from: PATH, path: `${PATH}/moved` }, `move ${PATH.slice(0, 60)}`],
    ['a path not in the document', { op: 'replace', path: PATH, value: 'refunded' }, `replace ${PATH.slice(0, 60)}`],
  ] as const) {
    it(`names its operation by the head of the path in the desync alert: ${what} (390x844)`, async () => {
      await page.viewport(390, 844);
      const store = await playedStore([
        {
          say: 'Refund order A-1001',
          events: runOf([
            { type: 'STATE_SNAPSHOT', snapshot: { cart: { orderId: 'A-1001' } } },
            { type: 'STATE_DELTA', delta: [operation] },
          ]),
        },
      ]);
      const screen = await render(
        <AgentProvider store={store}>
          <StateInspectorPanel />
        </AgentProvider>,
      );
      const alert = screen.getByRole('alert');
      await expect.element(alert).toHaveTextContent('State out of sync');
      await expect.element(alert).toHaveTextContent(shown);
      const banner = alert.element();
      expect(banner.textContent?.length, 'what the alert reads out').toBeLessThan(1500);
      expect(banner.getBoundingClientRect().height, 'the banner fits well within the screen').toBeLessThan(500);
    });
  }
});
