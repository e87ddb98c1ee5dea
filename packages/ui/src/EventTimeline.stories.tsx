import { AgentProvider, type AgentStore } from '@aguikit/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { EventTimelinePanel } from './EventTimeline.js';
import { call, playedStore, runOf, type ScriptEvent, STORY_THREAD, say } from './storybook/scripted.js';
import { LONG_WAIT } from './storybook/waits.js';

type Loaded = { store: AgentStore };

const meta = {
  title: 'Components/EventTimeline',
  component: EventTimelinePanel,
  render: (args, { loaded }) => (
    <AgentProvider store={(loaded as Loaded).store}>
      <EventTimelinePanel {...args} />
    </AgentProvider>
  ),
} satisfies Meta<typeof EventTimelinePanel>;

export default meta;
type Story = StoryObj<typeof meta>;

async function expectInert(canvasElement: HTMLElement) {
  await expect(canvasElement.querySelector('script, img, iframe')).toBeNull();
  await expect((window as { __pwned?: unknown }).__pwned).toBeUndefined();
}

const T = STORY_THREAD;
const RUN = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const USER = '0b7e1c3a-5d2f-4a8e-9c61-2f4b8d7e6a15';
const LOOKUP_MSG = 'f47ac10b-58cc-4372-a567-0e02b2c3d479';
const PROPOSE_MSG = '9a8b7c6d-5e4f-4321-8fed-cba987654321';
const READY_MSG = 'c2d3e4f5-a6b7-4c8d-9e0f-1a2b3c4d5e6f';
const LOOKUP_CALL = '3d6f4e2a-9b1c-4f7e-8a2d-5c6b7e8f9a0b';
const REFUND_CALL = 'e5f6a7b8-c9d0-4e1f-a2b3-c4d5e6f7a8b9';
const INTERRUPT = '1f2e3d4c-5b6a-4798-8a7b-6c5d4e3f2a1b';
/**
 * The refund flow as one stream: the agent looks the order up, proposes the
 * refund and stops on an approval. RUN_STARTED echoes its input, as AG-UI
 * servers may, so a replay of the log knows the user's message. Ids are
 * UUIDs, as real agents send them.
 */
