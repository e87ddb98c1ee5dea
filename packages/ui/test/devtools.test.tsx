import { AgentProvider, type AgentStore } from '@aguikit/react';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as React from 'react';
import { describe, expect, it } from 'vitest';
import { EventTimeline, EventTimelinePanel } from '../src/EventTimeline.js';
import { shortId } from '../src/eventSummary.js';
import { JsonTree } from '../src/JsonTree.js';
import { AgentLocaleProvider, en, localeValue, zhCN } from '../src/locale.js';
import { StateInspector, StateInspectorPanel } from '../src/StateInspector.js';
import { call, playedStore, runOf, type ScriptEvent } from '../src/storybook/scripted.js';

/**
 * The devtools (event timeline, state inspector, JSON tree): rows that lead
 * with what changed, short ids, focus that never drops to <body>, time travel
 * announced, parts that compose, and every string in the locale.
 */

const RUN = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const MESSAGE = 'f47ac10b-58cc-4372-a567-0e02b2c3d479';
const TOOL_CALL = '3d6f4e2a-9b1c-4f7e-8a2d-5c6b7e8f9a0b';

const uuidRun: ScriptEvent[] = [
  { type: 'RUN_STARTED', threadId: 'story-thread', runId: RUN },
  { type: 'TEXT_MESSAGE_START', messageId: MESSAGE, role: 'assistant' },
  { type: 'TEXT_MESSAGE_CONTENT', messageId: MESSAGE, delta: 'Looking up order A-1001 now.' },
  { type: 'TEXT_MESSAGE_END', messageId: MESSAGE },
  ...call(TOOL_CALL, 'lookup_order', { orderId: 'A-1001' }, { parent: MESSAGE, parts: 1 }),
  { type: 'STATE_SNAPSHOT', snapshot: { cart: [{ sku: 'MUG-1' }], items: [], total: 42 } },
  {
    type: 'STATE_DELTA',
    delta: [
      { op: 'replace', path: '/cart/0', value: { sku: 'BOX-9' } },
      { op: 'add', path: '/items/-', value: 'x' },
    ],
  },
  { type: 'RUN_FINISHED', threadId: 'story-thread', runId: RUN },
];

function timeline(store: AgentStore, wrap?: (node: React.ReactNode) => React.ReactNode) {
  const node = (
    <AgentProvider store={store}>
      <EventTimelinePanel />
    </AgentProvider>
  );
  return render(wrap ? wrap(node) : node);
}

const rows = () => screen.queryAllByRole('option');
const row = (index: number) => rows().find((r) => r.querySelector('.agk-timeline__index')?.textContent === `#${index}`);
const summaryOf = (index: number) => row(index)?.querySelector('.agk-timeline__summary') as HTMLElement;

