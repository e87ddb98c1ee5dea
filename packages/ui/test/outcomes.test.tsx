import { AgentProvider, type AgentStore } from '@aguikit/react';
import { act, render, screen, waitFor } from '@testing-library/react';
import type * as React from 'react';
import { describe, expect, it } from 'vitest';
import { AgentChat } from '../src/AgentChat.js';
import { AgentLocaleProvider, zhCN } from '../src/locale.js';
import { RunStatus } from '../src/RunStatus.js';
import { failedStore, httpError } from '../src/storybook/failures.js';
import { call, playedStore, runOf, waitForState } from '../src/storybook/scripted.js';
import { ToolCallCard } from '../src/ToolCall.js';

const CALL_ID = '6f1c2a9e-3b7d-4c8e-9a1f-2d5e7b8c0a13';
const INTERRUPT_ID = 'b3e1f4a2-7c9d-4e6f-8a0b-1c2d3e4f5a6b';

const zh = (node: React.ReactNode) => <AgentLocaleProvider locale={zhCN}>{node}</AgentLocaleProvider>;
const hasLatinSentence = (text: string) => /[a-z]{3,} [a-z]{2,} [a-z]{3,}/i.test(text);

function card(store: AgentStore, id: string) {
  return render(<AgentProvider store={store}>{zh(<ToolCallCard id={id} defaultOpen />)}</AgentProvider>);
}

describe('a tool call that failed without a result of its own is explained in the locale', () => {
  it('a call whose run finished before its arguments were complete', async () => {
    const store = await playedStore([
      {
        say: '请为订单 A-1001 退款',
        events: runOf([
          { type: 'TOOL_CALL_START', toolCallId: CALL_ID, toolCallName: 'refund_order' },
          { type: 'TOOL_CALL_ARGS', toolCallId: CALL_ID, delta: '{"orderId":"A-1001","reason":"商品损坏' },
        ]),
      },
    ]);
    expect(store.getState().thread.run.status).toBe('success');
    expect(store.getState().thread.toolCalls.get(CALL_ID)?.status).toBe('failed');
    const view = card(store, CALL_ID);
    const error = view.container.querySelector('[data-result="error"]')?.textContent ?? '';
    expect(error).toContain(zhCN.messages.tools.argsIncomplete);
    expect(hasLatinSentence(error)).toBe(false);
  });

  it('a frontend tool stopped while it ran, after its run finished', async () => {
    let started = false;
    const store = await playedStore([], {
      pending: [runOf(call(CALL_ID, 'lookup_order', { order: 'A-1001' }))],
      tools: {
        lookup_order: {
          description: 'Looks an order up',
          handler: (_args, _call, { signal }) =>
            new Promise((_, reject) => {
              started = true;
              signal.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
            }),
        },
      },
    });
    void store.getState().run('查一下订单 A-1001 的物流');
    await waitForState(store, (s) => s.thread.toolCalls.get(CALL_ID)?.status === 'executing');
    expect(started).toBe(true);
    expect(store.getState().thread.run.status).toBe('success');
    act(() => store.getState().stop());
    await waitForState(store, (s) => s.thread.toolCalls.get(CALL_ID)?.status === 'failed');
    const view = card(store, CALL_ID);
    const error = view.container.querySelector('[data-result="error"]')?.textContent ?? '';
    expect(error).toContain(zhCN.messages.tools.endedWithRun.cancelled);
    expect(hasLatinSentence(error)).toBe(false);
  });
});

describe('focus when the interrupts go away without an answer', () => {
  it('a reset while focus is in an interrupt moves it to the composer, not <body>', async () => {
    const store = await playedStore([
      {
        say: 'Refund order A-1001',
        events: runOf([], {
          outcome: {
            type: 'interrupt',
            interrupts: [{ id: INTERRUPT_ID, reason: 'confirmation', message: '确认退款 42 美元？' }],
          },
        }),
      },
    ]);
    render(
      <AgentProvider store={store}>
        <AgentChat />
      </AgentProvider>,
    );
    await waitFor(() => expect(document.activeElement?.closest('.agk-interrupts')).not.toBeNull());
    act(() => store.getState().reset());
    await waitFor(() => expect(document.querySelector('.agk-interrupts')).toBeNull());
    expect(document.activeElement).not.toBe(document.body);
    expect(document.activeElement).toBe(document.querySelector('.agk-composer__input'));
  });
});

describe('focus with two chats on one page', () => {
  const interrupted = () =>
    playedStore([
      {
        say: 'Refund order A-1001',
        events: runOf([], {
          outcome: { type: 'interrupt', interrupts: [{ id: INTERRUPT_ID, reason: 'confirmation', message: '确认退款 42 美元？' }] },
        }),
      },
    ]);

  it("stays in the chat whose interrupts went: a reset moves it to that chat's composer, not the other's", async () => {
    const [first, second] = [await interrupted(), await interrupted()];
    const view = render(
      <>
        <AgentProvider store={first}>
          <AgentChat />
        </AgentProvider>
        <AgentProvider store={second}>
          <AgentChat />
        </AgentProvider>
      </>,
    );
    const [, chat] = view.container.querySelectorAll<HTMLElement>('section.agk-chat');
    const button = chat?.querySelector<HTMLElement>('.agk-interrupts button');
    act(() => button?.focus());
    expect(chat?.contains(document.activeElement)).toBe(true);
    act(() => second.getState().reset());
    await waitFor(() => expect(chat?.querySelector('.agk-interrupts')).toBeNull());
    expect(document.activeElement).toBe(chat?.querySelector('.agk-composer__input'));
  });
});

describe('what the agent said with an HTTP error', () => {
  it('a long body in Chinese with an emoji is cut between whole characters', async () => {
    const body = `${'服务繁忙'.repeat(49)}请稍后😀再试，订单 A-1001 的退款请求未处理。`;
    expect(body.charCodeAt(199)).toBe(0xd83d);
    const store = await failedStore('退款', [{ fail: httpError(503, body) }]);
    render(<AgentProvider store={store}>{zh(<RunStatus />)}</AgentProvider>);
    const text = screen.getByRole('status').textContent ?? '';
    expect(text).toContain('服务繁忙');
    expect(/[\ud800-\udbff](?![\udc00-\udfff])/.test(text)).toBe(false);
  });
});

describe("the agent's words beside an HTTP error", () => {
  it.each([
    ['{"error":{"code":"UNKNOWN_SCENARIO","message":"No scenario named \'nope\'."}}', "No scenario named 'nope'. (UNKNOWN_SCENARIO)"],
    ['{"error":"The agent could not be reached."}', 'The agent could not be reached.'],
    ['{"detail":"Not authenticated"}', 'Not authenticated'],
  ])('are the message of a JSON error body, not its JSON (%s)', async (body, words) => {
    const store = await failedStore('Refund order A-1001', [{ fail: httpError(404, body) }]);
    render(
      <AgentProvider store={store}>
        <RunStatus />
      </AgentProvider>,
    );
    const text = screen.getByRole('status').textContent ?? '';
    expect(text).toContain(words);
    expect(text).not.toContain('{"');
  });
});

describe('the actions beside the run status', () => {
  it('are a group named in the locale, Retry in it', async () => {
    const store = await failedStore('退款', [{ fail: httpError(503, '稍后再试') }]);
    render(<AgentProvider store={store}>{zh(<RunStatus />)}</AgentProvider>);
    const group = screen.getByRole('group', { name: zhCN.messages.run.actions.label });
    expect(group).toContainElement(screen.getByRole('button', { name: zhCN.messages.run.actions.retry }));
  });
});
