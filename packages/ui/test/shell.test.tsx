import { AgentProvider, type AgentStore } from '@aguikit/react';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as React from 'react';
import { describe, expect, it } from 'vitest';
import { AgentChat } from '../src/AgentChat.js';
import { Composer } from '../src/Composer.js';
import { AgentLocaleProvider, zhCN } from '../src/locale.js';
import { RunStatus } from '../src/RunStatus.js';
import { failedStore, httpError, invalidRequest, invalidUrl, noAnswer, turnsStore } from '../src/storybook/failures.js';
import { playedStore, runOf, say } from '../src/storybook/scripted.js';

const RUN = '5f0c2a8e-3b1d-4c6a-9e7f-2d4b8a1c6e90';
const started = { type: 'RUN_STARTED', threadId: 'story-thread', runId: RUN };
const finished = { type: 'RUN_FINISHED', threadId: 'story-thread', runId: RUN };
const half = [
  started,
  { type: 'TEXT_MESSAGE_START', messageId: 'msg-7c1e', role: 'assistant' },
  { type: 'TEXT_MESSAGE_CONTENT', messageId: 'msg-7c1e', delta: 'Your refund of 49.90 EUR ' },
];
const rest = [
  { type: 'TEXT_MESSAGE_CONTENT', messageId: 'msg-7c1e', delta: 'is on its way.' },
  { type: 'TEXT_MESSAGE_END', messageId: 'msg-7c1e' },
  finished,
];

const shell = (store: AgentStore, children: React.ReactNode = <RunStatus />) =>
  render(<AgentProvider store={store}>{children}</AgentProvider>);

/** The status root: the live region and the actions beside it. */
const statusRoot = () => screen.getByRole('status').closest('.agk-runstatus') as HTMLElement;

