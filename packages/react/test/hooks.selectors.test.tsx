/**
 * Selectors as apps write them: memoized ones (reselect's `createSelector`,
 * a cache of the app's own), ones that change from render to render, and
 * the object `useAgentRun` gives.
 */
import { act, render } from '@testing-library/react';
import { StrictMode, useEffect } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { AgentProvider, type AgentStoreState, createAgentStore, useAgentRun, useAgentSelector, useAgentState } from '../src/index.js';
import { manualSource, tick } from './support/sources.js';

/** Long enough for the store's next frame. */
const frame = () => new Promise<void>((resolve) => setTimeout(resolve, 40));

/** reselect's `createSelector` with one input: the last input and result are kept, and the result is made again for a new input. */
function createSelector<I, R>(input: (s: AgentStoreState) => I, result: (i: I) => R): (s: AgentStoreState) => R {
  let lastInput: { value: I } | undefined;
  let lastResult: R;
  return (s) => {
    const i = input(s);
    if (lastInput && Object.is(lastInput.value, i)) return lastResult;
    lastInput = { value: i };
    lastResult = result(i);
    return lastResult;
  };
}

async function streaming() {
  const m = manualSource();
  const store = createAgentStore({ source: m.source, threadId: 't', initialState: { step: 1, note: 'a' } });
  await act(async () => {
    void store.getState().run('go');
    await tick();
    m.push({ type: 'RUN_STARTED', threadId: 't', runId: 'r1' }, { type: 'TEXT_MESSAGE_START', messageId: 'x', role: 'assistant' });
    await frame();
  });
  const token = (delta: string) =>
    act(async () => {
      m.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'x', delta });
      await frame();
    });
  return { m, store, token };
}

describe('a memoized selector', () => {
  it('re-renders no more for its tokens than the same selector unmemoized', async () => {
    const { store, token } = await streaming();
    const summary = (thread: AgentStoreState['thread']) => ({ status: thread.run.status, count: thread.messages.ids.length });
    const memoized = createSelector((s) => s.thread, summary);
    // A cache of the app's own, keyed by the messages (replaced at each token).
    const cache = new WeakMap<object, { ids: readonly string[] }>();
    const cached = (s: AgentStoreState) => {
      const hit = cache.get(s.thread.messages);
      if (hit) return hit;
      const made = { ids: s.thread.messages.ids };
      cache.set(s.thread.messages, made);
      return made;
    };
    const memoDoc = createSelector(
      (s) => s.thread,
      (thread) => ({ step: (thread.sharedState.document as { step: number }).step }),
    );
    const renders = { plain: 0, memoized: 0, cached: 0, document: 0 };
    function Plain() {
      renders.plain++;
      useAgentSelector((s) => summary(s.thread));
      return null;
    }
    function Memoized() {
      renders.memoized++;
      useAgentSelector(memoized);
      return null;
    }
    function Cached() {
      renders.cached++;
      useAgentSelector(cached);
      return null;
    }
    function Document() {
      renders.document++;
      useAgentSelector(memoDoc);
      return null;
    }
    render(
      <AgentProvider store={store}>
        <Plain />
        <Memoized />
        <Cached />
        <Document />
      </AgentProvider>,
    );
    await token('a');
    const before = { ...renders };
    for (const delta of 'bcdefghijk') await token(delta);
    expect(store.getState().thread.messages.byId.get('x')?.content).toBe('abcdefghijk');
    expect(renders).toEqual(before);
  });
});

