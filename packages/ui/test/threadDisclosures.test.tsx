/**
 * What a reader opened, folded or asked to see whole belongs to the thread it
 * was done in. Another thread shown (the provider switched stores) or a reset
 * shows each row as a fresh mount would, though the agent reuses its ids
 * (`call-1`, `r-1`, `msg-1`) in every thread; the same thread shown by another
 * store (a replay's next step) keeps it.
 */
import type { AgentSource } from '@aguikit/core';
import { AgentProvider, type AgentStore, createAgentStore } from '@aguikit/react';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type * as React from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { preloadMarkdown } from '../src/lazyChunks.js';
import { Message } from '../src/Message.js';
import { MessageList } from '../src/Messages.js';
import { Reasoning } from '../src/Reasoning.js';
import { StateInspectorPanel } from '../src/StateInspector.js';
import { call, playedStore, runOf, type ScriptEvent, say } from '../src/storybook/scripted.js';
import { ToolCallCard } from '../src/ToolCall.js';

const settle = () =>
  act(async () => {
    for (let i = 0; i < 5; i++) await new Promise<void>((r) => setTimeout(r, 0));
  });

const Shown = ({ store, children }: { store: AgentStore; children: React.ReactNode }) => (
  <AgentProvider store={store}>{children}</AgentProvider>
);

/** Shows `ui` under each store it is given in turn (the provider switching stores), letting each settle. */
function switcher(ui: (store: AgentStore) => React.ReactNode) {
  let view: ReturnType<typeof render> | undefined;
  return async (store: AgentStore) => {
    const tree = <Shown store={store}>{ui(store)}</Shown>;
    if (view) view.rerender(tree);
    else view = render(tree);
    await settle();
  };
}

/** Resets the thread and runs again: the agent answers as it did, under the same ids. */
async function resetAndRun(store: AgentStore, message: string) {
  await act(async () => store.getState().reset());
  await act(async () => {
    await store.getState().run(message);
  });
  await settle();
}

const stores: AgentStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.destroy();
});
const kept = <T extends AgentStore>(store: T): T => {
  stores.push(store);
  return store;
};

/** A reply with reasoning `r-1`, text `msg-1` and tool call `call-1`, about `orderId`. */
const lookup = (orderId: string): ScriptEvent[] =>
  runOf([
    { type: 'REASONING_MESSAGE_START', messageId: 'r-1', role: 'reasoning' },
    { type: 'REASONING_MESSAGE_CONTENT', messageId: 'r-1', delta: `Thinking about ${orderId}` },
    { type: 'REASONING_MESSAGE_END', messageId: 'r-1' },
    ...say('msg-1', `Looking up ${orderId}.`),
    ...call('call-1', 'lookup_order', { orderId }, { parent: 'msg-1', result: { orderId, status: 'shipped' } }),
  ]);

const toolThread = async (threadId: string, orderId: string, pending: ScriptEvent[][] = []) =>
  kept(await playedStore([{ say: 'Look it up', events: lookup(orderId) }], { threadId, pending }));

const toolCard = () => screen.getByRole('button', { name: 'lookup_order' });
const reasoning = () => document.querySelector('.agk-reasoning__trigger') as HTMLElement;

/** Opens the tool card and the reasoning of the list shown. */
function openBoth() {
  fireEvent.click(toolCard());
  fireEvent.click(reasoning());
  expect(toolCard()).toHaveAttribute('aria-expanded', 'true');
  expect(reasoning()).toHaveAttribute('aria-expanded', 'true');
}

describe('another thread shown under a mounted MessageList', () => {
  it('shows its tool card and reasoning closed, though A had them open under the same ids', async () => {
    const a = await toolThread('thread-a', 'A-1001');
    const b = await toolThread('thread-b', 'B-2002');
    const show = switcher(() => <MessageList />);
    await show(a);
    openBoth();
    await show(b);
    expect(screen.getByRole('log')).toHaveTextContent('Looking up B-2002.');
    expect(toolCard()).toHaveAttribute('aria-expanded', 'false');
    expect(reasoning()).toHaveAttribute('aria-expanded', 'false');
  });

  it('cuts its long reply with a Show all of its own, though A was shown whole', async () => {
    const long = (who: string) => `${who} `.repeat(60_001);
    const a = kept(await playedStore([{ say: 'dump', events: runOf(say('msg-1', long('alpha'))) }], { threadId: 'thread-a' }));
    const b = kept(await playedStore([{ say: 'dump', events: runOf(say('msg-1', long('beta'))) }], { threadId: 'thread-b' }));
    const show = switcher(() => <MessageList />);
    await show(a);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Show all' }));
    });
    expect(screen.queryByRole('button', { name: 'Show all' })).toBeNull();
    await show(b);
    expect(screen.getByRole('log')).toHaveTextContent('beta beta');
    expect(screen.getByRole('button', { name: 'Show all' })).toBeInTheDocument();
  });

  it('keeps what was opened when the same thread is shown by another store (a replay stepping through its log)', async () => {
    const a = await toolThread('thread-a', 'A-1001');
    const show = switcher(() => <MessageList />);
    await show(a);
    openBoth();
    const silent: AgentSource = { async *run() {} };
    const step = kept(createAgentStore({ source: silent, log: a.session.entries, asRecorded: true }));
    await show(step);
    expect(screen.getByRole('log')).toHaveTextContent('Looking up A-1001.');
    expect(toolCard()).toHaveAttribute('aria-expanded', 'true');
    expect(reasoning()).toHaveAttribute('aria-expanded', 'true');
  });
});