describe('RunStatus: a failed request, once, with what helps', () => {
  it('HTTP 404: says the URL was not found and to check it, offers no Retry or Reconnect', async () => {
    const store = await failedStore('Refund order A-1001', [{ fail: httpError(404, 'Cannot POST /agents/refnd') }]);
    shell(store);
    const region = screen.getByRole('status');
    expect(region).toHaveTextContent("The agent's URL was not found (HTTP 404).");
    expect(region).toHaveTextContent("Check the agent's URL.");
    expect(region).toHaveTextContent('Cannot POST /agents/refnd');
    expect(statusRoot()).toHaveAttribute('data-state', 'failed');
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Reconnect' })).toBeNull();
    // Once: the sentence is not repeated.
    expect(region.textContent?.split('was not found').length).toBe(2);
  });

  it('an invalid URL: says so and to check it', async () => {
    const store = await failedStore('Hello', [{ fail: invalidUrl() }]);
    shell(store);
    expect(screen.getByRole('status')).toHaveTextContent(/not a valid address.*Check the agent's URL\./);
  });

  it("a 403 from aguikit's agent server refusing the page's origin says to allow the origin, not to check credentials", async () => {
    const body = JSON.stringify({ error: { code: 'ORIGIN_NOT_ALLOWED', message: 'Requests from http://localhost:5174 are not allowed.' } });
    const store = await failedStore('Hello', [{ fail: httpError(403, body) }]);
    shell(store);
    const region = screen.getByRole('status');
    expect(region).toHaveTextContent(/allowed origins/);
    expect(region).not.toHaveTextContent(/credentials/);
  });

  it('a request that cannot be built: says nothing was sent, and offers no Retry', async () => {
    const store = await failedStore('Hello', [{ fail: invalidRequest() }]);
    shell(store);
    expect(screen.getByRole('status')).toHaveTextContent(/could not be built.*nothing was sent/);
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
    expect(store.getState().failure).toMatchObject({ code: 'INVALID_REQUEST', retryable: false });
  });

  it('no answer: Retry, beside the live region (not in it), sends the request again', async () => {
    const store = await failedStore('Where is my order A-1001?', [
      { fail: noAnswer() },
      { events: runOf(say('a-1', 'It shipped yesterday.')) },
    ]);
    shell(store);
    expect(screen.getByRole('status')).toHaveTextContent(/could not be reached/);
    expect(screen.getByRole('status')).not.toHaveTextContent(/server/i);
    const retry = screen.getByRole('button', { name: 'Retry' });
    expect(within(screen.getByRole('status')).queryByRole('button')).toBeNull();
    await act(async () => {
      await userEvent.click(retry);
    });
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Done'));
    expect(statusRoot()).toHaveAttribute('data-state', 'done');
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
  });
});

describe('RunStatus: connection lost and reconnect, in words', () => {
  it('keeps Reconnect out of the live region, says it is reconnecting, then that it reconnected', async () => {
    const store = await failedStore('Refund order A-1001', [
      { events: half, ids: true },
      { events: rest, ids: true, delayMs: 30 },
    ]);
    shell(store);
    const region = screen.getByRole('status');
    expect(region).toHaveTextContent('Connection lost');
    expect(statusRoot()).toHaveAttribute('data-state', 'disconnected');
    const reconnect = screen.getByRole('button', { name: 'Reconnect' });
    expect(region).not.toContainElement(reconnect);
    await userEvent.click(reconnect);
    expect(region).toHaveTextContent('Reconnecting…');
    expect(statusRoot()).toHaveAttribute('data-state', 'reconnecting');
    await waitFor(() => expect(region).toHaveTextContent(/Done.*Reconnected/));
    expect(region).not.toHaveTextContent('Connection lost');
  });

  it('says why a reconnect failed and to try again, never back to "Connection lost" without a word', async () => {
    const store = await failedStore('Refund order A-1001', [{ events: half, ids: true }, { fail: httpError(503) }]);
    shell(store);
    const reconnect = screen.getByRole('button', { name: 'Reconnect' });
    reconnect.focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent(
        'Could not reconnect: the agent could not take the request (HTTP 503). Try again.',
      ),
    );
    expect(screen.getByRole('button', { name: 'Reconnect' })).toHaveFocus();
  });

  it('an agent in the browser (no event ids): no Reconnect that cannot work; it says at once to send the message again, and nothing of a server', async () => {
    const store = await failedStore('Refund order A-1001', [{ events: half }]);
    shell(store);
    expect(screen.queryByRole('button', { name: 'Reconnect' })).toBeNull();
    const region = screen.getByRole('status');
    expect(region).toHaveTextContent('Connection lost');
    expect(region).toHaveTextContent(/This agent cannot resume a stream where it stopped: send your message again/);
    expect(statusRoot().textContent).not.toMatch(/server/i);
  });

  it('shows the transport retrying by itself as reconnecting', async () => {
    const store = await failedStore('Refund order A-1001', [{ events: half, reconnecting: true }]);
    shell(store);
    expect(screen.getByRole('status')).toHaveTextContent('Reconnecting…');
    expect(statusRoot()).toHaveAttribute('data-state', 'reconnecting');
    act(() => store.getState().stop());
  });

  it('says which attempt the transport is on, and how many it makes', async () => {
    const store = await failedStore('Refund order A-1001', [{ events: half, reconnecting: { attempt: 2, of: 3 } }]);
    shell(store);
    expect(screen.getByRole('status')).toHaveTextContent('Reconnecting… (attempt 2 of 3)');
    expect(store.getState().reconnecting).toEqual({ attempt: 2, of: 3 });
    act(() => store.getState().stop());
    expect(store.getState().reconnecting).toBeUndefined();
  });

  it('moves focus to the composer when Reconnect leaves the page after it worked (never to <body>)', async () => {
    const store = await failedStore('Refund order A-1001', [
      { events: half, ids: true },
      { events: rest, ids: true },
    ]);
    shell(
      store,
      <>
        <RunStatus />
        <Composer />
      </>,
    );
    screen.getByRole('button', { name: 'Reconnect' }).focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Reconnect' })).toBeNull());
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveFocus();
  });
});

describe('RunStatus in Simplified Chinese', () => {
  it('says a 404 and its hint in Chinese', async () => {
    const store = await failedStore('退款', [{ fail: httpError(404) }]);
    render(
      <AgentLocaleProvider locale={zhCN}>
        <AgentProvider store={store}>
          <RunStatus />
        </AgentProvider>
      </AgentLocaleProvider>,
    );
    expect(screen.getByRole('status')).toHaveTextContent('找不到智能体的 URL（HTTP 404）。');
    expect(screen.getByRole('status')).toHaveTextContent('请检查智能体的 URL。');
  });

  it('names the reconnect action in Chinese', async () => {
    const store = await failedStore('退款', [{ events: half, ids: true }]);
    render(
      <AgentLocaleProvider locale={zhCN}>
        <AgentProvider store={store}>
          <RunStatus />
        </AgentProvider>
      </AgentLocaleProvider>,
    );
    expect(screen.getByRole('status')).toHaveTextContent('连接已断开');
    expect(screen.getByRole('button', { name: '重新连接' })).toBeInTheDocument();
  });
});

