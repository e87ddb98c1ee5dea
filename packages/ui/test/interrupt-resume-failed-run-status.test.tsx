/**
 * A resume the agent never took is said once: by a RunStatus that says this
 * dialog's run and can be heard (shown, on the page when the answer was sent,
 * still there once the failure is drawn), else by the dialog itself.
 */
import type { AgentSource } from '@aguikit/core';
import { AgentProvider, createAgentStore, useAgentSelector } from '@aguikit/react';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type * as React from 'react';
import { describe, expect, it } from 'vitest';
import { AgentChat } from '../src/AgentChat.js';
import { InterruptDialog } from '../src/InterruptDialog.js';
import { RunStatus } from '../src/RunStatus.js';
import { httpError } from '../src/storybook/failures.js';
import { runOf, STORY_THREAD, say, scriptedSource } from '../src/storybook/scripted.js';

const refund = {
  id: 'int-refund',
  reason: 'tool_call',
  message: 'Refund $42 to the customer?',
  responseSchema: {
    type: 'object',
    required: ['approved', 'comment'],
    properties: { approved: { type: 'boolean' }, comment: { type: 'string', title: 'Comment', minLength: 5 } },
  },
};
const COMMENT = 'The customer already got a replacement; refunding would pay twice.';
const NOT_SENT = 'Your answer did not reach the agent';

/** A store whose first resume fails (HTTP 500) once `release` is called. */
async function heldFailure() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const inner = scriptedSource([runOf([], { outcome: { type: 'interrupt', interrupts: [refund] } })]);
  const source: AgentSource = {
    run(input, options) {
      if (!input.resume) return inner.run(input, options);
      return (async function* () {
        yield* [];
        await released;
        throw httpError(500, 'Internal Server Error');
      })();
    },
  };
  const store = createAgentStore({ threadId: STORY_THREAD, source, now: () => Date.now() });
  await store.getState().run('Refund order A-1001');
  return { store, release };
}

/** Renders the dialog with `extra` beside it (in its provider) and `page` outside it, rejects the refund, and lets the resume fail. */
async function rejectAndFail(extra: React.ReactNode, page: React.ReactNode = null) {
  const user = userEvent.setup();
  const { store, release } = await heldFailure();
  const view = render(
    <>
      {page}
      <AgentProvider store={store}>
        {extra}
        <InterruptDialog />
      </AgentProvider>
    </>,
  );
  await waitFor(() => expect(view.container.querySelector('.agk-interrupt__form-placeholder')).toBeNull(), { timeout: 10_000 });
  await user.type(screen.getByRole('textbox', { name: 'Comment' }), COMMENT);
  await user.click(screen.getByRole('button', { name: 'Reject' }));
  await waitFor(() => expect(store.getState().inFlight).toBeTruthy());
  release();
  await waitFor(() => expect(store.getState().failure?.status).toBe(500));
  await waitFor(() => expect(screen.getByRole('button', { name: 'Reject' })).toBeEnabled());
  await act(async () => new Promise((resolve) => setTimeout(resolve, 50)));
  // This dialog's own region (another chat on the page has one of its own).
  return [...document.querySelectorAll('[data-agk-interrupt-announcer]')].find((region) => !region.closest('.agk-chat'));
}

/** A RunStatus shown only while a request is in flight. */
function StatusWhileSending() {
  const sending = useAgentSelector((s) => s.inFlight !== undefined);
  return sending ? <RunStatus /> : null;
}

/** A RunStatus shown only once a request failed. */
function StatusOnFailure() {
  const failed = useAgentSelector((s) => s.failure !== undefined);
  return failed ? <RunStatus /> : null;
}

/** Another thread's chat, with its own run status. */
async function otherChat() {
  const store = createAgentStore({ threadId: 'other-thread', source: scriptedSource([runOf(say('m1', 'Hello'))]) });
  await store.getState().run('Hi');
  return (
    <AgentProvider store={store}>
      <AgentChat />
    </AgentProvider>
  );
}

describe('a resume the agent never took, with a run status that cannot say it', () => {
  it('is said by the dialog where the run status on the page is hidden', async () => {
    const live = await rejectAndFail(<RunStatus hidden />);
    expect(live).toHaveTextContent(NOT_SENT);
  });

  it('is said by the dialog where the only run status on the page is another chat’s', async () => {
    const live = await rejectAndFail(null, await otherChat());
    expect(document.querySelector('.agk-chat .agk-runstatus')).not.toHaveTextContent(/could not|error/i);
    expect(live).toHaveTextContent(NOT_SENT);
  });

  it('is said by the dialog where the only run status on the page is another thread’s, neither in a chat', async () => {
    const other = createAgentStore({ threadId: 'other-thread', source: scriptedSource([runOf(say('m1', 'Hello'))]) });
    await other.getState().run('Hi');
    const live = await rejectAndFail(
      null,
      <AgentProvider store={other}>
        <RunStatus />
      </AgentProvider>,
    );
    expect(document.querySelector('.agk-runstatus')).toHaveAttribute('data-state', 'done');
    expect(live).toHaveTextContent(NOT_SENT);
  });

  it('is said by the dialog where the run status goes as the request ends', async () => {
    const live = await rejectAndFail(<StatusWhileSending />);
    expect(document.querySelector('.agk-runstatus')).toBeNull();
    expect(live).toHaveTextContent(NOT_SENT);
  });

  it('is said by the dialog where the run status comes only with the failure (a live region drawn with its words is not read)', async () => {
    const live = await rejectAndFail(<StatusOnFailure />);
    expect(document.querySelector('.agk-runstatus')).not.toBeNull();
    expect(live).toHaveTextContent(NOT_SENT);
  });

  it('is said once, by the run status, where one shown was on the page throughout', async () => {
    const live = await rejectAndFail(<RunStatus />);
    expect(document.querySelector('.agk-runstatus [role="status"]')).toHaveTextContent(/./);
    expect(live).toHaveTextContent('');
  });
});
