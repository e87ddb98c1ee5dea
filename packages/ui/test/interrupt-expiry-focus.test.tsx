/**
 * Where focus goes when an interrupt expires while several are open and
 * answers are kept to be sent together: the expired one's kept answer is
 * dropped (it can no longer be sent), which takes away its Change answer
 * button and disables Send answers. Focus on either moves to the action
 * left, Close without answering on the expired interrupt, never to the page.
 */
import { AgentProvider, type AgentStore } from '@aguikit/react';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InterruptDialog } from '../src/InterruptDialog.js';
import { preloadInterruptForm } from '../src/lazyChunks.js';
import { playedStore, runOf } from '../src/storybook/scripted.js';

const start = Date.parse('2026-11-30T12:00:00Z');

/** Three open interrupts, the third (a yes/no question) expiring 8 seconds after `start`; the clock faked from `start` on. */
async function threeOpen(): Promise<AgentStore> {
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
                responseSchema: {
                  type: 'object',
                  required: ['approved'],
                  properties: { approved: { type: 'boolean' }, comment: { type: 'string', title: 'Comment' } },
                },
              },
              {
                id: 'int-b',
                reason: 'input_required',
                message: 'Which channel?',
                responseSchema: {
                  type: 'object',
                  required: ['channel'],
                  properties: { channel: { type: 'string', title: 'Channel', enum: ['email', 'sms'] } },
                },
              },
              {
                id: 'int-c',
                reason: 'confirmation',
                message: 'Send the customer a voucher too?',
                expiresAt: new Date(start + 8000).toISOString(),
              },
            ],
          },
        }),
      },
    ],
    { now: () => Date.now() },
  );
  // The form's code is there before the clock is faked: the dialog renders with its forms at once.
  await preloadInterruptForm();
  vi.useFakeTimers({ now: start });
  return store;
}

function show(store: AgentStore) {
  return render(
    <AgentProvider store={store}>
      <section className="agk-chat" tabIndex={-1} aria-label="Agent chat">
        <InterruptDialog />
        <form className="agk-composer">
          <textarea className="agk-composer__input" aria-label="Message" />
        </form>
      </section>
    </AgentProvider>,
  );
}

/** Focuses and clicks `button` (as a pointer does), then lets what follows settle. */
async function click(button: HTMLElement) {
  button.focus();
  fireEvent.click(button);
  await act(async () => vi.advanceTimersByTimeAsync(0));
}

const card = (name: string) => screen.getByRole('article', { name });

afterEach(() => {
  vi.useRealTimers();
});

describe('an interrupt expiring among several with kept answers', () => {
  it('moves focus from Send answers, disabled as the expired answer is dropped, to Close without answering on the expired one', async () => {
    const store = await threeOpen();
    show(store);
    await act(async () => vi.advanceTimersByTimeAsync(0));
    await click(within(card('Approval needed')).getByRole('button', { name: 'Approve' }));
    const channel = within(card('Input needed')).getByRole('combobox', { name: 'Channel' });
    const sms = within(channel).getByRole('option', { name: 'sms' }) as HTMLOptionElement;
    fireEvent.change(channel, { target: { value: sms.value } });
    await click(within(card('Input needed')).getByRole('button', { name: 'Save answer' }));
    await click(within(card('Confirmation needed')).getByRole('button', { name: 'Yes' }));
    const send = screen.getByRole('button', { name: 'Send answers' });
    expect(send).toBeEnabled();
    expect(send).toHaveFocus();

    await act(async () => vi.advanceTimersByTimeAsync(8000));
    const expired = card('Confirmation needed');
    expect(expired).toHaveAttribute('data-state', 'expired');
    expect(expired).toHaveAttribute('data-answer', 'none');
    expect(send).toBeDisabled();
    expect(within(expired).getByRole('button', { name: 'Close without answering' })).toHaveFocus();
  });

  it('moves focus from its Change answer, gone with the dropped answer, to Close without answering', async () => {
    const store = await threeOpen();
    show(store);
    await act(async () => vi.advanceTimersByTimeAsync(0));
    const question = card('Confirmation needed');
    await click(within(question).getByRole('button', { name: 'Yes' }));
    within(question).getByRole('button', { name: 'Change answer' }).focus();

    await act(async () => vi.advanceTimersByTimeAsync(8000));
    expect(question).toHaveAttribute('data-state', 'expired');
    expect(within(question).queryByRole('button', { name: 'Change answer' })).toBeNull();
    expect(within(question).getByRole('button', { name: 'Close without answering' })).toHaveFocus();
  });

  it('leaves focus that is elsewhere where it is', async () => {
    const store = await threeOpen();
    show(store);
    await act(async () => vi.advanceTimersByTimeAsync(0));
    await click(within(card('Confirmation needed')).getByRole('button', { name: 'Yes' }));
    const comment = within(card('Approval needed')).getByRole('textbox', { name: 'Comment' });
    comment.focus();

    await act(async () => vi.advanceTimersByTimeAsync(8000));
    expect(card('Confirmation needed')).toHaveAttribute('data-state', 'expired');
    expect(comment).toHaveFocus();
  });
});