describe('the shell parts compose', () => {
  it('forward their ref and pass className, style and DOM props through', async () => {
    const store = turnsStore([]);
    const refs = {
      status: React.createRef<HTMLDivElement>(),
      composer: React.createRef<HTMLFormElement>(),
      chat: React.createRef<HTMLElement>(),
    };
    shell(
      store,
      <>
        <RunStatus ref={refs.status} className="mine" style={{ marginTop: 3 }} data-testid="status" />
        <Composer ref={refs.composer} className="mine" style={{ marginTop: 4 }} data-testid="composer" />
        <AgentChat ref={refs.chat} className="mine" style={{ marginTop: 5 }} data-testid="chat" />
      </>,
    );
    const status = screen.getByTestId('status');
    expect(refs.status.current).toBe(status);
    expect(status).toHaveClass('agk-runstatus', 'mine');
    expect(status).toHaveStyle({ marginTop: '3px' });
    expect(status).toHaveAttribute('data-state', 'idle');
    const composer = screen.getByTestId('composer');
    expect(refs.composer.current).toBe(composer);
    expect(composer).toHaveClass('agk-composer', 'mine');
    expect(composer).toHaveStyle({ marginTop: '4px' });
    expect(composer).toHaveAttribute('data-state', 'ready');
    const chat = screen.getByTestId('chat');
    expect(refs.chat.current).toBe(chat);
    expect(chat.tagName).toBe('SECTION');
    expect(chat).toHaveClass('agk-chat', 'mine');
    expect(chat).toHaveStyle({ marginTop: '5px' });
    expect(chat).toHaveAttribute('data-state', 'idle');
  });
});

describe('AgentChat readOnly: a transcript to read', () => {
  it('shows the status and the conversation, with no composer and no form to answer an open interrupt', async () => {
    const store = await playedStore([
      {
        say: '请退款 A-1001',
        events: runOf(say('a1', 'Two things before I go ahead.'), {
          outcome: { type: 'interrupt', interrupts: [{ id: 'int-ok', reason: 'confirmation', message: 'Refund 42 USD?' }] },
        }),
      },
    ]);
    const view = render(
      <AgentProvider store={store}>
        <AgentChat readOnly />
      </AgentProvider>,
    );
    expect(screen.getByText('请退款 A-1001')).toBeInTheDocument();
    expect(view.container.querySelector('.agk-runstatus')).toHaveTextContent('Waiting for you');
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Yes' })).toBeNull();
    expect(view.container.querySelector('.agk-chat')).toHaveAttribute('data-readonly', 'true');
    // What it waits on is said, read-only: "Waiting for you" with no question anywhere would say nothing.
    const asked = screen.getByRole('list', { name: 'Waiting for an answer' });
    expect(asked).toHaveTextContent('Refund 42 USD?');
    // Seen as well as heard: the list is under a heading a sighted reader sees, not a bullet alone.
    const heading = screen.getByRole('heading', { name: 'Waiting for an answer' });
    expect(heading.compareDocumentPosition(asked) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it("names an interrupt without a message by the locale's title for its reason, as the dialog heads it, never by the raw reason", async () => {
    const store = await playedStore([
      {
        say: '请退款 A-1001',
        events: runOf(say('a1', '需要你的回答。'), {
          outcome: {
            type: 'interrupt',
            interrupts: [
              { id: 'int-input', reason: 'input_required' },
              { id: 'int-risk', reason: 'risk:manual_review' },
            ],
          },
        }),
      },
    ]);
    render(
      <AgentLocaleProvider locale={zhCN}>
        <AgentProvider store={store}>
          <AgentChat readOnly />
        </AgentProvider>
      </AgentLocaleProvider>,
    );
    const items = within(screen.getByRole('list', { name: zhCN.messages.chat.waitingOn })).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      zhCN.messages.interrupt.titles.input_required,
      // A reason of the agent's own is shown as sent, beside the title, as the dialog's badge shows it.
      `${zhCN.messages.interrupt.titles.custom} risk:manual_review`,
    ]);
  });
});
