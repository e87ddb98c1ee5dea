import { AgentProvider, type AgentStore, createAgentStore } from '@aguikit/react';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as React from 'react';
import { describe, expect, it, vi } from 'vitest';
import { AgentChat } from '../src/AgentChat.js';
import { preloadMarkdown } from '../src/lazyChunks.js';
import { announcementText } from '../src/liveAnnouncer.js';
import { AgentLocaleProvider, defineLocale, en, localeValue, zhCN } from '../src/locale.js';
import { Message } from '../src/Message.js';
import { MessageList, type MessageListProps } from '../src/Messages.js';
import { Reasoning } from '../src/Reasoning.js';
import { openRunStore } from '../src/storybook/conversations.js';
import { call, playedStore, runOf, say } from '../src/storybook/scripted.js';
import { ToolCallCard } from '../src/ToolCall.js';
import { drivenStore } from './support/drivenStore.js';

const NOW = Date.parse('2026-11-30T12:00:00Z');

function renderList(store: AgentStore, props: MessageListProps = {}, wrap?: (node: React.ReactNode) => React.ReactNode) {
  const list = (
    <AgentProvider store={store}>
      <MessageList {...props} />
    </AgentProvider>
  );
  return render(wrap ? wrap(list) : list);
}

const refundArgs = { orderId: 'A-1001', amount: 42, currency: 'USD' };
const approval = (id: string, toolCallId: string) => ({
  outcome: { type: 'interrupt', interrupts: [{ id, reason: 'tool_call', toolCallId, message: 'Refund 42 USD?' }] },
});

/** The refund's approval, expiring 2.5 s after NOW. */
const expiring = {
  outcome: {
    type: 'interrupt',
    interrupts: [
      { id: 'int-1', reason: 'tool_call', toolCallId: 'c1', message: 'Refund 42 USD?', expiresAt: new Date(NOW + 2_500).toISOString() },
    ],
  },
};

