// Vite's client types: they declare the stylesheet import below.
/// <reference types="vite/client" />
import { AgentProvider } from '@aguikit/react';
import { afterEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { AgentChat } from '../src/AgentChat.js';
import { preloadInterruptForm } from '../src/lazyChunks.js';
import { call, playedStore, runOf } from '../src/storybook/scripted.js';
import '../src/styles.css';
import { drivenStore } from './support/drivenStore.js';

/**
 * An empty composer is one line, its hint cut with an ellipsis (run.css). Chromium draws no ellipsis in a focused
 * text box, and the composer is focused whenever the user has just sent (Enter) or tapped into it: there the hint
 * ends at the last whole word that fits, never in the middle of a letter.
 */

const HINT = 'My teapot from order A-1001 arrived broken. Can I get a refund?';

afterEach(async () => {
  for (const el of document.body.querySelectorAll(':scope > div')) el.remove();
  await page.viewport(414, 896);
});

const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

/** The longest start of `hint`, in whole words, that fits the text box's line, measured in its font. */
function wholeWordsThatFit(input: HTMLTextAreaElement, hint: string): string {
  const style = getComputedStyle(input);
  const room = input.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
  const ruler = document.createElement('span');
  ruler.style.cssText = `position: absolute; visibility: hidden; white-space: pre; font: ${style.font}; letter-spacing: ${style.letterSpacing}`;
  document.body.append(ruler);
  try {
    const words = hint.split(' ');
    let fits = '';
    for (let n = 1; n <= words.length; n++) {
      ruler.textContent = words.slice(0, n).join(' ');
      if (ruler.getBoundingClientRect().width > room) break;
      fits = ruler.textContent;
    }
    return fits;
  } finally {
    ruler.remove();
  }
}

/**
 * The focused text box as drawn, against the same box whose hint is only the whole words that fit: the two are drawn
 * alike when the hint is cut between words. The caret is hidden: it blinks.
 */
async function expectCutBetweenWords(input: HTMLTextAreaElement) {
  input.focus();
  input.style.caretColor = 'transparent';
  await frame();
  const words = wholeWordsThatFit(input, HINT);
  expect(words.length, 'the hint is longer than its line').toBeLessThan(HINT.length);
  const shot = () => page.screenshot({ element: input, save: false });
  const drawn = await shot();
  input.placeholder = words;
  await frame();
  const wholeWords = await shot();
  input.placeholder = HINT;
  expect(drawn === wholeWords, 'the focused hint ends with its last whole word that fits, not in the middle of one').toBe(true);
}

describe('a focused empty composer', () => {
  it('cuts a long hint between words (390x844)', async () => {
    await page.viewport(390, 844);
    const host = document.createElement('div');
    host.style.height = '100vh';
    document.body.append(host);
    const driven = drivenStore([{ id: 'u1', role: 'user', content: 'Where is my order?' }]);
    await render(
      <AgentProvider store={driven.store}>
        <AgentChat placeholder={HINT} />
      </AgentProvider>,
      { container: host },
    );
    const input = host.querySelector('textarea') as HTMLTextAreaElement;
    await expectCutBetweenWords(input);
  });

  it('cuts a long hint between words while the agent waits (390x844)', async () => {
    await page.viewport(390, 844);
    await preloadInterruptForm();
    const callId = '3a5c7e9b-1d2f-4a6b-8c0d-2e4f6a8b0c1d';
    const run = runOf(call(callId, 'refund_order', { orderId: 'A-1001', amount: 42 }), {
      outcome: {
        type: 'interrupt',
        interrupts: [
          {
            id: '7b6a5f4e-3d2c-4b1a-9f8e-7d6c5b4a3f2e',
            reason: 'tool_call',
            toolCallId: callId,
            message: 'Refund $42.00?',
            responseSchema: { type: 'object', required: ['approved'], properties: { approved: { type: 'boolean' } } },
          },
        ],
      },
    });
    const store = await playedStore([], { pending: [run], now: () => Date.now() });
    const host = document.createElement('div');
    host.style.height = '100vh';
    document.body.append(host);
    const screen = await render(
      <AgentProvider store={store}>
        <AgentChat placeholder={HINT} />
      </AgentProvider>,
      { container: host },
    );
    await store.getState().run('Refund order A-1001, please.');
    await expect.element(screen.getByRole('button', { name: 'Approve' })).toBeEnabled();
    const input = host.querySelector<HTMLTextAreaElement>('.agk-composer[data-state="waiting"] .agk-composer__input');
    if (!input) throw new Error('no waiting composer');
    await expectCutBetweenWords(input);
  });
});
