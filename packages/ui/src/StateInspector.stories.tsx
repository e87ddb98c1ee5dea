import { AgentProvider, type AgentStore } from '@aguikit/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { StateInspectorPanel } from './StateInspector.js';
import { playedStore, runOf, type ScriptEvent, say } from './storybook/scripted.js';
import { LONG_WAIT } from './storybook/waits.js';

type Loaded = { store: AgentStore };

const meta = {
  title: 'Components/StateInspector',
  component: StateInspectorPanel,
  render: (args, { loaded }) => (
    <AgentProvider store={(loaded as Loaded).store}>
      <StateInspectorPanel {...args} />
    </AgentProvider>
  ),
} satisfies Meta<typeof StateInspectorPanel>;

export default meta;
type Story = StoryObj<typeof meta>;

const order = {
  order: {
    id: 'A-1001',
    amount: 42,
    currency: 'USD',
    items: [{ sku: 'MUG-1', qty: 2 }],
    delivered: true,
    tmp: 'scratch',
    customerId: '6ba7b810-9dad-41d1-80b4-00c04fd430c8',
    deliveryNote: 'Left at the front door at 14:02; the customer reports the box was crushed and one of the two mugs arrived broken.',
  },
  refund: { status: 'idle', approved: false, note: null },
};

const snapshot = (value: unknown): ScriptEvent => ({ type: 'STATE_SNAPSHOT', snapshot: value });
const delta = (...operations: Record<string, unknown>[]): ScriptEvent => ({ type: 'STATE_DELTA', delta: operations });

/** A store that played one run made of `events`. */
const played = (events: ScriptEvent[]) => async () => ({
  store: await playedStore([{ say: 'Refund order A-1001', events: runOf(events) }]),
});

/** Agent-controlled text must stay text: no element it names may exist, no handler may have run. */
async function expectInert(canvasElement: HTMLElement) {
  await expect(canvasElement.querySelector('script, img, iframe, a[href^="javascript"]')).toBeNull();
  await expect((window as { __pwned?: unknown }).__pwned).toBeUndefined();
}

/** The tree node at a path of keys from the root of the first tree in the canvas. */
function node(canvasElement: HTMLElement, ...path: string[]): HTMLElement | undefined {
  let at = canvasElement.querySelector<HTMLElement>('.agk-json > li') ?? undefined;
  for (const key of path) {
    at = [...(at?.querySelectorAll<HTMLElement>(':scope > ul > li') ?? [])].find(
      (li) => li.querySelector(':scope > button > .agk-json__key, :scope > span > .agk-json__key')?.textContent === key,
    );
  }
  return at;
}

const valueAt = (canvasElement: HTMLElement, ...path: string[]) =>
  node(canvasElement, ...path)?.querySelector(':scope > span > .agk-json__value');

export const Empty: Story = {
  loaders: [played(say('m1', 'Hello, how can I help?'))],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByText(/No shared state yet/)).toBeInTheDocument();
    await expect(canvas.queryByRole('listbox')).toBeNull();
    await expect(canvas.queryByRole('alert')).toBeNull();
    await expectInert(canvasElement);
  },
};

export const NestedDocument: Story = {
  loaders: [played([snapshot(order)])],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('list', { name: 'Live document, version 1' })).toBeInTheDocument();
    const orderToggle = canvas.getByRole('button', { name: /^order: \{8 keys\}/ });
    await expect(orderToggle).toHaveAttribute('aria-expanded', 'true');
    await expect(valueAt(canvasElement, 'order', 'amount')).toHaveAttribute('data-type', 'number');
    await expect(valueAt(canvasElement, 'order', 'id')).toHaveTextContent('"A-1001"');
    await expect(valueAt(canvasElement, 'order', 'delivered')).toHaveAttribute('data-type', 'boolean');
    await expect(valueAt(canvasElement, 'refund', 'note')).toHaveAttribute('data-type', 'null');
    // Two levels open by themselves; deeper containers wait to be opened, and their children are not rendered until then.
    const items = canvas.getByRole('button', { name: /^items: \[1 item\]/ });
    await expect(items).toHaveAttribute('aria-expanded', 'false');
    await expect(node(canvasElement, 'order', 'items')?.querySelector('li')).toBeNull();
    await userEvent.click(items);
    await expect(items).toHaveAttribute('aria-expanded', 'true');
    await userEvent.click(canvas.getByRole('button', { name: /^0: \{2 keys\}/ }));
    await expect(valueAt(canvasElement, 'order', 'items', '0', 'sku')).toHaveTextContent('"MUG-1"');
    await userEvent.click(orderToggle);
    await expect(orderToggle).toHaveAttribute('aria-expanded', 'false');
    await expect(node(canvasElement, 'order', 'items')).toBeUndefined();
    await expectInert(canvasElement);
  },
};