describe("another thread shown under an app's own list", () => {
  /** A list of the app's own, keyed by id as React asks, and a tool card and reasoning it shows apart. */
  const OwnList = ({ ids }: { ids: string[] }) => (
    <>
      <div role="log">
        {ids.map((id) => (
          <Message key={id} id={id} />
        ))}
      </div>
      <aside>
        <ToolCallCard id="call-1" />
        <Reasoning id="r-1" />
      </aside>
    </>
  );

  it('shows what the app draws with Message, ToolCallCard and Reasoning as a fresh mount would', async () => {
    const a = await toolThread('thread-a', 'A-1001');
    const b = await toolThread('thread-b', 'B-2002');
    const ids = (store: AgentStore) => [...store.getState().thread.messages.ids];
    const show = switcher((store) => <OwnList ids={ids(store)} />);
    await show(a);
    const cards = () => screen.getAllByRole('button', { name: 'lookup_order' });
    const reasonings = () => [...document.querySelectorAll('.agk-reasoning__trigger')];
    expect(cards()).toHaveLength(2);
    for (const el of [...cards(), ...reasonings()]) fireEvent.click(el);
    for (const el of [...cards(), ...reasonings()]) expect(el).toHaveAttribute('aria-expanded', 'true');
    await show(b);
    expect(screen.getByRole('log')).toHaveTextContent('Looking up B-2002.');
    expect(reasonings()).toHaveLength(2);
    for (const el of [...cards(), ...reasonings()]) expect(el).toHaveAttribute('aria-expanded', 'false');
  });
});

describe('a reset under a mounted MessageList (the thread keeps the id the app named)', () => {
  it("shows the new thread's tool card and reasoning closed under the ids the last thread used", async () => {
    const store = await toolThread('thread-x', 'A-1001', [lookup('C-3003')]);
    await switcher(() => <MessageList />)(store);
    openBoth();
    await resetAndRun(store, 'Again');
    expect(screen.getByRole('log')).toHaveTextContent('Looking up C-3003.');
    expect(toolCard()).toHaveAttribute('aria-expanded', 'false');
    expect(reasoning()).toHaveAttribute('aria-expanded', 'false');
  });

  it("announces the new thread's first reply, though its id was history when the list mounted", async () => {
    await preloadMarkdown();
    const store = kept(
      await playedStore([{ say: 'Refund', events: runOf(say('msg-1', 'Your refund is issued.')) }], {
        threadId: 'thread-x',
        pending: [runOf(say('msg-1', 'Hello in the new thread.'))],
      }),
    );
    await switcher(() => <MessageList />)(store);
    const status = document.querySelector('.agk-messages > p[role="status"]') as HTMLElement;
    expect(status.textContent).toBe('');
    await resetAndRun(store, 'Hi');
    expect(screen.getByRole('log')).toHaveTextContent('Hello in the new thread.');
    await waitFor(() => expect(status).toHaveTextContent('Assistant: Hello in the new thread.'), { timeout: 1000 });
  });
});

describe("the state inspector's folds", () => {
  const doc = (who: string): ScriptEvent[] => runOf([{ type: 'STATE_SNAPSHOT', snapshot: { order: { id: who, total: 42 } } }]);
  const order = () => screen.getByRole('button', { name: /^order: / });

  it('open as on a fresh mount in another thread, though a node was folded in the last', async () => {
    const a = kept(await playedStore([{ events: doc('A-1001') }], { threadId: 'thread-a' }));
    const b = kept(await playedStore([{ events: doc('B-2002') }], { threadId: 'thread-b' }));
    const show = switcher(() => <StateInspectorPanel />);
    await show(a);
    fireEvent.click(order());
    expect(order()).toHaveAttribute('aria-expanded', 'false');
    await show(b);
    expect(order()).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('region', { name: 'Shared state' })).toHaveTextContent('B-2002');
  });

  it('open as on a fresh mount after a reset', async () => {
    const store = kept(await playedStore([{ events: doc('A-1001') }], { threadId: 'thread-x', pending: [doc('C-3003')] }));
    await switcher(() => <StateInspectorPanel />)(store);
    fireEvent.click(order());
    expect(order()).toHaveAttribute('aria-expanded', 'false');
    await resetAndRun(store, 'Again');
    expect(screen.getByRole('region', { name: 'Shared state' })).toHaveTextContent('C-3003');
    expect(order()).toHaveAttribute('aria-expanded', 'true');
  });
});
