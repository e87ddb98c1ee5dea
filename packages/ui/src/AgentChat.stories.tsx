import { AgentProvider, type AgentStore } from '@aguikit/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { AgentChat } from './AgentChat.js';
import { preloadInterruptForm } from './lazyChunks.js';
import { AgentLocaleProvider } from './locale.js';
import { arabic } from './storybook/arabic.js';
import {
  agentErrorChat,
  connectionLostChat,
  cutOffChat,
  expiredChat,
  idleChat,
  interruptChat,
  longThreadChat,
  notFoundChat,
  reconnectingChat,
  streamingChat,
  toolRunningChat,
  twoInterruptsChat,
  unreachableChat,
} from './storybook/chat.js';
import { LONG_WAIT } from './storybook/waits.js';

type Loaded = { store: AgentStore };

const meta = {
  title: 'Chat/AgentChat',
  component: AgentChat,
  // The interrupt forms' code loads on demand: the stories show the chat once it is there.
  loaders: [async () => preloadInterruptForm().then(() => ({}))],
  render: (args, { loaded }) => (
    <AgentProvider store={(loaded as Loaded).store}>
      {/* The chat fills the height it is given: here, the canvas. */}
      <div style={{ height: 'calc(100vh - 32px)', minHeight: 420 }}>
        <AgentChat {...args} />
      </div>
    </AgentProvider>
  ),
  args: { placeholder: 'Ask about an order, a refund or a delivery', sendOn: 'enter' },
  argTypes: {
    placeholder: { control: 'text', description: "The composer's placeholder." },
    sendOn: { control: 'inline-radio', options: ['enter', 'mod-enter'], description: 'Which key sends a message.' },
    label: { control: 'text', description: 'The accessible name of the chat region.' },
    empty: { control: 'text', description: 'Shown while the thread has no messages.' },
    renderTool: { control: false },
    now: { control: false },
  },
} satisfies Meta<typeof AgentChat>;

export default meta;
type Story = StoryObj<typeof meta>;

const storeOf = (context: { loaded: unknown }) => (context.loaded as Loaded).store;
/** The run status as shown: its root (`data-state`) and its live region's words. */
const runStatus = (canvasElement: HTMLElement) => {
  const root = canvasElement.querySelector<HTMLElement>('.agk-runstatus');
  if (!root) throw new Error('no run status');
  return { root, region: within(root).getByRole('status') };
};

/** The newest message of the conversation. */
const reply = (canvasElement: HTMLElement) => [...canvasElement.querySelectorAll('.agk-messages .agk-message')].at(-1);

/** Nothing said yet: the empty conversation, the composer ready; a message sent is answered. */
export const Idle: Story = {
  loaders: [async () => ({ store: await idleChat() })],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const { root } = runStatus(canvasElement);
    await expect(root).toHaveAttribute('data-state', 'idle');
    await expect(canvas.getByText('No messages yet.')).toBeVisible();
    const input = canvas.getByRole('textbox', { name: 'Message' });
    await expect(canvas.getByRole('button', { name: 'Send' })).toHaveAttribute('aria-disabled', 'true');
    await userEvent.type(input, 'Refund order A-1001{Enter}');
    await expect(input).toHaveValue('');
    // The first request of the page waits for the engine's chunk, loaded on demand.
    await waitFor(() => expect(root).toHaveAttribute('data-state', 'done'), LONG_WAIT);
    await expect(reply(canvasElement)).toHaveTextContent(/the refund of 249\.00 EUR is on its way/);
  },
};

export const IdleChinese: Story = {
  globals: { locale: 'zh-CN' },
  loaders: [async () => ({ store: await idleChat('zh') })],
  args: { placeholder: '询问订单、退款或配送' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('region', { name: '智能体对话' })).toBeInTheDocument();
    await expect(runStatus(canvasElement).region).toHaveTextContent('空闲');
    const input = canvas.getByRole('textbox', { name: '消息' });
    await expect(input).toHaveAttribute('placeholder', '询问订单、退款或配送');
    await userEvent.type(input, '退款 A-1001{Enter}');
    await waitFor(() => expect(runStatus(canvasElement).region).toHaveTextContent('已完成'), LONG_WAIT);
    await expect(reply(canvasElement)).toHaveTextContent(/退款正在处理中/);
  },
};

