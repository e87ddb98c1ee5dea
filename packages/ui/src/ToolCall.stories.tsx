import type { ResumeResponse } from '@aguikit/core';
import { AgentProvider, type AgentStore, createAgentStore } from '@aguikit/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { openRunStore } from './storybook/conversations.js';
import { call, playedStore, runOf, STORY_THREAD, scriptedSource, waitForState } from './storybook/scripted.js';
import { LONG_WAIT } from './storybook/waits.js';
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

/** The refund held for a decision on its interrupt `int-1`, and, when given, the answer the person sent. */
function heldForDecision(answer?: ResumeResponse): Promise<AgentStore> {
  const asked = {
    say: 'Refund',
    events: runOf(call('call-refund', 'refund_order', refundArgs), {
      outcome: { type: 'interrupt', interrupts: [{ id: 'int-1', reason: 'tool_call', toolCallId: 'call-refund', message: 'Approve?' }] },
    }),
  };
  return playedStore(answer ? [asked, { resume: [answer], events: runOf([]) }] : [asked]);
}

export const Declared: Story = {
  loaders: [async () => ({ store: await openRun([{ type: 'TOOL_CALL_START', toolCallId: 'call-refund', toolCallName: 'refund_order' }]) })],
  play: async ({ canvasElement }) => {
    const card = within(canvasElement);
    const trigger = card.getByRole('button', { name: 'refund_order' });
    await expect(trigger).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(trigger);
    await expect(card.getByText('No arguments.')).toBeVisible();
  },
};

export const ReceivingArguments: Story = {
  loaders: [async () => ({ store: await openRun(call('call-refund', 'refund_order', refundArgs, { parts: 3, end: false }).slice(0, 3)) })],
  play: async ({ canvasElement }) => {
    await expect(canvasElement.querySelector('[data-status]')?.getAttribute('data-status')).toBe('args_streaming');
    await expect(within(canvasElement).getByText('Receiving arguments')).toBeInTheDocument();
    // The partial arguments, parsed leniently, behind the disclosure.
    await userEvent.click(within(canvasElement).getByRole('button', { name: 'refund_order' }));
    await expect(within(canvasElement).getByText('Arguments (streaming)')).toBeVisible();
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
    // Collapsed: one line with the tool, a summary of its arguments and its status.
    // Each key and value of the summary is set apart (a <bdi>): the line is read whole.
    const summary = canvasElement.querySelector<HTMLElement>('.agk-toolcall__summary');
    await expect(summary).toHaveTextContent(/orderId: A-1001, amount: 42/);
    await expect(summary).toBeVisible();
    await expect(card.getByText(/"amount": 42/)).not.toBeVisible();
    await userEvent.click(card.getByRole('button', { name: 'refund_order' }));
    await expect(card.getByText(/"amount": 42/)).toBeVisible();
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
    const trigger = card.getByRole('button', { name: 'refund_order' });
    await expect(trigger).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(trigger);
    await expect(card.getByText(/RF-77/)).toBeVisible();
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
    // Open by itself; the run's error is the run status's to say, the card says only that the run ended it.
    await expect(card.getByRole('button', { name: 'refund_order' })).toHaveAttribute('aria-expanded', 'true');
    await expect(card.getByText('The run failed before this tool returned.')).toBeVisible();
    await expect(canvasElement.textContent).not.toContain('Payment provider unavailable');
  },
};

export const WaitingForDecision: Story = {
  loaders: [
    async () => ({
      store: await heldForDecision(),
    }),
  ],
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('Waiting for your decision')).toBeInTheDocument();
    // Open while the decision is awaited: the arguments are what is being decided.
    await expect(within(canvasElement).getByRole('button', { name: 'refund_order' })).toHaveAttribute('aria-expanded', 'true');
    await expect(within(canvasElement).getByText(/"reason": "Arrived broken"/)).toBeVisible();
  },
};

/** The person rejected the call on its interrupt (a resolved answer with `approved: false`): `denied`, "Rejected". */
export const RejectedOnItsInterrupt: Story = {
  loaders: [
    async () => ({
      store: await heldForDecision({ interruptId: 'int-1', status: 'resolved', payload: { approved: false } }),
    }),
  ],
  play: async ({ canvasElement }) => {
    const badge = within(canvasElement).getByText('Rejected');
    await expect(badge).toHaveAttribute('data-status', 'denied');
  },
};

/** The person closed the interrupt without answering (a cancelled resume): the call is `cancelled`, never run. */
export const CancelledOnItsInterrupt: Story = {
  loaders: [
    async () => ({
      store: await heldForDecision({ interruptId: 'int-1', status: 'cancelled' }),
    }),
  ],
  play: async ({ canvasElement }) => {
    const badge = within(canvasElement).getByText('Cancelled');
    await expect(badge).toHaveAttribute('data-status', 'cancelled');
    await expect(canvasElement.textContent).not.toContain('Succeeded');
  },
};

/** The reader pressed Stop while the call's arguments were still coming: it failed with its run, and says so once. */
export const StoppedByTheReader: Story = {
  loaders: [
    async () => {
      const store = await openRunStore(call('call-refund', 'refund_order', refundArgs, { parts: 3, end: false }).slice(0, 3), {
        say: 'Refund my order',
      });
      await store.getState().stop();
      return { store };
    },
  ],
  play: async ({ canvasElement }) => {
    const card = within(canvasElement);
    await expect(card.getByText('Failed')).toHaveAttribute('data-status', 'failed');
    await expect(card.getByText('The run was stopped before this tool returned.')).toBeVisible();
  },
};