describe('timeline rows lead with what changed', () => {
  it('a text delta row shows the delta text before any id, and ids are shortened with the full id on hover', async () => {
    timeline(await playedStore([{ events: uuidRun }]));
    const summary = summaryOf(2);
    expect(summary.textContent?.startsWith('“Looking up order A-1001 now.”')).toBe(true);
    const id = within(summary).getByTitle(MESSAGE);
    expect(id).toHaveTextContent('f47ac10b…');
    expect(summary).not.toHaveTextContent(MESSAGE);
    // The run row: the id shortened, never the whole UUID in the row.
    expect(summaryOf(0)).not.toHaveTextContent(RUN);
    expect(within(summaryOf(0)).getByTitle(RUN)).toHaveTextContent('7c9e6679…');
    // Read out, the parts the dot separates on screen stay words apart: only the dot is hidden, not the spaces around it.
    const seps = [...summary.querySelectorAll('.agk-devtools__sep')];
    expect(seps.length).toBeGreaterThan(0);
    for (const sep of seps) {
      expect(sep.textContent).toBe(' · ');
      expect(sep.getAttribute('aria-hidden')).toBeNull();
      expect([...sep.querySelectorAll('[aria-hidden="true"]')].map((n) => n.textContent)).toEqual(['·']);
    }
  });

  it('shortens ids that share a long prefix (a run’s, a subagent’s) to forms that still tell them apart', () => {
    const ids = ['run-12e3f4a5-b6c7-4d8e-9f00-112233445566-researcher-m1', 'run-12e3f4a5-b6c7-4d8e-9f00-112233445566-writer-m1'];
    const short = ids.map(shortId);
    expect(short).toEqual(['…researcher-m1', '…writer-m1']);
    expect(shortId('c1')).toBe('c1');
  });

  it('tool rows lead with the tool name (and the arguments delta), state rows with the ops or the key count', async () => {
    timeline(await playedStore([{ events: uuidRun }]));
    expect(summaryOf(4).textContent?.startsWith('lookup_order')).toBe(true);
    expect(summaryOf(5).textContent?.startsWith('lookup_order')).toBe(true);
    expect(summaryOf(5)).toHaveTextContent('{"orderId":"A-1001"}');
    expect(summaryOf(6).textContent?.startsWith('lookup_order')).toBe(true);
    expect(summaryOf(7).textContent?.startsWith('3 keys')).toBe(true);
    expect(summaryOf(8).textContent?.startsWith('replace /cart/0, add /items/-')).toBe(true);
    const ops = [...summaryOf(8).querySelectorAll('[data-op]')].map((op) => op.getAttribute('data-op'));
    expect(ops).toEqual(['replace', 'add']);
  });

  it('the detail names the full ids of the selected event', async () => {
    const user = userEvent.setup();
    timeline(await playedStore([{ events: uuidRun }]));
    await user.click(row(2) as HTMLElement);
    const detail = await screen.findByRole('region', { name: 'After event #2 (TEXT_MESSAGE_CONTENT)' });
    expect(detail).toHaveTextContent(MESSAGE);
    expect(detail.querySelector('h2')).toHaveTextContent('After event #2 (TEXT_MESSAGE_CONTENT)');
  });

  it('the detail says when the event was received, by the store clock', async () => {
    const user = userEvent.setup();
    const store = await playedStore([{ events: uuidRun }]);
    timeline(store);
    await user.click(row(2) as HTMLElement);
    const detail = await screen.findByRole('region', { name: 'After event #2 (TEXT_MESSAGE_CONTENT)' });
    const at = (store.session.entries.find((e) => e.type === 'event' && e.index === 2) as { at: number }).at;
    expect(detail.querySelector('[data-fact="received"] time')?.getAttribute('dateTime')).toBe(new Date(at).toISOString());
    // Held once in the saved session: under `at`, not again as `receivedAt`.
    expect(JSON.parse(JSON.stringify(store.log.entries[2]))).not.toHaveProperty('receivedAt');
  });

  it("the detail gives the date of an event received on an earlier day, and only the time of today's, in English and Chinese", async () => {
    const user = userEvent.setup();
    const yesterday = Date.parse('2026-11-29T12:00:00Z');
    let clock = yesterday;
    const store = await playedStore([{ events: uuidRun }], { now: () => clock });
    clock = Date.parse('2026-11-30T12:00:00Z');
    const received = async (region: string) =>
      (await screen.findByRole('region', { name: region })).querySelector('[data-fact="received"]')?.textContent;
    const english = timeline(store);
    await user.click(row(2) as HTMLElement);
    // Its date, and its time to the second as today's are given.
    expect(await received('After event #2 (TEXT_MESSAGE_CONTENT)')).toMatch(/^Nov 29, 2026, \d{2}:\d{2}:\d{2}\s[AP]M$/);
    english.unmount();
    const chinese = timeline(store, (node) => <AgentLocaleProvider locale={zhCN}>{node}</AgentLocaleProvider>);
    await user.click(row(2) as HTMLElement);
    expect(await received('事件 #2（TEXT_MESSAGE_CONTENT）之后')).toMatch(/^2026年11月29日 \d{2}:\d{2}:\d{2}$/);
    chinese.unmount();
    // Read on the day it came: its time only.
    clock = yesterday + 60_000;
    timeline(store);
    await user.click(row(2) as HTMLElement);
    expect(await received('After event #2 (TEXT_MESSAGE_CONTENT)')).toBe(localeValue(en).format.time(yesterday));
  });

  it('rows say which one is selected in data-state', async () => {
    const user = userEvent.setup();
    timeline(await playedStore([{ events: uuidRun }]));
    await user.click(row(3) as HTMLElement);
    expect(row(3)).toHaveAttribute('data-state', 'selected');
    expect(row(2)).toHaveAttribute('data-state', 'unselected');
  });

  it('announces time travel politely', async () => {
    const user = userEvent.setup();
    const store = await playedStore([{ events: uuidRun }]);
    timeline(store);
    await user.click(row(4) as HTMLElement);
    const total = store.log.entries.length;
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent(`Showing the thread after event #4 (of ${total} events)`));
  });

  it('an arrow key held through the rows is said once, where it rests, not row by row', async () => {
    const user = userEvent.setup();
    const store = await playedStore([{ events: uuidRun }]);
    timeline(store);
    const region = screen.getByRole('status');
    const said: string[] = [];
    const watch = new MutationObserver(() => said.push(region.textContent ?? ''));
    watch.observe(region, { childList: true, subtree: true, characterData: true });
    await user.click(row(0) as HTMLElement);
    for (let i = 0; i < 5; i++) await user.keyboard('{ArrowDown}');
    const total = store.log.entries.length;
    await waitFor(() => expect(region).toHaveTextContent(`Showing the thread after event #5 (of ${total} events)`));
    watch.disconnect();
    expect(said.filter((text) => text !== '')).toEqual([`Showing the thread after event #5 (of ${total} events)`]);
  });

  it('says how many events the filters leave, once the reader stops typing', async () => {
    const user = userEvent.setup();
    const store = await playedStore([{ events: uuidRun }]);
    timeline(store);
    await user.type(screen.getByRole('searchbox'), 'lookup');
    const total = store.log.entries.length;
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent(new RegExp(`^\\d+ of ${total} events$`)));
    await user.clear(screen.getByRole('searchbox'));
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent(`${total} events`));
  });
});