const refund: ScriptEvent[] = [
  {
    type: 'RUN_STARTED',
    threadId: T,
    runId: RUN,
    input: {
      threadId: T,
      runId: RUN,
      messages: [{ id: USER, role: 'user', content: 'Refund order A-1001, it arrived broken.' }],
      tools: [],
      context: [],
    },
  },
  { type: 'STEP_STARTED', stepName: 'lookup' },
  ...say(LOOKUP_MSG, 'Let me look up order A-1001 and check the delivery record before I propose anything.', 2),
  ...call(LOOKUP_CALL, 'lookup_order', { orderId: 'A-1001' }, { parent: LOOKUP_MSG, result: { status: 'delivered', amount: 42 } }),
  { type: 'STEP_FINISHED', stepName: 'lookup' },
  { type: 'STATE_SNAPSHOT', snapshot: { order: { id: 'A-1001', amount: 42 }, refund: { status: 'idle' } } },
  ...say(PROPOSE_MSG, 'It was delivered and cost $42. I will request a refund.', 3),
  ...call(REFUND_CALL, 'refund_order', { orderId: 'A-1001', amount: 42 }, { parent: PROPOSE_MSG }),
  { type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/refund/status', value: 'awaiting_approval' }] },
  ...say(READY_MSG, 'The refund is ready: it needs your approval.'),
  {
    type: 'RUN_FINISHED',
    threadId: T,
    runId: RUN,
    outcome: {
      type: 'interrupt',
      interrupts: [{ id: INTERRUPT, reason: 'tool_call', toolCallId: REFUND_CALL, message: 'Approve the refund of $42?' }],
    },
  },
];

const refundLoader = async () => ({ store: await playedStore([{ say: 'Refund order A-1001, it arrived broken.', events: refund }]) });

const options = (canvasElement: HTMLElement) => within(canvasElement).queryAllByRole('option');
const typeOf = (option: HTMLElement) => option.querySelector('.agk-timeline__type')?.textContent ?? '';
const rowOf = (canvasElement: HTMLElement, index: number) =>
  options(canvasElement).find((o) => o.querySelector('.agk-timeline__index')?.textContent === `#${index}`);
/**
 * The count the filters show. Not by its text: once the filters rest, the
 * panel's status says the same words (400 ms later), and a text query would
 * then find both.
 */
const shownCount = (canvasElement: HTMLElement) => canvasElement.querySelector('.agk-timeline__count');

export const RefundRun: Story = {
  loaders: [refundLoader],
  play: async ({ canvasElement, loaded }) => {
    const store = (loaded as Loaded).store;
    const count = store.log.entries.length;
    await expect(options(canvasElement)).toHaveLength(count);
    await expect(within(canvasElement).getByText(`${count} events`)).toBeInTheDocument();
    await expect(store.getState().thread.diagnostics).toEqual([]);
    await expect(canvasElement.querySelectorAll('[data-diagnostics="none"]')).toHaveLength(count);
    const finished = options(canvasElement).find((o) => typeOf(o) === 'RUN_FINISHED');
    // Rows lead with what changed; a run's UUID is shortened, whole on hover.
    await expect(finished).toHaveTextContent('stopped on 1 interrupt · run 7c9e6679…');
    await expect(within(finished as HTMLElement).getByTitle(RUN)).toBeInTheDocument();
    await expect(finished).toHaveAttribute('data-group', 'lifecycle');
    const delta = rowOf(canvasElement, 3);
    await expect(delta?.querySelector('.agk-timeline__summary')?.textContent).toMatch(/^“Let me look up order A-1001 and check/);
    // The delta text is on screen, not cut away behind an id.
    const text = delta?.querySelector('.agk-devtools__text') as HTMLElement;
    const summary = delta?.querySelector('.agk-timeline__summary') as HTMLElement;
    await expect(text.getBoundingClientRect().left).toBeLessThan(summary.getBoundingClientRect().right - 40);
    await expectInert(canvasElement);
  },
};

export const FilteredByType: Story = {
  loaders: [refundLoader],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    for (const group of ['Lifecycle', 'Text', 'State', 'Interrupts', 'Other']) await userEvent.click(canvas.getByLabelText(group));
    await expect(options(canvasElement).length).toBeGreaterThan(0);
    await expect(options(canvasElement).every((o) => typeOf(o).startsWith('TOOL_CALL_'))).toBe(true);
    await userEvent.type(canvas.getByLabelText('Filter'), REFUND_CALL);
    // The search is deferred: the rows follow once React gets to it.
    await waitFor(
      () => expect(options(canvasElement).map(typeOf)).toEqual(['TOOL_CALL_START', 'TOOL_CALL_ARGS', 'TOOL_CALL_ARGS', 'TOOL_CALL_END']),
      LONG_WAIT,
    );
    await expect(shownCount(canvasElement)).toHaveTextContent(/^4 of \d+ events$/);
    // Once the filter rests, the status says it too.
    await waitFor(() => expect(canvas.getByRole('status')).toHaveTextContent(/^4 of \d+ events$/), LONG_WAIT);
    // Interrupts ride on run events: that filter alone keeps the run's interrupting finish.
    await userEvent.clear(canvas.getByLabelText('Filter'));
    await userEvent.click(canvas.getByLabelText('Tools'));
    await userEvent.click(canvas.getByLabelText('Interrupts'));
    await waitFor(() => expect(options(canvasElement).map(typeOf)).toEqual(['RUN_FINISHED']), LONG_WAIT);
    await expectInert(canvasElement);
  },
};

const invalid: ScriptEvent[] = [
  { type: 'TEXT_MESSAGE_CONTENT', messageId: 'ghost', delta: 'boo' },
  ...say('m1', 'Hello'),
  { type: 'MYSTERY_EVENT', payload: 1 },
  { type: '<img src=x onerror="window.__pwned=1">' },
  { type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/nowhere', value: 1 }] },
];

export const WithDiagnostics: Story = {
  loaders: [async () => ({ store: await playedStore([{ say: 'Hi', events: runOf(invalid) }]) })],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const content = rowOf(canvasElement, 1);
    await expect(content).toHaveTextContent('TEXT_MESSAGE_CONTENT');
    await expect(content).toHaveAttribute('data-diagnostics', 'error');
    await expect(content).toHaveTextContent('1 error');
    await expect(rowOf(canvasElement, 5)).toHaveTextContent('MYSTERY_EVENT');
    await expect(rowOf(canvasElement, 5)).toHaveAttribute('data-diagnostics', 'warning');
    await expect(rowOf(canvasElement, 6)).toHaveTextContent('<img src=x onerror="window.__pwned=1">');
    await expect(rowOf(canvasElement, 7)).toHaveAttribute('data-diagnostics', 'warning');
    for (const clean of [0, 2, 3, 4, 8]) await expect(rowOf(canvasElement, clean)).toHaveAttribute('data-diagnostics', 'none');
    const ghost = rowOf(canvasElement, 1);
    if (!ghost) throw new Error('row #1 missing');
    await userEvent.click(ghost);
    // The detail replays the log up to the row, deferred: it shows once React gets to it.
    const detail = await canvas.findByRole('region', { name: 'After event #1 (TEXT_MESSAGE_CONTENT)' }, LONG_WAIT);
    await expect(detail).toHaveTextContent('CONTENT_WITHOUT_START');
    await expectInert(canvasElement);
  },
};