describe('conversation: tool calls as chips', () => {
  it('is one line with a disclosure, collapsed once settled; repeated calls get distinct names', async () => {
    const store = await playedStore([
      {
        say: 'Weather in Lyon and Paris?',
        events: runOf([
          ...say('a1', 'Checking both cities.'),
          ...call('c1', 'get_weather', { city: 'Lyon' }, { parent: 'a1', result: { temp: 12 } }),
          ...call('c2', 'get_weather', { city: 'Paris' }, { parent: 'a1', result: { temp: 14 } }),
          ...call('c3', 'lookup_order', { orderId: 'A-1001' }, { parent: 'a1', result: { status: 'delivered' } }),
        ]),
      },
    ]);
    const { container } = renderList(store);
    const first = screen.getByRole('button', { name: 'get_weather (1)' });
    const second = screen.getByRole('button', { name: 'get_weather (2)' });
    const lookup = screen.getByRole('button', { name: 'lookup_order' });
    for (const trigger of [first, second, lookup]) {
      expect(trigger).toHaveAttribute('aria-expanded', 'false');
      expect(trigger.textContent).not.toMatch(/[▾▸]/);
    }
    const card = container.querySelector('.agk-toolcall[data-tool="lookup_order"]') as HTMLElement;
    expect(card).toHaveAttribute('data-state', 'succeeded');
    expect(within(card).getByText('Succeeded')).toBeInTheDocument();
    const panel = document.getElementById(lookup.getAttribute('aria-controls') ?? '');
    expect(panel).not.toBeVisible();
    // Collapsed, the arguments and the result are still in the document (hidden), for a script that reads them.
    expect(panel?.textContent).toContain('"status": "delivered"');
    await userEvent.click(lookup);
    expect(lookup).toHaveAttribute('aria-expanded', 'true');
    expect(panel).toBeVisible();
    expect(panel).toHaveTextContent('"orderId": "A-1001"');
    // No heading per call: the conversation's outline is its messages, not a heading per tool.
    expect(container.querySelectorAll('h1, h2, h3, h4, h5, h6')).toHaveLength(0);
  });

  it("says Expired, not Waiting for your decision, once its approval's deadline has passed", async () => {
    let now = NOW;
    const store = await playedStore([{ say: 'Refund', events: runOf(call('c1', 'refund_order', refundArgs), expiring) }], {
      now: () => now,
    });
    vi.useFakeTimers({ now: NOW });
    try {
      renderList(store);
      const card = () => screen.getByRole('article', { name: /^refund_order/ });
      expect(card()).toHaveAttribute('data-state', 'awaiting_decision');
      expect(within(card()).getByText('Waiting for your decision')).toBeInTheDocument();
      now = NOW + 2_500;
      await act(async () => vi.advanceTimersByTimeAsync(2_500));
      expect(card()).toHaveAttribute('data-state', 'expired');
      expect(within(card()).getByText('Expired')).toBeInTheDocument();
      expect(card()).toHaveAccessibleName('refund_order Expired');
      // Still open: it does not fold under the reader's eyes at the deadline.
      expect(within(card()).getByRole('button', { name: 'refund_order' })).toHaveAttribute('aria-expanded', 'true');
    } finally {
      vi.useRealTimers();
    }
  });

  it('reads the clock AgentChat is given, as its interrupt dialog does: both say the approval expired, or neither', async () => {
    // The store's clock says the deadline is far off; the app's clock (a server's time) says it has passed.
    const store = await playedStore([{ say: 'Refund', events: runOf(call('c1', 'refund_order', refundArgs), expiring) }], {
      now: () => NOW,
    });
    render(
      <AgentProvider store={store}>
        <AgentChat now={() => NOW + 60_000} />
      </AgentProvider>,
    );
    const card = screen.getByRole('article', { name: /^refund_order/ });
    await waitFor(() => expect(document.querySelector('.agk-interrupt [role="timer"]')).toHaveTextContent('Expired'));
    expect(card).toHaveAttribute('data-state', 'expired');
    expect(within(card).getByText('Expired')).toBeInTheDocument();
  });

  it('stays open while a decision is awaited, and when it failed', async () => {
    const store = await playedStore([{ say: 'Refund', events: runOf(call('c1', 'refund_order', refundArgs), approval('int-1', 'c1')) }]);
    renderList(store);
    const trigger = screen.getByRole('button', { name: 'refund_order' });
    expect(trigger).toHaveAttribute('aria-expanded', 'true');
    expect(trigger.closest('.agk-toolcall')).toHaveAttribute('data-state', 'awaiting_decision');

    const failed = await playedStore([
      {
        say: 'Refund',
        events: [...runOf(call('c1', 'refund_order', refundArgs), null), { type: 'RUN_ERROR', message: 'Payment provider unavailable' }],
      },
    ]);
    const { container } = renderList(failed);
    const card = container.querySelector('.agk-toolcall[data-state="failed"]') as HTMLElement;
    expect(within(card).getByRole('button', { name: 'refund_order' })).toHaveAttribute('aria-expanded', 'true');
  });

  it('a call the human rejected stays Rejected when the agent then reports a result (it acknowledged the answer), and shows that result', async () => {
    const store = await playedStore([
      { say: 'Refund', events: runOf(call('c1', 'refund_order', refundArgs), approval('int-1', 'c1')) },
      {
        resume: [{ interruptId: 'int-1', status: 'resolved', payload: { approved: false, comment: 'Not eligible' } }],
        events: runOf([
          { type: 'TOOL_CALL_RESULT', toolCallId: 'c1', messageId: 'c1-result', content: 'Refund not issued: rejected by the reviewer.' },
          ...say('a2', 'I did not issue the refund.'),
        ]),
      },
    ]);
    const { container } = renderList(store);
    // The model keeps what the agent said: a result arrived.
    expect(store.getState().thread.toolCalls.get('c1')?.status).toBe('succeeded');
    const card = container.querySelector('.agk-toolcall') as HTMLElement;
    expect(card).toHaveAttribute('data-state', 'denied');
    expect(within(card).getByText('Rejected')).toBeVisible();
    expect(within(card).queryByText('Succeeded')).toBeNull();
    await userEvent.click(within(card).getByRole('button', { name: 'refund_order' }));
    expect(card).toHaveTextContent('Refund not issued: rejected by the reviewer.');
  });

  it('an approved call reads Approved, not Ready, until the agent reports its result', async () => {
    const store = await playedStore([
      { say: 'Refund', events: runOf(call('c1', 'refund_order', refundArgs), approval('int-1', 'c1')) },
      {
        resume: [{ interruptId: 'int-1', status: 'resolved', payload: { approved: true } }],
        // The resumed run is still issuing the refund: no result yet.
        events: runOf(say('a2', 'Issuing the refund now.'), null),
      },
    ]);
    const { container } = renderList(store);
    expect(store.getState().thread.toolCalls.get('c1')?.status).toBe('ready');
    const card = container.querySelector('.agk-toolcall') as HTMLElement;
    expect(card).toHaveAttribute('data-state', 'approved');
    expect(within(card).getByText('Approved')).toBeVisible();
    expect(within(card).queryByText('Ready')).toBeNull();
  });

  it('forwards its ref and passes className, style and DOM props', async () => {
    const store = await playedStore([{ say: 'x', events: runOf(call('c1', 'lookup_order', { orderId: 'A-1' })) }]);
    const ref = React.createRef<HTMLElement>();
    render(
      <AgentProvider store={store}>
        <ToolCallCard id="c1" ref={ref} className="mine" style={{ maxWidth: 300 }} data-testid="card" />
      </AgentProvider>,
    );
    const card = screen.getByTestId('card');
    expect(ref.current).toBe(card);
    expect(card).toHaveClass('agk-toolcall', 'mine');
    expect(card.style.maxWidth).toBe('300px');
  });
});