describe('the timeline and the inspector in Chinese', () => {
  it('every string of the panels comes from the locale', async () => {
    const user = userEvent.setup();
    const store = await playedStore([{ events: uuidRun }]);
    render(
      <AgentLocaleProvider locale={zhCN}>
        <AgentProvider store={store}>
          <EventTimelinePanel />
          <StateInspectorPanel />
        </AgentProvider>
      </AgentLocaleProvider>,
    );
    expect(screen.getByRole('region', { name: '事件时间线' })).toBeInTheDocument();
    expect(screen.getByRole('listbox', { name: '事件' })).toBeInTheDocument();
    expect(screen.getByLabelText('筛选')).toBeInTheDocument();
    expect(screen.getByText(`共 ${store.log.entries.length} 个事件`)).toBeInTheDocument();
    expect(within(summaryOf(7)).getByText('3 个键')).toBeInTheDocument();
    await user.click(row(2) as HTMLElement);
    expect(await screen.findByRole('region', { name: '事件 #2（TEXT_MESSAGE_CONTENT）之后' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: '共享状态' })).toBeInTheDocument();
    expect(screen.getByRole('listbox', { name: '状态历史' })).toBeInTheDocument();
    // Nothing English is left in the visible text of the inspector but protocol words, ids and JSON.
    const inspector = screen.getByRole('region', { name: '共享状态' });
    expect(inspector.textContent).not.toMatch(/\b(Live|version|History|keys?|item|Show|more|hidden)\b/);
  });
});

