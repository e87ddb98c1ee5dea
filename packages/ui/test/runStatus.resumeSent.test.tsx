/**
 * Once the person has answered and the answers are on their way, nobody is
 * waiting for the person any more: RunStatus must not keep saying "Waiting for
 * you" while the resume's request is in flight and before the agent's run
 * starts (a slow agent, a long network path).
 */
import type { AgentSource } from '@aguikit/core';
import { AgentProvider, createAgentStore } from '@aguikit/react';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { en } from '../src/locale.js';
import { RunStatus } from '../src/RunStatus.js';
import { runOf, STORY_THREAD, scriptedSource } from '../src/storybook/scripted.js';

afterEach(cleanup);

/** A thread asking one question, whose agent takes the resume and never sends a first event. */
async function answeredStore() {
  const inner = scriptedSource([
    runOf([], { outcome: { type: 'interrupt', interrupts: [{ id: 'int-refund', reason: 'confirmation', message: 'Refund $42?' }] } }),
  ]);
  const source: AgentSource = {
    run(input, options) {
      if (!input.resume) return inner.run(input, options);
      return (async function* () {
        await new Promise(() => undefined);
        yield* [];
      })();
    },
  };
  const store = createAgentStore({ threadId: STORY_THREAD, source, now: () => Date.now() });
  await store.getState().run('Refund order A-1001');
  return store;
}

describe('RunStatus while the answers are on their way', () => {
  it('says the run goes on, not that it waits for the person', async () => {
    const store = await answeredStore();
    render(
      <AgentProvider store={store}>
        <RunStatus />
      </AgentProvider>,
    );
    const status = await screen.findByRole('status');
    expect(status).toHaveTextContent(en.messages.run.status.interrupted);
    void store.getState().resume([{ interruptId: 'int-refund', status: 'resolved', payload: { approved: true } }]);
    await waitFor(() => expect(store.getState().inFlight).toBe('resume'));
    await waitFor(() => expect(status).toHaveTextContent(en.messages.run.status.running));
    expect(status).not.toHaveTextContent(en.messages.run.status.interrupted);
    expect(status.closest('[data-state]')).toHaveAttribute('data-state', 'running');
  });

  it('a recording shown right after the answers were sent does not say it waits for the person', async () => {
    const live = await answeredStore();
    void live.getState().resume([{ interruptId: 'int-refund', status: 'resolved', payload: { approved: true } }]);
    await waitFor(() => expect(live.getState().inFlight).toBe('resume'));
    const silent: AgentSource = { run: () => (async function* () {})() };
    const store = createAgentStore({ source: silent, log: live.session.entries, asRecorded: true, now: () => Date.now() });
    expect(store.getState().thread.interrupts).toHaveLength(0);
    render(
      <AgentProvider store={store}>
        <RunStatus />
      </AgentProvider>,
    );
    const status = await screen.findByRole('status');
    await waitFor(() => expect(status).toHaveTextContent(en.messages.run.status.running));
    expect(status).not.toHaveTextContent(en.messages.run.status.interrupted);
  });
});
