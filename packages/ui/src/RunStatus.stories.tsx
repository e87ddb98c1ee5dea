import { AgentProvider, type AgentStore } from '@aguikit/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { Composer } from './Composer.js';
import { RunStatus } from './RunStatus.js';
import { failedStore, httpError, noAnswer, unfinishedEvent } from './storybook/failures.js';
import { liveStore, playedStore, runOf, say } from './storybook/scripted.js';
import { LONG_WAIT } from './storybook/waits.js';

type Loaded = { store: AgentStore };

const meta = {
  title: 'Components/RunStatus',
  component: RunStatus,
  render: (args, { loaded }) => (
    <AgentProvider store={(loaded as Loaded).store}>
      <RunStatus {...args} />
    </AgentProvider>
  ),
  argTypes: { className: { control: 'text' } },
} satisfies Meta<typeof RunStatus>;

export default meta;
type Story = StoryObj<typeof meta>;

const status = (el: HTMLElement) => el.querySelector('[data-status]')?.getAttribute('data-status');

export const Idle: Story = {
  loaders: [async () => ({ store: await playedStore([]) })],
  play: async ({ canvasElement }) => {
    await expect(status(canvasElement)).toBe('idle');
    await expect(within(canvasElement).getByRole('status')).toHaveTextContent('Idle');
  },
};

export const RunningAStep: Story = {
  loaders: [async () => ({ store: await liveStore(runOf([{ type: 'STEP_STARTED', stepName: 'Looking up order A-1001' }], null)) })],
  play: async ({ canvasElement }) => {
    await expect(status(canvasElement)).toBe('running');
    await expect(within(canvasElement).getByText('Step: Looking up order A-1001')).toBeInTheDocument();
  },
};

export const Done: Story = {
  loaders: [async () => ({ store: await playedStore([{ say: 'Hi', events: runOf(say('a', 'Hello')) }]) })],
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('status')).toHaveTextContent('Done');
  },
};

export const WaitingForYou: Story = {
  loaders: [
    async () => ({
      store: await playedStore([
        { say: 'Refund', events: runOf([], { outcome: { type: 'interrupt', interrupts: [{ id: 'i', reason: 'confirmation' }] } }) },
      ]),
    }),
  ],
  play: async ({ canvasElement }) => {
    await expect(status(canvasElement)).toBe('interrupted');
  },
};

export const Stopped: Story = {
  loaders: [
    async () => {
      const store = await liveStore(runOf(say('a', 'Half an ans'), null));
      store.getState().stop();
      return { store };
    },
  ],
  play: async ({ canvasElement }) => {
    await expect(status(canvasElement)).toBe('cancelled');
    await expect(within(canvasElement).getByRole('status')).toHaveTextContent('Stopped');
  },
};

export const Failed: Story = {
  loaders: [
    async () => ({
      store: await playedStore([
        {
          say: 'Refund',
          events: [...runOf([], null), { type: 'RUN_ERROR', message: 'The payment provider timed out.', code: 'UPSTREAM_TIMEOUT' }],
        },
      ]),
    }),
  ],
  play: async ({ canvasElement }) => {
    const region = within(canvasElement).getByRole('status');
    await expect(region).toHaveTextContent('Failed');
    await expect(region).toHaveTextContent('UPSTREAM_TIMEOUT');
    await expect(region).toHaveTextContent('The payment provider timed out.');
  },
};

const TRACE = [
  'Upstream request 7f3c2a91-4b6e-4d0f-9a85-2e1b7c6d9f40 to https://payments.example.com/v2/refunds/0b7c1a2e-5f1e-4c2a-9d3b-8e7f6a5b4c3d failed:',
  ...Array.from({ length: 12 }, (_, i) => `at RefundWorker.process (/srv/agent/workers/refund.ts:${100 + i}:17) 退款处理失败，请稍后重试`),
].join(' ');

/** The agent's RUN_ERROR is a whole stack trace: the notice shows a few lines of it, and Show all the rest. */
export const FailedWithALongError: Story = {
  loaders: [
    async () => ({
      store: await playedStore([
        { say: 'Refund', events: [...runOf([], null), { type: 'RUN_ERROR', message: TRACE, code: 'UPSTREAM_FAILED' }] },
      ]),
    }),
  ],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const detail = canvasElement.querySelector('.agk-runstatus__detail') as HTMLElement;
    await expect(canvas.getByRole('status')).toHaveTextContent(TRACE);
    await expect(detail.clientHeight).toBeLessThan(detail.scrollHeight);
    await userEvent.click(await canvas.findByRole('button', { name: 'Show all' }));
    await expect(canvas.queryByRole('button', { name: 'Show all' })).toBeNull();
    await expect(detail.scrollHeight).toBeLessThanOrEqual(detail.clientHeight + 1);
  },
};

export const ConnectionLost: Story = {
  loaders: [async () => ({ store: await playedStore([{ say: 'Refund', events: runOf(say('a', 'Half an ans'), null) }]) })],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(status(canvasElement)).toBe('unknown');
    await expect(canvas.getByRole('status')).toHaveTextContent('Connection lost');
    // The scripted source gave no event ids: nothing to resume from, so no Reconnect, and the status says what to do.
    await expect(canvas.queryByRole('button', { name: 'Reconnect' })).toBeNull();
    await expect(canvas.getByRole('status')).toHaveTextContent(
      /This agent cannot resume a stream where it stopped: send your message again/,
    );
    await expect(canvas.getByRole('status')).not.toHaveTextContent(/server/i);
  },
};

