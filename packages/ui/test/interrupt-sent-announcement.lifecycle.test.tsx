/**
 * "Answer sent" and what follows it over the life of the dialog and of the
 * request: an unmount or a thread switch while the answer goes, a resumed run
 * that asks again or fails after it began, a failed resume sent again.
 */
import type { AgentSource } from '@aguikit/core';
import { AgentProvider, type AgentStore, createAgentStore } from '@aguikit/react';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InterruptDialog } from '../src/InterruptDialog.js';
import { en } from '../src/locale.js';
import { runOf, STORY_THREAD, say, scriptedSource } from '../src/storybook/scripted.js';

afterEach(cleanup);

/** How each resume goes once released, in order (the last repeats). */
type Answer = 'run' | 'offline' | 'errorAfterStart' | 'reask';

const refund = {
  id: 'int-refund',
  reason: 'tool_call',
  message: 'Refund $42 to the customer?',
  responseSchema: {
    type: 'object',
    required: ['approved'],
    properties: { approved: { type: 'boolean' }, comment: { type: 'string', title: 'Comment' } },
  },
};

/** A thread asked to approve a refund; resume n goes as `answers[n]` says once `release()` is called for it. */
async function askedToApprove(answers: Answer[]) {
  const gates: (() => void)[] = [];
  const waiting: Promise<void>[] = [];
  const gate = (n: number) => {
    while (waiting.length <= n) waiting.push(new Promise<void>((resolve) => gates.push(resolve)));
    return waiting[n];
  };
  let resumes = 0;
  const inner = scriptedSource([runOf([], { outcome: { type: 'interrupt', interrupts: [refund] } })]);
  const source: AgentSource = {
    run(input, options = {}) {
      if (!input.resume) return inner.run(input, options);
      const n = resumes++;
      const answer = answers[Math.min(n, answers.length - 1)];
      return (async function* () {
        if (answer === 'run' || answer === 'errorAfterStart' || answer === 'reask') {
          options.onConnection?.('open');
          yield { type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId };
        }
        await gate(n);
        if (answer === 'offline') throw new TypeError('Failed to fetch');
        if (answer === 'errorAfterStart') {
          yield { type: 'RUN_ERROR', message: 'The refund service is down.', code: 'TOOL_FAILED' };
          return;
        }
        if (answer === 'reask') {
          yield* say(`m-${n}`, 'One more check.');
          yield {
            type: 'RUN_FINISHED',
            threadId: input.threadId,
            runId: input.runId,
            outcome: { type: 'interrupt', interrupts: [refund] },
          };
          return;
        }
        yield* say('m-done', 'Refund issued.');
        yield { type: 'RUN_FINISHED', threadId: input.threadId, runId: input.runId };
      })();
    },
  };
  const store = createAgentStore({ threadId: STORY_THREAD, source, now: () => Date.now() });
  await store.getState().run('Refund order A-1001');
  const release = (n = 0) => {
    gate(n);
    gates[n]?.();
  };
  return { store, release };
}

/** Every change of the dialog's live region, in order (an empty region as ""). */
function recordDialog() {
  const said: string[] = [];
  const region = document.querySelector('[data-agk-interrupt-announcer]');
  // What is in the region, node by node: the same words in a new node are said again.
  let last = region?.firstElementChild ?? null;
  const read = () => {
    const now = region?.firstElementChild ?? null;
    if (now === last) return;
    last = now;
    said.push(now?.textContent?.trim() ?? '');
  };
  const observer = new MutationObserver(read);
  observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  return { said, spoken: () => said.filter(Boolean), stop: () => observer.disconnect() };
}

/** Counts the store's listeners still subscribed. */
function countListeners(store: AgentStore) {
  let live = 0;
  const subscribe = store.subscribe;
  store.subscribe = ((listener: Parameters<typeof subscribe>[0]) => {
    live++;
    const off = subscribe(listener);
    let on = true;
    return () => {
      if (on) live--;
      on = false;
      off();
    };
  }) as typeof subscribe;
  return () => live;
}