export const TruncatedStream: Story = {
  loaders: [async () => ({ store: await playedStore([{ say: 'Hi', events: runOf(say('m1', 'Cut off mid', 2), null) }]) })],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const summary = canvas.getByText('1 diagnostic about the stream as a whole');
    await userEvent.click(summary);
    await expect(canvasElement.querySelector('.agk-timeline__stream')).toHaveTextContent('STREAM_TRUNCATED');
    await expectInert(canvasElement);
  },
};

export const TimeTravel: Story = {
  loaders: [refundLoader],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const fact = (name: string) => canvasElement.querySelector(`[data-fact="${name}"]`)?.textContent;
    const delta = options(canvasElement).find((o) => typeOf(o) === 'STATE_DELTA');
    if (!delta) throw new Error('no STATE_DELTA row');
    await userEvent.click(delta);
    const detail = await canvas.findByRole('region', { name: /^After event #\d+ \(STATE_DELTA\)$/ }, LONG_WAIT);
    await expect(detail).toHaveAttribute('data-run', 'running');
    // The user's message as the client sent it and as the run's input restates it, the lookup message, its result and the proposal:
    // time travel replays the client's entries too.
    await expect(fact('messages')).toBe('5');
    await expect(fact('tool-calls')).toBe('2');
    await expect(within(detail).getByText('"awaiting_approval"')).toBeInTheDocument();
    await expect(within(detail).getByText('replace')).toBeInTheDocument();
    // By keyboard: the next event starts the last message; End reaches the run's stop on the approval.
    await userEvent.keyboard('{ArrowDown}');
    await waitFor(
      () => expect(canvas.getByRole('region', { name: /TEXT_MESSAGE_START/ })).toHaveAttribute('data-run', 'running'),
      LONG_WAIT,
    );
    await expect(fact('messages')).toBe('6');
    await userEvent.keyboard('{End}');
    await waitFor(() => expect(canvas.getByRole('region', { name: /RUN_FINISHED/ })).toHaveAttribute('data-run', 'interrupted'), LONG_WAIT);
    await expect(fact('interrupts')).toBe('1');
    await userEvent.keyboard('{Home}');
    await waitFor(
      () => expect(canvas.getByRole('region', { name: /#0 \(RUN_STARTED\)/ })).toHaveAttribute('data-run', 'running'),
      LONG_WAIT,
    );
    await expect(fact('messages')).toBe('2');
    await expectInert(canvasElement);
  },
};

/** Exactly 5,000 events in one run: a long message, long arguments and a stream of state deltas. */
function longRun(): ScriptEvent[] {
  const text = Array.from({ length: 1600 }, (_, i) => ({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'long', delta: `w${i} ` }));
  const args = ['{"data":"', ...Array.from({ length: 1598 }, () => 'x'), '"}'].map((delta) => ({
    type: 'TOOL_CALL_ARGS',
    toolCallId: 'call-long',
    delta,
  }));
  const deltas = Array.from({ length: 1793 }, (_, i) => ({
    type: 'STATE_DELTA',
    delta: [{ op: 'replace', path: '/progress', value: i + 1 }],
  }));
  return runOf([
    { type: 'TEXT_MESSAGE_START', messageId: 'long', role: 'assistant' },
    ...text,
    { type: 'TEXT_MESSAGE_END', messageId: 'long' },
    { type: 'TOOL_CALL_START', toolCallId: 'call-long', toolCallName: 'ingest' },
    ...args,
    { type: 'TOOL_CALL_END', toolCallId: 'call-long' },
    { type: 'STATE_SNAPSHOT', snapshot: { progress: 0 } },
    ...deltas,
  ]);
}

export const LongLog: Story = {
  loaders: [async () => ({ store: await playedStore([{ say: 'Go', events: longRun() }]) })],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByText('5,000 events')).toBeInTheDocument();
    const list = canvas.getByRole('listbox', { name: 'Events' });
    await expect(list).toHaveAttribute('data-virtual', 'true');
    // 5,000 events: the rows in view are laid out, the end scrolled to, the log replayed and filtered, each taking its time.
    await waitFor(() => expect(options(canvasElement).length).toBeGreaterThan(0), LONG_WAIT);
    await expect(options(canvasElement).length).toBeLessThan(60);
    await userEvent.click(options(canvasElement)[0] as HTMLElement);
    await expect(list).toHaveFocus();
    await userEvent.keyboard('{End}');
    await waitFor(() => expect(rowOf(canvasElement, 4999)).toHaveAttribute('aria-selected', 'true'), LONG_WAIT);
    await expect(list).toHaveAttribute('aria-activedescendant', rowOf(canvasElement, 4999)?.id);
    await expect(rowOf(canvasElement, 4999)).toHaveAttribute('aria-setsize', '5000');
    await waitFor(
      () => expect(canvas.getByRole('region', { name: 'After event #4999 (RUN_FINISHED)' })).toHaveAttribute('data-run', 'success'),
      LONG_WAIT,
    );
    await expect(options(canvasElement).length).toBeLessThan(60);
    await userEvent.keyboard('{ArrowUp}');
    await waitFor(() => expect(rowOf(canvasElement, 4998)).toHaveAttribute('aria-selected', 'true'), LONG_WAIT);
    await userEvent.type(canvas.getByLabelText('Filter'), 'state_delta');
    await waitFor(() => expect(shownCount(canvasElement)).toHaveTextContent(/^1,793 of 5,000 events$/), LONG_WAIT);
    await expectInert(canvasElement);
  },
};

const ZH_RUN = 'b3f1c2d4-8e7a-4c6b-9d5e-0f1a2b3c4d5e';
const ZH_MSG = '5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a';
const ZH_CALL = 'a0b1c2d3-e4f5-4a6b-8c7d-9e0f1a2b3c4d';

/** The refund flow in Chinese: the agent's words, a tool's arguments and a state change. */
const chineseRun: ScriptEvent[] = [
  { type: 'RUN_STARTED', threadId: T, runId: ZH_RUN },
  ...say(ZH_MSG, '我来查一下订单 A-1001 的配送记录，确认无误后再为你申请退款。', 2),
  ...call(ZH_CALL, 'lookup_order', { orderId: 'A-1001', 备注: '包裹破损' }, { parent: ZH_MSG, parts: 1 }),
  { type: 'STATE_SNAPSHOT', snapshot: { 订单: { 编号: 'A-1001', 金额: 42 }, 退款: { 状态: '空闲' } } },
  { type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/退款/状态', value: '等待审批' }] },
  { type: 'RUN_FINISHED', threadId: T, runId: ZH_RUN },
];

export const ChineseLocale: Story = {
  globals: { locale: 'zh-CN' },
  loaders: [async () => ({ store: await playedStore([{ say: '订单 A-1001 到货时已损坏，请退款。', events: chineseRun }]) })],
  play: async ({ canvasElement, loaded }) => {
    const canvas = within(canvasElement);
    const count = (loaded as Loaded).store.log.entries.length;
    await expect(canvas.getByRole('region', { name: '事件时间线' })).toBeInTheDocument();
    await expect(canvas.getByText(`共 ${count} 个事件`)).toBeInTheDocument();
    await expect(canvas.getByLabelText('工具')).toBeInTheDocument();
    const content = rowOf(canvasElement, 2);
    await expect(content?.querySelector('.agk-timeline__summary')?.textContent).toMatch(/^“我来查一下订单 A-1001/);
    await expect(content).toHaveTextContent('消息 5d4c3b2a…');
    const delta = options(canvasElement).find((o) => typeOf(o) === 'STATE_DELTA') as HTMLElement;
    await expect(delta).toHaveTextContent('replace /退款/状态');
    await userEvent.click(delta);
    const detail = await canvas.findByRole('region', { name: /^事件 #\d+（STATE_DELTA）之后$/ }, LONG_WAIT);
    await expect(within(detail).getByText('"等待审批"')).toBeInTheDocument();
    await waitFor(() => expect(canvas.getByRole('status')).toHaveTextContent(/^正在显示事件 #\d+（共 \d+ 个）之后的对话$/), LONG_WAIT);
    await expectInert(canvasElement);
  },
};

export const Dark: Story = {
  globals: { theme: 'dark' },
  loaders: [refundLoader],
  play: async ({ canvasElement }) => {
    const delta = options(canvasElement).find((o) => typeOf(o) === 'STATE_DELTA') as HTMLElement;
    await userEvent.click(delta);
    await expect(delta).toHaveAttribute('data-state', 'selected');
    await within(canvasElement).findByRole('region', { name: /STATE_DELTA/ }, LONG_WAIT);
    await expectInert(canvasElement);
  },
};
