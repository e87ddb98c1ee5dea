/**
 * What a component holds of one thread stays with it when AgentProvider
 * switches from store A to store B (another thread, whose deterministic agent
 * uses the same ids, such as `int-1`): answers kept, what was said, a
 * refusal, a form typed into, a countdown's milestones.
 */
import type { AgentSource } from '@aguikit/core';
import { AgentProvider, type AgentStore, createAgentStore } from '@aguikit/react';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type * as React from 'react';
import { describe, expect, it } from 'vitest';
import { Composer } from '../src/Composer.js';
import { EventTimelinePanel } from '../src/EventTimeline.js';
import { InterruptDialog } from '../src/InterruptDialog.js';
import { preloadInterruptForm } from '../src/lazyChunks.js';
import { StateInspectorPanel } from '../src/StateInspector.js';
import { playedStore, runOf, say } from '../src/storybook/scripted.js';

const settle = () =>
  act(async () => {
    for (let i = 0; i < 5; i++) await new Promise<void>((r) => setTimeout(r, 0));
  });

const Shown = ({ store, children }: { store: AgentStore; children: React.ReactNode }) => (
  <AgentProvider store={store}>{children}</AgentProvider>
);

/** A thread whose run ended waiting on two confirmations, `int-1` and `int-2` (collect mode). */
async function twoQuestions(threadId: string, first: string, second: string) {
  const resumes: unknown[] = [];
  const source: AgentSource = {
    async *run(input) {
      if (input.resume) {
        resumes.push(input.resume);
        yield { type: 'RUN_STARTED', threadId, runId: `${threadId}-r2` };
        yield { type: 'RUN_FINISHED', threadId, runId: `${threadId}-r2` };
        return;
      }
      yield { type: 'RUN_STARTED', threadId, runId: `${threadId}-r1` };
      yield {
        type: 'RUN_FINISHED',
        threadId,
        runId: `${threadId}-r1`,
        outcome: {
          type: 'interrupt',
          interrupts: [
            { id: 'int-1', reason: 'confirmation', message: first },
            { id: 'int-2', reason: 'confirmation', message: second },
          ],
        },
      };
    },
  };
  const store = createAgentStore({
    source,
    threadId,
    scheduler: (flush) => {
      const h = setTimeout(flush, 0);
      return () => clearTimeout(h);
    },
  });
  await store.getState().run('go');
  return { store, resumes };
}

const cardOf = (text: string) => screen.getAllByRole('article').find((a) => a.textContent?.includes(text)) as HTMLElement;

/** Two threads of state snapshots, 6 events in A and 2 in B, for the devtools. */
const twoLogs = async (): Promise<[AgentStore, AgentStore]> => {
  const snaps = (n: number) => runOf(Array.from({ length: n }, (_, i) => ({ type: 'STATE_SNAPSHOT', snapshot: { step: i } })));
  return [
    await playedStore([{ events: snaps(6) }], { threadId: 'thread-a' }),
    await playedStore([{ events: snaps(2) }], { threadId: 'thread-b' }),
  ];
};