export const IdleDark: Story = {
  globals: { theme: 'dark' },
  loaders: Idle.loaders ?? [],
  play: async ({ canvasElement }) => {
    await expect(runStatus(canvasElement).root).toHaveAttribute('data-state', 'idle');
    await expect(getComputedStyle(document.documentElement).colorScheme).toBe('dark');
  },
};

/** The reply streams: the message is marked streaming, Stop is offered beside Send, which waits. */
export const Streaming: Story = {
  loaders: [async () => ({ store: await streamingChat() })],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(runStatus(canvasElement).root).toHaveAttribute('data-state', 'running');
    await expect(canvasElement.querySelector('.agk-message[data-status="streaming"]')).toHaveTextContent(/I found order A-1001/);
    await expect(canvas.getByRole('button', { name: 'Stop' })).toBeEnabled();
    await expect(canvas.getByRole('button', { name: 'Send' })).toHaveAttribute('aria-disabled', 'true');
    await expect(canvasElement.querySelector('form.agk-composer')).toHaveAttribute('data-state', 'busy');
  },
};

/** A tool at work: its card says it is running, with the arguments so far. */
export const ToolRunning: Story = {
  loaders: [async () => ({ store: await toolRunningChat() })],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByText(/lookup_order/, {}, LONG_WAIT)).toBeVisible();
    await expect(canvas.getByText('Let me look up the order and its delivery first.')).toBeVisible();
    await expect(runStatus(canvasElement).root).toHaveAttribute('data-state', 'running');
    await expect(canvas.getByRole('button', { name: 'Stop' })).toBeVisible();
  },
};

/** The refund waits for a decision: Approve and Reject are on screen; the composer says why it waits. */
export const InterruptOpen: Story = {
  loaders: [async () => ({ store: await interruptChat() })],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(runStatus(canvasElement).region).toHaveTextContent('Waiting for you');
    const dialog = canvas.getByRole('dialog', { name: 'The agent is waiting for your answer' });
    await expect(within(dialog).getByText(/Refund 249\.00 EUR to the customer for order A-1001/)).toBeVisible();
    await expect(within(dialog).getByRole('button', { name: 'Approve' })).toBeVisible();
    await expect(within(dialog).getByRole('button', { name: 'Reject' })).toBeVisible();
    await expect(canvasElement.querySelector('form.agk-composer')).toHaveAttribute('data-state', 'waiting');
  },
};

export const InterruptOpenChinese: Story = {
  globals: { locale: 'zh-CN' },
  loaders: [async () => ({ store: await interruptChat('zh') })],
  play: async ({ canvasElement }) => {
    await expect(runStatus(canvasElement).region).toHaveTextContent('等待你的回答');
    await expect(within(canvasElement).getByText(/是否为订单 A-1001 向客户退款/)).toBeVisible();
    await expect(canvasElement.querySelector('.agk-interrupt__buttons button[data-variant="primary"]')).toBeVisible();
  },
};

export const InterruptOpenDark: Story = {
  globals: { theme: 'dark' },
  loaders: InterruptOpen.loaders ?? [],
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: 'Approve' })).toBeVisible();
    await expect(runStatus(canvasElement).root).toHaveAttribute('data-state', 'waiting');
  },
};

/**
 * A right-to-left page: the decision in Arabic, in the application's own locale (`defineLocale`). The person's bubble
 * sits at the left, rules and chevrons mirror, and nothing scrolls sideways.
 */
