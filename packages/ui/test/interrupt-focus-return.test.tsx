/**
 * An `InterruptDialog` on a page of its own (no chat, no composer, no
 * transcript): once it is answered, or goes unanswered, focus goes back to
 * where it was before the interrupt took it, never to the page body, where
 * a keyboard user would start again from the top of the page.
 */
import type { AgentSource } from '@aguikit/core';
import { AgentProvider, createAgentStore } from '@aguikit/react';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { InterruptDialog } from '../src/InterruptDialog.js';
import { runOf, STORY_THREAD, say, scriptedSource } from '../src/storybook/scripted.js';

const approval = {
  id: 'int-refund',
  reason: 'tool_call',
  message: 'Refund $42 to the customer?',
  responseSchema: {
    type: 'object',
    required: ['approved'],
    properties: { approved: { type: 'boolean' }, comment: { type: 'string', title: 'Comment' } },
  },
};

const script = () =>
  scriptedSource([runOf([], { outcome: { type: 'interrupt', interrupts: [approval] } }), runOf(say('done', 'Refunded.'))]);

/** An agent that raises the approval, and whose resume never reaches it: the network is down. */
function offline(): AgentSource {
  const inner = script();
  return {
    run(input, options) {
      if (!input.resume) return inner.run(input, options);
      return (async function* () {
        yield* [];
        throw new TypeError('Failed to fetch');
      })();
    },
  };
}

async function page(source: AgentSource = script()) {
  const store = createAgentStore({ threadId: STORY_THREAD, source, now: () => Date.now() });
  render(
    <AgentProvider store={store}>
      <button type="button">Orders</button>
      <InterruptDialog />
    </AgentProvider>,
  );
  screen.getByRole('button', { name: 'Orders' }).focus();
  await act(() => store.getState().run('Refund order A-1001'));
  await waitFor(() => expect(screen.getByRole('button', { name: 'Approve' })).toBeEnabled(), { timeout: 10_000 });
  // The form takes focus once it is drawn, which may be a moment after its actions are enabled on a loaded machine.
  await waitFor(() => expect(screen.getByRole('textbox', { name: 'Comment' })).toHaveFocus(), { timeout: 10_000 });
  return store;
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('an interrupt dialog on a page without a chat', () => {
  it('gives focus back to where it was once the answer is sent', async () => {
    const user = userEvent.setup();
    await page();
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), { timeout: 10_000 });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Orders' })).toHaveFocus(), { timeout: 10_000 });
  });

  it('gives focus back to where it was when the interrupt goes unanswered (the thread reset)', async () => {
    const store = await page();
    act(() => store.getState().reset());
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('button', { name: 'Orders' })).toHaveFocus();
  });

  it('gives focus back to the question when its answer never reached the agent (offline), and says nothing was sent', async () => {
    const user = userEvent.setup();
    const store = await page(offline());
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(store.getState().failure?.code).toBe('NETWORK'), { timeout: 10_000 });
    const card = await screen.findByRole('article', { name: 'Approval needed' });
    await waitFor(() => expect(within(card).getByRole('button', { name: 'Approve' })).toBeEnabled());
    await waitFor(() => expect(card.contains(document.activeElement)).toBe(true));
    expect(document.querySelector('[data-agk-interrupt-announcer]')).not.toHaveTextContent(/sent/i);
  });
});
