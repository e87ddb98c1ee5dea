import { AgentProvider, type AgentStore } from '@aguikit/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { preloadMarkdown } from './lazyChunks.js';
import { SubagentGroup, SubagentStatusBadge } from './SubagentGroup.js';
import { CONCURRENT_SUBAGENTS, NESTED_SUBAGENTS, openRunStore, sayAs } from './storybook/conversations.js';
import { call, playedStore, runOf } from './storybook/scripted.js';
import { LONG_WAIT } from './storybook/waits.js';

type Loaded = { store: AgentStore };

const meta = {
  title: 'Components/SubagentGroup',
  component: SubagentGroup,
  args: { id: 'sa-lead' },
  // Agent text is Markdown once its renderer (loaded on demand) is there: these stories show it loaded.
  loaders: [async () => preloadMarkdown().then(() => ({}))],
  render: (args, { loaded }) => (
    <AgentProvider store={(loaded as Loaded).store}>
      <div style={{ maxWidth: 720 }}>
        <SubagentGroup {...args} />
      </div>
    </AgentProvider>
  ),
} satisfies Meta<typeof SubagentGroup>;

export default meta;
type Story = StoryObj<typeof meta>;

const nestedLoader = async () => ({ store: await playedStore([{ say: 'Why was my parcel damaged?', events: runOf(NESTED_SUBAGENTS) }]) });

export const Running: Story = {
  args: { id: 'sa-writer' },
  loaders: [
    async () => ({
      store: await openRunStore(
        [
          { type: 'SUBAGENT_STARTED', subagentRunId: 'sa-writer', name: 'Letter writer', description: 'Drafts the apology letter' },
          { type: 'TEXT_MESSAGE_START', messageId: 'w1', role: 'assistant', subagentRunId: 'sa-writer' },
          ...'Dear customer, we are sorry your parcel arrived damaged. A full refund of 42.00 USD is on its way to your card.'
            .split(/(?<= )/)
            .map((delta) => ({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'w1', delta, subagentRunId: 'sa-writer' })),
          { type: 'TEXT_MESSAGE_END', messageId: 'w1', subagentRunId: 'sa-writer' },
        ],
        { delayMs: 50, live: true },
      ),
    }),
  ],
  play: async ({ canvasElement }) => {
    const group = await within(canvasElement).findByRole('group', { name: 'Letter writer Running' }, LONG_WAIT);
    await expect(group).toHaveAttribute('data-status', 'running');
    // Streamed word by word, 50 ms apart, from the loader on.
    await waitFor(() => expect(group).toHaveTextContent('on its way to your card.'), LONG_WAIT);
  },
};

export const Concurrent: Story = {
  loaders: [async () => ({ store: await openRunStore(CONCURRENT_SUBAGENTS) })],
  render: (_args, { loaded }) => (
    <AgentProvider store={(loaded as Loaded).store}>
      {/* Side by side where both fit, one under the other on a phone. */}
      <div style={{ display: 'grid', gap: 12, gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 18rem), 1fr))', maxWidth: 900 }}>
        <SubagentGroup id="sa-policy" />
        <SubagentGroup id="sa-carrier" />
      </div>
    </AgentProvider>
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('group', { name: 'Policy reader Running' })).toHaveTextContent('Returns are accepted within 30 days');
    await expect(canvas.getByRole('group', { name: 'Carrier tracker Running' })).toHaveTextContent('delivered on Monday');
  },
};

export const NestedAndSuspended: Story = {
  loaders: [nestedLoader],
  play: async ({ canvasElement }) => {
    const lead = within(canvasElement).getByRole('group', { name: 'Investigator Suspended' });
    await expect(lead).toHaveAttribute('data-status', 'suspended');
    await expect(lead).toHaveTextContent('Waiting on 1 answer.');
    const children = [...lead.querySelectorAll(':scope > .agk-subagent__body > [role="group"]')].map((g) =>
      g.getAttribute('data-subagent'),
    );
    await expect(children).toEqual(['sa-audit', 'sa-photos']);
  },
};