const everyOp = delta(
  { op: 'test', path: '/order/id', value: 'A-1001' },
  { op: 'replace', path: '/refund/status', value: 'approved' },
  { op: 'add', path: '/refund/approvedBy', value: 'ops@example.com' },
  { op: 'remove', path: '/refund/note' },
  { op: 'move', from: '/order/tmp', path: '/refund/memo' },
  { op: 'copy', from: '/order/amount', path: '/refund/amount' },
  { op: 'add', path: '/order/items/-', value: { sku: 'BOX-9', qty: 1 } },
);

export const AfterDelta: Story = {
  loaders: [played([snapshot(order), everyOp])],
  play: async ({ canvasElement }) => {
    const op = (...path: string[]) => node(canvasElement, ...path)?.getAttribute('data-op');
    await expect(op('refund', 'status')).toBe('replace');
    await expect(op('refund', 'approvedBy')).toBe('add');
    await expect(op('refund', 'memo')).toBe('move');
    await expect(op('refund', 'amount')).toBe('copy');
    await expect(op('order', 'amount')).toBe('none');
    await expect(op('order', 'id')).toBe('test');
    await expect(node(canvasElement, 'refund')).toHaveAttribute('data-changed', 'inside');
    // The removed key and the key moved away stay visible where they were, marked.
    const gone = [...canvasElement.querySelectorAll('[data-state="removed"]')].map((li) => li.textContent);
    await expect(gone).toEqual(expect.arrayContaining([expect.stringContaining('note'), expect.stringContaining('tmp')]));
    // `/order/items/-` marks the element it appended, and the way to it opened by itself.
    await expect(op('order', 'items', '1')).toBe('add');
    await expect(within(canvasElement).getByRole('button', { name: /^items: \[2 items\]/ })).toHaveAttribute('aria-expanded', 'true');
    await expect(within(canvasElement).getByText('copy from /order/amount')).toBeInTheDocument();
    await expectInert(canvasElement);
  },
};

const failing = delta({ op: 'replace', path: '/refund/missing/status', value: 'approved' });

export const Desynced: Story = {
  loaders: [played([snapshot(order), failing, delta({ op: 'replace', path: '/refund/status', value: 'ignored' })])],
  play: async ({ canvasElement }) => {
    const alert = within(canvasElement).getByRole('alert');
    await expect(alert).toHaveTextContent('State out of sync');
    await expect(alert).toHaveTextContent('replace /refund/missing/status');
    await expect(alert).toHaveTextContent(/path that does not exist/);
    await expect(canvasElement.querySelector('.agk-inspector')).toHaveAttribute('data-sync', 'desynced');
    // The delta after the failure waited: the document is the one before it.
    await expect(valueAt(canvasElement, 'refund', 'status')).toHaveTextContent('"idle"');
    await expectInert(canvasElement);
  },
};

/** The same desync in Simplified Chinese: the reason in Chinese, by its code, the engine's English words kept under it. */
export const DesyncedChinese: Story = {
  globals: { locale: 'zh-CN' },
  loaders: Desynced.loaders ?? [],
  play: async ({ canvasElement }) => {
    const alert = within(canvasElement).getByRole('alert');
    await expect(alert).toHaveTextContent('状态不同步');
    await expect(alert).toHaveTextContent('原因：文档中没有该路径（或其来源路径）。');
    await expect(alert.querySelector('[lang="en"]')).toHaveTextContent(/path that does not exist/);
    await expectInert(canvasElement);
  },
};

const LONG_KEYS = {
  ids: `refund-${Array.from({ length: 4 }, () => '0b7c1a2e-5f1e-4c2a-9d3b-8e7f6a5b4c3d').join('_')}`,
  url: 'https://shop.example.com/api/v2/customers/7f3c2a91-4b6e-4d0f-9a85-2e1b7c6d9f40/orders/A-1001/refunds?expand=items',
  chinese: '客户订单退款记录与物流跟踪信息汇总表格包含所有历史数据和备注说明以及相关的处理人员名单和审批流程',
};

/** Keys longer than the panel is wide, closed: each toggle's chevron stays at the start of its key's first line. */
export const LongKeys: Story = {
  loaders: [
    played([snapshot({ refunds: Object.fromEntries(Object.values(LONG_KEYS).map((key) => [key, { status: 'pending', amount: 42 }])) })]),
  ],
  play: async ({ canvasElement }) => {
    for (const key of Object.values(LONG_KEYS)) {
      const toggle = node(canvasElement, 'refunds', key)?.querySelector(':scope > .agk-json__toggle') as HTMLElement;
      await expect(toggle).toHaveAttribute('aria-expanded', 'false');
      const chevron = (toggle.querySelector('.agk-json__chevron') as HTMLElement).getBoundingClientRect();
      const firstLine = (toggle.querySelector('.agk-json__key') as HTMLElement).getClientRects()[0] as DOMRect;
      await expect(Math.abs(firstLine.top - chevron.top)).toBeLessThan(4);
      await expect(firstLine.left).toBeGreaterThanOrEqual(chevron.right - 1);
    }
  },
};

