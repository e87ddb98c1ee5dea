/// <reference types="vite/client" />
import { AgentProvider } from '@aguikit/react';
import { afterEach, expect, it } from 'vitest';
import { render } from 'vitest-browser-react';
import { InterruptDialog } from '../src/InterruptDialog.js';
import { preloadInterruptForm } from '../src/lazyChunks.js';
import { call, playedStore, runOf } from '../src/storybook/scripted.js';
import '../src/styles.css';
import { paintedAfter, paintedBox } from './support/painted.js';

/**
 * What an approval shows of the call it holds, in real Chromium, when the
 * agent hides a right-to-left override (U+202E) in a value: the metadata
 * and the arguments read as the values they are. A structure shown as JSON
 * on one line keeps its keys and amounts in their order, and the override
 * is written as the escape JSON has for it (`\u202e`), so a value never
 * reads differently from what it holds.
 */

afterEach(() => {
  for (const el of document.body.querySelectorAll(':scope > div')) el.remove();
});

const OVERRIDE = /[\u202A-\u202E\u2066-\u2069]/;

async function approval(args: Record<string, unknown>, metadata: Record<string, unknown>) {
  await preloadInterruptForm();
  const store = await playedStore([
    {
      say: 'Pay the invoices',
      events: runOf(call('c1', 'send_payments', args), {
        outcome: {
          type: 'interrupt',
          interrupts: [
            {
              id: 'int-1',
              reason: 'tool_call',
              toolCallId: 'c1',
              message: 'Send these payments?',
              metadata,
              responseSchema: { type: 'object', properties: { approved: { type: 'boolean' } } },
            },
          ],
        },
      }),
    },
  ]);
  const host = document.createElement('div');
  host.style.width = '390px';
  document.body.append(host);
  await render(
    <AgentProvider store={store}>
      <InterruptDialog />
    </AgentProvider>,
    { container: host },
  );
  return host;
}

it('metadata shown as JSON on one line keeps its order: an override in one value does not reverse the amounts after it', async () => {
  const host = await approval(
    {},
    {
      payments: [
        { to: '\u202Eecila', amount: 9000 },
        { to: 'bob', amount: 5 },
      ],
    },
  );
  const json = host.querySelector<HTMLElement>('.agk-interrupt__json');
  if (!json) throw new Error('no JSON');
  const order = ['ecila', 'amount', '9000', 'bob'].map((needle) => paintedBox(json, needle, 1));
  expect(order.slice(1).map((box, i) => paintedAfter(order[i] as DOMRect, box))).toEqual([true, true, true]);
  expect(json.textContent).not.toMatch(OVERRIDE);
  expect(JSON.parse(json.textContent ?? '')).toEqual([
    { to: '\u202Eecila', amount: 9000 },
    { to: 'bob', amount: 5 },
  ]);
});

it("the call's arguments write an override as its JSON escape, so a value reads as what it holds", async () => {
  const host = await approval({ account: '\u202E0001-2345', amount: 5 }, {});
  const args = host.querySelector<HTMLElement>('.agk-interrupt__facts pre');
  if (!args) throw new Error('no arguments');
  expect(args.textContent).not.toMatch(OVERRIDE);
  expect(args.textContent).toContain('"account": "\\u202e0001-2345"');
  expect(JSON.parse(args.textContent ?? '')).toEqual({ account: '\u202E0001-2345', amount: 5 });
});

it('a metadata list of words keeps its order: an override in one item does not reverse the items after it', async () => {
  const host = await approval({}, { recipients: ['\u202Eecila', 'bob', 'carol'] });
  const value = host.querySelector<HTMLElement>('.agk-interrupt__fact[data-key="recipients"] dd');
  if (!value) throw new Error('no recipients');
  // The list's words are the locale's ("a, b, and c"); each item is painted before the next.
  expect(value.textContent).toBe('\u202Eecila, bob, and carol');
  const order = ['ecila', 'bob', 'and', 'carol'].map((needle) => paintedBox(value, needle, 1));
  expect(order.slice(1).map((box, i) => paintedAfter(order[i] as DOMRect, box))).toEqual([true, true, true]);
});