/** The same groups in Simplified Chinese: statuses and the waiting line in the reader's language. */
export const NestedAndSuspendedChinese: Story = {
  globals: { locale: 'zh-CN' },
  loaders: [nestedLoader],
  play: async ({ canvasElement }) => {
    const lead = within(canvasElement).getByRole('group', { name: 'Investigator 已暂停' });
    await expect(lead).toHaveTextContent('正在等待 1 个回答。');
    await expect(within(lead).getByRole('group', { name: 'Photo checker 失败' })).toBeInTheDocument();
    await expect(within(lead).getByRole('group', { name: 'Auditor 已完成' })).toBeInTheDocument();
  },
};

export const Failed: Story = {
  args: { id: 'sa-photos' },
  loaders: [nestedLoader],
  play: async ({ canvasElement }) => {
    const group = within(canvasElement).getByRole('group', { name: 'Photo checker Failed' });
    await expect(group).toHaveTextContent('TIMEOUT The photo service timed out');
    await expect(group).toHaveTextContent('Nothing yet.');
  },
};

export const DoneCollapsed: Story = {
  args: { id: 'sa-audit', defaultOpen: false },
  loaders: [nestedLoader],
  play: async ({ canvasElement }) => {
    const group = within(canvasElement).getByRole('group', { name: 'Auditor Done' });
    await expect(group).toHaveAttribute('data-state', 'closed');
    const trigger = within(group).getByRole('button', { name: 'Auditor' });
    await expect(trigger).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(trigger);
    await expect(within(group).getByText(/scanned the parcel twice/)).toBeVisible();
  },
};

export const WithToolCalls: Story = {
  args: { id: 'sa-refunds' },
  loaders: [
    async () => ({
      store: await playedStore([
        {
          say: 'Refund A-1001.',
          events: runOf([
            { type: 'SUBAGENT_STARTED', subagentRunId: 'sa-refunds', name: 'Refund desk' },
            ...sayAs('r1', 'Issuing the refund.', 1, { subagentRunId: 'sa-refunds' }),
            ...call('call-refund', 'refund_order', { orderId: 'A-1001', amount: 42 }, { parent: 'r1', result: { refundId: 'RF-77' } }).map(
              (event) => ({ ...event, subagentRunId: 'sa-refunds' }),
            ),
            { type: 'SUBAGENT_FINISHED', subagentRunId: 'sa-refunds', result: { refundId: 'RF-77' } },
          ]),
        },
      ]),
    }),
  ],
  play: async ({ canvasElement }) => {
    const group = within(canvasElement).getByRole('group', { name: 'Refund desk Done' });
    const chip = within(group).getByRole('button', { name: 'refund_order' });
    await expect(chip).toHaveAttribute('aria-expanded', 'false');
    // The card holds the result; the tool message is not drawn again under it.
    await expect(group.querySelector('article[data-role="tool"]')).toBeNull();
    await userEvent.click(chip);
    await expect(within(group).getByText(/RF-77/)).toBeVisible();
  },
};

export const NotAnnounced: Story = {
  args: { id: 'sa-ghost' },
  loaders: [
    async () => ({
      store: await playedStore([
        { say: 'Hello', events: runOf(sayAs('g1', 'A message naming a subagent never started.', 1, { subagentRunId: 'sa-ghost' })) },
      ]),
    }),
  ],
  play: async ({ canvasElement }) => {
    const group = within(canvasElement).getByRole('group', { name: 'sa-ghost Not announced' });
    await expect(group).toHaveAttribute('data-status', 'unknown');
  },
};

export const AllBadges: StoryObj = {
  render: () => (
    <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap' }}>
      {(['running', 'success', 'suspended', 'error', 'unknown'] as const).map((s) => (
        <SubagentStatusBadge key={s} status={s} />
      ))}
    </div>
  ),
  play: async ({ canvasElement }) => {
    const badges = [...canvasElement.querySelectorAll('.agk-badge')];
    await expect(badges.map((b) => b.textContent)).toEqual(['Running', 'Done', 'Suspended', 'Failed', 'Not announced']);
  },
};
