/// <reference types="vite/client" />
import { AgentProvider } from '@aguikit/react';
import { afterEach, expect, it } from 'vitest';
import { render } from 'vitest-browser-react';
import { call, playedStore, runOf } from '../src/storybook/scripted.js';
import { ToolCallCard } from '../src/ToolCall.js';
import '../src/styles.css';
import { paintedBox } from './support/painted.js';

/**
 * A tool call's one-line summary in real Chromium: it sets the agent's keys
 * and values side by side, so a right-to-left override in one value
 * (U+202E) must stay in that value. Were it to run on, the keys and amounts
 * after it would be painted in reverse order, and the line would read
 * differently from the arguments the call holds.
 */

afterEach(() => {
  for (const el of document.body.querySelectorAll(':scope > div')) el.remove();
});

async function summaryOf(args: Record<string, unknown>): Promise<HTMLElement> {
  const store = await playedStore([{ say: 'Pay', events: runOf(call('c1', 'send_payment', args)) }]);
  const host = document.createElement('div');
  host.style.width = '390px';
  document.body.append(host);
  await render(
    <AgentProvider store={store}>
      <ToolCallCard id="c1" />
    </AgentProvider>,
    { container: host },
  );
  const summary = host.querySelector<HTMLElement>('.agk-toolcall__summary');
  if (!summary) throw new Error('no summary');
  return summary;
}

it('an override in one value stays in it: the keys and values after it are painted after it, in their order', async () => {
  const summary = await summaryOf({ to: '\u202Eecila', amount: 9000, currency: 'EUR' });
  const to = paintedBox(summary, 'ecila');
  const amount = paintedBox(summary, 'amount');
  const value = paintedBox(summary, '9000');
  const currency = paintedBox(summary, 'currency');
  expect(amount.left).toBeGreaterThanOrEqual(to.right - 0.5);
  expect(value.left).toBeGreaterThanOrEqual(amount.right - 0.5);
  expect(currency.left).toBeGreaterThanOrEqual(value.right - 0.5);
  // The text itself is what the arguments hold.
  expect(summary.textContent).toBe('to: \u202Eecila, amount: 9000, currency: EUR');
});

it('an override in a key stays in that key', async () => {
  const summary = await summaryOf({ '\u202Eot': 'alice', amount: 9000 });
  expect(paintedBox(summary, 'alice').left).toBeGreaterThanOrEqual(paintedBox(summary, 'ot').right - 0.5);
  expect(paintedBox(summary, 'amount').left).toBeGreaterThanOrEqual(paintedBox(summary, 'alice').right - 0.5);
});