describe('a selector that returns a large document as it is', () => {
  it('is compared by identity: a delta into 1,000 keys lists none of them', async () => {
    const m = manualSource();
    const initialState = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, { v: i }]));
    const store = createAgentStore({ source: m.source, threadId: 't', initialState });
    const delta = (i: number) =>
      act(async () => {
        m.push({ type: 'STATE_DELTA', delta: [{ op: 'replace', path: `/k${i}`, value: { v: -i } }] });
        await frame();
      });
    let renders = 0;
    function Whole() {
      renders++;
      const doc = useAgentState((d: Record<string, { v: number }>) => d);
      return <span data-testid="k3">{doc.k3?.v}</span>;
    }
    const view = render(
      <AgentProvider store={store}>
        <Whole />
      </AgentProvider>,
    );
    await act(async () => {
      void store.getState().run('go');
      await tick();
      m.push({ type: 'RUN_STARTED', threadId: 't', runId: 'r1' });
      await frame();
    });
    // The first write makes the document a large object.
    await delta(0);
    const keys = vi.spyOn(Object, 'keys');
    const before = renders;
    for (let i = 1; i <= 5; i++) await delta(i);
    // Each version of the document (the only object here with a key k999).
    const listed = keys.mock.calls.filter(([o]) => typeof o === 'object' && o !== null && 'k999' in o);
    keys.mockRestore();
    expect(view.getByTestId('k3').textContent).toBe('-3');
    expect(renders - before).toBe(5);
    expect(listed).toHaveLength(0);
  });

  it('is compared by identity: a snapshot that restates 1,000 keys, never written, lists none of them', async () => {
    const m = manualSource();
    const doc = (v: number) => Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, v]));
    const store = createAgentStore({ source: m.source, threadId: 't', initialState: doc(0) });
    let renders = 0;
    function Whole() {
      renders++;
      const whole = useAgentState((d: Record<string, number>) => d);
      return <span data-testid="k3">{whole.k3}</span>;
    }
    const view = render(
      <AgentProvider store={store}>
        <Whole />
      </AgentProvider>,
    );
    await act(async () => {
      void store.getState().run('go');
      await tick();
      m.push({ type: 'RUN_STARTED', threadId: 't', runId: 'r1' });
      await frame();
    });
    // Lists of a document of 1,000 keys taken to compare a result (the engine lists a snapshot to check it).
    const list = Object.keys;
    let compared = 0;
    const keys = vi.spyOn(Object, 'keys').mockImplementation((o: object) => {
      if ('k999' in o && new Error().stack?.includes('sameMembers')) compared++;
      return list(o);
    });
    const before = renders;
    for (const v of [0, 0, 7]) {
      await act(async () => {
        m.push({ type: 'STATE_SNAPSHOT', snapshot: doc(v) });
        await frame();
      });
    }
    keys.mockRestore();
    expect(view.getByTestId('k3').textContent).toBe('7');
    expect(renders - before).toBe(3);
    expect(compared).toBe(0);
  });
});

describe('a selector that returns an object of the document a snapshot restated with the same members', () => {
  it('keeps the last result and lists the object no more at each token that follows', async () => {
    const m = manualSource();
    // An object of 1,000 keys never written: a plain object, not a large one.
    const items = () => Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, i]));
    const store = createAgentStore({ source: m.source, threadId: 't', initialState: { items: items(), n: 0 } });
    let renders = 0;
    const seen = new Set<unknown>();
    function Items() {
      renders++;
      const held = useAgentState((d: { items: Record<string, number> }) => d.items);
      seen.add(held);
      return <span data-testid="k3">{held.k3}</span>;
    }
    const view = render(
      <AgentProvider store={store}>
        <Items />
      </AgentProvider>,
    );
    await act(async () => {
      void store.getState().run('go');
      await tick();
      m.push({ type: 'RUN_STARTED', threadId: 't', runId: 'r1' }, { type: 'TEXT_MESSAGE_START', messageId: 'x', role: 'assistant' });
      await frame();
    });
    await act(async () => {
      m.push({ type: 'STATE_SNAPSHOT', snapshot: { items: items(), n: 1 } });
      await frame();
    });
    const before = renders;
    // Every list taken of a version of the object (the only objects here with a key k999).
    const list = Object.keys;
    let listed = 0;
    const keys = vi.spyOn(Object, 'keys').mockImplementation((o: object) => {
      if ('k999' in o) listed++;
      return list(o);
    });
    for (const delta of 'abcde') {
      await act(async () => {
        m.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'x', delta });
        await frame();
      });
    }
    keys.mockRestore();
    expect(store.getState().thread.messages.byId.get('x')?.content).toBe('abcde');
    expect(view.getByTestId('k3').textContent).toBe('3');
    expect(renders).toBe(before);
    expect(seen.size).toBe(1);
    expect(listed).toBe(0);
  });
});

