import { AgentProvider, type AgentStore } from '@aguikit/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { Reasoning } from './Reasoning.js';
import { openRunStore, think } from './storybook/conversations.js';
import { playedStore, runOf } from './storybook/scripted.js';

type Loaded = { store: AgentStore };

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

export const Streaming: Story = {
  loaders: [async () => ({ store: await openRunStore(think('r1', THOUGHT, { streamed: true }), { delayMs: 60, live: true }) })],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const trigger = await canvas.findByRole('button', { name: 'Thinking…' });
    await expect(canvasElement.querySelector('.agk-reasoning')).toHaveAttribute('data-status', 'streaming');
    await waitFor(() => expect(trigger).toHaveAccessibleName('Thought for 30 words'), { timeout: 10000 });
    await expect(canvasElement.querySelector('.agk-reasoning')).toHaveAttribute('data-status', 'complete');
  },
};

export const Done: Story = {
  loaders: [doneLoader],
  play: async ({ canvasElement }) => {
    const trigger = within(canvasElement).getByRole('button', { name: 'Thought for 30 words' });
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
    await expect(within(canvasElement).getByRole('button', { name: 'Thought (encrypted, not shown)' })).toBeInTheDocument();
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
    await expect(canvas.getByRole('button', { name: 'Thought for 30 words' })).toHaveAttribute('aria-expanded', 'true');
    await userEvent.click(canvas.getByRole('button', { name: 'Thought for 30 words' }));
    await expect(canvas.getByRole('button', { name: 'Thought for 30 words' })).toHaveAttribute('aria-expanded', 'false');
  },
};
