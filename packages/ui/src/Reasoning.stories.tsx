import { AgentProvider, type AgentStore } from '@aguikit/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { Reasoning } from './Reasoning.js';
import { openRunStore, think } from './storybook/conversations.js';
import { playedStore, runOf } from './storybook/scripted.js';
import { LONG_WAIT, type PlayGate, playGate } from './storybook/waits.js';

type Loaded = { store: AgentStore };
/** A live story's store, and the gate its stream waits at until the play function has seen it streaming. */
type LoadedLive = Loaded & { gate: PlayGate };

const meta = {
  title: 'Components/Reasoning',
  component: Reasoning,
  args: { id: 'r1' },
  render: (args, { loaded }) => (
    <AgentProvider store={(loaded as Loaded).store}>
      <div style={{ maxWidth: 640 }}>
        <Reasoning {...args} />
      </div>
    </AgentProvider>
  ),
} satisfies Meta<typeof Reasoning>;

export default meta;
type Story = StoryObj<typeof meta>;

const THOUGHT =
  'The customer wants a refund for order A-1001. It was delivered 12 days ago, inside the 30-day window, and paid by card, so the refund goes back to the card.';

const doneLoader = async () => ({ store: await playedStore([{ say: 'Refund A-1001?', events: runOf(think('r1', THOUGHT)) }]) });

const STREAMED_THOUGHT = think('r1', THOUGHT, { streamed: true });

export const Streaming: Story = {
  loaders: [
    async ({ viewMode }) => {
      // Streamed over about two seconds from the loader on; it ends (REASONING_MESSAGE_END, REASONING_END) once the play
      // function has seen it under way, however long the story took to mount.
      const gate = playGate(viewMode);
      return {
        gate,
        store: await openRunStore(STREAMED_THOUGHT, {
          delayMs: 60,
          live: true,
          gate: { at: STREAMED_THOUGHT.length - 2, opened: gate.opened },
        }),
      };
    },
  ],
  play: async ({ canvasElement, loaded }) => {
    const canvas = within(canvasElement);
    const trigger = await canvas.findByRole('button', { name: 'Thinking…' }, LONG_WAIT);
    await expect(canvasElement.querySelector('.agk-reasoning')).toHaveAttribute('data-status', 'streaming');
    (loaded as LoadedLive).gate.open();
    // Once done it says how long it took.
    await waitFor(() => expect(trigger).toHaveAccessibleName(/^Thought for \d+ seconds?$/), LONG_WAIT);
    await expect(canvasElement.querySelector('.agk-reasoning')).toHaveAttribute('data-status', 'complete');
  },
};

export const Done: Story = {
  loaders: [doneLoader],
  play: async ({ canvasElement }) => {
    const trigger = within(canvasElement).getByRole('button', { name: 'Reasoning, 30 words' });
    await expect(trigger).toHaveAttribute('aria-expanded', 'false');
    await expect(canvasElement.querySelector('.agk-reasoning')).toHaveAttribute('data-state', 'closed');
    await expect(within(canvasElement).getByText(/inside the 30-day window/)).not.toBeVisible();
    await userEvent.click(trigger);
    await expect(canvasElement.querySelector('.agk-reasoning')).toHaveAttribute('data-state', 'open');
    await expect(within(canvasElement).getByText(/inside the 30-day window/)).toBeVisible();
  },
};

export const Open: Story = {
  args: { defaultOpen: true },
  loaders: [doneLoader],
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button')).toHaveAttribute('aria-expanded', 'true');
    await expect(within(canvasElement).getByText(/inside the 30-day window/)).toBeVisible();
  },
};

export const Encrypted: Story = {
  loaders: [
    async () => ({
      store: await playedStore([
        {
          say: 'Refund A-1001?',
          events: runOf([
            { type: 'REASONING_START', messageId: 'span' },
            { type: 'REASONING_MESSAGE_START', messageId: 'r1', role: 'reasoning' },
            { type: 'REASONING_MESSAGE_END', messageId: 'r1' },
            { type: 'REASONING_ENCRYPTED_VALUE', subtype: 'message', entityId: 'r1', encryptedValue: 'gAAAAABn3k…' },
            { type: 'REASONING_END', messageId: 'span' },
          ]),
        },
      ]),
    }),
  ],
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: 'Reasoning (encrypted, not shown)' })).toBeInTheDocument();
  },
};

function ControlledReasoning({ id }: { id: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="agk-button" onClick={() => setOpen(true)}>
        Show the reasoning
      </button>
      <Reasoning id={id} open={open} onOpenChange={setOpen} />
    </>
  );
}

export const Controlled: Story = {
  loaders: [doneLoader],
  render: (args, { loaded }) => (
    <AgentProvider store={(loaded as Loaded).store}>
      <ControlledReasoning id={args.id} />
    </AgentProvider>
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Show the reasoning' }));
    await expect(canvas.getByRole('button', { name: 'Reasoning, 30 words' })).toHaveAttribute('aria-expanded', 'true');
    await userEvent.click(canvas.getByRole('button', { name: 'Reasoning, 30 words' }));
    await expect(canvas.getByRole('button', { name: 'Reasoning, 30 words' })).toHaveAttribute('aria-expanded', 'false');
  },
};

const THOUGHT_ZH = '客户要求为订单 A-1001 退款。包裹十二天前送达，仍在三十天退货期内，且用银行卡付款，所以退款原路退回到银行卡。';

/** Reasoning in Simplified Chinese: words are counted the way a Chinese reader counts them (no spaces between words). */
export const DoneChinese: Story = {
  args: { id: '0f4c2a8e-6b1d-4e3f-9a7c-5d2b8e0f1a34' },
  globals: { locale: 'zh-CN' },
  loaders: [
    async () => ({
      store: await playedStore([
        { say: '可以给 A-1001 退款吗？', events: runOf(think('0f4c2a8e-6b1d-4e3f-9a7c-5d2b8e0f1a34', THOUGHT_ZH)) },
      ]),
    }),
  ],
  play: async ({ canvasElement }) => {
    const trigger = within(canvasElement).getByRole('button', { name: /^推理，\d+ 个词$/ });
    const words = Number(/(\d+)/.exec(trigger.textContent ?? '')?.[1]);
    // More than one "word" per sentence: the text is segmented, not split at (absent) spaces.
    await expect(words).toBeGreaterThan(10);
    await userEvent.click(trigger);
    await expect(within(canvasElement).getByText(/原路退回/)).toBeVisible();
  },
};