export const InterruptOpenRightToLeft: Story = {
  globals: { dir: 'rtl' },
  loaders: [async () => ({ store: await interruptChat('ar') })],
  render: (args, { loaded }) => (
    <AgentLocaleProvider locale={arabic}>
      <AgentProvider store={(loaded as Loaded).store}>
        <div lang="ar" style={{ height: 'calc(100vh - 32px)', minHeight: 420 }}>
          <AgentChat {...args} placeholder="اسأل عن طلب أو استرداد أو توصيل" />
        </div>
      </AgentProvider>
    </AgentLocaleProvider>
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const dialog = canvas.getByRole('dialog', { name: 'الوكيل ينتظر إجابتك' });
    await expect(within(dialog).getByRole('button', { name: 'موافقة' })).toBeVisible();
    await expect(runStatus(canvasElement).region).toHaveTextContent('بانتظارك');
    const list = canvasElement.querySelector('.agk-messages')?.getBoundingClientRect();
    const bubble = canvasElement.querySelector('.agk-message[data-role="user"]')?.getBoundingClientRect();
    if (!list || !bubble) throw new Error('no conversation');
    // At the end of the line: the left.
    await expect(bubble.left - list.left).toBeLessThan(list.right - bubble.right);
    const page = document.scrollingElement ?? document.documentElement;
    await expect(page.scrollWidth).toBeLessThanOrEqual(page.clientWidth);
  },
};

/** Two decisions at once, answered together. */
export const TwoInterrupts: Story = {
  loaders: [async () => ({ store: await twoInterruptsChat() })],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const dialog = canvas.getByRole('dialog', { name: 'The agent is waiting for 2 answers' });
    await expect(dialog.querySelectorAll('.agk-interrupt')).toHaveLength(2);
    await expect(within(dialog).getByText('How should the customer hear about the refund?')).toBeInTheDocument();
    // The conversation keeps its room beside two open decisions.
    const list = canvasElement.querySelector('.agk-chat > .agk-messages')?.getBoundingClientRect().height ?? 0;
    await expect(list).toBeGreaterThan(100);
  },
};

/** The approval ran out of time: it says so, and only cancelling is left. */
export const Expired: Story = {
  loaders: [async () => ({ store: await expiredChat() })],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await waitFor(() => expect(canvasElement.querySelector('.agk-interrupt[data-state="expired"]')).not.toBeNull(), LONG_WAIT);
    await expect(canvas.queryByRole('button', { name: 'Approve' })).toBeNull();
    await expect(canvas.queryByRole('button', { name: 'Reject' })).toBeNull();
    // Only the way out is left.
    await expect(canvasElement.querySelectorAll('.agk-interrupt__buttons button')).toHaveLength(1);
  },
};

/** The agent's URL answered 404: said once, with the hint to check the URL, and no action that cannot help. */
export const ErrorNotFound: Story = {
  loaders: [async () => ({ store: await notFoundChat() })],
  play: async ({ canvasElement }) => {
    const { root, region } = runStatus(canvasElement);
    await expect(root).toHaveAttribute('data-state', 'failed');
    await expect(region).toHaveTextContent("The agent's URL was not found (HTTP 404).");
    await expect(region).toHaveTextContent("Check the agent's URL.");
    await expect(within(root).queryByRole('button')).toBeNull();
    await expect(canvasElement.textContent?.split('was not found (HTTP 404)').length).toBe(2);
  },
};

export const ErrorNotFoundChinese: Story = {
  globals: { locale: 'zh-CN' },
  loaders: [async () => ({ store: await notFoundChat('zh') })],
  play: async ({ canvasElement }) => {
    const { region } = runStatus(canvasElement);
    await expect(region).toHaveTextContent('找不到智能体的 URL（HTTP 404）。');
    await expect(region).toHaveTextContent('请检查智能体的 URL。');
  },
};

export const ErrorNotFoundDark: Story = {
  globals: { theme: 'dark' },
  loaders: ErrorNotFound.loaders ?? [],
  play: async ({ canvasElement }) => {
    await expect(runStatus(canvasElement).root).toHaveAttribute('data-state', 'failed');
  },
};

/** The agent could not be reached: Retry, beside the status, sends the message again. */
export const ErrorUnreachable: Story = {
  loaders: [async () => ({ store: await unreachableChat() })],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const { root, region } = runStatus(canvasElement);
    await expect(region).toHaveTextContent(/could not be reached/);
    const retry = canvas.getByRole('button', { name: 'Retry' });
    await expect(region).not.toContainElement(retry);
    await userEvent.click(retry);
    await waitFor(() => expect(root).toHaveAttribute('data-state', 'done'), LONG_WAIT);
    await expect(reply(canvasElement)).toHaveTextContent(/is on its way/);
  },
};

