import { AgentProvider, type AgentStore } from '@aguikit/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { Composer } from './Composer.js';
import { RunStatus } from './RunStatus.js';
import { liveStore, playedStore, runOf, say } from './storybook/scripted.js';
import { LONG_WAIT } from './storybook/waits.js';

type Loaded = { store: AgentStore };

const meta = {
  title: 'Components/Composer',
  component: Composer,
  render: (args, { loaded }) => (
    <AgentProvider store={(loaded as Loaded).store}>
      <RunStatus />
      <Composer {...args} />
    </AgentProvider>
  ),
  argTypes: {
    placeholder: { control: 'text' },
    label: { control: 'text' },
    sendOn: { control: 'inline-radio', options: ['enter', 'mod-enter'] },
  },
} satisfies Meta<typeof Composer>;

export default meta;
type Story = StoryObj<typeof meta>;

const userMessages = (store: AgentStore) => {
  const { thread } = store.getState();
  return thread.messages.ids.map((id) => thread.messages.byId.get(id)).flatMap((m) => (m?.role === 'user' ? [m.content] : []));
};

/** The sent text clears when the run starts; a follow-up drafted while it streams is kept, and Send says why it waits. */
export const DraftWhileRunning: Story = {
  loaders: [
    async () => ({
      store: await playedStore([], { pending: [runOf(say('a', 'Your order shipped yesterday and arrives on Friday.', 6))], delayMs: 120 }),
    }),
  ],
  play: async ({ canvasElement, loaded }) => {
    const { store } = loaded as Loaded;
    const canvas = within(canvasElement);
    const input = canvas.getByRole('textbox', { name: 'Message' });
    await userEvent.type(input, 'Where is my order?{Enter}');
    await expect(input).toHaveValue('');
    const send = canvas.getByRole('button', { name: 'Send' });
    await expect(send).toHaveAttribute('aria-disabled', 'true');
    await expect(send).toHaveAccessibleDescription(/in progress/);
    await expect(canvas.getByRole('button', { name: 'Stop' })).toBeEnabled();
    await userEvent.type(input, 'And my refund?{Enter}');
    await expect(input).toHaveValue('And my refund?');
    await expect(await canvas.findByText('Done', {}, LONG_WAIT)).toBeInTheDocument();
    await expect(input).toHaveValue('And my refund?');
    await expect(canvas.queryByRole('button', { name: 'Stop' })).toBeNull();
    await expect(userMessages(store)).toEqual(['Where is my order?']);
  },
};

/** `sendOn="mod-enter"`: Enter makes a new line, Ctrl/Cmd+Enter sends. */
export const SendOnModEnter: Story = {
  args: { sendOn: 'mod-enter' },
  loaders: [async () => ({ store: await playedStore([], { pending: [runOf(say('a', 'Noted.'))] }) })],
  play: async ({ canvasElement, loaded }) => {
    const { store } = loaded as Loaded;
    const canvas = within(canvasElement);
    const input = canvas.getByRole('textbox', { name: 'Message' });
    await userEvent.type(input, 'First line{Enter}Second line');
    await expect(input).toHaveValue('First line\nSecond line');
    await userEvent.keyboard('{Control>}{Enter}{/Control}');
    await expect(await canvas.findByText('Done', {}, LONG_WAIT)).toBeInTheDocument();
    await expect(userMessages(store)).toEqual(['First line\nSecond line']);
    await expect(input).toHaveValue('');
  },
};

/** Stop is its own button; when it ends the run, focus goes back to the text box. */
export const StopReturnsFocus: Story = {
  loaders: [async () => ({ store: await liveStore(runOf([{ type: 'STEP_STARTED', stepName: 'Looking up order A-1001' }], null)) })],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const input = canvas.getByRole('textbox', { name: 'Message' });
    const stop = canvas.getByRole('button', { name: 'Stop' });
    stop.focus();
    await userEvent.keyboard('{Enter}');
    await expect(await canvas.findByText('Stopped', {}, LONG_WAIT)).toBeInTheDocument();
    await waitFor(() => expect(input).toHaveFocus(), LONG_WAIT);
    await expect(canvas.getByRole('button', { name: 'Send' })).toBeInTheDocument();
  },
};

/** In Simplified Chinese: the label, the placeholder and the buttons come from the locale. */
export const Chinese: Story = {
  globals: { locale: 'zh-CN' },
  loaders: [async () => ({ store: await playedStore([], { pending: [runOf(say('a', '您的订单已于昨天发货，预计周五送达。'))] }) })],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const input = canvas.getByRole('textbox', { name: '消息' });
    await expect(input).toHaveAttribute('placeholder', '给智能体发消息');
    await expect(canvas.getByRole('button', { name: '发送' })).toHaveAttribute('aria-disabled', 'true');
    await userEvent.type(input, '我的订单到哪了？{Enter}');
    await expect(await canvas.findByText('已完成', {}, LONG_WAIT)).toBeInTheDocument();
    await expect(input).toHaveValue('');
  },
};

/** In the dark theme: the text box and the buttons themed, with the focus ring on the text box. */
export const Dark: Story = {
  globals: { theme: 'dark' },
  loaders: [async () => ({ store: await playedStore([]) })],
  play: async ({ canvasElement }) => {
    const input = within(canvasElement).getByRole('textbox', { name: 'Message' });
    input.focus();
    await expect(getComputedStyle(input).outlineStyle).toBe('solid');
    await expect(canvasElement.querySelector('form.agk-composer')).toHaveAttribute('data-state', 'ready');
  },
};
