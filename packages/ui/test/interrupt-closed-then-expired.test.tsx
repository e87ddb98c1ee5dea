/**
 * Among several open interrupts, one closed without answering keeps that
 * answer when it then expires: `cancelled` can still be sent for an expired
 * interrupt. Its card says the answer it keeps, and offers no Change answer:
 * Close without answering is all an expired interrupt could be given again.
 */
import { AgentProvider, type AgentStore } from '@aguikit/react';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InterruptDialog } from '../src/InterruptDialog.js';
import { preloadInterruptForm } from '../src/lazyChunks.js';
import { playedStore, runOf } from '../src/storybook/scripted.js';

const start = Date.parse('2026-11-30T12:00:00Z');

/** An approval expiring 8 seconds after `start` (a yes/no question with `confirm`) and a question without expiry; the clock faked from `start` on. */
async function twoOpen(confirm = false): Promise<AgentStore> {
  const store = await playedStore(
    [
      {
        say: 'Refund order A-1001 and tell the customer.',
        events: runOf([], {
          outcome: {
            type: 'interrupt',
            interrupts: [
              confirm
                ? {
                    id: 'int-a',
                    reason: 'confirmation',
                    message: 'Email the customer about the refund?',
                    expiresAt: new Date(start + 8000).toISOString(),
                  }
                : {
                    id: 'int-a',
                    reason: 'tool_call',
                    message: 'Refund $42 to the customer?',
                    expiresAt: new Date(start + 8000).toISOString(),
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
            ],
          },
        }),
      },
    ],
    { now: () => Date.now() },
  );
  await preloadInterruptForm();
  vi.useFakeTimers({ now: start });
  return store;
}

function show(store: AgentStore) {
  return render(
    <AgentProvider store={store}>
      <InterruptDialog />
    </AgentProvider>,
  );
}

async function click(button: HTMLElement) {
  button.focus();
  fireEvent.click(button);
  await act(async () => vi.advanceTimersByTimeAsync(0));
}

const card = (name: string) => screen.getByRole('article', { name });

afterEach(() => {
  vi.useRealTimers();
});

describe('an interrupt closed without answering that then expires', () => {
  it('says the answer it keeps, with no Change answer', async () => {
    show(await twoOpen());
    await act(async () => vi.advanceTimersByTimeAsync(0));
    const approval = card('Approval needed');
    await click(within(approval).getByRole('button', { name: 'Close without answering' }));
    expect(approval).toHaveTextContent('Your answer: none, closed without answering.');

    await act(async () => vi.advanceTimersByTimeAsync(8000));
    expect(approval).toHaveAttribute('data-state', 'expired');
    expect(approval).toHaveAttribute('data-answer', 'cancelled');
    expect(approval.querySelector('.agk-interrupt__status')).toHaveTextContent('Your answer: none, closed without answering.');
    expect(within(approval).queryByRole('button', { name: 'Change answer' })).toBeNull();
    expect(within(approval).queryByRole('button', { name: 'Close without answering' })).toBeNull();
  });

  it('sends the close with the other answer', async () => {
    const store = await twoOpen();
    show(store);
    await act(async () => vi.advanceTimersByTimeAsync(0));
    await click(within(card('Approval needed')).getByRole('button', { name: 'Close without answering' }));
    await act(async () => vi.advanceTimersByTimeAsync(8000));
    const channel = within(card('Input needed')).getByRole('combobox', { name: 'Channel' });
    fireEvent.change(channel, { target: { value: (within(channel).getByRole('option', { name: 'sms' }) as HTMLOptionElement).value } });
    await click(within(card('Input needed')).getByRole('button', { name: 'Save answer' }));
    const resume = vi.spyOn(store.getState(), 'resume');
    await click(screen.getByRole('button', { name: 'Send answers' }));
    expect(resume).toHaveBeenCalledWith([
      { interruptId: 'int-a', status: 'cancelled' },
      { interruptId: 'int-b', status: 'resolved', payload: { channel: 'sms' } },
    ]);
  });

  it('moves focus from its Change answer, gone at expiry, to the card', async () => {
    show(await twoOpen());
    await act(async () => vi.advanceTimersByTimeAsync(0));
    const approval = card('Approval needed');
    await click(within(approval).getByRole('button', { name: 'Close without answering' }));
    within(approval).getByRole('button', { name: 'Change answer' }).focus();

    await act(async () => vi.advanceTimersByTimeAsync(8000));
    expect(approval).toHaveAttribute('data-state', 'expired');
    expect(approval).toHaveFocus();
  });

  it('says under its heading that the answer it keeps is sent, not that it can only be closed', async () => {
    show(await twoOpen());
    await act(async () => vi.advanceTimersByTimeAsync(0));
    const approval = card('Approval needed');
    await click(within(approval).getByRole('button', { name: 'Close without answering' }));
    await act(async () => vi.advanceTimersByTimeAsync(8000));
    expect(approval).toHaveAttribute('data-state', 'expired');
    const why = approval.querySelector('.agk-interrupt__why');
    expect(why).toHaveTextContent('Its answer can no longer be changed: it is sent as shown, with the other answers.');
    expect(why).not.toHaveTextContent(/only closed/);
    // Its countdown's announcement says the expiry, not that it is left to be closed.
    const said = approval.querySelector('.agk-interrupt__countdown ~ [aria-live]');
    expect(said).toHaveTextContent(/^Expired at /);
    expect(said).not.toHaveTextContent(/only closed/);
  });

  it('says so of a question without a form whose No it keeps', async () => {
    show(await twoOpen(true));
    await act(async () => vi.advanceTimersByTimeAsync(0));
    const question = card('Confirmation needed');
    await click(within(question).getByRole('button', { name: 'No' }));
    expect(question).toHaveTextContent('Your answer: No.');
    await act(async () => vi.advanceTimersByTimeAsync(8000));
    expect(question).toHaveAttribute('data-state', 'expired');
    expect(question.querySelector('.agk-interrupt__why')).toHaveTextContent(/^Its answer can no longer be changed/);
    expect(question.querySelector('.agk-interrupt__status')).toHaveTextContent('Your answer: No.');
  });

  it('says of a Yes, dropped at expiry, that it can only be closed, its expiry said once', async () => {
    show(await twoOpen(true));
    await act(async () => vi.advanceTimersByTimeAsync(0));
    const question = card('Confirmation needed');
    const live = question.querySelector('.agk-interrupt__countdown ~ [aria-live]');
    // What the region held before each change (a change and the next can come in one batch of records).
    const held: string[] = [];
    const watch = new MutationObserver((records) => {
      for (const r of records)
        held.push(r.type === 'characterData' ? (r.oldValue ?? '') : [...r.removedNodes].map((n) => n.textContent).join(''));
    });
    if (live) watch.observe(live, { childList: true, characterData: true, characterDataOldValue: true, subtree: true });
    await click(within(question).getByRole('button', { name: 'Yes' }));
    expect(question).toHaveTextContent('Your answer: Yes.');
    await act(async () => vi.advanceTimersByTimeAsync(8000));
    await act(async () => vi.advanceTimersByTimeAsync(1000));
    watch.disconnect();
    expect(question).toHaveAttribute('data-state', 'expired');
    expect(question).toHaveAttribute('data-answer', 'none');
    expect(question.querySelector('.agk-interrupt__why')).toHaveTextContent('It can no longer be answered, only closed.');
    const said = [...held, live?.textContent ?? ''].filter((text, i, all) => text !== '' && text !== all[i - 1]);
    expect(said).toEqual([expect.stringMatching(/^This request expired at .*only closed\.$/)]);
  });

  it('says of one left unanswered that it can only be closed', async () => {
    show(await twoOpen());
    await act(async () => vi.advanceTimersByTimeAsync(8000));
    const approval = card('Approval needed');
    expect(approval).toHaveAttribute('data-state', 'expired');
    expect(approval.querySelector('.agk-interrupt__why')).toHaveTextContent('It can no longer be answered, only closed.');
    expect(approval.querySelector('.agk-interrupt__countdown ~ [aria-live]')).toHaveTextContent(/only closed\.$/);
  });
});
