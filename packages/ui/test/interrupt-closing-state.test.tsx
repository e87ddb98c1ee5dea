import type { ActionResult, AgentSource } from '@aguikit/core';
import { AgentProvider, createAgentStore } from '@aguikit/react';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { InterruptDialog } from '../src/InterruptDialog.js';
import { call, runOf, STORY_THREAD } from '../src/storybook/scripted.js';

/**
 * What is said while answers are on their way names only the questions they close: a question the resumed run raises
 * is waited for, even when the agent gives it the id of the one just closed.
 */

afterEach(cleanup);

const ID = '7b3e4d5c-6f70-4182-9c93-b4d5e6f70819';
const question = (message: string) => ({
  id: ID,
  reason: 'input_required',
  message,
  responseSchema: { type: 'object', required: ['channel'], properties: { channel: { type: 'string', enum: ['email', 'sms'] } } },
});

/** A thread asking one question; its resume's stream asks again under the same id, then stays open. */
async function askedAgainUnderSameId() {
  const turns = [
    runOf(call('call_0f8e1d2c-3b4a-4596-8786-a5b4c3d2e1f0', 'refund_order', { orderId: 'A-1001' }), {
      outcome: { type: 'interrupt', interrupts: [question('Which channel should the customer hear from?')] },
    }),
    runOf(call('call_9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d', 'notify_customer', { channel: 'email' }), {
      outcome: { type: 'interrupt', interrupts: [question('Which channel for the receipt?')] },
    }),
  ];
  let turn = 0;
  const source: AgentSource = {
    async *run(_input, options = {}) {
      const events = turns[turn++] ?? [];
      options.onConnection?.('open');
      for (const event of events) yield event;
      if (turn > 1) await new Promise<void>((resolve) => options.signal?.addEventListener('abort', () => resolve(), { once: true }));
      options.onConnection?.('closed');
    },
  };
  const store = createAgentStore({
    threadId: STORY_THREAD,
    source,
    scheduler: (flush) => {
      queueMicrotask(flush);
      return () => undefined;
    },
  });
  await store.getState().run('Refund order A-1001');
  return store;
}

describe('a question raised again under the id of one just closed, while the resumed run streams', () => {
  it('is headed as waited for, not as being closed', async () => {
    const store = await askedAgainUnderSameId();
    render(
      <AgentProvider store={store}>
        <InterruptDialog />
      </AgentProvider>,
    );
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Close without answering' }));
    await waitFor(() => expect(screen.getByRole('dialog')).toHaveTextContent('Which channel for the receipt?'));
    expect(store.getState().inFlight).toBe('resume');
    expect(store.getState().thread.interrupts.map((it) => it.id)).toEqual([ID]);
    expect(screen.getByRole('dialog', { name: 'The agent is waiting for your answer' })).toBeInTheDocument();
    expect(within(screen.getByRole('dialog')).queryByText('Closing…')).toBeNull();
    store.getState().stop();
  });
});

describe('some questions closed and others answered, sent together', () => {
  it('each says what is on its way for it: closing for the one closed, sending for the one answered', async () => {
    const store = createAgentStore({
      threadId: STORY_THREAD,
      source: {
        async *run(_input, options = {}) {
          options.onConnection?.('open');
          yield* runOf(call('call_0f8e1d2c-3b4a-4596-8786-a5b4c3d2e1f0', 'refund_order', { orderId: 'A-1001' }), {
            outcome: {
              type: 'interrupt',
              interrupts: [
                question('Which channel should the customer hear from?'),
                {
                  id: '5f1c2b3a-4d5e-4f60-8a71-92b3c4d5e6f7',
                  reason: 'tool_call',
                  toolCallId: 'call_0f8e1d2c-3b4a-4596-8786-a5b4c3d2e1f0',
                  message: 'Refund order A-1001?',
                },
              ],
            },
          });
          options.onConnection?.('closed');
        },
      },
      scheduler: (flush) => {
        queueMicrotask(flush);
        return () => undefined;
      },
    });
    await store.getState().run('Refund order A-1001');
    // The answers stay on their way.
    store.setState({ resume: () => new Promise<ActionResult>(() => undefined) });
    render(
      <AgentProvider store={store}>
        <InterruptDialog />
      </AgentProvider>,
    );
    const [asked, approval] = screen.getAllByRole('article');
    if (!asked || !approval) throw new Error('two interrupts expected');
    fireEvent.click(within(asked).getByRole('button', { name: 'Close without answering' }));
    await act(async () => undefined);
    fireEvent.click(within(approval).getByRole('button', { name: 'Yes' }));
    await act(async () => undefined);
    fireEvent.click(screen.getByRole('button', { name: 'Send answers' }));
    await waitFor(() => expect(screen.getByRole('dialog', { name: 'Sending 2 answers to the agent…' })).toBeInTheDocument());
    expect(asked.querySelector('.agk-interrupt__status')?.textContent).toBe('Closing…');
    expect(approval.querySelector('.agk-interrupt__status')?.textContent).toBe('Sending…');
  });
});

describe('a question closed, then the resume refused', () => {
  it('is open again, said as waited for, not as being closed', async () => {
    const store = await askedAgainUnderSameId();
    let settle: (result: ActionResult) => void = () => undefined;
    store.setState({ resume: () => new Promise<ActionResult>((resolve) => (settle = resolve)) });
    render(
      <AgentProvider store={store}>
        <InterruptDialog />
      </AgentProvider>,
    );
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Close without answering' }));
    await waitFor(() => expect(screen.getByRole('dialog', { name: 'Closing this request without an answer…' })).toBeInTheDocument());
    expect(within(screen.getByRole('dialog')).getByText('Closing…')).toBeInTheDocument();
    await act(async () => settle({ ok: false, code: 'RESUME_REFUSED', message: 'The agent refused the answers.' }));
    expect(screen.getByRole('dialog', { name: 'The agent is waiting for your answer' })).toBeInTheDocument();
    expect(within(screen.getByRole('dialog')).queryByText('Closing…')).toBeNull();
    expect(within(screen.getByRole('dialog')).getByRole('button', { name: 'Close without answering' })).toBeEnabled();
  });
});