const LONG_PATH = `/${Array.from({ length: 60 }, (_, i) => (i % 2 ? '订单退款记录' : '7f3c2a91-4b6e-4d0f-9a85-2e1b7c6d9f40')).join('/')}`;

/** A delta whose path is thousands of characters long, and missing: the alert names it by its head. */
export const DesyncedAtALongPath: Story = {
  loaders: [played([snapshot(order), delta({ op: 'replace', path: LONG_PATH, value: 'refunded' })])],
  play: async ({ canvasElement }) => {
    const alert = within(canvasElement).getByRole('alert');
    await expect(alert).toHaveTextContent(`replace ${LONG_PATH.slice(0, 60)}`);
    await expect(alert).not.toHaveTextContent(LONG_PATH);
    await expect(alert.textContent?.length).toBeLessThan(1000);
  },
};

export const HealedBySnapshot: Story = {
  loaders: [played([snapshot(order), failing, snapshot({ ...order, refund: { status: 'approved', approved: true, note: null } })])],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.queryByRole('alert')).toBeNull();
    await expect(canvasElement.querySelector('.agk-inspector')).toHaveAttribute('data-sync', 'in-sync');
    await expect(valueAt(canvasElement, 'refund', 'status')).toHaveTextContent('"approved"');
    await expect(canvas.getAllByRole('option')).toHaveLength(4);
    // The failed delta is still in the history: picking it shows the state as it was then.
    await userEvent.click(canvas.getByRole('option', { name: /STATE_DELTA/ }));
    // The past state is a deferred replay of the log: it shows once React gets to it.
    await expect(await canvas.findByText(/Desynced at this point/, {}, LONG_WAIT)).toHaveTextContent('replace /refund/missing/status');
    await expectInert(canvasElement);
  },
};

export const HistorySelection: Story = {
  loaders: [
    played([
      snapshot(order),
      delta({ op: 'replace', path: '/refund/status', value: 'awaiting_approval' }),
      delta({ op: 'replace', path: '/refund/status', value: 'approved' }),
    ]),
  ],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const value = () => valueAt(canvasElement, 'refund', 'status')?.textContent;
    await expect(value()).toBe('"approved"');
    const [, first, second] = canvas.getAllByRole('option');
    if (!first || !second) throw new Error('expected the history to list the snapshot and both deltas');
    await userEvent.click(second);
    await expect(second).toHaveAttribute('aria-selected', 'true');
    // A picked point is a deferred replay of the log, and what is shown is said once the pick rests (400 ms).
    await waitFor(() => expect(value()).toBe('"awaiting_approval"'), LONG_WAIT);
    await expect(canvasElement.querySelector('.agk-inspector')).toHaveAttribute('data-view', 'history');
    await expect(node(canvasElement, 'refund', 'status')).toHaveAttribute('data-op', 'replace');
    // The keyboard moves through the history: up is the snapshot, before any delta.
    await userEvent.keyboard('{ArrowUp}');
    await expect(first).toHaveAttribute('aria-selected', 'true');
    await waitFor(() => expect(value()).toBe('"idle"'), LONG_WAIT);
    await waitFor(
      () => expect(canvas.getByRole('status')).toHaveTextContent(/^Showing the state after event #\d+ \(of \d+ events\)$/),
      LONG_WAIT,
    );
    await expect(canvasElement.querySelector('.agk-inspector')).toHaveAttribute('data-state', 'past');
    await userEvent.click(canvas.getByRole('button', { name: 'Back to live' }));
    await waitFor(() => expect(value()).toBe('"approved"'), LONG_WAIT);
    await expect(canvasElement.querySelector('.agk-inspector')).toHaveAttribute('data-state', 'live');
    // Focus lands on the history list, with Live selected, never on <body>; the change is said.
    await expect(canvas.getByRole('listbox', { name: 'State history' })).toHaveFocus();
    await expect(canvas.getAllByRole('option')[0]).toHaveAttribute('data-state', 'selected');
    await waitFor(() => expect(canvas.getByRole('status')).toHaveTextContent('Back to live'), LONG_WAIT);
    await expectInert(canvasElement);
  },
};

const big = Object.fromEntries(
  Array.from({ length: 12_000 }, (_, i) => [`key-${String(i).padStart(5, '0')}`, { n: i, label: `row ${i}` }]),
);