describe('the object useAgentRun gives', () => {
  it('under StrictMode, is made of the new store, its fields and actions, when the provider swaps its store', async () => {
    const { store } = await streaming();
    const other = createAgentStore({ source: manualSource().source, threadId: 'u', initialState: { step: 0, note: '' } });
    let agent: ReturnType<typeof useAgentRun> | undefined;
    function Panel() {
      agent = useAgentRun();
      return null;
    }
    const ui = (s: typeof store) => (
      <StrictMode>
        <AgentProvider store={s}>
          <Panel />
        </AgentProvider>
      </StrictMode>
    );
    const view = render(ui(store));
    expect(agent?.store).toBe(store);
    expect(agent?.status).toBe('running');
    view.rerender(ui(other));
    expect(agent?.store).toBe(other);
    expect(agent?.status).toBe('idle');
    expect(agent?.run).toBe(other.getState().run);
    expect(agent?.run).not.toBe(store.getState().run);
  });

  it('gives an action the app set in the store since (setState), from the next render on', async () => {
    const { store } = await streaming();
    let agent: ReturnType<typeof useAgentRun> | undefined;
    function Panel(_: { n: number }) {
      agent = useAgentRun();
      return null;
    }
    const ui = (n: number) => (
      <AgentProvider store={store}>
        <Panel n={n} />
      </AgentProvider>
    );
    const view = render(ui(0));
    const first = agent;
    const stop = vi.fn(store.getState().stop);
    act(() => store.setState({ stop }));
    view.rerender(ui(1));
    expect(agent?.stop).toBe(stop);
    expect(agent?.status).toBe('running');
    // Nothing else changed: the actions as they were keep the object as it was.
    view.rerender(ui(2));
    const again = agent;
    view.rerender(ui(3));
    expect(agent).toBe(again);
    expect(first).not.toBe(again);
  });

  it('is the same from render to render until a field of it changes: an effect that depends on it runs once per change', async () => {
    const { m, store } = await streaming();
    const seen: unknown[] = [];
    // The object each run of the effect saw.
    const effects: unknown[] = [];
    function Panel(_: { n: number }) {
      const agent = useAgentRun();
      seen.push(agent);
      useEffect(() => {
        effects.push(agent);
      }, [agent]);
      return null;
    }
    const ui = (n: number) => (
      <AgentProvider store={store}>
        <Panel n={n} />
      </AgentProvider>
    );
    const view = render(ui(0));
    for (let n = 1; n <= 3; n++) view.rerender(ui(n));
    expect(seen).toHaveLength(4);
    expect(new Set(seen).size).toBe(1);
    expect(effects).toHaveLength(1);
    expect(effects[0]).toBe(seen[0]);
    await act(async () => {
      m.push({ type: 'RUN_FINISHED', threadId: 't', runId: 'r1' });
      m.end();
      await frame();
    });
    expect(store.getState().thread.run.status).toBe('success');
    // A new object for each change (the status, then the request no longer in flight), and the effect once for each.
    const distinct = [...new Set(seen)] as { status: string; inFlight: unknown }[];
    expect(distinct.map((a) => [a.status, a.inFlight === undefined])).toEqual([
      ['running', false],
      ['success', false],
      ['success', true],
    ]);
    expect(effects).toHaveLength(3);
    for (const [i, agent] of distinct.entries()) expect(effects[i]).toBe(agent);
  });
});
