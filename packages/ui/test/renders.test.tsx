/**
 * What one event makes React render, with the chat and both devtools panels
 * on screen: one token re-renders its message and nothing else of the chat,
 * and the panels only what the event changed.
 */
import type { Message as AgUiMessage } from '@aguikit/core';
import { AgentProvider, type AgentStore } from '@aguikit/react';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AgentChat } from '../src/AgentChat.js';
import { EventTimelinePanel } from '../src/EventTimeline.js';
import { preloadMarkdown } from '../src/lazyChunks.js';
import { StateInspectorPanel } from '../src/StateInspector.js';
import { drivenStore as driven } from './support/drivenStore.js';

const uuid = () => crypto.randomUUID();
const ZH = '在分布式系统中，事件流的顺序与幂等性决定了用户界面能否正确地重建会话状态，这一点在长时间运行的智能体任务里尤为重要。';
const zh = (n: number) => ZH.repeat(n);

/** A store whose agent the test drives (UUID ids, as an agent gives them). */
const drivenStore = (initialMessages: AgUiMessage[]) => driven(initialMessages, { threadId: uuid(), runId: uuid() });

const history = (n: number): AgUiMessage[] =>
  Array.from({ length: n }, (_, i) =>
    i % 2
      ? { id: uuid(), role: 'assistant', content: `第${i}条回复：${zh(3)}` }
      : { id: uuid(), role: 'user', content: `第${i}个问题：${zh(1)}` },
  );

// Which components rendered in a commit, read from React's fiber tree (React 19's): a fiber React worked on in the last
// commit is an object the tree before it did not hold (double buffering), and PerformedWork (flag 1) says its function
// ran rather than bailing out.
interface Fiber {
  tag: number;
  type: unknown;
  flags: number;
  child: Fiber | null;
  sibling: Fiber | null;
  memoizedProps: unknown;
}
interface FiberRootNode {
  current: Fiber;
}
const PANELS = new Set(['AgentChat', 'StateInspectorPanel', 'EventTimelinePanel']);

function rootOf(container: HTMLElement): FiberRootNode {
  const key = Object.keys(container).find((k) => k.startsWith('__reactContainer$'));
  if (!key) throw new Error('no React root');
  const host = (container as unknown as Record<string, { stateNode: FiberRootNode }>)[key];
  if (!host) throw new Error('no React root');
  return host.stateNode;
}

function nameOf(fiber: Fiber): string | undefined {
  const t = fiber.type as { displayName?: string; name?: string; render?: { name?: string } } | null;
  if (fiber.tag === 0 || fiber.tag === 1 || fiber.tag === 15) return t?.displayName || t?.name || 'anonymous';
  if (fiber.tag === 11) return t?.displayName || t?.render?.name || 'anonymous';
  return undefined;
}

function walk(fiber: Fiber | null, visit: (f: Fiber, panel: string) => void, panel = '') {
  for (let f = fiber; f; f = f.sibling) {
    const name = nameOf(f);
    const inner = name && PANELS.has(name) ? name : panel;
    visit(f, inner);
    walk(f.child, visit, inner);
  }
}

function fibers(container: HTMLElement): Set<Fiber> {
  const out = new Set<Fiber>();
  walk(rootOf(container).current, (f) => out.add(f));
  return out;
}

/** Components (panel/name) whose function ran with a new result in the commits `fn` caused, with how many instances. */
async function renderedBy(container: HTMLElement, fn: () => Promise<void>): Promise<Map<string, number>> {
  const before = fibers(container);
  await fn();
  const out = new Map<string, number>();
  walk(rootOf(container).current, (f, panel) => {
    const name = nameOf(f);
    if (!name || before.has(f) || (f.flags & 1) === 0) return;
    const key = `${panel}/${name}`;
    out.set(key, (out.get(key) ?? 0) + 1);
  });
  return out;
}
const inPanel = (map: Map<string, number>, panel: string) => [...map].filter(([k]) => k.startsWith(`${panel}/`));

function mountAll(store: AgentStore) {
  return render(
    <AgentProvider store={store}>
      <div style={{ display: 'flex' }}>
        <AgentChat />
        <StateInspectorPanel />
        <EventTimelinePanel />
      </div>
    </AgentProvider>,
  );
}

const doc = (i: number) => ({
  order: { id: uuid(), amount: 42, items: [{ sku: 'MUG-1', qty: 2 }], note: zh(1) },
  refund: { status: 'idle', attempt: i },
  lines: Array.from({ length: 15 }, (_, k) => ({ id: uuid(), text: `${k}：${zh(1)}` })),
});