export const BigDocument: Story = {
  loaders: [played([snapshot(big), delta({ op: 'replace', path: '/key-11999/n', value: -1 })])],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('button', { name: /^\{12,000 keys\}/ })).toHaveAttribute('aria-expanded', 'true');
    // One page of the root and the changed key beyond it; the closed children render nothing.
    await expect(canvasElement.querySelectorAll('.agk-json__node').length).toBeLessThan(110);
    await expect(node(canvasElement, 'key-11999', 'n')).toHaveAttribute('data-op', 'replace');
    const more = canvas.getByRole('button', { name: /Show 100 more \(11,900 hidden\)/ });
    await userEvent.click(more);
    await expect(canvas.getByRole('button', { name: /Show 100 more \(11,800 hidden\)/ })).toBeInTheDocument();
    // Focus moves to the first key the page revealed.
    await expect(canvas.getByRole('button', { name: /^key-00100: \{2 keys\}/ })).toHaveFocus();
    await expectInert(canvasElement);
  },
};

const hostile = JSON.parse(`{
  "__proto__": { "polluted": "yes" },
  "<img src=x onerror=\\"window.__pwned=1\\">": "<script>window.__pwned=1</script>",
  "constructor": { "prototype": { "polluted": "yes" } },
  "link": "javascript:window.__pwned=1",
  "html": "<b onmouseover=\\"window.__pwned=1\\">bold</b>",
  "list": ["<iframe src=javascript:window.__pwned=1></iframe>"]
}`) as unknown;

export const HostileKeysAndValues: Story = {
  loaders: [played([snapshot(hostile), delta({ op: 'replace', path: '/link', value: 'javascript:alert(document.cookie)' })])],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expectInert(canvasElement);
    await expect(canvasElement.querySelector('b')).toBeNull();
    await expect(canvas.getByText('"<script>window.__pwned=1</script>"')).toBeInTheDocument();
    await expect(canvas.getByText('<img src=x onerror="window.__pwned=1">')).toBeInTheDocument();
    await expect(canvas.getByRole('button', { name: /^__proto__: \{1 key\}/ })).toBeInTheDocument();
    await expect(node(canvasElement, 'link')).toHaveAttribute('data-op', 'replace');
    await expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  },
};

const chinese = {
  订单: {
    编号: 'A-1001',
    金额: 42,
    客户: '6ba7b810-9dad-41d1-80b4-00c04fd430c8',
    备注: '包裹于 14:02 放在门口；客户反映外箱被压坏，两个杯子中有一个破损，希望全额退款并保留另一个杯子。',
  },
  退款: { 状态: '空闲', 已批准: false },
};

export const ChineseLocale: Story = {
  globals: { locale: 'zh-CN' },
  loaders: [
    played([
      snapshot(chinese),
      delta({ op: 'replace', path: '/退款/状态', value: '等待审批' }),
      delta({ op: 'replace', path: '/退款/状态', value: '已批准' }, { op: 'add', path: '/退款/审批人', value: '王芳' }),
    ]),
  ],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('region', { name: '共享状态' })).toBeInTheDocument();
    await expect(canvas.getByRole('list', { name: '实时文档，版本 3' })).toBeInTheDocument();
    await expect(canvas.getByRole('button', { name: /^订单: \{4 个键\}/ })).toBeInTheDocument();
    await expect(node(canvasElement, '退款', '审批人')).toHaveAttribute('data-op', 'add');
    const [, , first] = canvas.getAllByRole('option');
    await expect(first).toHaveTextContent('replace /退款/状态');
    await userEvent.click(first as HTMLElement);
    await waitFor(() => expect(valueAt(canvasElement, '退款', '状态')).toHaveTextContent('"等待审批"'), LONG_WAIT);
    await waitFor(() => expect(canvas.getByRole('status')).toHaveTextContent(/^正在显示事件 #\d+（共 \d+ 个）之后的状态$/), LONG_WAIT);
    await userEvent.click(canvas.getByRole('button', { name: '回到实时' }));
    await expect(canvas.getByRole('listbox', { name: '状态历史' })).toHaveFocus();
    await waitFor(() => expect(canvas.getByRole('status')).toHaveTextContent('已回到实时状态'), LONG_WAIT);
    await expectInert(canvasElement);
  },
};

export const Dark: Story = {
  globals: { theme: 'dark' },
  loaders: [played([snapshot(order), everyOp])],
  play: async ({ canvasElement }) => {
    await expect(node(canvasElement, 'refund', 'status')).toHaveAttribute('data-op', 'replace');
    await expect(canvasElement.querySelector('.agk-inspector')).toHaveAttribute('data-state', 'live');
    await expectInert(canvasElement);
  },
};
