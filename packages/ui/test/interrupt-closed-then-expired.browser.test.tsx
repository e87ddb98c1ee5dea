// Vite's client types: they declare the stylesheet import below.
/// <reference types="vite/client" />
import { AgentProvider } from '@aguikit/react';
import { describe, expect, it } from 'vitest';
import { render } from 'vitest-browser-react';
import { InterruptDialog } from '../src/InterruptDialog.js';
import { preloadInterruptForm } from '../src/lazyChunks.js';
import { playedStore, runOf } from '../src/storybook/scripted.js';
import '../src/styles.css';

/**
 * An interrupt closed without answering, among several, that then expires keeps its answer (`cancelled` is still
 * sent): its notice is drawn as an answer, in the answered colour on the card's own background, not as the red
 * expired notice.
 */

/** The computed value of `color` for `value` (a custom property's colour), as the browser writes it. */
function resolved(value: string): string {
  const probe = document.createElement('span');
  probe.style.color = value;
  probe.className = 'agk-root';
  document.body.append(probe);
  const color = getComputedStyle(probe).color;
  probe.remove();
  return color;
}

describe('an interrupt closed without answering that then expires', () => {
  it('draws its notice in the answered colour, without the expired background', async () => {
    await preloadInterruptForm();
    let ahead = 0;
    const now = () => Date.now() + ahead;
    const store = await playedStore(
      [
        {
          say: 'Refund order A-1001 and tell the customer.',
          events: runOf([], {
            outcome: {
              type: 'interrupt',
              interrupts: [
                {
                  id: 'int-a',
                  reason: 'tool_call',
                  message: 'Refund $42 to the customer?',
                  expiresAt: new Date(Date.now() + 5 * 60_000).toISOString(),
                  responseSchema: {
                    type: 'object',
                    required: ['approved'],
                    properties: { approved: { type: 'boolean' }, comment: { type: 'string', title: 'Comment' } },
                  },
                },
                { id: 'int-b', reason: 'confirmation', message: 'Send the customer a voucher too?' },
              ],
            },
          }),
        },
      ],
      { now },
    );
    const screen = await render(
      <AgentProvider store={store}>
        <InterruptDialog />
      </AgentProvider>,
    );
    const card = screen.getByRole('article', { name: 'Approval needed' });
    await card.getByRole('button', { name: 'Close without answering' }).click();
    await expect.element(card).toHaveAttribute('data-answer', 'cancelled');
    ahead = 10 * 60_000;
    await expect.element(card).toHaveAttribute('data-state', 'expired');
    const status = card.element().querySelector<HTMLElement>('.agk-interrupt__status');
    if (!status) throw new Error('no status');
    await expect.element(status).toHaveTextContent('Your answer: none, closed without answering.');
    const style = getComputedStyle(status);
    expect(style.color, 'colour of the notice').toBe(resolved('var(--agk-success)'));
    expect(style.backgroundColor, 'background of the notice').not.toBe(resolved('var(--agk-danger-bg)'));
    expect(style.backgroundColor, 'background of the notice').toBe('rgba(0, 0, 0, 0)');
  });
});