describe('what one event re-renders (199 messages of history and one streaming, the devtools beside the chat)', () => {
  async function setup() {
    await preloadMarkdown();
    const d = drivenStore(history(199));
    const { container } = mountAll(d.store);
    await d.start();
    const live = uuid();
    const call = uuid();
    await d.push({ type: 'STATE_SNAPSHOT', snapshot: doc(0) });
    for (let i = 0; i < 20; i++) await d.push({ type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/refund/attempt', value: i }] });
    await d.push({ type: 'TEXT_MESSAGE_START', messageId: live, role: 'assistant' });
    await d.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: live, delta: zh(2) });
    await d.push({ type: 'TOOL_CALL_START', toolCallId: call, toolCallName: 'lookup_order', parentMessageId: live });
    await d.push({ type: 'TOOL_CALL_ARGS', toolCallId: call, delta: JSON.stringify({ orderId: uuid(), note: zh(20) }).slice(0, -2) });
    expect(container.querySelectorAll('article.agk-message')).toHaveLength(200);
    return { ...d, container, live, call };
  }

  it('a TEXT_MESSAGE_CONTENT delta re-renders nothing in the StateInspector', async () => {
    const d = await setup();
    const text = await renderedBy(d.container, () => d.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: d.live, delta: zh(1) }));
    expect(inPanel(text, 'StateInspectorPanel')).toEqual([]);
  });

  it('a TOOL_CALL_ARGS delta re-renders nothing in the StateInspector', async () => {
    const d = await setup();
    const args = await renderedBy(d.container, () => d.push({ type: 'TOOL_CALL_ARGS', toolCallId: d.call, delta: '中文' }));
    expect(inPanel(args, 'StateInspectorPanel')).toEqual([]);
  });

  it('a new event re-renders only its own new row of the EventTimeline, not every existing row', async () => {
    const d = await setup();
    const text = await renderedBy(d.container, () => d.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: d.live, delta: zh(1) }));
    expect(text.get('EventTimelinePanel/Option') ?? 0).toBeLessThanOrEqual(1);
  });

  it("a STATE_DELTA draws the state history's new row and its live row, not every row", async () => {
    const d = await setup();
    const state = await renderedBy(d.container, () =>
      d.push({ type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/refund/attempt', value: 99 }] }),
    );
    expect(state.get('StateInspectorPanel/Option') ?? 0).toBeLessThanOrEqual(2);
    expect(d.container.querySelectorAll('.agk-inspector__history [role="option"]')).toHaveLength(23);
  });

  it('a text delta to a message does not re-render the tool-call cards it holds', async () => {
    const d = await setup();
    const text = await renderedBy(d.container, () => d.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: d.live, delta: zh(1) }));
    // Only the live message re-renders in the chat (no other Message, no MessageList).
    expect(text.get('AgentChat/Message')).toBe(1);
    expect(text.get('AgentChat/MessageList')).toBeUndefined();
    expect(text.get('AgentChat/ToolCallArgs') ?? 0).toBe(0);
    expect(text.get('AgentChat/ToolCallCard') ?? 0).toBe(0);
  });

  it('a STATE_DELTA replacing one leaf re-renders only the JSON nodes on the old and new highlighted paths', async () => {
    const d = await setup();
    const state = await renderedBy(d.container, () =>
      d.push({ type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/refund/status', value: '处理中' }] }),
    );
    // root, /refund, /refund/status (now marked) and /refund/attempt (mark cleared).
    expect(state.get('StateInspectorPanel/Node') ?? 0).toBeLessThanOrEqual(4);
  });
});

describe('the state history, no longer drawn at every event, still lists every state event', () => {
  const rows = () => within(screen.getByRole('listbox', { name: 'State history' })).getAllByRole('option');
  async function inspector() {
    const d = drivenStore([]);
    render(
      <AgentProvider store={d.store}>
        <StateInspectorPanel />
      </AgentProvider>,
    );
    await d.start();
    await d.push({ type: 'STATE_SNAPSHOT', snapshot: { a: 1 } });
    return d;
  }

  it('a STATE_DELTA while the state is desynced, which leaves the shared state as it was', async () => {
    const d = await inspector();
    await d.push({ type: 'STATE_DELTA', delta: [{ op: 'remove', path: '/missing' }] });
    expect(rows()).toHaveLength(3);
    await d.push({ type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/a', value: 2 }] });
    expect(rows()).toHaveLength(4);
  });

  it('a STATE_DELTA with no operations', async () => {
    const d = await inspector();
    await d.push({ type: 'STATE_DELTA', delta: [] });
    expect(rows()).toHaveLength(3);
  });
});
