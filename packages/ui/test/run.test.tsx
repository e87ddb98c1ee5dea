import { type AgentSource, AgentTransportError } from '@aguikit/core';
import { AgentProvider, createAgentStore } from '@aguikit/react';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Composer } from '../src/Composer.js';
import { AgentLocaleProvider, en, zhCN } from '../src/locale.js';
import { RunStatus } from '../src/RunStatus.js';
import { call, liveStore, playedStore, runOf, say } from '../src/storybook/scripted.js';
import { cutOffRun } from './support/cutOffRun.js';
import { drivenStore } from './support/drivenStore.js';

describe('Composer', () => {
  it('sends with Enter, keeps Shift+Enter as a new line, and clears after a run starts', async () => {
    const store = await playedStore([], { pending: [runOf(say('a', 'ok'))] });
    render(
      <AgentProvider store={store}>
        <Composer />
      </AgentProvider>,
    );
    const input = screen.getByLabelText('Message');
    await userEvent.type(input, 'line one{Shift>}{Enter}{/Shift}line two');
    expect(input).toHaveValue('line one\nline two');
    await act(async () => {
      await userEvent.type(input, '{Enter}');
    });
    const { thread } = store.getState();
    expect(thread.messages.byId.get(thread.messages.ids[0] ?? '')?.content).toBe('line one\nline two');
    expect(input).toHaveValue('');
  });

  it('does not send an empty message', async () => {
    const store = await playedStore([]);
    render(
      <AgentProvider store={store}>
        <Composer />
      </AgentProvider>,
    );
    expect(screen.getByRole('button', { name: 'Send' })).toHaveAttribute('aria-disabled', 'true');
    await userEvent.type(screen.getByLabelText('Message'), '   {Enter}');
    expect(store.getState().thread.messages.ids).toEqual([]);
  });

  it('keeps the text and explains while interrupts are open', async () => {
    const store = await playedStore([
      { say: 'x', events: runOf([], { outcome: { type: 'interrupt', interrupts: [{ id: 'i', reason: 'confirmation' }] } }) },
    ]);
    render(
      <AgentProvider store={store}>
        <Composer />
      </AgentProvider>,
    );
    const input = screen.getByLabelText('Message');
    await userEvent.type(input, 'next question{Enter}');
    expect(input).toHaveValue('next question');
    expect(input).toHaveAccessibleDescription(/waiting for your answer/);
    expect(store.getState().thread.messages.ids).toHaveLength(1);
  });

  it('offers Stop while a run is in flight, which cancels it', async () => {
    const store = await liveStore(runOf([{ type: 'STEP_STARTED', stepName: 'think' }], null));
    render(
      <AgentProvider store={store}>
        <RunStatus />
        <Composer />
      </AgentProvider>,
    );
    expect(screen.getByRole('status')).toHaveTextContent('Step: think');
    // The text the polite region is read as keeps its parts apart ("RunningStep: think" read as one word otherwise).
    expect(screen.getByRole('status').textContent).toMatch(/^Running\s+Step: think$/);
    await userEvent.click(screen.getByRole('button', { name: 'Stop' }));
    expect(store.getState().thread.run.status).toBe('cancelled');
    expect(screen.getByRole('status')).toHaveAttribute('data-status', 'cancelled');
  });
});

