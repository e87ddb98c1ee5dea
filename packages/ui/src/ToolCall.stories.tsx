import { AgentProvider, type AgentStore, createAgentStore } from '@aguikit/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { call, playedStore, runOf, STORY_THREAD, scriptedSource, waitForState } from './storybook/scripted.js';
import { ToolCallCard, ToolStatusBadge, toolRenderers } from './ToolCall.js';

type Loaded = { store: AgentStore };

const meta = {
  title: 'Components/ToolCallCard',
  component: ToolCallCard,
  args: { id: 'call-refund' },
  render: (args, { loaded }) => (
    <AgentProvider store={(loaded as Loaded).store}>
      <ToolCallCard {...args} />
    </AgentProvider>
  ),
} satisfies Meta<typeof ToolCallCard>;

export default meta;
type Story = StoryObj<typeof meta>;

const refundArgs = { orderId: 'A-1001', amount: 42, currency: 'USD', reason: 'Arrived broken' };

/** A store whose run is still open, stopped right after `events`. */
async function openRun(events: Record<string, unknown>[]): Promise<AgentStore> {
  const store = createAgentStore({
    threadId: STORY_THREAD,
    source: scriptedSource([runOf(events, null)], { delayMs: 0 }),
    scheduler: (f) => {
      const t = setTimeout(f, 0);
      return () => clearTimeout(t);
    },
  });
  // The script ends without a terminal: the run is reported unknown, the call keeps the state it reached.
  await store.getState().run('Refund my order');
  return store;
}

export const Declared: Story = {
  loaders: [async () => ({ store: await openRun([{ type: 'TOOL_CALL_START', toolCallId: 'call-refund', toolCallName: 'refund_order' }]) })],
  play: async ({ canvasElement }) => {
    const card = within(canvasElement);
    await expect(card.getByRole('heading', { name: 'refund_order' })).toBeInTheDocument();
  },
};

export const ReceivingArguments: Story = {
  loaders: [async () => ({ store: await openRun(call('call-refund', 'refund_order', refundArgs, { parts: 3, end: false }).slice(0, 3)) })],
  play: async ({ canvasElement }) => {
    await expect(canvasElement.querySelector('[data-status]')?.getAttribute('data-status')).toBe('args_streaming');
    await expect(within(canvasElement).getByText('Receiving arguments')).toBeInTheDocument();
  },
};

const readyLoader = async () => ({
  store: await playedStore([{ say: 'Refund', events: runOf(call('call-refund', 'refund_order', refundArgs)) }]),
});

export const Ready: Story = {
  loaders: [readyLoader],
  play: async ({ canvasElement }) => {
    const card = within(canvasElement);
    await expect(card.getByText('Ready')).toBeInTheDocument();
    await expect(card.getByText(/"amount": 42/)).toBeInTheDocument();
  },
};

export const Running: Story = {
  loaders: [
    async () => {
      const store = createAgentStore({
        threadId: STORY_THREAD,
        source: scriptedSource([runOf(call('call-refund', 'refund_order', refundArgs))]),
        tools: { refund_order: { description: 'Refunds an order', handler: () => new Promise(() => undefined) } },
      });
      void store.getState().run('Refund');
      await waitForState(store, (s) => s.thread.toolCalls.get('call-refund')?.status === 'executing');
      return { store };
    },
  ],
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('Running')).toBeInTheDocument();
  },
};

export const Succeeded: Story = {
  loaders: [
    async () => ({
      store: await playedStore([
        {
          say: 'Refund',
          events: runOf(call('call-refund', 'refund_order', refundArgs, { result: { refundId: 'RF-77', status: 'refunded' } })),
        },
      ]),
    }),
  ],
  play: async ({ canvasElement }) => {
    const card = within(canvasElement);
    await expect(card.getByText('Succeeded')).toBeInTheDocument();
    await expect(card.getByText(/RF-77/)).toBeInTheDocument();
  },
};

