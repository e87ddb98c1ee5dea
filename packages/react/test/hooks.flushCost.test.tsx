/**
 * What a flush costs the hooks that select large slices: the event log of a
 * long stream, a large plain object of the shared document.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { act, render } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { AgentProvider, createAgentStore, useAgentSelector, useAgentState, useEventLog } from '../src/index.js';
import { manualFrames, manualSource, tick } from './support/sources.js';

/** A store streaming `total` events, `perFlush` a frame, to a component that calls `use` at each render. */
async function streamed(total: number, perFlush: number, use: () => unknown) {
  const m = manualSource({ push: true });
  const frames = manualFrames();
  const store = createAgentStore({ source: m.source, threadId: 't', scheduler: frames.scheduler });
  let renders = 0;
  function Timeline() {
    use();
    renders++;
    return null;
  }
  render(
    <AgentProvider store={store}>
      <Timeline />
    </AgentProvider>,
  );
  await act(async () => {
    void store.getState().run('go');
    await tick();
    m.push({ type: 'RUN_STARTED', threadId: 't', runId: 'r1' }, { type: 'TEXT_MESSAGE_START', messageId: 'x', role: 'assistant' });
    await tick();
    frames.frame();
  });
  const batch = Array.from({ length: perFlush }, () => ({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'x', delta: 'a' }));
  let spent = 0;
  for (let sent = 0; sent < total; sent += perFlush) {
    m.push(...batch);
    await tick();
    const start = performance.now();
    act(() => frames.frame());
    spent += performance.now() - start;
  }
  return { store, renders, spent };
}

describe('useEventLog over a long stream', () => {
  it('copies none of the log at a flush for a component that reads its count and the log', async () => {
    const slice = Array.prototype.slice;
    let copied = 0;
    const spy = vi.spyOn(Array.prototype, 'slice').mockImplementation(function (this: unknown[], ...args) {
      const out = slice.apply(this, args);
      if (out.length > 1000) copied += out.length;
      return out;
    });
    let shown = { count: 0, last: -1, log: [] as readonly unknown[] };
    let live: readonly unknown[] = [];
    try {
      const { store } = await streamed(20_000, 100, () => {
        const { count, events: log } = useEventLog();
        shown = { count, last: log[count - 1]?.index ?? -1, log };
      });
      live = store.log.entries;
    } finally {
      spy.mockRestore();
    }
    expect(shown.count).toBe(20_002);
    expect(shown.last).toBe(20_001);
    expect(shown.log).toBe(live);
    expect(copied).toBe(0);
  }, 120_000);

  it('still gives entries, the first `count` events, as an array of their own', async () => {
    let seen: ReturnType<typeof useEventLog> | undefined;
    const { store } = await streamed(300, 100, () => {
      seen = useEventLog();
    });
    expect(seen?.entries).toHaveLength(302);
    expect(seen?.entries).toEqual(store.log.entries);
    expect(seen?.entries).not.toBe(store.log.entries);
    expect(seen?.entries).toBe(seen?.entries);
  });
});

describe('a selector of the log after a reset of an empty log', () => {
  it('gives the new log as it grows, not the empty one it replaced', async () => {
    const m = manualSource();
    const store = createAgentStore({ source: m.source, threadId: 't' });
    let log: { entries: readonly unknown[]; count: number } = { entries: [], count: 0 };
    let selected: readonly unknown[] = [];
    function Timeline() {
      log = useEventLog();
      selected = useAgentSelector(() => store.log.entries);
      return null;
    }
    render(
      <AgentProvider store={store}>
        <Timeline />
      </AgentProvider>,
    );
    await act(async () => {
      await store.getState().reset();
      void store.getState().run('go');
      await tick();
      m.push({ type: 'RUN_STARTED', threadId: 't', runId: 'r1' }, { type: 'TEXT_MESSAGE_START', messageId: 'x', role: 'assistant' });
      await new Promise((resolve) => setTimeout(resolve, 40));
    });
    expect(log.count).toBe(2);
    expect(log.entries).toHaveLength(2);
    expect(selected).toBe(store.log.entries);
  });
});