/** The agent's own error: its code and message, once. */
export const ErrorFromTheAgent: Story = {
  loaders: [async () => ({ store: await agentErrorChat() })],
  play: async ({ canvasElement }) => {
    const { root, region } = runStatus(canvasElement);
    await expect(root).toHaveAttribute('data-state', 'failed');
    await expect(region).toHaveTextContent(/Failed\s*UPSTREAM_TIMEOUT The payment provider did not answer within 30 seconds\./);
  },
};

/** The stream dropped inside the run: Reconnect (beside the status) resumes it, and the status says how it went. */
export const ConnectionLost: Story = {
  loaders: [async () => ({ store: await connectionLostChat() })],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const { root, region } = runStatus(canvasElement);
    await expect(region).toHaveTextContent('Connection lost');
    await expect(root).toHaveAttribute('data-state', 'disconnected');
    const reconnect = canvas.getByRole('button', { name: 'Reconnect' });
    await expect(region).not.toContainElement(reconnect);
    await userEvent.click(reconnect);
    await waitFor(() => expect(region).toHaveTextContent('Reconnecting…'), LONG_WAIT);
    // The agent answers the reconnect 400 ms after it is asked, then the rest of the reply arrives and the run finishes.
    await waitFor(() => expect(region).toHaveTextContent(/Done.*Reconnected/), LONG_WAIT);
    await expect(canvas.getByText(/200 EUR limit I may refund on my own/)).toBeVisible();
  },
};

export const ConnectionLostChinese: Story = {
  globals: { locale: 'zh-CN' },
  loaders: [async () => ({ store: await connectionLostChat('zh') })],
  play: async ({ canvasElement }) => {
    await expect(runStatus(canvasElement).region).toHaveTextContent('连接已断开');
    await expect(within(canvasElement).getByRole('button', { name: '重新连接' })).toBeVisible();
  },
};

/** The transport tries again by itself after a drop: the status says so, and which attempt it is on. */
export const Reconnecting: Story = {
  loaders: [async () => ({ store: await reconnectingChat() })],
  play: async ({ canvasElement, loaded }) => {
    const { root, region } = runStatus(canvasElement);
    await expect(root).toHaveAttribute('data-state', 'reconnecting');
    await expect(region).toHaveTextContent('Reconnecting… (attempt 2 of 3)');
    await expect((loaded as Loaded).store.getState().connection).toBe('reconnecting');
  },
};

/** The person stopped the reply halfway: what arrived stays, and the run says it was stopped. */
export const CutOff: Story = {
  loaders: [async () => ({ store: await cutOffChat() })],
  play: async ({ canvasElement }) => {
    const { region } = runStatus(canvasElement);
    await expect(region).toHaveTextContent('Stopped');
    const reply = canvasElement.querySelector('.agk-message[data-role="assistant"]');
    await expect(reply).toHaveTextContent(/I found order A-1001/);
    await expect(reply).not.toHaveAttribute('data-status', 'streaming');
    await expect(within(canvasElement).getByRole('textbox', { name: 'Message' })).toBeEnabled();
  },
};

/** Hundreds of messages: the list renders what is in view, ends on the newest reply, and stays usable. */
export const LongThread: Story = {
  loaders: [async () => ({ store: await longThreadChat(400) })],
  play: async (context) => {
    const { canvasElement } = context;
    const canvas = within(canvasElement);
    // 400 messages: the list lays out the newest rows (and measures them) before the reply shows.
    await expect(await canvas.findByText(/Order A-1400 was delivered this morning/, {}, LONG_WAIT)).toBeVisible();
    await expect(storeOf(context).getState().thread.messages.ids.length).toBeGreaterThan(400);
    await expect(canvasElement.querySelectorAll('.agk-message').length).toBeLessThan(100);
  },
};
