import type { LoggedEvent } from '@aguikit/core';
import { AgentProvider, type AgentStore } from '@aguikit/react';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { EventTimelinePanel } from '../src/EventTimeline.js';
import { AgentLocaleProvider, zhCN } from '../src/locale.js';
import { call, playedStore, runOf, type ScriptEvent, say } from '../src/storybook/scripted.js';

function show(store: AgentStore) {
  return render(
    <AgentProvider store={store}>
      <EventTimelinePanel />
    </AgentProvider>,
  );
}

// Which events the timeline works out a row for (type, groups, summary, search text): a summary costs allocations per event.
const summarized = vi.hoisted(() => new Set<unknown>());
vi.mock('../src/timelineContext.js', async (actual) => {
  const real = await actual<typeof import('../src/timelineContext.js')>();
  return {
    ...real,
    rowOf: (entry: LoggedEvent, names?: Parameters<typeof real.rowOf>[1]) => {
      summarized.add(entry);
      return real.rowOf(entry, names);
    },
  };
});

/** A run whose one reply streams in `deltas` pieces: a log of `deltas + 4` events. */
const longReply = (deltas: number) =>
  playedStore([
    {
      say: 'go',
      events: runOf([
        { type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant' },
        ...Array.from({ length: deltas }, (_, i) => ({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: `${i} ` })),
        { type: 'TEXT_MESSAGE_END', messageId: 'm' },
      ]),
    },
  ]);

const rows = () => screen.queryAllByRole('option');
const typeOf = (row: HTMLElement) => row.querySelector('.agk-timeline__type')?.textContent ?? '';
const row = (index: number) => rows().find((r) => r.querySelector('.agk-timeline__index')?.textContent === `#${index}`);
const fact = (name: string) => document.querySelector(`[data-fact="${name}"]`)?.textContent;

/** 0 RUN_STARTED, 1-3 message a1, 4-7 call c1 with its result, 8 snapshot, 9 delta, 10 RUN_FINISHED (interrupt). */
const run: ScriptEvent[] = runOf(
  [
    ...say('a1', 'Looking it up.'),
    ...call('c1', 'lookup_order', { orderId: 'A-1001' }, { parts: 1, result: { amount: 42 } }),
    { type: 'STATE_SNAPSHOT', snapshot: { refund: { status: 'idle' } } },
    { type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/refund/status', value: 'awaiting_approval' }] },
  ],
  { outcome: { type: 'interrupt', interrupts: [{ id: 'int-1', reason: 'confirmation', message: 'Approve?' }] } },
);

describe('EventTimelinePanel', () => {
  it('lists every event with its index, type and summary', async () => {
    show(await playedStore([{ say: 'go', events: run }]));
    expect(rows().map(typeOf)).toEqual([
      'RUN_STARTED',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_END',
      'TOOL_CALL_START',
      'TOOL_CALL_ARGS',
      'TOOL_CALL_END',
      'TOOL_CALL_RESULT',
      'STATE_SNAPSHOT',
      'STATE_DELTA',
      'RUN_FINISHED',
    ]);
    // What changed comes first, then sizes and ids.
    expect(row(2)).toHaveTextContent('“Looking it up.” · +14 chars · message a1');
    expect(row(4)).toHaveTextContent('lookup_order · tool call c1');
    expect(row(5)).toHaveTextContent('lookup_order · {"orderId":"A-1001"} · +20 chars · tool call c1');
    expect(row(9)).toHaveTextContent('replace /refund/status');
    expect(row(10)).toHaveTextContent('stopped on 1 interrupt');
    expect(screen.getByText('11 events')).toBeInTheDocument();
  });

  it('names an event of an empty type "(no type)", as one with none: never a blank row', async () => {
    show(await playedStore([{ say: 'go', events: runOf([{ type: '' }, { kind: 'no type at all' }]) }]));
    expect(rows().map(typeOf)).toEqual(['RUN_STARTED', '(no type)', '(no type)', 'RUN_FINISHED']);
  });

  it('filters by type group and by text, together', async () => {
    const user = userEvent.setup();
    show(await playedStore([{ say: 'go', events: run }]));
    await user.click(screen.getByLabelText('Text'));
    await user.click(screen.getByLabelText('Lifecycle'));
    // The interrupting finish is a lifecycle event and an interrupts event: either group keeps it.
    expect(rows().map(typeOf)).toEqual([
      'TOOL_CALL_START',
      'TOOL_CALL_ARGS',
      'TOOL_CALL_END',
      'TOOL_CALL_RESULT',
      'STATE_SNAPSHOT',
      'STATE_DELTA',
      'RUN_FINISHED',
    ]);
    await user.click(screen.getByLabelText('Tools'));
    await user.click(screen.getByLabelText('State'));
    expect(rows().map(typeOf)).toEqual(['RUN_FINISHED']);
    await user.click(screen.getByLabelText('Interrupts'));
    expect(screen.getByText('No event matches the filters.')).toBeInTheDocument();
    await user.click(screen.getByLabelText('Lifecycle'));
    expect(rows().map(typeOf)).toEqual(['RUN_STARTED', 'RUN_FINISHED']);
    for (const group of ['Text', 'Tools', 'State', 'Interrupts']) await user.click(screen.getByLabelText(group));
    expect(rows()).toHaveLength(11);
    await user.type(screen.getByLabelText('Filter'), 'C1');
    await waitFor(() => expect(rows().map(typeOf)).toEqual(['TOOL_CALL_START', 'TOOL_CALL_ARGS', 'TOOL_CALL_END', 'TOOL_CALL_RESULT']));
    expect(screen.getByText('4 of 11 events')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Filter'));
    await user.type(screen.getByLabelText('Filter'), '#9');
    await waitFor(() => expect(rows().map(typeOf)).toEqual(['STATE_DELTA']));
  });

  it('puts each diagnostic on the row of the event it names, with its severity', async () => {
    const user = userEvent.setup();
    const store = await playedStore([
      {
        say: 'go',
        events: runOf([
          { type: 'TEXT_MESSAGE_CONTENT', messageId: 'ghost', delta: 'boo' },
          ...say('m1', 'Hi'),
          { type: 'NOT_A_REAL_EVENT' },
          { type: 'STATE_DELTA', delta: [{ op: 'remove', path: '/nothing' }] },
        ]),
      },
    ]);
    show(store);
    const codes = store.getState().thread.diagnostics.map((d) => [d.index, d.severity, d.code]);
    expect(codes).toEqual([
      [1, 'error', 'CONTENT_WITHOUT_START'],
      [5, 'warning', 'UNKNOWN_EVENT_TYPE'],
      [6, 'warning', 'PATCH_FAILED'],
    ]);
    expect(row(1)).toHaveAttribute('data-diagnostics', 'error');
    expect(within(row(1) as HTMLElement).getByText('1 error')).toBeInTheDocument();
    expect(row(5)).toHaveAttribute('data-diagnostics', 'warning');
    expect(within(row(6) as HTMLElement).getByText('1 warning')).toBeInTheDocument();
    for (const clean of [0, 2, 3, 4, 7]) expect(row(clean)).toHaveAttribute('data-diagnostics', 'none');
    await user.click(row(6) as HTMLElement);
    const detail = await screen.findByRole('region', { name: 'After event #6 (STATE_DELTA)' });
    expect(detail).toHaveTextContent('PATCH_FAILED');
    expect(fact('sync')).toBe('desynced');
  });

  it('lists diagnostics of the stream as a whole apart from the rows', async () => {
    show(await playedStore([{ say: 'go', events: runOf(say('m', 'cut'), null) }]));
    expect(screen.getByText('1 diagnostic about the stream as a whole')).toBeInTheDocument();
    expect(document.querySelector('.agk-timeline__stream')).toHaveTextContent('STREAM_TRUNCATED');
    expect(rows().every((r) => r.getAttribute('data-diagnostics') === 'none')).toBe(true);
  });

  it('marks a diagnostic\'s message lang="en" (the engine writes it in English) under another language', async () => {
    const { container } = render(
      <AgentLocaleProvider locale={zhCN}>
        <AgentProvider store={await playedStore([{ say: 'go', events: runOf(say('m', '一半'), null) }])}>
          <EventTimelinePanel />
        </AgentProvider>
      </AgentLocaleProvider>,
    );
    const item = container.querySelector('.agk-timeline__stream li');
    const message = [...(item?.childNodes ?? [])].filter((n) => n.nodeType === Node.TEXT_NODE && /[A-Za-z]{3,}/.test(n.textContent ?? ''));
    expect(message).toEqual([]);
    const english = item?.querySelector('[lang="en"]');
    expect(english?.textContent).toMatch(/[A-Za-z]{3,}/);
    expect(item?.querySelector('.agk-badge')?.closest('[lang]')).toHaveAttribute('lang', 'zh-CN');
  });

  it('time travel: selecting an event shows the run, messages and state as they were right after it', async () => {
    const user = userEvent.setup();
    show(await playedStore([{ say: 'go', events: run }]));
    expect(screen.getByText(/Select an event/)).toBeInTheDocument();
    await user.click(row(8) as HTMLElement);
    const detail = await screen.findByRole('region', { name: 'After event #8 (STATE_SNAPSHOT)' });
    expect(detail).toHaveAttribute('data-run', 'running');
    // The user's message (time travel replays the client's entries too), a1, the assistant message that carries the parentless call c1, and c1's result.
    expect(fact('messages')).toBe('4');
    expect(fact('tool-calls')).toBe('1');
    expect(within(detail).getByText('"idle"')).toBeInTheDocument();
    await user.click(row(10) as HTMLElement);
    const end = await screen.findByRole('region', { name: 'After event #10 (RUN_FINISHED)' });
    expect(end).toHaveAttribute('data-run', 'interrupted');
    expect(fact('interrupts')).toBe('1');
    expect(within(end).getByText('"awaiting_approval"')).toBeInTheDocument();
    await user.click(row(1) as HTMLElement);
    await screen.findByRole('region', { name: 'After event #1 (TEXT_MESSAGE_START)' });
    // The user's message and the one just started.
    expect(fact('messages')).toBe('2');
    expect(
      within(screen.getByRole('list', { name: 'State after event #1' })).getByRole('button', { name: '{0 keys}' }),
    ).toBeInTheDocument();
  });

  it('moves the selection with the keyboard, over the filtered rows only', async () => {
    const user = userEvent.setup();
    show(await playedStore([{ say: 'go', events: run }]));
    const list = screen.getByRole('listbox', { name: 'Events' });
    // Focus with nothing chosen points at the first row (a screen reader names it), and chooses nothing yet:
    // choosing an event turns the devtools to the past.
    list.focus();
    await waitFor(() => expect(list).toHaveAttribute('aria-activedescendant', row(0)?.id));
    expect(row(0)).toHaveAttribute('aria-selected', 'false');
    expect(row(0)).toHaveAttribute('data-active', 'true');
    await user.keyboard('{Enter}');
    expect(row(0)).toHaveAttribute('aria-selected', 'true');
    expect(list).toHaveAttribute('aria-activedescendant', row(0)?.id);
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(row(2)).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{End}');
    expect(row(10)).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{ArrowUp}');
    expect(row(9)).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{Home}');
    expect(row(0)).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{PageDown}');
    expect(row(10)).toHaveAttribute('aria-selected', 'true');
    // With the text rows filtered out, ArrowUp from #4 skips #3, #2 and #1.
    await user.click(row(4) as HTMLElement);
    await user.click(screen.getByLabelText('Text'));
    list.focus();
    await user.keyboard('{ArrowUp}');
    expect(row(0)).toHaveAttribute('aria-selected', 'true');
    await waitFor(() => expect(screen.getByRole('region', { name: 'After event #0 (RUN_STARTED)' })).toBeInTheDocument());
  });

  it('moves on from the row focus pointed at: ArrowDown from the first row chooses the second', async () => {
    const user = userEvent.setup();
    show(await playedStore([{ say: 'go', events: run }]));
    const list = screen.getByRole('listbox', { name: 'Events' });
    list.focus();
    await waitFor(() => expect(list).toHaveAttribute('aria-activedescendant', row(0)?.id));
    await user.keyboard('{ArrowDown}');
    expect(row(1)).toHaveAttribute('aria-selected', 'true');
    expect(list).toHaveAttribute('aria-activedescendant', row(1)?.id);
  });

  it('type-ahead: the letters of a type move the selection to the next event of it, the digits of an index to that event', async () => {
    const user = userEvent.setup();
    show(await playedStore([{ say: 'go', events: run }]));
    const list = screen.getByRole('listbox', { name: 'Events' });
    list.focus();
    await waitFor(() => expect(list).toHaveAttribute('aria-activedescendant', row(0)?.id));
    await user.keyboard('tool');
    expect(row(4)).toHaveAttribute('aria-selected', 'true');
    // A pause starts a new search; one letter again moves on to the next event of it.
    await new Promise((resolve) => setTimeout(resolve, 600));
    await user.keyboard('s');
    expect(row(8)).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('s');
    expect(row(9)).toHaveAttribute('aria-selected', 'true');
    await new Promise((resolve) => setTimeout(resolve, 600));
    await user.keyboard('10');
    expect(row(10)).toHaveAttribute('aria-selected', 'true');
    expect(list).toHaveAttribute('aria-activedescendant', row(10)?.id);
  });

  it('type-ahead reaches an event deep in a long log without paging to it', async () => {
    const user = userEvent.setup();
    show(await longReply(2000));
    const list = screen.getByRole('listbox', { name: 'Events' });
    list.focus();
    await user.keyboard('1500');
    await waitFor(() => expect(row(1500)).toHaveAttribute('aria-selected', 'true'));
    expect(list).toHaveAttribute('aria-activedescendant', row(1500)?.id);
  });

  it('a type-ahead key over a long log lowercases each event type once, not once a row, and an index only for digits', async () => {
    const store = await longReply(2000);
    show(store);
    const list = screen.getByRole('listbox', { name: 'Events' });
    list.focus();
    const lowercased = vi.spyOn(String.prototype, 'toLocaleLowerCase');
    const indexes = vi.spyOn(globalThis, 'String');
    try {
      for (const key of ['z', 'q']) {
        lowercased.mockClear();
        indexes.mockClear();
        // Apart (a new search each), and answered by no row: every row is read.
        list.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
        await new Promise((resolve) => setTimeout(resolve, 600));
        expect(lowercased.mock.calls.length).toBeLessThan(20);
      }
      expect(indexes).not.toHaveBeenCalled();
    } finally {
      lowercased.mockRestore();
      indexes.mockRestore();
    }
    expect(list.querySelector('[aria-selected="true"]')).toBeNull();
  });

  it('renders only a window of a long log', async () => {
    const store = await longReply(2000);
    show(store);
    expect(store.log.entries).toHaveLength(2004);
    expect(screen.getByRole('listbox', { name: 'Events' })).toHaveAttribute('data-virtual', 'true');
    expect(rows().length).toBeGreaterThan(0);
    expect(rows().length).toBeLessThan(50);
    expect(rows()[0]).toHaveAttribute('aria-setsize', '2004');
  });

  it('with nothing filtered, works out the rows it draws, not one per event of a long log', async () => {
    const store = await longReply(5000);
    summarized.clear();
    show(store);
    expect(rows()[0]).toHaveAttribute('aria-setsize', '5004');
    expect(summarized.size).toBeGreaterThan(0);
    expect(summarized.size).toBeLessThan(100);

    // A search reads every row's text; clearing it and hiding one kind reads them as well, which is what they are for.
    summarized.clear();
    await userEvent.type(screen.getByRole('searchbox'), 'TEXT_MESSAGE_END');
    await vi.waitFor(() => expect(rows()).toHaveLength(1));
    expect(summarized.size).toBe(5004);
  });
});