describe('a selector that picks one of two large plain objects of the document', () => {
  const KEYS = 100_000;
  const big = (sign = 1) => Object.fromEntries(Array.from({ length: KEYS }, (_, i) => [`k${i}`, sign * i]));
  type Doc = { a: Record<string, number>; b: Record<string, number>; pick: 'a' | 'b' };

  it.each([
    ['equal', 1],
    ['different', -1],
  ])(
    'compares the two once, not at every flush that picks the other: %s objects',
    async (_, sign) => {
      const m = manualSource({ push: true });
      const frames = manualFrames();
      const store = createAgentStore({
        source: m.source,
        threadId: 't',
        scheduler: frames.scheduler,
        initialState: { a: big(), b: big(sign), pick: 'a' },
      });
      let renders = 0;
      function Picked() {
        const picked = useAgentState((d: Doc) => d[d.pick]);
        renders++;
        return <span data-testid="k3">{picked.k3}</span>;
      }
      const view = render(
        <AgentProvider store={store}>
          <Picked />
        </AgentProvider>,
      );
      await act(async () => {
        void store.getState().run('go');
        await tick();
        m.push({ type: 'RUN_STARTED', threadId: 't', runId: 'r1' });
        await tick();
        frames.frame();
      });
      const toggle = async (pick: 'a' | 'b') => {
        m.push({ type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/pick', value: pick }] });
        await tick();
        act(() => frames.frame());
      };
      await toggle('b');
      await toggle('a');
      const before = renders;
      // Lists taken of either object (the only objects here with a key k99999).
      const list = Object.keys;
      let listed = 0;
      const keys = vi.spyOn(Object, 'keys').mockImplementation((o: object) => {
        if (Object.hasOwn(o, `k${KEYS - 1}`)) listed++;
        return list(o);
      });
      try {
        for (const pick of ['b', 'a', 'b', 'a'] as const) await toggle(pick);
      } finally {
        keys.mockRestore();
      }
      expect(view.getByTestId('k3').textContent).toBe('3');
      // Equal objects: the one shown first stays (nothing shown changed); different ones: each pick is shown.
      expect(renders - before).toBe(sign === 1 ? 0 : 4);
      expect(listed).toBe(0);
    },
    120_000,
  );
});

describe('the two objects a selector compared last, once the selector gives neither', () => {
  it('are let go: two large objects picked in turn and then dropped from the document are not held by the component', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const m = manualSource({ push: true });
    const frames = manualFrames();
    const big = (sign: number) => Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, sign * i]));
    type Doc = Record<string, unknown> & { pick: string };
    const store = createAgentStore({ source: m.source, threadId: 't', scheduler: frames.scheduler });
    function Picked() {
      const picked = useAgentState((d: Doc) => d[d.pick] as Record<string, number> | undefined);
      return <span data-testid="k3">{picked?.k3 ?? 'none'}</span>;
    }
    const view = render(
      <AgentProvider store={store}>
        <Picked />
      </AgentProvider>,
    );
    const send = async (...events: unknown[]) => {
      m.push(...events);
      await tick();
      act(() => frames.frame());
    };
    await act(async () => {
      void store.getState().run('go');
      await tick();
    });
    await send({ type: 'RUN_STARTED', threadId: 't', runId: 'r1' });
    // Built here, held only by the weak references: the snapshot's document is the engine's own copy.
    await send({ type: 'STATE_SNAPSHOT', snapshot: { a: big(1), b: big(-1), pick: 'a' } });
    const document = () => store.getState().thread.sharedState.document as Doc;
    const a = new WeakRef(document().a as object);
    const b = new WeakRef(document().b as object);
    await send({ type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/pick', value: 'b' }] });
    await send({ type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/pick', value: 'a' }] });
    expect(view.getByTestId('k3').textContent).toBe('3');
    // A new document without either object, and picks of what it holds (two renders: React's two trees let go of them).
    await send({ type: 'STATE_SNAPSHOT', snapshot: { pick: 'none', c: { k3: 'c' } } });
    expect(view.getByTestId('k3').textContent).toBe('none');
    await send({ type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/pick', value: 'c' }] });
    expect(view.getByTestId('k3').textContent).toBe('c');
    for (let i = 0; i < 3 && (a.deref() || b.deref()); i++) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      gc();
    }
    expect({ a: a.deref() === undefined, b: b.deref() === undefined }).toEqual({ a: true, b: true });
  }, 60_000);
});