const settle = () => act(async () => new Promise((resolve) => setTimeout(resolve, 50)));

async function shown(store: AgentStore) {
  const view = render(
    <AgentProvider store={store}>
      <InterruptDialog />
    </AgentProvider>,
  );
  await waitFor(() => expect(view.container.querySelector('.agk-interrupt__form-placeholder')).toBeNull(), { timeout: 10_000 });
  await act(async () => undefined);
  return view;
}

const SENT = en.messages.interrupt.announce.sent(en.messages.interrupt.answer.approved);
const NOT_SENT = en.messages.interrupt.announce.notSent;

describe('the answer to an interrupt over the life of the dialog', () => {
  it('leaves no listener on the store once the dialog is gone, the answer still on its way', async () => {
    const { store, release } = await askedToApprove(['run']);
    const view = await shown(store);
    const live = countListeners(store);
    const button = screen.getByRole('button', { name: 'Approve' });
    // The answer is being prepared (the store has not recorded it yet) when the dialog goes.
    const hold = store.subscribe(() => undefined);
    act(() => button.click());
    hold();
    expect(live(), 'listening while the answer is prepared').toBeGreaterThan(0);
    act(() => view.unmount());
    expect(live(), 'listeners left once the dialog is gone').toBe(0);
    release();
    await waitFor(() => expect(store.getState().inFlight).toBeUndefined());
    expect(live()).toBe(0);
  });

  it('leaves no listener and no dialog stuck sending when the store throws as the answer is given', async () => {
    const { store } = await askedToApprove(['run']);
    const resume = store.getState().resume;
    store.setState({
      resume: () => {
        throw new Error('The store is broken.');
      },
    } as never);
    await shown(store);
    const log = recordDialog();
    // The page hears of the error as of an uncaught one (the browser's reportError).
    const reported = vi.fn();
    vi.stubGlobal('reportError', reported);
    act(() => screen.getByRole('button', { name: 'Approve' }).click());
    await settle();
    vi.unstubAllGlobals();
    store.setState({ resume } as never);
    // Not taken for an answer still being sent: it can be given again.
    expect(screen.getByRole('button', { name: 'Approve' })).toBeEnabled();
    // An answer the app sends itself afterwards is not said as the dialog's.
    await act(async () => void store.getState().resume([{ interruptId: 'int-refund', status: 'resolved', payload: { approved: true } }]));
    await settle();
    log.stop();
    expect(log.spoken()).toEqual([]);
    expect(reported).toHaveBeenCalledWith(new Error('The store is broken.'));
  });

  it('says "sent" of each answer once when the resumed run asks again under the same id, never that it came back', async () => {
    const { store, release } = await askedToApprove(['reask', 'run']);
    await shown(store);
    const log = recordDialog();
    await act(async () => screen.getByRole('button', { name: 'Approve' }).click());
    await waitFor(() => expect(log.spoken()).toEqual([SENT]));
    release(0);
    await waitFor(() => expect(store.getState().inFlight).toBeUndefined());
    await waitFor(() => expect(screen.getByRole('button', { name: 'Approve' })).toBeEnabled(), { timeout: 10_000 });
    await settle();
    expect(log.spoken(), 'after the first').toEqual([SENT]);
    await act(async () => screen.getByRole('button', { name: 'Approve' }).click());
    await waitFor(() => expect(log.spoken()).toEqual([SENT, SENT]));
    release(1);
    await waitFor(() => expect(store.getState().inFlight).toBeUndefined());
    await settle();
    log.stop();
    expect(log.spoken()).toEqual([SENT, SENT]);
  });

  it('does not take back "sent" when the resumed run fails after it began', async () => {
    const { store, release } = await askedToApprove(['errorAfterStart']);
    await shown(store);
    const log = recordDialog();
    await act(async () => screen.getByRole('button', { name: 'Approve' }).click());
    await waitFor(() => expect(log.spoken()).toEqual([SENT]));
    release();
    await waitFor(() => expect(store.getState().inFlight).toBeUndefined());
    await settle();
    log.stop();
    expect(store.getState().thread.interrupts).toHaveLength(0);
    expect(log.said).toEqual([SENT]);
  });

  it('says "sent" again when a retry sends again an answer that did not reach the agent, not that it is open again', async () => {
    const { store, release } = await askedToApprove(['offline', 'run']);
    await shown(store);
    const log = recordDialog();
    await act(async () => screen.getByRole('button', { name: 'Approve' }).click());
    await waitFor(() => expect(log.spoken()).toEqual([SENT]));
    release(0);
    await waitFor(() => expect(log.spoken()).toEqual([SENT, NOT_SENT]));
    await settle();
    await act(async () => void store.getState().retry());
    expect(store.getState().thread.interrupts).toHaveLength(0);
    expect(store.getState().inFlight).toBe('resume');
    await settle();
    // The question has gone again with the answer: the region no longer says it is open, and says the answer went.
    expect(log.spoken()).toEqual([SENT, NOT_SENT, SENT]);
    release(1);
    await waitFor(() => expect(store.getState().inFlight).toBeUndefined());
    await settle();
    log.stop();
    expect(log.spoken()).toEqual([SENT, NOT_SENT, SENT]);
  });

  it('says again that the answer did not reach the agent when its retry fails too, then "sent" once it goes', async () => {
    const { store, release } = await askedToApprove(['offline', 'offline', 'run']);
    await shown(store);
    const log = recordDialog();
    await act(async () => screen.getByRole('button', { name: 'Approve' }).click());
    release(0);
    await waitFor(() => expect(log.spoken()).toEqual([SENT, NOT_SENT]));
    await act(async () => void store.getState().retry());
    release(1);
    await waitFor(() => expect(store.getState().thread.interrupts).toHaveLength(1));
    await settle();
    expect(log.spoken()).toEqual([SENT, NOT_SENT, SENT, NOT_SENT]);
    // Answered again from the dialog: said once, not by what followed the retry as well.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Approve' })).toBeEnabled());
    await act(async () => screen.getByRole('button', { name: 'Approve' }).click());
    release(2);
    await waitFor(() => expect(store.getState().inFlight).toBeUndefined());
    await settle();
    log.stop();
    expect(log.spoken()).toEqual([SENT, NOT_SENT, SENT, NOT_SENT, SENT]);
  });

  it('says nothing into another thread the provider switched to while the answer went, nor of its coming back', async () => {
    const first = await askedToApprove(['offline']);
    const other = await askedToApprove(['run']);
    const view = await shown(first.store);
    const log = recordDialog();
    const button = screen.getByRole('button', { name: 'Approve' });
    // Switched while the answer is being prepared: it is recorded, sent and given back in the thread no longer shown.
    act(() => button.click());
    view.rerender(
      <AgentProvider store={other.store}>
        <InterruptDialog />
      </AgentProvider>,
    );
    first.release();
    await waitFor(() => expect(first.store.getState().thread.interrupts).toHaveLength(1));
    await waitFor(() => expect(first.store.getState().inFlight).toBeUndefined());
    await act(async () => void first.store.getState().retry());
    await settle();
    log.stop();
    expect(log.spoken()).toEqual([]);
  });

  it('says nothing of an answer whose thread a reset ended while the answer was being prepared', async () => {
    const { store } = await askedToApprove(['run']);
    await shown(store);
    const log = recordDialog();
    const resetFirst = store.subscribe((s) => {
      if (s.inFlight !== 'resume' || s.thread.interrupts.length === 0) return;
      resetFirst();
      queueMicrotask(() => store.getState().reset());
    });
    await act(async () => screen.getByRole('button', { name: 'Approve' }).click());
    await waitFor(() => expect(store.getState().inFlight).toBeUndefined());
    await settle();
    log.stop();
    expect(log.spoken()).toEqual([]);
  });
});
