// Vite's client types: they declare the stylesheet import below.
/// <reference types="vite/client" />
import { AgentProvider } from '@aguikit/react';
import { describe, expect, it } from 'vitest';
import { render } from 'vitest-browser-react';
import { AgentChat } from '../src/AgentChat.js';
import { preloadInterruptForm } from '../src/lazyChunks.js';
import { playedStore, runOf, say } from '../src/storybook/scripted.js';
import '../src/styles.css';

/**
 * In Chromium, a focused button that is disabled loses focus to the page
 * at the next rendering: Send answers, disabled as an expired interrupt's
 * kept answer is dropped, hands focus on to that interrupt's one action
 * first.
 */

describe('an interrupt expiring among three with kept answers, in Chromium', () => {
  it('moves focus from Send answers to Close without answering on the expired one, not to the page', async () => {
    await preloadInterruptForm();
    // The store's clock, moved on by hand: the interrupt expires at the next tick of its countdown.
    let ahead = 0;
    const now = () => Date.now() + ahead;
    const store = await playedStore(
      [
        {
          say: 'Refund order A-1001 and tell the customer.',
          events: runOf(say('0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d', 'Three things first.'), {
            outcome: {
              type: 'interrupt',
              interrupts: [
                {
                  id: '1f2e3d4c-5b6a-4978-8a9b-0c1d2e3f4a5b-a',
                  reason: 'tool_call',
                  message: 'Refund $42 to the customer?',
                  responseSchema: {
                    type: 'object',
                    required: ['approved'],
                    properties: { approved: { type: 'boolean' }, comment: { type: 'string', title: 'Comment' } },
                  },
                },
                {
                  id: '1f2e3d4c-5b6a-4978-8a9b-0c1d2e3f4a5b-b',
                  reason: 'input_required',
                  message: 'Which channel?',
                  responseSchema: {
                    type: 'object',
                    required: ['channel'],
                    properties: { channel: { type: 'string', title: 'Channel', enum: ['email', 'sms'] } },
                  },
                },
                {
                  id: '1f2e3d4c-5b6a-4978-8a9b-0c1d2e3f4a5b-c',
                  reason: 'confirmation',
                  message: 'Send the customer a voucher too?',
                  expiresAt: new Date(Date.now() + 5 * 60_000).toISOString(),
                },
              ],
            },
          }),
        },
      ],
      { now },
    );
    const screen = await render(
      <AgentProvider store={store}>
        <div style={{ height: '100vh', display: 'flex', flexDirection: 'column' }}>
          <AgentChat />
        </div>
      </AgentProvider>,
    );
    const approval = screen.getByRole('article', { name: 'Approval needed' });
    const input = screen.getByRole('article', { name: 'Input needed' });
    const question = screen.getByRole('article', { name: 'Confirmation needed' });
    await expect.element(approval.getByRole('button', { name: 'Approve' })).toBeEnabled();
    await approval.getByRole('button', { name: 'Approve' }).click();
    await input.getByRole('combobox', { name: 'Channel' }).selectOptions('sms');
    await input.getByRole('button', { name: 'Save answer' }).click();
    await question.getByRole('button', { name: 'Yes' }).click();
    const send = screen.getByRole('button', { name: 'Send answers' });
    await expect.element(send).toHaveFocus();

    ahead = 10 * 60_000;
    await expect.element(question).toHaveAttribute('data-state', 'expired');
    await expect.element(send).toBeDisabled();
    // The browser's own fix-up of a disabled focused element comes at its next rendering: after it, focus is still on the action.
    await new Promise(requestAnimationFrame);
    await new Promise(requestAnimationFrame);
    await expect.element(question.getByRole('button', { name: 'Close without answering' })).toHaveFocus();
  });
});