describe('RunStatus', () => {
  it('says a burst of steps once it rests, not one status per step', async () => {
    const driven = drivenStore();
    render(
      <AgentProvider store={driven.store}>
        <RunStatus />
      </AgentProvider>,
    );
    await driven.start();
    const status = screen.getByRole('status');
    // What a screen reader is given to read: each text the polite region takes.
    const said: string[] = [];
    const observer = new MutationObserver(() => {
      if (said.at(-1) !== status.textContent) said.push(status.textContent ?? '');
    });
    observer.observe(status, { subtree: true, childList: true, characterData: true });
    // An agent that walks 30 steps in about 300 ms (a plan executed tool by tool).
    for (let i = 1; i <= 30; i++) {
      await driven.push({ type: 'STEP_STARTED', stepName: `step_${i}` }, { type: 'STEP_FINISHED', stepName: `step_${i}` });
      await driven.push({ type: 'STEP_STARTED', stepName: `plan_${i}` });
      await act(() => new Promise((resolve) => setTimeout(resolve, 10)));
    }
    await act(() => new Promise((resolve) => setTimeout(resolve, 600)));
    observer.disconnect();
    expect(status).toHaveTextContent('Step: plan_30');
    expect(said.filter((text) => text.includes('Step:')).length).toBeLessThanOrEqual(2);
  });

  it("never shows a step of a run that ended, or of another thread's run, under the run shown now", async () => {
    const driven = drivenStore();
    const { rerender } = render(
      <AgentProvider store={driven.store}>
        <RunStatus />
      </AgentProvider>,
    );
    await driven.start();
    await driven.push({ type: 'STEP_STARTED', stepName: 'search_flights' });
    const status = screen.getByRole('status');
    expect(status).toHaveTextContent('Step: search_flights');
    // The run ends with its step open, and the next run (a follow-up) starts at once: it has no step yet.
    await driven.push({ type: 'RUN_FINISHED', threadId: 't', runId: 'r1' });
    await driven.push({ type: 'RUN_STARTED', threadId: 't', runId: 'r2' });
    expect(driven.store.getState().thread.run.status).toBe('running');
    expect(status).not.toHaveTextContent('search_flights');
    await driven.push({ type: 'STEP_STARTED', stepName: 'book_hotel' });
    expect(status).toHaveTextContent('Step: book_hotel');
    // Another thread's store, running a step of its own: its step, not this one's.
    const other = drivenStore([], { threadId: 't2', runId: 'q1' });
    rerender(
      <AgentProvider store={other.store}>
        <RunStatus />
      </AgentProvider>,
    );
    await other.start();
    await other.push({ type: 'STEP_STARTED', stepName: 'draft_email' });
    expect(screen.getByRole('status')).not.toHaveTextContent('book_hotel');
    expect(screen.getByRole('status')).toHaveTextContent('Step: draft_email');
  });

  it('shows a lost connection as unknown with a reconnect action, never as done', async () => {
    const store = createAgentStore({ source: cutOffRun('t1', 'finished') });
    await store.getState().run('x');
    render(
      <AgentProvider store={store}>
        <RunStatus />
      </AgentProvider>,
    );
    const region = screen.getByRole('status');
    expect(region).toHaveAttribute('data-status', 'unknown');
    expect(region).toHaveTextContent('Connection lost');
    expect(region).not.toHaveTextContent('Done');
    expect(screen.getByRole('button', { name: 'Reconnect' })).toBeEnabled();
  });

  it('a run cut off in a saved session, reopened: no Reconnect (no stream of it to go on from), and it says to send again', async () => {
    const first = createAgentStore({ source: cutOffRun('t1', 'finished') });
    await first.getState().run('x');
    const store = createAgentStore({ source: cutOffRun('t1', 'finished'), log: first.session.entries });
    first.destroy();
    render(
      <AgentProvider store={store}>
        <RunStatus />
      </AgentProvider>,
    );
    expect(screen.getByRole('status')).toHaveAttribute('data-status', 'unknown');
    expect(screen.getByRole('status')).toHaveTextContent(en.messages.run.hint.cutOffEarlier);
    expect(screen.queryByRole('button')).toBeNull();
    expect(await store.getState().reconnect()).toMatchObject({ ok: false, code: 'NO_RESUME_POINT' });
    store.destroy();
  });

  it('offers no Reconnect for a stream the agent sent no event ids for (nothing to go on from), and says to send again', async () => {
    const store = await playedStore([{ say: 'x', events: runOf(say('a', 'half'), null) }]);
    render(
      <AgentLocaleProvider locale={zhCN}>
        <AgentProvider store={store}>
          <RunStatus />
        </AgentProvider>
      </AgentLocaleProvider>,
    );
    expect(store.getState().failure).toMatchObject({ code: 'CONNECTION_LOST', reconnectable: false });
    expect(screen.getByRole('status')).toHaveAttribute('data-status', 'unknown');
    expect(screen.getByRole('status')).toHaveTextContent(zhCN.messages.run.hint.noResumePoint);
    expect(screen.queryByRole('button')).toBeNull();
  });

  it.each([
    ['en', undefined, 'ended inside an event'],
    ['zh-CN', zhCN, '事件中途结束'],
  ])(
    'says, in %s, that a stream ended inside an event (its last frame without its blank line), not only that it was lost',
    async (_lang, locale, said) => {
      // What httpSseSource throws when the body ends inside an event: SSE drops that event, and the run's end may be in it.
      const source: AgentSource = {
        async *run(input) {
          yield { type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId };
          throw new AgentTransportError('UNFINISHED_EVENT', 'The stream ended inside an event: ...');
        },
      };
      const store = createAgentStore({ source });
      await store.getState().run('hi');
      expect(store.getState().failure).toMatchObject({ code: 'CONNECTION_LOST', cause: 'UNFINISHED_EVENT' });
      render(
        <AgentLocaleProvider locale={locale ?? en}>
          <AgentProvider store={store}>
            <RunStatus />
          </AgentProvider>
        </AgentLocaleProvider>,
      );
      const region = screen.getByRole('status');
      expect(region).toHaveAttribute('data-status', 'unknown');
      expect(region).toHaveTextContent(said);
      store.destroy();
    },
  );

  const sso = 'https://sso.example/login?next=%2Fagent';
  it.each([
    ['en', en, new AgentTransportError('HTTP_STATUS', 'The agent answered HTTP 405.', 405, '', sso), 'HTTP 405', `redirected to ${sso}`],
    ['en', en, new AgentTransportError('NOT_EVENT_STREAM', 'text/html', undefined, undefined, sso), 'AG-UI', `redirected to ${sso}`],
    ['zh-CN', zhCN, new AgentTransportError('NOT_EVENT_STREAM', 'text/html', undefined, undefined, sso), 'AG-UI', `重定向到 ${sso}`],
  ])('says, in %s, where a request that failed was redirected to (%#)', async (_lang, locale, error, failed, redirected) => {
    const source: AgentSource = {
      async *run() {
        yield* [];
        throw error;
      },
    };
    const store = createAgentStore({ source });
    await store.getState().run('hi');
    expect(store.getState().failure?.redirectedTo).toBe(sso);
    render(
      <AgentLocaleProvider locale={locale}>
        <AgentProvider store={store}>
          <RunStatus />
        </AgentProvider>
      </AgentLocaleProvider>,
    );
    const region = screen.getByRole('status');
    expect(region).toHaveTextContent(failed);
    expect(region).toHaveTextContent(redirected);
    // In the locale's words: the English message of the failure, which says it too, is not shown.
    expect(region).not.toHaveTextContent(/after a redirect/);
    store.destroy();
  });

  it('says when the agent asked for its tools in more runs in a row than the controller starts by itself', async () => {
    const looked = (n: number) => runOf(call(`c${n}`, 'lookup_order', { order: 'A-1001' }));
    const store = await playedStore([{ say: 'Where is A-1001?', events: looked(0) }], {
      pending: [looked(1), looked(2)],
      maxFollowUps: 2,
      tools: { lookup_order: { description: 'Looks an order up', handler: () => 'shipped' } },
    });
    await act(async () => {
      for (let i = 0; i < 10 && store.getState().refusal === undefined; i++) await new Promise((r) => setTimeout(r, 5));
    });
    render(
      <AgentProvider store={store}>
        <RunStatus />
      </AgentProvider>,
    );
    expect(store.getState().refusal?.code).toBe('FOLLOW_UPS_EXHAUSTED');
    expect(screen.getByRole('status')).toHaveTextContent(/Done.*run after run.*next message/);
  });

  it('shows the error code and message of a failed run', async () => {
    const store = await playedStore([
      { say: 'x', events: [...runOf([], null), { type: 'RUN_ERROR', message: 'quota exceeded', code: 'QUOTA' }] },
    ]);
    render(
      <AgentProvider store={store}>
        <RunStatus />
      </AgentProvider>,
    );
    expect(screen.getByRole('status')).toHaveTextContent(/Failed\s*QUOTA quota exceeded/);
  });
});
