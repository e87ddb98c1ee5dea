/**
 * A thread reset (New thread) while the components stay mounted: nothing of
 * the last thread is kept or said in the new one. The agent is
 * deterministic: the new thread uses the ids the last one did.
 */
import type { AgentSource } from '@aguikit/core';
import { AgentProvider, type AgentStore, createAgentStore } from '@aguikit/react';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type * as React from 'react';
import { describe, expect, it } from 'vitest';
import { EventTimelinePanel } from '../src/EventTimeline.js';
import { InterruptDialog } from '../src/InterruptDialog.js';
import { RunStatus } from '../src/RunStatus.js';
import { StateInspectorPanel } from '../src/StateInspector.js';
import { playedStore, runOf } from '../src/storybook/scripted.js';
import { cutOffRun } from './support/cutOffRun.js';

const settle = () =>
  act(async () => {
    for (let i = 0; i < 5; i++) await new Promise<void>((r) => setTimeout(r, 0));
  });

const Shown = ({ store, children }: { store: AgentStore; children: React.ReactNode }) => (
  <AgentProvider store={store}>{children}</AgentProvider>
);

/** Every new run (not a resume) ends waiting on `questions` (ids int-1, int-2, ...): the same in each thread. */
function asking(questions: string[]) {
  const resumes: unknown[] = [];
  let n = 0;
  const source: AgentSource = {
    async *run(input) {
      const runId = `run-${++n}`;
      yield { type: 'RUN_STARTED', threadId: input.threadId, runId };
      if (input.resume) {
        resumes.push(input.resume);
        yield { type: 'RUN_FINISHED', threadId: input.threadId, runId };
        return;
      }
      yield {
        type: 'RUN_FINISHED',
        threadId: input.threadId,
        runId,
        outcome: {
          type: 'interrupt',
          interrupts: questions.map((message, i) => ({ id: `int-${i + 1}`, reason: 'confirmation', message })),
        },
      };
    },
  };
  const store = createAgentStore({
    source,
    scheduler: (flush) => {
      const h = setTimeout(flush, 0);
      return () => clearTimeout(h);
    },
  });
  return { store, resumes };
}

describe('a thread reset (New thread) under mounted components', () => {
  it('InterruptDialog (collect mode): an answer saved in the old thread is not an answer in the new one', async () => {
    const { store, resumes } = asking(['Refund the order?', 'Email the customer?']);
    await store.getState().run('first');
    render(
      <Shown store={store}>
        <InterruptDialog />
      </Shown>,
    );
    await settle();
    const card = (text: string) => screen.getAllByRole('article').find((a) => a.textContent?.includes(text)) as HTMLElement;
    fireEvent.click(within(card('Refund the order?')).getByRole('button', { name: 'Yes' }));
    await settle();
    expect(card('Refund the order?')).toHaveAttribute('data-state', 'answered');

    await act(async () => store.getState().reset());
    await settle();
    expect(screen.queryByRole('dialog')).toBeNull();
    await act(async () => {
      await store.getState().run('second');
    });
    await settle();
    // The new thread asks again; nobody has answered it yet.
    expect(card('Refund the order?')).toHaveAttribute('data-state', 'open');
    expect(screen.getByText(/All answers are sent together\./)).toHaveTextContent('0 of 2 answered');
    expect(resumes).toHaveLength(0);
  });

  it('InterruptDialog: an interrupt the new thread raises under an id the old thread used takes focus, as a new one does', async () => {
    const { store } = asking(['Refund the order?']);
    await store.getState().run('first');
    render(
      <Shown store={store}>
        <button type="button">Elsewhere</button>
        <InterruptDialog />
      </Shown>,
    );
    await settle();
    // The old thread's interrupt took focus when it opened.
    expect(document.activeElement).toBe(screen.getByRole('article'));
    screen.getByRole('button', { name: 'Elsewhere' }).focus();

    await act(async () => store.getState().reset());
    await settle();
    await act(async () => {
      await store.getState().run('second');
    });
    await settle();
    expect(screen.getByRole('article')).toHaveAccessibleDescription('Refund the order?');
    expect(document.activeElement).toBe(screen.getByRole('article'));
  });

  it("EventTimeline: the old thread's time-travel announcement is cleared with it", async () => {
    const user = userEvent.setup();
    const snaps = runOf(Array.from({ length: 6 }, (_, i) => ({ type: 'STATE_SNAPSHOT', snapshot: { step: i } })));
    const store = await playedStore([{ events: snaps }], { threadId: 'thread-x' });
    render(
      <Shown store={store}>
        <EventTimelinePanel />
      </Shown>,
    );
    await user.click(screen.getAllByRole('option')[4] as HTMLElement);
    const status = within(screen.getByRole('region', { name: 'Event timeline' })).getByRole('status');
    await waitFor(() => expect(status).toHaveTextContent(/^Showing the thread after event #4/));
    await act(async () => store.getState().reset());
    await settle();
    expect(screen.queryAllByRole('option')).toHaveLength(0);
    expect(status.textContent).toBe('');
  });

  it('StateInspector: a reset is not announced as "Back to live" (the reader never went back)', async () => {
    const user = userEvent.setup();
    const snaps = runOf(Array.from({ length: 6 }, (_, i) => ({ type: 'STATE_SNAPSHOT', snapshot: { step: i } })));
    const store = await playedStore([{ events: snaps }], { threadId: 'thread-x' });
    render(
      <Shown store={store}>
        <StateInspectorPanel />
      </Shown>,
    );
    await user.click(screen.getAllByRole('option')[3] as HTMLElement);
    const region = screen.getByRole('region', { name: 'Shared state' });
    await waitFor(() => expect(region).toHaveAttribute('data-state', 'past'));
    await act(async () => store.getState().reset());
    await settle();
    expect(region).toHaveAttribute('data-state', 'live');
    expect(within(region).getByRole('status').textContent).toBe('');
  });
});

describe('RunStatus across a reset', () => {
  it('a Reconnect that succeeded in the old thread is not reported in the new one', async () => {
    const source = cutOffRun('tA', 'finished');
    const store = createAgentStore({
      source,
      threadId: 'tA',
      scheduler: (flush) => {
        const h = setTimeout(flush, 0);
        return () => clearTimeout(h);
      },
    });
    await store.getState().run('a');
    const view = render(
      <Shown store={store}>
        <RunStatus />
      </Shown>,
    );
    await settle();
    const root = () => view.container.querySelector('.agk-runstatus') as HTMLElement;
    expect(root()).toHaveAttribute('data-state', 'disconnected');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Reconnect' }));
    });
    await settle();
    expect(root()).toHaveAttribute('data-state', 'done');
    expect(root()).toHaveTextContent('Reconnected: the run went on from where it stopped.');

    await act(async () => store.getState().reset());
    await settle();
    expect(root()).toHaveAttribute('data-state', 'idle');
    // Nothing was reconnected in the new thread: it has not run at all.
    expect(root()).not.toHaveTextContent('Reconnected');
    view.unmount();
    store.destroy();
  });
});
