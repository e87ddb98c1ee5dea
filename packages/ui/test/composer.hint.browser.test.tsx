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

/**
 * While the agent waits for a decision, an empty composer is one line (run.css), however long its hint: the hint's
 * cut end shows an ellipsis, so it reads as cut, not as a hint that ends mid-word.
 */

const HINT = 'Ask about an order, a refund or a delivery: type the order number and what went wrong, and attach a photo';

afterEach(async () => {
  await page.viewport(414, 896);
});

describe('the composer while the agent waits', () => {
  it('ends a hint longer than its one line with an ellipsis (390x844)', async () => {
    await page.viewport(390, 844);
    await preloadInterruptForm();
    const callId = '2f4e6a8c-0b1d-4e3f-9a5b-7c9d1e3f5a7b';
    const run = runOf(call(callId, 'refund_order', { orderId: 'A-1001', amount: 42 }), {
      outcome: {
        type: 'interrupt',
        interrupts: [
          {
            id: '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b',
            reason: 'tool_call',
            toolCallId: callId,
            message: 'Refund $42.00?',
            responseSchema: { type: 'object', required: ['approved'], properties: { approved: { type: 'boolean' } } },
          },
        ],
      },
    });
    const store = await playedStore([], { pending: [run], now: () => Date.now() });
    const screen = await render(
      <AgentProvider store={store}>
        <div style={{ height: '100vh' }}>
          <AgentChat placeholder={HINT} />
        </div>
      </AgentProvider>,
    );
    await store.getState().run('Refund order A-1001, please.');
    await expect.element(screen.getByRole('button', { name: 'Approve' })).toBeEnabled();
    const input = document.querySelector<HTMLTextAreaElement>('.agk-composer[data-state="waiting"] .agk-composer__input');
    if (!input) throw new Error('no waiting composer');
    const style = getComputedStyle(input);
    expect(input.getBoundingClientRect().height, 'one line and its padding').toBeLessThan(Number.parseFloat(style.lineHeight) * 2);
    // The hint is drawn inside the browser's own shadow tree: what is drawn is compared with the same hint cut bare.
    const shot = () => page.screenshot({ element: input, save: false });
    const drawn = await shot();
    const bare = document.createElement('style');
    bare.textContent = '.agk-composer .agk-composer__input::placeholder { text-overflow: clip !important; }';
    document.head.append(bare);
    try {
      await new Promise(requestAnimationFrame);
      expect(await shot(), 'the hint is drawn differently from one cut bare: it ends with an ellipsis').not.toBe(drawn);
    } finally {
      bare.remove();
    }
  });
});