describe('conversation: arguments that never completed', () => {
  it('a call cut off mid-arguments shows all it received, labelled as cut off, not as still streaming', async () => {
    const store = await playedStore([
      {
        say: 'Refund it',
        events: runOf(
          [
            { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'refund_order' },
            // Parsed leniently at 30 characters; the last 3 are under a quarter more, and the run dies before TOOL_CALL_END.
            { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"orderId":"A-1001","amount":4' },
            { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '200' },
            { type: 'RUN_ERROR', message: 'The model provider went away.' },
          ],
          null,
        ),
      },
    ]);
    expect(store.getState().thread.toolCalls.get('c1')).toMatchObject({ status: 'failed', argsText: '{"orderId":"A-1001","amount":4200' });
    const view = render(
      <AgentProvider store={store}>
        <ToolCallCard id="c1" defaultOpen />
      </AgentProvider>,
    );
    expect(view.container.querySelector('.agk-toolcall__summary')?.textContent).toContain('4200');
    expect(view.container.querySelector('pre')?.textContent).toContain('"amount": 4200');
    expect(screen.queryByText('Arguments (streaming)')).toBeNull();
    expect(screen.getByText(en.messages.tools.argumentsIncomplete)).toBeInTheDocument();
  });

  it('arguments that are not JSON are said so in the locale, the parser’s own words kept apart in English', async () => {
    const store = await playedStore([
      {
        say: 'go',
        events: runOf([
          { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'refund' },
          { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: "{orderId: 'A-1'}" },
          { type: 'TOOL_CALL_END', toolCallId: 'c1' },
        ]),
      },
    ]);
    const view = render(
      <AgentLocaleProvider locale={zhCN}>
        <AgentProvider store={store}>
          <ToolCallCard id="c1" defaultOpen />
        </AgentProvider>
      </AgentLocaleProvider>,
    );
    const error = view.container.querySelector('.agk-error-text');
    expect(error?.textContent).toContain(zhCN.messages.tools.argumentsNotJson);
    const detail = error?.querySelector('[lang="en"]');
    expect(detail?.textContent).toMatch(/JSON/);
    expect(error?.textContent?.replace(detail?.textContent ?? '', '')).not.toMatch(/not valid JSON/);
  });
});

describe('conversation: arguments the call cannot take', () => {
  const card = async (args: string) => {
    const store = await playedStore([
      {
        say: 'go',
        events: runOf([
          { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'plan' },
          { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: args },
          { type: 'TOOL_CALL_END', toolCallId: 'c1' },
        ]),
      },
    ]);
    const view = render(
      <AgentProvider store={store}>
        <ToolCallCard id="c1" defaultOpen />
      </AgentProvider>,
    );
    return view.container.querySelector('.agk-error-text');
  };

  it('says in English that they are not JSON, then only the parser’s words', async () => {
    const error = await card('{"orderId": A-1001');
    const detail = error?.querySelector('[lang="en"]')?.textContent ?? '';
    expect(detail).toMatch(/^(Unexpected token|Expected)/);
    expect(error?.textContent?.replace(detail, '').trim()).toBe(en.messages.tools.argumentsNotJson);
  });

  it('says that arguments nested too deep are too deep, not that they are not JSON', async () => {
    const error = await card(`{"steps":${'['.repeat(600)}${']'.repeat(600)}}`);
    expect(error?.textContent).toBe(en.messages.tools.argumentsTooDeep);
    expect(error?.textContent).not.toMatch(/not valid JSON/);
  });
});

describe("conversation: an avatar's initial", () => {
  it("is upper-cased by the components' language, not the machine's: a Turkish page and an English one each by its own rules", async () => {
    const store = createAgentStore({
      source: { async *run() {} },
      initialMessages: [{ id: '5b1f0c8e-8a4c-4d0e-9a53-0c6f5d2b7e41', role: 'assistant', name: 'ıslak işçi', content: 'Merhaba' }],
    });
    const initial = (view: ReturnType<typeof render>) => view.container.querySelector('.agk-message__avatar')?.getAttribute('data-initial');
    const english = renderList(store);
    // English has no dotless i: "ı" upper-cases to "I".
    expect(initial(english)).toBe('I');
    english.unmount();
    const turkish = renderList(store, {}, (list) => <AgentLocaleProvider locale={defineLocale('tr', {})}>{list}</AgentLocaleProvider>);
    expect(initial(turkish)).toBe('I');
    turkish.unmount();
    const dotted = createAgentStore({
      source: { async *run() {} },
      initialMessages: [{ id: 'm2', role: 'assistant', name: 'işçi', content: 'x' }],
    });
    expect(
      initial(renderList(dotted, {}, (list) => <AgentLocaleProvider locale={defineLocale('tr', {})}>{list}</AgentLocaleProvider>)),
    ).toBe('İ');
  });
});

describe('conversation: one sentence per state', () => {
  it('does not repeat a tool result under its card, nor under a custom renderer', async () => {
    const store = await playedStore([
      {
        say: 'Refund',
        events: runOf([
          ...say('a1', 'Looking it up.'),
          ...call('c1', 'lookup_order', { orderId: 'A-1001' }, { parent: 'a1', result: { status: 'delivered' } }),
          ...call('c2', 'show_map', { city: 'Lyon' }, { parent: 'a1', result: { ok: true } }),
        ]),
      },
    ]);
    const { container } = renderList(store, {
      renderTool: (c) => (c.name === 'show_map' ? <p>Map of Lyon</p> : undefined),
    });
    expect(container.textContent).not.toMatch(/Result (of|for)/);
    expect(container.querySelector('article[data-role="tool"]')).toBeNull();
  });

  it('states a run error once: not in the conversation, whose cut reply keeps a short incomplete mark', async () => {
    const store = await playedStore([
      {
        say: 'Refund',
        events: [
          ...runOf(
            [
              ...say('a1', 'Checking the payment.'),
              ...call('c1', 'refund_order', refundArgs, { parent: 'a1' }),
              { type: 'TEXT_MESSAGE_START', messageId: 'a2', role: 'assistant' },
              { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a2', delta: 'The provider answered with' },
            ],
            null,
          ),
          { type: 'RUN_ERROR', message: 'Payment provider unavailable', code: 'UPSTREAM' },
        ],
      },
    ]);
    const { container } = renderList(store);
    expect(container.textContent).not.toContain('Payment provider unavailable');
    expect(container.textContent).not.toContain('Run failed');
    const cut = screen.getByText(/answered with/).closest('article') as HTMLElement;
    expect(cut).toHaveAttribute('data-state', 'incomplete');
    expect(cut).toHaveTextContent('This reply may be incomplete.');
    expect(screen.getByText('Checking the payment.').closest('article')).toHaveAttribute('data-state', 'complete');
  });

  it('marks a reply stopped mid-stream as possibly incomplete, and not a reply that had ended before the stop', async () => {
    const store = await openRunStore(
      [
        ...say('a1', 'The order shipped on Monday.'),
        { type: 'TEXT_MESSAGE_START', messageId: 'a2', role: 'assistant' },
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a2', delta: 'The order was delivered broken, so I will refund' },
      ],
      { say: 'Refund' },
    );
    renderList(store);
    await act(async () => {
      await store.getState().stop();
    });
    const cut = screen.getByText(/so I will refund/).closest('article') as HTMLElement;
    expect(cut).toHaveAttribute('data-state', 'incomplete');
    expect(cut).toHaveTextContent('This reply may be incomplete.');
    expect(screen.getByText('The order shipped on Monday.').closest('article')).toHaveAttribute('data-state', 'complete');
  });

  it('shows an activity plan as a checklist in words, not JSON', async () => {
    const store = await playedStore([
      {
        say: 'Plan my move',
        events: runOf([
          {
            type: 'ACTIVITY_SNAPSHOT',
            messageId: 'plan',
            activityType: 'PLAN',
            content: {
              title: 'Office move',
              steps: [
                { title: 'Book movers', done: true },
                { description: 'Transfer internet', status: 'in_progress' },
                { title: 'Order keys', status: 'pending' },
              ],
            },
          },
        ]),
      },
    ]);
    const { container } = renderList(store);
    const activity = container.querySelector('article[data-role="activity"]') as HTMLElement;
    expect(activity.querySelector('pre')).toBeNull();
    const list = within(activity).getByRole('list', { name: 'Office move' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual(['Book movers (done)', 'Transfer internet (in progress)', 'Order keys (pending)']);
    expect(items.map((li) => li.getAttribute('data-state'))).toEqual(['done', 'in_progress', 'pending']);
  });

  it('names reasoning truthfully: "Reasoning" with a word count, never "Thought for N words"', async () => {
    const store = await playedStore([
      {
        say: 'Eligible?',
        events: runOf([
          { type: 'REASONING_START', messageId: 'span' },
          { type: 'REASONING_MESSAGE_START', messageId: 'r1', role: 'reasoning' },
          { type: 'REASONING_MESSAGE_CONTENT', messageId: 'r1', delta: 'The order was delivered 12 days ago.' },
          { type: 'REASONING_MESSAGE_END', messageId: 'r1' },
          { type: 'REASONING_END', messageId: 'span' },
        ]),
      },
    ]);
    render(
      <AgentProvider store={store}>
        <Reasoning id="r1" />
      </AgentProvider>,
    );
    const trigger = screen.getByRole('button', { name: 'Reasoning, 7 words' });
    expect(trigger.closest('.agk-reasoning')).toHaveAttribute('data-state', 'closed');
    expect(trigger.textContent).not.toContain('Thought for');
  });
});

describe('conversation: decisions in the transcript', () => {
  const raised = (id: string, toolCallId: string) => ({
    say: 'Refund',
    events: runOf(call(toolCallId, 'refund_order', refundArgs), approval(id, toolCallId)),
  });
  const time = localeValue(en).format.time(NOW);

  it('leaves out a time no Date holds (a log the app made with nanoseconds), rather than taking the list down', async () => {
    const played = await playedStore([
      raised('int-1', 'c1'),
      { resume: [{ interruptId: 'int-1', status: 'resolved', payload: { approved: true } }], events: runOf(say('a9', 'Refund issued.')) },
    ]);
    const log = played.session.entries.map((entry) => ({ ...entry, at: entry.at * 1_000_000 }));
    const store = createAgentStore({ source: { async *run() {} }, log, asRecorded: true });
    const { container } = renderList(store);
    const line = container.querySelector('[data-agk-decision="int-1"]') as HTMLElement;
    expect(line).toHaveTextContent(/^You approved refund_order$/);
    expect(line.querySelector('time')).toBeNull();
    expect(screen.getByText('Refund issued.')).toBeInTheDocument();
  });

  it("keeps a tool name's and a comment's direction to themselves: an override in them cannot reorder the line", async () => {
    const spoof = '\u202Eexe.tnemyap_dnuor';
    const store = await playedStore([
      { say: 'Pay', events: runOf([...call('c1', spoof, refundArgs), ...call('c2', spoof, refundArgs)], approval('int-1', 'c1')) },
      { resume: [{ interruptId: 'int-1', status: 'resolved', payload: { approved: true, comment: '\u202Bfine' } }], events: runOf([]) },
    ]);
    const { container } = renderList(store);
    const line = container.querySelector('[data-agk-decision="int-1"]') as HTMLElement;
    expect([...line.querySelectorAll('bdi')].map((b) => b.textContent)).toEqual([spoof, '\u202Bfine']);
    // The sentence's own text stays outside them, and reads as before.
    expect(line).toHaveTextContent(`You approved ${spoof}, comment: “\u202Bfine” · ${time}`);
    // A repeated call's number too.
    const names = [...container.querySelectorAll('.agk-toolcall__name')];
    expect(names.map((n) => n.textContent)).toEqual([`${spoof} (1)`, `${spoof} (2)`]);
    expect(names.map((n) => n.querySelector('bdi')?.textContent)).toEqual([spoof, spoof]);
  });

  it('says what was approved, when, after the messages of the run that asked', async () => {
    const store = await playedStore([
      raised('int-1', 'c1'),
      { resume: [{ interruptId: 'int-1', status: 'resolved', payload: { approved: true } }], events: runOf(say('a9', 'Refund issued.')) },
    ]);
    const { container } = renderList(store);
    const line = container.querySelector('[data-agk-decision="int-1"]') as HTMLElement;
    expect(line).toHaveTextContent(`You approved refund_order · ${time}`);
    expect(line).toHaveAttribute('tabindex', '-1');
    // After the message that holds the call, before the reply of the run the answer started.
    const order = [...container.querySelectorAll('.agk-toolcall, [data-agk-decision], article[data-role="assistant"]')];
    expect(order.map((el) => el.getAttribute('data-agk-decision') ?? el.getAttribute('data-role') ?? 'card')).toEqual([
      'assistant',
      'card',
      'int-1',
      'assistant',
    ]);
    expect(order.at(-1)).toHaveTextContent('Refund issued.');
  });

  it('says what was rejected with the comment, what was answered, and what was cancelled', async () => {
    const store = await playedStore([
      raised('int-1', 'c1'),
      {
        resume: [{ interruptId: 'int-1', status: 'resolved', payload: { approved: false, comment: 'Wrong amount' } }],
        events: runOf([]),
      },
      {
        say: 'Pick a carrier',
        events: runOf([], {
          outcome: { type: 'interrupt', interrupts: [{ id: 'int-2', reason: 'input_required', message: 'Which carrier and when?' }] },
        }),
      },
      { resume: [{ interruptId: 'int-2', status: 'resolved', payload: { carrier: 'Parcelo', day: 'Friday' } }], events: runOf([]) },
      raised('int-3', 'c3'),
      { resume: [{ interruptId: 'int-3', status: 'cancelled' }], events: runOf([]) },
    ]);
    const { container } = renderList(store);
    const text = (id: string) => container.querySelector(`[data-agk-decision="${id}"]`)?.textContent;
    expect(text('int-1')).toBe(`You rejected refund_order, comment: “Wrong amount” · ${time}`);
    // In the words the interrupt's panel says it in ("Your answer: …"): each field by its label, in a list.
    expect(text('int-2')).toBe(`You answered: Carrier: Parcelo and Day: Friday · ${time}`);
    expect(text('int-3')).toBe(`Cancelled: refund_order · ${time}`);
  });

  it("says an answer's fields by the titles its form gave them", async () => {
    const store = await playedStore([
      {
        say: 'Cancel and refund',
        events: runOf([], {
          outcome: {
            type: 'interrupt',
            interrupts: [
              {
                id: 'int-9',
                reason: 'input_required',
                message: 'Why are you cancelling?',
                responseSchema: {
                  type: 'object',
                  properties: { reason: { type: 'string', title: 'Reason', enum: ['price', 'other'] }, refund_months: { type: 'integer' } },
                },
              },
            ],
          },
        }),
      },
      { resume: [{ interruptId: 'int-9', status: 'resolved', payload: { reason: 'other', refund_months: 1200 } }], events: runOf([]) },
    ]);
    const { container } = renderList(store);
    expect(container.querySelector('[data-agk-decision="int-9"]')?.textContent).toBe(
      `You answered: Reason: other and Refund months: 1,200 · ${time}`,
    );
  });

  it("says the date of a decision made on an earlier day, not only its time, and only the time of today's, in English and Chinese", async () => {
    const yesterday = Date.parse('2026-11-29T12:00:00Z');
    let clock = yesterday;
    const store = await playedStore(
      [raised('int-1', 'c1'), { resume: [{ interruptId: 'int-1', status: 'resolved', payload: { approved: true } }], events: runOf([]) }],
      { now: () => clock },
    );
    clock = NOW;
    const line = (container: HTMLElement) => container.querySelector('[data-agk-decision="int-1"]');
    const english = renderList(store);
    expect(line(english.container)?.textContent).toBe(`You approved refund_order · ${localeValue(en).format.dateTime(yesterday)}`);
    expect(line(english.container)?.textContent).toMatch(/ · Nov 29, 2026, /);
    english.unmount();
    const chinese = renderList(store, {}, (node) => <AgentLocaleProvider locale={zhCN}>{node}</AgentLocaleProvider>);
    expect(line(chinese.container)?.textContent).toMatch(/ · 2026年11月29日 /);
    expect(line(chinese.container)?.textContent).toContain(localeValue(zhCN).format.dateTime(yesterday));
    chinese.unmount();
    // The same decision read on the day it was made: its time only.
    clock = yesterday + 60_000;
    const sameDay = renderList(store);
    expect(line(sameDay.container)?.textContent).toBe(`You approved refund_order · ${localeValue(en).format.time(yesterday)}`);
  });

  it('gives a decision of today its date as the day ends, with nothing else rendering it again', async () => {
    // A minute before the reader's midnight.
    const made = new Date(2026, 10, 29, 23, 59, 0).getTime();
    let clock = made;
    const store = await playedStore(
      [raised('int-1', 'c1'), { resume: [{ interruptId: 'int-1', status: 'resolved', payload: { approved: true } }], events: runOf([]) }],
      { now: () => clock },
    );
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const { container } = renderList(store);
      const line = () => container.querySelector('[data-agk-decision="int-1"]')?.textContent;
      expect(line()).toBe(`You approved refund_order · ${localeValue(en).format.time(made)}`);
      clock = made + 30_000;
      act(() => vi.advanceTimersByTime(30_000));
      expect(line()).toBe(`You approved refund_order · ${localeValue(en).format.time(made)}`);
      clock = made + 61_000;
      act(() => vi.advanceTimersByTime(31_000));
      expect(line()).toBe(`You approved refund_order · ${localeValue(en).format.dateTime(made)}`);
    } finally {
      vi.useRealTimers();
    }
  });

  it('says what a confirmation answered Yes (no payload) confirmed, in English and Chinese', async () => {
    const played = () =>
      playedStore([
        {
          say: 'Email the invoice',
          events: runOf([], {
            outcome: {
              type: 'interrupt',
              interrupts: [{ id: 'int-ok', reason: 'confirmation', message: 'Email invoice INV-2041 to 王芳?' }],
            },
          }),
        },
        { resume: [{ interruptId: 'int-ok', status: 'resolved' }], events: runOf([]) },
      ]);
    const { container } = renderList(await played());
    const line = container.querySelector('[data-agk-decision="int-ok"]');
    expect(line?.textContent).toBe(`You confirmed: Email invoice INV-2041 to 王芳? · ${time}`);
    expect(line).toHaveAttribute('data-status', 'confirmed');
    const zh = renderList(await played(), {}, (node) => <AgentLocaleProvider locale={zhCN}>{node}</AgentLocaleProvider>);
    expect(zh.container.querySelector('[data-agk-decision="int-ok"]')?.textContent).toMatch(/^你确认了：Email invoice INV-2041 to 王芳\?/);
  });
});

describe('conversation: replies built to break the renderer', () => {
  const quoted = `${'>'.repeat(3000)} the innermost words`;

  it('a reply quoted 3,000 levels deep shows as plain text, and the replies around it still render as Markdown', async () => {
    await preloadMarkdown();
    const store = await playedStore([], {
      pending: [runOf([...say('a1', 'Before **it**.'), ...say('a2', quoted), ...say('a3', 'After **it**.')])],
    });
    const began = performance.now();
    renderList(store);
    await store.getState().run('Go');
    await waitFor(() => expect(screen.getByText(/the innermost words/)).toBeInTheDocument());
    expect(performance.now() - began).toBeLessThan(2_000);
    expect(screen.getAllByText('it', { selector: 'strong' })).toHaveLength(2);
  });

  it('tool arguments nested 6,000 deep, streaming and complete, show as text in their card', async () => {
    const deep = `{"plan":${'['.repeat(6000)}${']'.repeat(6000)}}`;
    const args = (toolCallId: string) => [
      { type: 'TOOL_CALL_START', toolCallId, toolCallName: 'plan' },
      { type: 'TOOL_CALL_ARGS', toolCallId, delta: deep.slice(0, 7000) },
    ];
    const store = await playedStore([], {
      pending: [
        runOf(
          [
            ...args('done'),
            { type: 'TOOL_CALL_ARGS', toolCallId: 'done', delta: deep.slice(7000) },
            { type: 'TOOL_CALL_END', toolCallId: 'done' },
            ...args('streaming'),
          ],
          null,
        ),
      ],
    });
    renderList(store);
    await store.getState().run('Plan');
    const user = userEvent.setup();
    await waitFor(() => expect(screen.getAllByRole('button', { name: /plan/i }).length).toBeGreaterThanOrEqual(2));
    for (const toggle of screen.getAllByRole('button', { name: /plan/i })) await user.click(toggle);
    expect(document.body.textContent).toContain('[[[[');
  });

  it('a reply whose Markdown the renderer cannot take shows as plain text, not a blank chat', async () => {
    const markdown = await import('../src/MarkdownRenderer.js');
    const text = `${'- '.repeat(2500)}deep`;
    expect(() => markdown.markdownToText(text)).not.toThrow();
    expect(markdown.markdownToText(quoted)).toContain('the innermost words');
  });
});

describe('conversation: announcements', () => {
  it('speaks plain text: no Markdown syntax, tables as cells', async () => {
    const markdown = await import('../src/MarkdownRenderer.js');
    const spoken = markdown.markdownToText(
      '**Refund issued** for [order A-1001](https://shop.example/o/1).\n\n| Order | Total |\n|---|---|\n| A-1001 | $42 |\n\n- `RF-77`\n- done',
    );
    expect(spoken).not.toMatch(/\*\*|\||\]\(|`/);
    expect(spoken).toContain('Refund issued for order A-1001.');
    expect(spoken).toContain('Order, Total');
    expect(spoken).toContain('A-1001, $42');
  });

  it('caps a long reply and says how much more there is; a cut reply says it may be incomplete', () => {
    const long = Array.from({ length: 400 }, (_, i) => `word${i}`).join(' ');
    const capped = announcementText(localeValue(en), 'Assistant', long, false);
    expect(capped.length).toBeLessThan(400);
    expect(capped).toMatch(/^Assistant: word0 word1 /);
    expect(capped).toMatch(/… \(reply continues, \d+ more words\)$/);
    expect(announcementText(localeValue(en), 'Assistant', 'The provider answered with', true)).toBe(
      'Assistant: The provider answered with (This reply may be incomplete.)',
    );
    // In Chinese, with the full-width colon of its own punctuation, as its other sentences have.
    const zh = localeValue(zhCN);
    expect(announcementText(zh, '助手', '退款已完成。', true)).toBe('助手：退款已完成。（这条回复可能不完整。）');
    expect(zh.messages.messages.announce.becameIncomplete('助手')).toMatch(/^助手：/);
  });

  it('announces a reply whose tool call, in the same frame, opens a message of its own', async () => {
    await preloadMarkdown();
    const { store, push, start } = drivenStore();
    render(
      <AgentProvider store={store}>
        <MessageList />
      </AgentProvider>,
    );
    await start();
    await push(
      { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'Let me look up order A-1001.' },
      { type: 'TEXT_MESSAGE_END', messageId: 'm1' },
      { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'lookup_order' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"orderId":"A-1001"}' },
    );
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Assistant: Let me look up order A-1001.'));
  });

  it('announces a finished reply as plain text in the polite region', async () => {
    await preloadMarkdown();
    const store = await playedStore([], { pending: [runOf(say('a1', 'Your **refund** is [issued](https://shop.example).'))] });
    renderList(store);
    await store.getState().run('Refund');
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Assistant: Your refund is issued.'));
  });

  it('announces a reply the same as the one before it again: a screen reader hears a new node, not an unchanged one', async () => {
    await preloadMarkdown();
    const store = await playedStore([], { pending: [runOf(say('a1', 'Done.')), runOf(say('a2', 'Done.'))] });
    renderList(store);
    await store.getState().run('Cancel order A-1001');
    const status = screen.getByRole('status');
    await waitFor(() => expect(status).toHaveTextContent('Assistant: Done.'));
    const first = status.firstElementChild;
    expect(first).not.toBeNull();
    await store.getState().run('Cancel order A-1002');
    await waitFor(() => expect(status.firstElementChild).not.toBe(first));
    expect(status).toHaveTextContent('Assistant: Done.');
  });

  it('announces a reply that was still streaming when the list mounted, once it completes (history stays unread)', async () => {
    await preloadMarkdown();
    const store = await playedStore([{ say: 'Hello', events: runOf(say('a0', 'Earlier reply.')) }], {
      pending: [runOf(say('a1', 'Your refund is issued.', 6))],
      delayMs: 40,
    });
    const running = store.getState().run('Refund');
    await waitFor(() => expect(store.getState().thread.messages.byId.get('a1')?.streaming).toBe(true));
    renderList(store);
    await running;
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Assistant: Your refund is issued.'));
    expect(screen.getByRole('status')).not.toHaveTextContent('Earlier reply');
  });

  it('clears what it said of a thread the reader left for a new one (New thread)', async () => {
    await preloadMarkdown();
    const store = await playedStore([], { pending: [runOf(say('a1', 'Your refund is issued.'))] });
    renderList(store);
    await store.getState().run('Refund');
    const status = screen.getByRole('status');
    await waitFor(() => expect(status).toHaveTextContent('Assistant: Your refund is issued.'));
    await act(async () => {
      store.getState().reset();
    });
    expect(status).toHaveTextContent('');
  });

  it('announces the first reply of the new thread, even under an id the last thread used', async () => {
    await preloadMarkdown();
    const store = await playedStore([], {
      pending: [runOf(say('a1', 'Your refund is issued.')), runOf(say('a1', 'Hello in the new thread.'))],
    });
    renderList(store);
    await store.getState().run('Refund');
    const status = screen.getByRole('status');
    await waitFor(() => expect(status).toHaveTextContent('Assistant: Your refund is issued.'));
    await act(async () => {
      store.getState().reset();
    });
    await store.getState().run('Hi');
    await waitFor(() => expect(status).toHaveTextContent('Assistant: Hello in the new thread.'));
  });

  it('announces a reply its run cut short with the incomplete note', async () => {
    await preloadMarkdown();
    const store = await playedStore([], {
      pending: [
        [
          ...runOf(
            [
              { type: 'TEXT_MESSAGE_START', messageId: 'a1', role: 'assistant' },
              { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a1', delta: 'The provider answered with' },
            ],
            null,
          ),
          { type: 'RUN_ERROR', message: 'Payment provider unavailable' },
        ],
      ],
    });
    renderList(store);
    await store.getState().run('Refund');
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent('Assistant: The provider answered with (This reply may be incomplete.)'),
    );
  });
});

/** Every string of a set, by its path; functions are called with sample arguments (as the locale test does). */
function leaves(value: unknown, path = ''): Array<[string, string]> {
  if (typeof value === 'string') return [[path, value]];
  if (typeof value === 'function') return [[path, String((value as (...args: unknown[]) => unknown)(2, 'x', 3, 'y'))]];
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => leaves(v, path ? `${path}.${k}` : k));
  return [[path, String(value)]];
}

describe('conversation: headings and languages', () => {
  it('has every string of the messages and tools areas in zh-CN, in Chinese', () => {
    for (const area of ['messages', 'tools'] as const) {
      const english = new Map(leaves(en.messages[area]));
      const chinese = leaves(zhCN.messages[area]);
      expect(chinese.map(([k]) => k).sort()).toEqual([...english.keys()].sort());
      const same = /^[\s\d.:…/()%+\-–—#×✓✕→←↑↓▸▾·•"'A-Za-z_[\]]*$/;
      expect(
        chinese.filter(
          ([k, text]) => !/[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]/.test(text) && !(same.test(text) && text === english.get(k)),
        ),
      ).toEqual([]);
    }
  });

  it('starts a reply’s headings one level below the heading above the conversation', async () => {
    await preloadMarkdown();
    const store = await playedStore([{ say: 'x', events: runOf(say('a1', '# Summary\n\n## Details\n\ntext')) }]);
    renderList(store, {}, (list) => (
      <main>
        <h1>Shop</h1>
        {list}
      </main>
    ));
    expect((await screen.findByRole('heading', { name: 'Summary' })).tagName).toBe('H2');
    expect(screen.getByRole('heading', { name: 'Details' }).tagName).toBe('H3');
  });

  it('speaks Chinese with the zh-CN locale', async () => {
    const store = await playedStore([
      {
        say: '帮我退款',
        events: runOf([...say('a1', '好的。'), ...call('c1', 'refund_order', refundArgs, { parent: 'a1' })], approval('int-1', 'c1')),
      },
    ]);
    renderList(store, {}, (list) => <AgentLocaleProvider locale={zhCN}>{list}</AgentLocaleProvider>);
    expect(screen.getByRole('log', { name: '对话' })).toBeInTheDocument();
    expect(screen.getByText('等待你的决定')).toBeInTheDocument();
    expect(screen.getByText('助手')).toBeInTheDocument();
  });

  it('message parts forward refs and take className and style; data-state says streaming, complete or incomplete', async () => {
    const store = await playedStore([{ say: 'x', events: runOf(say('a1', 'Hello.')) }]);
    const ref = React.createRef<HTMLElement>();
    render(
      <AgentProvider store={store}>
        <Message.Root id="a1" ref={ref} className="mine" style={{ color: 'red' }} data-testid="m">
          <Message.Body className="body" />
        </Message.Root>
      </AgentProvider>,
    );
    const root = screen.getByTestId('m');
    expect(ref.current).toBe(root);
    expect(root).toHaveClass('agk-message', 'mine');
    expect(root).toHaveAttribute('data-state', 'complete');
    expect(root.querySelector('.agk-message__body')).toHaveClass('body');
  });
});