describe('switching AgentProvider from thread A to thread B', () => {
  it('InterruptDialog (collect mode): an answer saved in A is neither shown, sent nor said in B', async () => {
    const a = await twoQuestions('thread-a', 'Refund order A-1001?', 'Email customer A?');
    const b = await twoQuestions('thread-b', 'Cancel order B-2002?', 'Email customer B?');
    const view = render(
      <Shown store={a.store}>
        <InterruptDialog />
      </Shown>,
    );
    await settle();
    fireEvent.click(within(cardOf('Refund order A-1001?')).getByRole('button', { name: 'Yes' }));
    await settle();
    expect(cardOf('Refund order A-1001?')).toHaveAttribute('data-state', 'answered');
    const announcer = () => document.querySelector('[data-agk-interrupt-announcer]');
    expect(announcer()).toHaveTextContent('Saved: Yes. 1 of 2 answered.');

    view.rerender(
      <Shown store={b.store}>
        <InterruptDialog />
      </Shown>,
    );
    await settle();
    // Nobody answered B's first question (Send answers would have sent A's Yes under its id), and nothing of A is said.
    expect(cardOf('Cancel order B-2002?')).toHaveAttribute('data-state', 'open');
    expect(screen.getByText(/answered\. All answers are sent together\./)).toHaveTextContent('0 of 2 answered');
    expect(announcer()?.textContent ?? '').toBe('');
    view.unmount();
    a.store.destroy();
    b.store.destroy();
  });

  it("EventTimeline: A's time-travel announcement is not left in the status region shown with B", async () => {
    const user = userEvent.setup();
    const [a, b] = await twoLogs();
    const view = render(
      <Shown store={a}>
        <EventTimelinePanel />
      </Shown>,
    );
    const option = screen.getAllByRole('option')[4] as HTMLElement;
    await user.click(option);
    const status = within(screen.getByRole('region', { name: 'Event timeline' })).getByRole('status');
    await waitFor(() => expect(status).toHaveTextContent(/^Showing the thread after event #4/));
    view.rerender(
      <Shown store={b}>
        <EventTimelinePanel />
      </Shown>,
    );
    await settle();
    expect(screen.queryByRole('region', { name: /^After event/ })).toBeNull();
    expect(within(screen.getByRole('region', { name: 'Event timeline' })).getByRole('status').textContent).toBe('');
    view.unmount();
    a.destroy();
    b.destroy();
  });

  it("StateInspector: A's time-travel announcement is not left in the status region shown with B", async () => {
    const user = userEvent.setup();
    const [a, b] = await twoLogs();
    const view = render(
      <Shown store={a}>
        <StateInspectorPanel />
      </Shown>,
    );
    await user.click(screen.getAllByRole('option')[3] as HTMLElement);
    const region = () => screen.getByRole('region', { name: 'Shared state' });
    await waitFor(() => expect(region()).toHaveAttribute('data-state', 'past'));
    await waitFor(() => expect(within(region()).getByRole('status')).toHaveTextContent(/^Showing the state after event #/));
    view.rerender(
      <Shown store={b}>
        <StateInspectorPanel />
      </Shown>,
    );
    await settle();
    expect(region()).toHaveAttribute('data-state', 'live');
    expect(within(region()).getByRole('status').textContent).toBe('');
    view.unmount();
    a.destroy();
    b.destroy();
  });

  it('Composer: the refusal of a send in closed thread A is not shown under the composer of thread B', async () => {
    const a = await playedStore([{ say: 'hi', events: runOf(say('msg-1', 'Hello A')) }], { threadId: 'thread-a' });
    const b = await playedStore([{ say: 'hi', events: runOf(say('msg-1', 'Hello B')) }], { threadId: 'thread-b' });
    a.destroy();
    const view = render(
      <Shown store={a}>
        <Composer />
      </Shown>,
    );
    const box = screen.getByRole('textbox');
    fireEvent.change(box, { target: { value: 'Refund A-1001' } });
    await act(async () => {
      fireEvent.submit(box.closest('form') as HTMLFormElement);
    });
    await settle();
    const note = () => document.querySelector('.agk-composer__note');
    expect(note()).toHaveTextContent('Not sent: this chat is closed.');
    view.rerender(
      <Shown store={b}>
        <Composer />
      </Shown>,
    );
    await settle();
    // B is open and idle: nothing stands in the way of sending there.
    expect(note()?.textContent ?? '').toBe('');
    view.unmount();
    b.destroy();
  });
});

/** A thread whose run ended waiting on one interrupt `int-1` (the id every thread's agent gives it). */
async function oneInterrupt(threadId: string, interrupt: Record<string, unknown>, now?: () => number) {
  const source: AgentSource = {
    async *run(input) {
      yield { type: 'RUN_STARTED', threadId, runId: `${threadId}-r` };
      if (input.resume) {
        yield { type: 'RUN_FINISHED', threadId, runId: `${threadId}-r` };
        return;
      }
      yield {
        type: 'RUN_FINISHED',
        threadId,
        runId: `${threadId}-r`,
        outcome: { type: 'interrupt', interrupts: [{ id: 'int-1', ...interrupt }] },
      };
    },
  };
  const store = createAgentStore({
    source,
    threadId,
    ...(now ? { now } : {}),
    scheduler: (flush) => {
      const h = setTimeout(flush, 0);
      return () => clearTimeout(h);
    },
  });
  await store.getState().run('go');
  return store;
}

describe('switching AgentProvider from thread A to thread B (interrupt cards under one id)', () => {
  it("Countdown: B's interrupt, already under a minute when shown, is not announced as if its milestone were just reached", async () => {
    const at = Date.parse('2026-11-30T12:00:00Z');
    const now = () => at;
    const a = await oneInterrupt(
      'thread-a',
      { reason: 'confirmation', message: 'Refund A-1001?', expiresAt: new Date(at + 5 * 60_000).toISOString() },
      now,
    );
    const b = await oneInterrupt(
      'thread-b',
      { reason: 'confirmation', message: 'Refund B-2002?', expiresAt: new Date(at + 50_000).toISOString() },
      now,
    );
    // The control: B shown on its own says nothing of a milestone passed before it opened.
    const alone = render(
      <Shown store={b}>
        <InterruptDialog />
      </Shown>,
    );
    await settle();
    const said = () => document.querySelector('.agk-interrupt__countdown + [aria-live]')?.textContent ?? null;
    expect(said()).toBe('');
    alone.unmount();

    const view = render(
      <Shown store={a}>
        <InterruptDialog />
      </Shown>,
    );
    await settle();
    expect(said()).toBe('');
    view.rerender(
      <Shown store={b}>
        <InterruptDialog />
      </Shown>,
    );
    await settle();
    expect(screen.getByRole('article')).toHaveAccessibleDescription('Refund B-2002?');
    expect(said()).toBe('');
    view.unmount();
    a.destroy();
    b.destroy();
  });

  it("InterruptDialog: what was typed in A's form is not in B's form (same interrupt id, same schema)", async () => {
    await preloadInterruptForm();
    const schema = () => ({ type: 'object', properties: { note: { type: 'string', title: 'Note' } } });
    const a = await oneInterrupt('thread-a', { reason: 'input_required', message: 'Note for A-1001?', responseSchema: schema() });
    const b = await oneInterrupt('thread-b', { reason: 'input_required', message: 'Note for B-2002?', responseSchema: schema() });
    const view = render(
      <Shown store={a}>
        <InterruptDialog />
      </Shown>,
    );
    await waitFor(() => expect(document.querySelector('.agk-interrupt__form-placeholder')).toBeNull(), { timeout: 10_000 });
    await settle();
    fireEvent.change(screen.getByLabelText('Note'), { target: { value: 'refund to the card ending 4242' } });
    expect(screen.getByLabelText('Note')).toHaveValue('refund to the card ending 4242');
    view.rerender(
      <Shown store={b}>
        <InterruptDialog />
      </Shown>,
    );
    await settle();
    expect(screen.getByRole('article')).toHaveAccessibleDescription('Note for B-2002?');
    expect(screen.getByLabelText('Note')).toHaveValue('');
    view.unmount();
    a.destroy();
    b.destroy();
  });
});
