import type { ActionResult, AgentSource } from '@aguikit/core';
import { AgentProvider, createAgentStore } from '@aguikit/react';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Composer } from '../src/Composer.js';
import { InterruptDialog } from '../src/InterruptDialog.js';
import { AgentLocaleProvider, zhCN } from '../src/locale.js';
import { call, playedStore, runOf, STORY_THREAD, scriptedSource, waitForState } from '../src/storybook/scripted.js';

/**
 * Once the person has answered, the answers are on their way until the store has checked and recorded them (the
 * validator may still be loading): the dialog's heading says they are being sent to the agent, not that the agent
 * is still waiting for them.
 */

afterEach(cleanup);

const approval = (id: string, toolCallId: string) => ({ id, reason: 'tool_call', toolCallId, message: `Run ${toolCallId}?` });

/** A thread asking `interrupts`, whose resume never settles: the answers stay on their way. */
async function sendingStore(interrupts: Record<string, unknown>[]) {
  const store = createAgentStore({
    threadId: STORY_THREAD,
    source: scriptedSource([
      runOf(
        [
          ...call('call_0f8e1d2c-3b4a-4596-8786-a5b4c3d2e1f0', 'refund_order', { orderId: 'A-1001' }),
          ...call('call_9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d', 'notify_customer', { channel: 'email' }),
        ],
        { outcome: { type: 'interrupt', interrupts } },
      ),
    ]),
    scheduler: (flush) => {
      queueMicrotask(flush);
      return () => undefined;
    },
  });
  await store.getState().run('Refund order A-1001');
  store.setState({ resume: () => new Promise<ActionResult>(() => undefined) });
  return store;
}

describe('answers on their way to the agent', () => {
  it('one answer: the heading says it is being sent', async () => {
    const store = await sendingStore([approval('5f1c2b3a-4d5e-4f60-8a71-92b3c4d5e6f7', 'call_0f8e1d2c-3b4a-4596-8786-a5b4c3d2e1f0')]);
    render(
      <AgentProvider store={store}>
        <InterruptDialog />
      </AgentProvider>,
    );
    const dialog = screen.getByRole('dialog', { name: 'The agent is waiting for your answer' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(screen.getByRole('dialog', { name: 'Sending your answer to the agent…' })).toBeInTheDocument());
    expect(within(screen.getByRole('dialog')).getByText('Sending…')).toBeInTheDocument();
  });

  it('several answers, in Chinese', async () => {
    const store = await sendingStore([
      approval('5f1c2b3a-4d5e-4f60-8a71-92b3c4d5e6f7', 'call_0f8e1d2c-3b4a-4596-8786-a5b4c3d2e1f0'),
      approval('6a2d3c4b-5e6f-4071-9b82-a3c4d5e6f708', 'call_9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d'),
    ]);
    render(
      <AgentLocaleProvider locale={zhCN}>
        <AgentProvider store={store}>
          <InterruptDialog />
        </AgentProvider>
      </AgentLocaleProvider>,
    );
    for (const button of screen.getAllByRole('button', { name: '是' })) fireEvent.click(button);
    await act(async () => undefined);
    fireEvent.click(screen.getByRole('button', { name: '发送全部回答' }));
    await waitFor(() => expect(screen.getByRole('dialog', { name: '正在将 2 个回答发送给智能体…' })).toBeInTheDocument());
  });
});

/** A question with a form of its own: Close without answering sends `cancelled`, which answers nothing. */
const question = (id: string) => ({
  id,
  reason: 'input_required',
  message: 'Which channel should the customer hear from?',
  responseSchema: { type: 'object', required: ['channel'], properties: { channel: { type: 'string', enum: ['email', 'sms'] } } },
});

describe('questions closed without an answer, on their way to the agent', () => {
  it('one: the heading and its status say it is being closed, not that an answer is being sent', async () => {
    const store = await sendingStore([question('7b3e4d5c-6f70-4182-9c93-b4d5e6f70819')]);
    render(
      <AgentProvider store={store}>
        <InterruptDialog />
      </AgentProvider>,
    );
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Close without answering' }));
    await waitFor(() => expect(screen.getByRole('dialog', { name: 'Closing this request without an answer…' })).toBeInTheDocument());
    expect(within(screen.getByRole('dialog')).getByText('Closing…')).toBeInTheDocument();
    expect(within(screen.getByRole('dialog')).queryByText(/Sending/)).toBeNull();
  });

  it("a question without a form's No is an answer: it is sent", async () => {
    const store = await sendingStore([approval('5f1c2b3a-4d5e-4f60-8a71-92b3c4d5e6f7', 'call_0f8e1d2c-3b4a-4596-8786-a5b4c3d2e1f0')]);
    render(
      <AgentProvider store={store}>
        <InterruptDialog />
      </AgentProvider>,
    );
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'No' }));
    await waitFor(() => expect(screen.getByRole('dialog', { name: 'Sending your answer to the agent…' })).toBeInTheDocument());
    expect(within(screen.getByRole('dialog')).getByText('Sending…')).toBeInTheDocument();
  });

  it('several, in Chinese', async () => {
    const store = await sendingStore([question('7b3e4d5c-6f70-4182-9c93-b4d5e6f70819'), question('8c4f5e6d-7081-4293-8da4-c5e6f708192a')]);
    render(
      <AgentLocaleProvider locale={zhCN}>
        <AgentProvider store={store}>
          <InterruptDialog />
        </AgentProvider>
      </AgentLocaleProvider>,
    );
    for (const button of screen.getAllByRole('button', { name: '不回答并关闭' })) {
      fireEvent.click(button);
      await act(async () => undefined);
    }
    fireEvent.click(screen.getByRole('button', { name: '发送全部回答' }));
    await waitFor(() => expect(screen.getByRole('dialog', { name: '正在关闭 2 个请求（不回答）…' })).toBeInTheDocument());
  });
});