describe("the state shown after a picked event marks that event's own changes", () => {
  const marked = () =>
    [...document.querySelectorAll('.agk-json__node[data-changed="self"]')].map(
      (li) =>
        `${li.querySelector(':scope > button > .agk-json__key, :scope > span > .agk-json__key')?.textContent}:${li.getAttribute('data-op')}`,
    );
  const events: ScriptEvent[] = runOf([
    { type: 'STATE_SNAPSHOT', snapshot: { 状态: 'draft', total: 1 } },
    { type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/total', value: 2 }] },
    { type: 'STATE_DELTA', delta: [] },
    { type: 'TEXT_MESSAGE_START', messageId: MESSAGE, role: 'assistant' },
  ]);

  it('in the state inspector: an empty delta picked shows none of an earlier delta', async () => {
    const user = userEvent.setup();
    render(
      <AgentProvider store={await playedStore([{ events }])}>
        <StateInspectorPanel />
      </AgentProvider>,
    );
    await user.click(screen.getAllByRole('option')[2] as HTMLElement);
    await screen.findByText('After event #2 (STATE_DELTA)');
    expect(marked()).toEqual(['total:replace']);
    await user.click(screen.getAllByRole('option')[3] as HTMLElement);
    await screen.findByText('After event #3 (STATE_DELTA)');
    expect(marked()).toEqual([]);
  });

  it("in the timeline's detail: the state after a token marks nothing; after the delta, the delta's own operation", async () => {
    const user = userEvent.setup();
    timeline(await playedStore([{ events }]));
    await user.click(row(4) as HTMLElement);
    await screen.findByRole('region', { name: 'After event #4 (TEXT_MESSAGE_START)' });
    expect(marked()).toEqual([]);
    await user.click(row(2) as HTMLElement);
    await screen.findByRole('region', { name: 'After event #2 (STATE_DELTA)' });
    expect(marked()).toEqual(['total:replace']);
  });
});

describe("the timeline's filter", () => {
  const shown = () => rows().map((r) => r.querySelector('.agk-timeline__index')?.textContent);

  it('finds a phrase of a text past what its row shows, and one across the row’s cut', async () => {
    const user = userEvent.setup();
    const long = `${'背景说明'.repeat(39)}ab refund-approved-A1001 ${'尾'.repeat(20)}`;
    timeline(
      await playedStore([
        {
          events: runOf([
            { type: 'TEXT_MESSAGE_START', messageId: MESSAGE, role: 'assistant' },
            { type: 'TEXT_MESSAGE_CONTENT', messageId: MESSAGE, delta: long },
            { type: 'TEXT_MESSAGE_END', messageId: MESSAGE },
          ]),
        },
      ]),
    );
    expect(summaryOf(2)).not.toHaveTextContent('refund-approved-A1001');
    await user.type(screen.getByLabelText('Filter'), 'refund-approved-A1001');
    await waitFor(() => expect(shown()).toEqual(['#2']));
    await user.clear(screen.getByLabelText('Filter'));
    // The row is cut at 160 characters: this phrase begins before the cut and ends after it.
    await user.type(screen.getByLabelText('Filter'), '说明ab refund');
    await waitFor(() => expect(shown()).toEqual(['#2']));
  });

  it('finds the path of every operation of a delta, past the three its row names', async () => {
    const user = userEvent.setup();
    timeline(
      await playedStore([
        {
          events: runOf([
            { type: 'STATE_SNAPSHOT', snapshot: { a: 0, b: 0, c: 0, cart: { total: 0 } } },
            {
              type: 'STATE_DELTA',
              delta: [
                { op: 'replace', path: '/a', value: 1 },
                { op: 'replace', path: '/b', value: 1 },
                { op: 'replace', path: '/c', value: 1 },
                { op: 'replace', path: '/cart/total', value: 99 },
              ],
            },
          ]),
        },
      ]),
    );
    expect(summaryOf(2)).not.toHaveTextContent('/cart/total');
    await user.type(screen.getByLabelText('Filter'), '/cart/total');
    await waitFor(() => expect(shown()).toEqual(['#2']));
  });
});

describe('a new thread while a devtools list has focus', () => {
  const events = runOf([{ type: 'STATE_SNAPSHOT', snapshot: { 购物车: ['MUG-1'] } }]);
  const both = (store: AgentStore) =>
    render(
      <AgentProvider store={store}>
        <EventTimelinePanel />
        <StateInspectorPanel />
      </AgentProvider>,
    );

  it('focus goes from the emptied state history to the inspector, never to <body>', async () => {
    const user = userEvent.setup();
    const store = await playedStore([{ events }]);
    both(store);
    const history = screen.getByRole('listbox', { name: 'State history' });
    await user.click(within(history).getAllByRole('option')[1] as HTMLElement);
    expect(document.activeElement).toBe(history);
    await act(async () => store.getState().reset());
    expect(screen.queryByRole('listbox', { name: 'State history' })).toBeNull();
    expect(document.activeElement).not.toBe(document.body);
    expect(document.activeElement?.closest('.agk-inspector')).not.toBeNull();
  });

  it('focus goes from the emptied event list to the timeline, never to <body>', async () => {
    const user = userEvent.setup();
    const store = await playedStore([{ events }]);
    both(store);
    const list = screen.getByRole('listbox', { name: 'Events' });
    await user.click(within(list).getAllByRole('option')[1] as HTMLElement);
    expect(document.activeElement).toBe(list);
    await act(async () => store.getState().reset());
    expect(document.activeElement).not.toBe(document.body);
    expect(document.activeElement?.closest('.agk-timeline')).not.toBeNull();
  });

  it('focus that left the panel is not pulled back to it', async () => {
    const user = userEvent.setup();
    const store = await playedStore([{ events }]);
    render(
      <AgentProvider store={store}>
        <button type="button">Elsewhere</button>
        <EventTimelinePanel />
      </AgentProvider>,
    );
    await user.click(within(screen.getByRole('listbox', { name: 'Events' })).getAllByRole('option')[1] as HTMLElement);
    await user.click(screen.getByRole('button', { name: 'Elsewhere' }));
    await act(async () => store.getState().reset());
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Elsewhere' }));
  });
});

describe('the devtools when the provider switches to another store with an event picked', () => {
  const snapshots = (n: number) => runOf(Array.from({ length: n }, (_, i) => ({ type: 'STATE_SNAPSHOT', snapshot: { step: i } })));

  it('the timeline shows the other thread live: the picked event was of the last one', async () => {
    const user = userEvent.setup();
    const a = await playedStore([{ events: snapshots(12) }]);
    const b = await playedStore([{ events: runOf([{ type: 'STATE_SNAPSHOT', snapshot: { 另一个: true } }]) }]);
    const { rerender } = render(
      <AgentProvider store={a}>
        <EventTimelinePanel />
      </AgentProvider>,
    );
    await user.click(row(10) as HTMLElement);
    await screen.findByRole('region', { name: 'After event #10 (STATE_SNAPSHOT)' });
    rerender(
      <AgentProvider store={b}>
        <EventTimelinePanel />
      </AgentProvider>,
    );
    expect(rows()).toHaveLength(b.log.entries.length);
    expect(screen.queryByRole('region', { name: /^After event/ })).toBeNull();
    expect(rows().every((r) => r.getAttribute('data-state') === 'unselected')).toBe(true);
  });

  it('the state inspector shows the other thread live: the picked history row was of the last one', async () => {
    const user = userEvent.setup();
    const a = await playedStore([{ events: snapshots(12) }]);
    const b = await playedStore([{ events: runOf([{ type: 'STATE_SNAPSHOT', snapshot: { 另一个: true } }]) }]);
    const { rerender } = render(
      <AgentProvider store={a}>
        <StateInspectorPanel />
      </AgentProvider>,
    );
    await user.click(screen.getAllByRole('option')[11] as HTMLElement);
    await waitFor(() => expect(document.querySelector('.agk-inspector')).toHaveAttribute('data-state', 'past'));
    rerender(
      <AgentProvider store={b}>
        <StateInspectorPanel />
      </AgentProvider>,
    );
    expect(document.querySelector('.agk-inspector')).toHaveAttribute('data-state', 'live');
    expect(document.querySelector('.agk-inspector')).toHaveTextContent('另一个');
  });
});

describe('JsonTree', () => {
  it('keeps the ▾/▸ glyph out of the accessible name', () => {
    render(<JsonTree label="Document" value={{ order: { id: 'A-1001' } }} />);
    const toggle = screen.getByRole('button', { name: 'order: {1 key}' });
    const glyph = toggle.querySelector('[aria-hidden="true"]');
    expect(glyph?.textContent).toMatch(/^[▾▸]$/);
  });

  it('after "Show 100 more", focus goes to the first newly shown item, and stays off <body> on the last page', async () => {
    const user = userEvent.setup();
    const big = Object.fromEntries(Array.from({ length: 250 }, (_, i) => [`k${i}`, i]));
    render(<JsonTree label="Big" value={big} />);
    await user.click(screen.getByRole('button', { name: 'Show 100 more (150 hidden)' }));
    expect(document.activeElement).not.toBe(document.body);
    expect(document.activeElement?.textContent).toContain('k100');
    await user.click(screen.getByRole('button', { name: 'Show 50 more (50 hidden)' }));
    expect(document.activeElement).not.toBe(document.body);
    expect(document.activeElement?.textContent).toContain('k200');
  });

  it('forwards its ref and passes className, style and DOM props', () => {
    const ref = React.createRef<HTMLUListElement>();
    render(<JsonTree ref={ref} label="Doc" value={{ a: 1 }} className="mine" style={{ maxHeight: 10 }} data-testid="tree" />);
    expect(ref.current).toBe(screen.getByTestId('tree'));
    expect(ref.current).toHaveClass('agk-json', 'mine');
    expect(ref.current?.style.maxHeight).toBe('10px');
  });
});

const history: ScriptEvent[] = runOf([
  { type: 'STATE_SNAPSHOT', snapshot: { refund: { status: 'idle' } } },
  { type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/refund/status', value: 'waiting' }] },
  { type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/refund/status', value: 'approved' }] },
]);

describe('state inspector time travel', () => {
  it('"Back to live" moves focus to the history list (never <body>) and says so; a picked event is announced', async () => {
    const user = userEvent.setup();
    const store = await playedStore([{ events: history }]);
    render(
      <AgentProvider store={store}>
        <StateInspectorPanel />
      </AgentProvider>,
    );
    const inspector = screen.getByRole('region', { name: 'Shared state' });
    expect(inspector).toHaveAttribute('data-state', 'live');
    await user.click(screen.getAllByRole('option')[2] as HTMLElement);
    await waitFor(() => expect(inspector).toHaveAttribute('data-state', 'past'));
    const total = store.log.entries.length;
    await waitFor(() =>
      expect(within(inspector).getByRole('status')).toHaveTextContent(`Showing the state after event #2 (of ${total} events)`),
    );
    await user.click(screen.getByRole('button', { name: 'Back to live' }));
    await waitFor(() => expect(inspector).toHaveAttribute('data-state', 'live'));
    expect(screen.queryByRole('button', { name: 'Back to live' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('listbox', { name: 'State history' }));
    await waitFor(() => expect(within(inspector).getByRole('status')).toHaveTextContent('Back to live'));
  });

  it('parts forward refs and pass className, style and DOM props', async () => {
    const store = await playedStore([{ events: history }]);
    const root = React.createRef<HTMLElement>();
    const doc = React.createRef<HTMLDivElement>();
    const list = React.createRef<HTMLDivElement>();
    const events = React.createRef<HTMLElement>();
    render(
      <AgentProvider store={store}>
        <StateInspector.Root ref={root} className="mine" style={{ gap: 3 }} data-testid="inspector">
          <StateInspector.Document ref={doc} className="doc" />
        </StateInspector.Root>
        <EventTimeline.Root ref={events} className="tl" id="events">
          <EventTimeline.List ref={list} className="list" />
        </EventTimeline.Root>
      </AgentProvider>,
    );
    expect(root.current).toBe(screen.getByTestId('inspector'));
    expect(root.current).toHaveClass('agk-inspector', 'mine');
    expect(root.current?.style.gap).toBe('3px');
    expect(doc.current).toHaveClass('agk-inspector__document', 'doc');
    expect(events.current).toHaveAttribute('id', 'events');
    expect(events.current).toHaveClass('agk-timeline', 'tl');
    expect(list.current).toHaveAttribute('role', 'listbox');
    expect(list.current).toHaveClass('agk-listbox', 'list');
  });

  it('announces nothing on mount', async () => {
    const store = await playedStore([{ events: history }]);
    await act(async () => {
      render(
        <AgentProvider store={store}>
          <StateInspectorPanel />
        </AgentProvider>,
      );
    });
    expect(screen.getByRole('status')).toHaveTextContent('');
  });
});