/** A frontend tool whose handler threw: the call failed with the handler's message (the next run tells the agent). */
export const FrontendToolFailed: Story = {
  args: { id: 'call-locate' },
  loaders: [
    async () => ({
      store: await playedStore(
        [{ say: 'Where is my parcel?', events: runOf(call('call-locate', 'locate_parcel', { parcel: 'PX-88213' })) }],
        {
          autoContinue: false,
          tools: {
            locate_parcel: {
              description: "Reads the parcel's position from the carrier's page open in this tab.",
              handler: () => {
                throw new Error('The carrier page is not open in this browser.');
              },
            },
          },
        },
      ),
    }),
  ],
  play: async ({ canvasElement }) => {
    const card = within(canvasElement);
    await waitFor(() => expect(card.getByText('Failed')).toHaveAttribute('data-status', 'failed'), LONG_WAIT);
    await expect(card.getByText(/The carrier page is not open in this browser/)).toBeVisible();
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
    await userEvent.click(within(canvasElement).getByRole('button', { name: 'refund_order' }));
    // The sentence in the reader's language, with the parser's own words (in English) after it.
    const said = within(canvasElement).getByText(/^The arguments are not valid JSON\./);
    await expect(said).toBeVisible();
    await expect(within(said).getByText(/Unexpected token/)).toHaveAttribute('lang', 'en');
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
        [
          'declared',
          'args_streaming',
          'ready',
          'executing',
          'succeeded',
          'failed',
          'awaiting_decision',
          'expired',
          'approved',
          'denied',
          'cancelled',
        ] as const
      ).map((s) => (
        <ToolStatusBadge key={s} status={s} />
      ))}
    </div>
  ),
  play: async ({ canvasElement }) => {
    const badges = [...canvasElement.querySelectorAll('.agk-badge')];
    await expect(badges.map((b) => b.textContent)).toEqual([
      'Declared',
      'Receiving arguments',
      'Ready',
      'Running',
      'Succeeded',
      'Failed',
      'Waiting for your decision',
      'Expired',
      'Approved',
      'Rejected',
      'Cancelled',
    ]);
  },
};

/** The badges in Simplified Chinese: the status in words, in the reader's language. */
export const AllBadgesZhCN: StoryObj = {
  ...AllBadges,
  globals: { locale: 'zh-CN' },
  play: async ({ canvasElement }) => {
    const badges = [...canvasElement.querySelectorAll('.agk-badge')];
    await expect(badges.map((b) => b.textContent)).toEqual([
      '已声明',
      '正在接收参数',
      '就绪',
      '运行中',
      '成功',
      '失败',
      '等待你的决定',
      '已过期',
      '已批准',
      '已拒绝',
      '已取消',
    ]);
  },
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
    // Shown as text: in the one-line summary, and in the arguments behind the disclosure.
    await expect(canvasElement.querySelector('.agk-toolcall__summary')?.textContent).toContain('<script>');
    await expect(canvasElement.querySelector('pre.agk-code')?.textContent).toContain('<script>window.__pwned=1</script>');
  },
};

const LONG_TOOL = 'crm_customer_relationship_lookup_by_external_reference_identifier_v2';

/** A long tool name and a long status at 320 px (a phone in portrait, or 400% zoom): the header wraps, nothing scrolls sideways. */
export const LongNamesAt320: Story = {
  args: { id: 'call-7f3e9a52-0c4b-4d1e-9b8a-2f6c1d0e5a93' },
  loaders: [
    async () => ({
      store: await playedStore([
        {
          say: 'Find the customer',
          events: runOf(
            call('call-7f3e9a52-0c4b-4d1e-9b8a-2f6c1d0e5a93', LONG_TOOL, {
              externalReference: 'ext-ref-0b7d2c7e-31f4-4f9f-a3b6-8d1e4c2f9a70',
              includeArchivedRelationships: true,
            }),
            {
              outcome: {
                type: 'interrupt',
                interrupts: [{ id: 'int-5a1c', reason: 'tool_call', toolCallId: 'call-7f3e9a52-0c4b-4d1e-9b8a-2f6c1d0e5a93' }],
              },
            },
          ),
        },
      ]),
    }),
  ],
  render: (args, { loaded }) => (
    <AgentProvider store={(loaded as Loaded).store}>
      <div data-testid="frame" style={{ width: 320, boxSizing: 'border-box' }}>
        <ToolCallCard {...args} />
      </div>
    </AgentProvider>
  ),
  play: async ({ canvasElement }) => {
    const frame = within(canvasElement).getByTestId('frame');
    const card = frame.querySelector('.agk-toolcall') as HTMLElement;
    await expect(within(frame).getByRole('button', { name: LONG_TOOL })).toBeVisible();
    await expect(within(frame).getByText('Waiting for your decision')).toBeVisible();
    for (const el of [frame, card, card.querySelector('.agk-toolcall__header') as HTMLElement]) {
      await expect(el.scrollWidth).toBeLessThanOrEqual(el.clientWidth);
    }
  },
};