/** The agent's server forgot the blank line after its last event: the run may have finished, and the status says why it is not known. */
export const UnfinishedLastEvent: Story = {
  loaders: [
    async () => ({
      store: await failedStore('Refund order A-1001', [
        { events: runOf(say('a', 'The refund of order A-1001 is issued.'), null), fail: unfinishedEvent() },
      ]),
    }),
  ],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(status(canvasElement)).toBe('unknown');
    await expect(canvas.getByRole('status')).toHaveTextContent(
      /Connection lost.*ended inside an event \(its last event had no blank line after it\)/,
    );
  },
};

export const WithComposer: Story = {
  loaders: [async () => ({ store: await playedStore([], { pending: [runOf(say('a', 'Your order shipped yesterday.'))] }) })],
  render: (_args, { loaded }) => (
    <AgentProvider store={(loaded as Loaded).store}>
      <RunStatus />
      <Composer placeholder="Ask about an order" />
    </AgentProvider>
  ),
  play: async ({ canvasElement, loaded }) => {
    const canvas = within(canvasElement);
    await userEvent.type(canvas.getByLabelText('Message'), 'Where is my order?{Enter}');
    await expect(await canvas.findByText('Done', {}, LONG_WAIT)).toBeInTheDocument();
    const { thread } = (loaded as Loaded).store.getState();
    await expect(thread.messages.ids.map((id) => thread.messages.byId.get(id)?.content)).toEqual([
      'Where is my order?',
      'Your order shipped yesterday.',
    ]);
    await expect(canvas.getByLabelText('Message')).toHaveValue('');
  },
};

export const ComposerWhileInterrupted: Story = {
  loaders: WaitingForYou.loaders ?? [],
  render: (_args, { loaded }) => (
    <AgentProvider store={(loaded as Loaded).store}>
      <Composer />
    </AgentProvider>
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(canvas.getByLabelText('Message'), 'Something else');
    await expect(canvas.getByRole('button', { name: 'Send' })).toHaveAttribute('aria-disabled', 'true');
    await expect(canvas.getByText(/waiting for your answer/)).toBeInTheDocument();
  },
};

export const ComposerWhileRunning: Story = {
  loaders: RunningAStep.loaders ?? [],
  render: (_args, { loaded }) => (
    <AgentProvider store={(loaded as Loaded).store}>
      <RunStatus />
      <Composer />
    </AgentProvider>
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Stop' }));
    await expect(await canvas.findByText('Stopped', {}, LONG_WAIT)).toBeInTheDocument();
  },
};

const RUN = 'c5d1f0a2-6b7e-4f3a-9d2c-8e1b4a7f0c36';
const MESSAGE = 'e7a4b1c9-2d3f-4a8b-b6c5-1f0e9d8c7b6a';
const half = [
  { type: 'RUN_STARTED', threadId: 'story-thread', runId: RUN },
  { type: 'TEXT_MESSAGE_START', messageId: MESSAGE, role: 'assistant' },
  { type: 'TEXT_MESSAGE_CONTENT', messageId: MESSAGE, delta: 'The refund of 249.00 EUR for order A-1001 ' },
];

/** The agent's URL answered 404: what failed and what helps, once; no action that cannot help. */
export const NotFound: Story = {
  loaders: [async () => ({ store: await failedStore('Refund order A-1001', [{ fail: httpError(404, 'Cannot POST /agents/refnd') }]) })],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvasElement.querySelector('.agk-runstatus')).toHaveAttribute('data-state', 'failed');
    await expect(canvas.getByRole('status')).toHaveTextContent(
      /Failed.*The agent's URL was not found \(HTTP 404\)\..*Check the agent's URL\./,
    );
    await expect(canvas.queryByRole('button')).toBeNull();
  },
};

/** No answer at all: Retry, beside the live region, sends the request again. */
export const Unreachable: Story = {
  loaders: [
    async () => ({ store: await failedStore('Refund order A-1001', [{ fail: noAnswer() }, { events: runOf(say('a', 'Done.')) }]) }),
  ],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const retry = canvas.getByRole('button', { name: 'Retry' });
    await expect(canvas.getByRole('status')).not.toContainElement(retry);
    await userEvent.click(retry);
    await expect(await canvas.findByText('Done', {}, LONG_WAIT)).toBeInTheDocument();
  },
};

/** A reconnect that did not work says why, and Reconnect stays to try again (focus kept on it). */
export const ReconnectFailed: Story = {
  loaders: [async () => ({ store: await failedStore('Refund order A-1001', [{ events: half, ids: true }, { fail: httpError(503) }]) })],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const reconnect = canvas.getByRole('button', { name: 'Reconnect' });
    reconnect.focus();
    await userEvent.keyboard('{Enter}');
    await expect(
      await canvas.findByText('Could not reconnect: the agent could not take the request (HTTP 503). Try again.', {}, LONG_WAIT),
    ).toBeInTheDocument();
    await expect(canvas.getByRole('button', { name: 'Reconnect' })).toHaveFocus();
  },
};

/** The same, in Simplified Chinese. */
export const ReconnectFailedChinese: Story = {
  globals: { locale: 'zh-CN' },
  loaders: ReconnectFailed.loaders ?? [],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: '重新连接' }));
    await expect(
      await canvas.findByText(/^无法重新连接：智能体暂时无法处理请求（HTTP 503）。请重试。$/, {}, LONG_WAIT),
    ).toBeInTheDocument();
  },
};