export const FailedWithTheRun: Story = {
  loaders: [
    async () => ({
      store: await playedStore([
        {
          say: 'Refund',
          events: [
            ...runOf(call('call-refund', 'refund_order', refundArgs), null),
            { type: 'RUN_ERROR', message: 'Payment provider unavailable', code: 'UPSTREAM' },
          ],
        },
      ]),
    }),
  ],
  play: async ({ canvasElement }) => {
    const card = within(canvasElement);
    await expect(card.getByText('Failed')).toBeInTheDocument();
    await expect(card.getByText(/Payment provider unavailable/)).toBeInTheDocument();
  },
};

export const WaitingForDecision: Story = {
  loaders: [
    async () => ({
      store: await playedStore([
        {
          say: 'Refund',
          events: runOf(call('call-refund', 'refund_order', refundArgs), {
            outcome: {
              type: 'interrupt',
              interrupts: [{ id: 'int-1', reason: 'tool_call', toolCallId: 'call-refund', message: 'Approve?' }],
            },
          }),
        },
      ]),
    }),
  ],
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('Waiting for your decision')).toBeInTheDocument();
  },
};

/** The person rejected the call on its interrupt (a resolved answer with `approved: false`): `denied`, "Rejected". */
export const RejectedOnItsInterrupt: Story = {
  loaders: [
    async () => ({
      store: await playedStore([
        {
          say: 'Refund',
          events: runOf(call('call-refund', 'refund_order', refundArgs), {
            outcome: {
              type: 'interrupt',
              interrupts: [{ id: 'int-1', reason: 'tool_call', toolCallId: 'call-refund', message: 'Approve?' }],
            },
          }),
        },
        { resume: [{ interruptId: 'int-1', status: 'resolved', payload: { approved: false } }], events: runOf([]) },
      ]),
    }),
  ],
  play: async ({ canvasElement }) => {
    const badge = within(canvasElement).getByText('Rejected');
    await expect(badge).toHaveAttribute('data-status', 'denied');
  },
};

export const ArgumentsThatAreNotJson: Story = {
  loaders: [
    async () => ({
      store: await playedStore([
        {
          say: 'Refund',
          events: runOf([
            { type: 'TOOL_CALL_START', toolCallId: 'call-refund', toolCallName: 'refund_order' },
            { type: 'TOOL_CALL_ARGS', toolCallId: 'call-refund', delta: '{"orderId": A-1001' },
            { type: 'TOOL_CALL_END', toolCallId: 'call-refund' },
          ]),
        },
      ]),
    }),
  ],
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText(/not valid JSON/)).toBeInTheDocument();
  },
};

export const CustomRenderer: Story = {
  args: {
    renderTool: toolRenderers({
      refund_order: (c) => (
        <p role="note">
          Refund of {String((c.args as { amount?: number } | undefined)?.amount)}{' '}
          {String((c.args as { currency?: string } | undefined)?.currency)}
        </p>
      ),
    }),
  },
  loaders: [readyLoader],
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('note')).toHaveTextContent('Refund of 42 USD');
  },
};

export const AllBadges: StoryObj = {
  render: () => (
    <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap' }}>
      {(
        ['declared', 'args_streaming', 'ready', 'executing', 'succeeded', 'failed', 'awaiting_decision', 'denied', 'cancelled'] as const
      ).map((s) => (
        <ToolStatusBadge key={s} status={s} />
      ))}
    </div>
  ),
};

export const HostilePayloads: Story = {
  loaders: [
    async () => ({
      store: await playedStore([
        {
          say: 'x',
          events: runOf(
            call(
              'call-refund',
              '<img src=x onerror=alert(1)>',
              { html: '<script>window.__pwned=1</script>', href: 'javascript:alert(1)' },
              {
                result: '<img src=x onerror="window.__pwned=1">',
              },
            ),
          ),
        },
      ]),
    }),
  ],
  play: async ({ canvasElement }) => {
    await expect(canvasElement.querySelector('script, img')).toBeNull();
    await expect((window as { __pwned?: number }).__pwned).toBeUndefined();
    await expect(within(canvasElement).getByText(/<script>/)).toBeInTheDocument();
  },
};