/**
 * A thread asking one approval; its resume's stream sends a run that asks a second one, then stays open (the server
 * has not closed it yet).
 */
async function askedAgainStore() {
  const first = approval('5f1c2b3a-4d5e-4f60-8a71-92b3c4d5e6f7', 'call_0f8e1d2c-3b4a-4596-8786-a5b4c3d2e1f0');
  const next = approval('6a2d3c4b-5e6f-4071-9b82-a3c4d5e6f708', 'call_9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d');
  const turns = [
    runOf(call('call_0f8e1d2c-3b4a-4596-8786-a5b4c3d2e1f0', 'refund_order', { orderId: 'A-1001' }), {
      outcome: { type: 'interrupt', interrupts: [first] },
    }),
    runOf(call('call_9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d', 'notify_customer', { channel: 'email' }), {
      outcome: { type: 'interrupt', interrupts: [next] },
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

describe('a question the resumed run raises while its stream is still open', () => {
  it('is headed as waiting for an answer, not as an answer being sent', async () => {
    const store = await askedAgainStore();
    render(
      <AgentProvider store={store}>
        <InterruptDialog />
      </AgentProvider>,
    );
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(screen.getByRole('dialog')).toHaveTextContent('notify_customer'));
    expect(store.getState().inFlight).toBe('resume');
    expect(screen.getByRole('dialog', { name: 'The agent is waiting for your answer' })).toBeInTheDocument();
    store.getState().stop();
  });
});

describe("the composer's hint while answers are on their way", () => {
  const hint = () => document.querySelector('.agk-composer__note')?.textContent;

  it('says the answer is being sent, then that the agent waits for the question its run raised', async () => {
    const store = await askedAgainStore();
    render(
      <AgentProvider store={store}>
        <InterruptDialog />
        <Composer />
      </AgentProvider>,
    );
    expect(hint()).toBe('The agent is waiting for your answer above before it can take a new message.');
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Yes' }));
    // Claimed at once, still being checked: the question answered is still open.
    expect(store.getState().inFlight).toBe('resume');
    expect(store.getState().thread.interrupts).toHaveLength(1);
    expect(hint()).toBe('Sending your answer: you can keep typing, and send once the agent replies.');
    await waitFor(() => expect(screen.getByRole('dialog')).toHaveTextContent('notify_customer'));
    expect(hint()).toBe('The agent is waiting for your answer above before it can take a new message.');
    store.getState().stop();
  });

  it("says the agent waits for the question the resumed run raised while that run's browser tools still run", async () => {
    const first = approval('5f1c2b3a-4d5e-4f60-8a71-92b3c4d5e6f7', 'call_0f8e1d2c-3b4a-4596-8786-a5b4c3d2e1f0');
    const next = approval('6a2d3c4b-5e6f-4071-9b82-a3c4d5e6f708', 'call_9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d');
    let finish: (value: string) => void = () => undefined;
    const store = await playedStore(
      [
        {
          say: 'Refund order A-1001',
          events: runOf(call('call_0f8e1d2c-3b4a-4596-8786-a5b4c3d2e1f0', 'refund_order', { orderId: 'A-1001' }), {
            outcome: { type: 'interrupt', interrupts: [first] },
          }),
        },
      ],
      {
        // The resumed run calls a tool the browser runs, and asks a second question.
        pending: [
          runOf(
            [
              ...call('call_1b2c3d4e-5f60-4718-8293-a4b5c6d7e8f9', 'lookup_order', { orderId: 'A-1001' }),
              ...call('call_9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d', 'notify_customer', { channel: 'email' }),
            ],
            { outcome: { type: 'interrupt', interrupts: [next] } },
          ),
        ],
        tools: {
          lookup_order: {
            description: 'Looks an order up',
            handler: () =>
              new Promise<string>((resolve) => {
                finish = resolve;
              }),
          },
        },
      },
    );
    render(
      <AgentProvider store={store}>
        <InterruptDialog />
        <Composer />
      </AgentProvider>,
    );
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(screen.getByRole('dialog')).toHaveTextContent('notify_customer'));
    await waitForState(store, (s) => s.connection === 'closed');
    // The answer was recorded and sent; the run it started is over but for the browser's tool.
    expect(store.getState().inFlight).toBe('resume');
    expect(store.getState().thread.toolCalls.get('call_1b2c3d4e-5f60-4718-8293-a4b5c6d7e8f9')?.status).toBe('executing');
    expect(hint()).toBe('The agent is waiting for your answer above before it can take a new message.');
    await act(async () => finish('shipped'));
    await waitForState(store, (s) => s.inFlight === undefined);
    expect(hint()).toBe('The agent is waiting for your answer above before it can take a new message.');
  });

  it('in Chinese', async () => {
    const store = await askedAgainStore();
    render(
      <AgentLocaleProvider locale={zhCN}>
        <AgentProvider store={store}>
          <InterruptDialog />
          <Composer />
        </AgentProvider>
      </AgentLocaleProvider>,
    );
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: '是' }));
    expect(hint()).toBe('正在发送你的回答：你可以继续输入，智能体回复后再发送。');
    store.getState().stop();
  });
});
