import type { SharedState } from '@aguikit/core';
import { act, render, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import {
  AgentProvider,
  type AgentStore,
  createAgentStore,
  useAgentSelector,
  useAgentState,
  useShallow,
  useSharedState,
} from '../src/index.js';
import { manualFrames, manualSource, tick } from './support/sources.js';

describe('useSharedState', () => {
  it('reports sync, the failing operation and the last delta, and re-renders only when the shared state changes', async () => {
    const m = manualSource();
    const frames = manualFrames();
    const store = createAgentStore({ source: m.source, threadId: 't', scheduler: frames.scheduler, initialState: { n: 0 } });
    const seen: SharedState[] = [];
    function Probe() {
      const shared = useSharedState();
      seen.push(shared);
      return <span data-testid="sync">{shared.sync}</span>;
    }
    render(
      <AgentProvider store={store}>
        <Probe />
      </AgentProvider>,
    );
    const push = async (...events: unknown[]) => {
      await act(async () => {
        m.push(...events);
        await tick();
        frames.frame();
      });
    };
    await act(async () => {
      void store.getState().run('go');
      await tick();
    });
    await push({ type: 'RUN_STARTED', threadId: 't', runId: m.requests[0]?.runId ?? '' });
    const afterStart = seen.length;
    await push(
      { type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'hi' },
    );
    expect(seen.length).toBe(afterStart);

    const delta = [{ op: 'replace', path: '/n', value: 1 }];
    await push({ type: 'STATE_DELTA', delta });
    expect(seen.at(-1)?.document).toEqual({ n: 1 });
    expect(seen.at(-1)?.lastDelta).toEqual(delta);

    const failing = { op: 'replace', path: '/missing/x', value: 2 };
    await push({ type: 'STATE_DELTA', delta: [failing] });
    expect(screen.getByTestId('sync').textContent).toBe('desynced');
    expect(seen.at(-1)?.failure?.operation).toEqual(failing);

    await push({ type: 'STATE_SNAPSHOT', snapshot: { n: 5 } });
    expect(screen.getByTestId('sync').textContent).toBe('in-sync');
    expect(seen.at(-1)?.failure).toBeUndefined();
  });
});

describe('useAgentState types', () => {
  type Doc = { cart: string[] };
  it('gives the slice its type: inferred from a typed selector, or both named; one type argument alone does not compile', () => {
    // Type-checked only (`pnpm typecheck`): never rendered.
    function Slices() {
      const inferred: string[] = useAgentState((doc: Doc) => doc.cart);
      const named: string[] = useAgentState<Doc, string[]>((doc) => doc.cart);
      // @ts-expect-error: with only Doc named, the slice would silently be `unknown`: the call asks for both.
      const half = useAgentState<Doc>((doc) => doc.cart);
      return inferred.length + named.length + (half === undefined ? 0 : 1);
    }
    expect(typeof Slices).toBe('function');
  });
});

describe('useAgentState with a selector that builds an object', () => {
  it("re-renders once per change of what it picks when wrapped in zustand's useShallow too", async () => {
    const m = manualSource();
    const frames = manualFrames();
    const store = createAgentStore({
      source: m.source,
      threadId: 't',
      scheduler: frames.scheduler,
      initialState: { refund: { status: 'pending', amount: 42 }, note: '' },
    });
    type Doc = { refund: { status: string; amount: number }; note: string } | null;
    const renders: { status: string | undefined; amount: number | undefined }[] = [];
    function Refund() {
      const picked = useAgentState<Doc, { status: string | undefined; amount: number | undefined }>(
        useShallow((doc) => ({ status: doc?.refund?.status, amount: doc?.refund?.amount })),
      );
      renders.push(picked);
      return <span data-testid="refund">{`${picked.status} ${picked.amount}`}</span>;
    }
    render(
      <AgentProvider store={store}>
        <Refund />
      </AgentProvider>,
    );
    expect(screen.getByTestId('refund').textContent).toBe('pending 42');
    const first = renders.length;
    // An edit beside the slice: the object built again is shallow-equal, so no render.
    await act(async () => {
      await store.getState().updateSharedState((d: Doc) => {
        if (d) d.note = 'called the customer';
      });
    });
    expect(renders.length).toBe(first);
    await act(async () => {
      await store.getState().updateSharedState((d: Doc) => {
        if (d) d.refund.status = 'approved';
      });
    });
    expect(screen.getByTestId('refund').textContent).toBe('approved 42');
    expect(renders.length).toBe(first + 1);
  });

  it('written inline without useShallow, renders instead of looping, and re-renders only when a member changes', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const m = manualSource();
      const store = createAgentStore({
        source: m.source,
        threadId: 't',
        initialState: { refund: { status: 'pending', amount: 42 }, note: '', lines: ['a', 'b'] },
      });
      type Doc = { refund: { status: string; amount: number }; note: string; lines: string[] } | null;
      let renders = 0;
      function Refund() {
        renders++;
        const picked = useAgentState((doc: Doc) => ({ status: doc?.refund?.status, amount: doc?.refund?.amount }));
        // An array built by the selector (a filter) is compared member by member too.
        const lines = useAgentSelector((s) => (s.thread.sharedState.document as Doc)?.lines.filter((l) => l !== '') ?? []);
        return <span data-testid="refund">{`${picked.status} ${picked.amount} ${lines.join('')}`}</span>;
      }
      render(
        <AgentProvider store={store}>
          <Refund />
        </AgentProvider>,
      );
      expect(screen.getByTestId('refund').textContent).toBe('pending 42 ab');
      const first = renders;
      await act(async () => {
        await store.getState().updateSharedState((d: Doc) => {
          if (d) d.note = 'called the customer';
        });
      });
      expect(renders).toBe(first);
      await act(async () => {
        await store.getState().updateSharedState((d: Doc) => {
          if (d) d.refund.status = 'approved';
        });
      });
      expect(screen.getByTestId('refund').textContent).toBe('approved 42 ab');
      expect(renders).toBe(first + 1);
      expect(errors).not.toHaveBeenCalled();
    } finally {
      errors.mockRestore();
    }
  });

  it('that builds new members each time renders once per change, and follows a selector that reads another key', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const m = manualSource();
      type Doc = { lines: { sku: string }[]; note: string; other: { sku: string }[] };
      const store = createAgentStore({ source: m.source, threadId: 't', initialState: { lines: [{ sku: 'A-1' }], note: '', other: [] } });
      let renders = 0;
      function Lines({ field }: { field: 'lines' | 'other' }) {
        renders++;
        const copies = useAgentState((doc: Doc) => doc[field].map((line) => ({ ...line })));
        return <span data-testid="lines">{copies.map((c) => c.sku).join(',') || 'none'}</span>;
      }
      const view = render(
        <AgentProvider store={store}>
          <Lines field="lines" />
        </AgentProvider>,
      );
      expect(screen.getByTestId('lines').textContent).toBe('A-1');
      const first = renders;
      await act(async () => {
        await store.getState().updateSharedState((d: Doc) => {
          d.note = 'x';
        });
      });
      expect(renders).toBe(first + 1);
      view.rerender(
        <AgentProvider store={store}>
          <Lines field="other" />
        </AgentProvider>,
      );
      expect(screen.getByTestId('lines').textContent).toBe('none');
      expect(errors).not.toHaveBeenCalled();
    } finally {
      errors.mockRestore();
    }
  });

  it('that returns a large object the store holds (one written since it entered) reads none of its members: it costs nothing more per change', async () => {
    const m = manualSource();
    const store = createAgentStore({ source: m.source, threadId: 't', initialState: { n: 0 } });
    let keysRead = 0;
    // Large objects as the store holds them once written (with their mark), counted as they are read key by key. A
    // plain object of as many keys, never written, is compared member by member when the selector gives a new one.
    const counted = (n: number) =>
      new Proxy(
        { n },
        {
          get(target, key) {
            return key === Symbol.for('aguikit.largeObject') ? true : Reflect.get(target, key);
          },
          ownKeys(target) {
            keysRead++;
            return Reflect.ownKeys(target);
          },
        },
      );
    const docs = [counted(0), counted(1)];
    function Doc() {
      const doc = useAgentSelector((s) => docs[(s.thread.sharedState.document as { n: number }).n % 2]);
      return <span data-testid="doc">{doc?.n}</span>;
    }
    render(
      <AgentProvider store={store}>
        <Doc />
      </AgentProvider>,
    );
    await act(async () => {
      await store.getState().updateSharedState((d: { n: number }) => {
        d.n = 1;
      });
    });
    expect(screen.getByTestId('doc').textContent).toBe('1');
    expect(keysRead).toBe(0);
  });
});

describe('useAgentSelector with a selector that builds its result', () => {
  type Doc = { lines: string[]; note: string; n: number; order: string[] };
  const initialState: Doc = { lines: ['a', '', 'b'], note: '', n: 1, order: ['a', 'b'] };
  const edit = async (store: AgentStore<Doc>, change: (d: Doc) => void) => {
    await act(async () => {
      await store.getState().updateSharedState(change);
    });
  };

  it('runs a selector that builds an array once per change of the store it does not follow, not twice', async () => {
    const store = createAgentStore<Doc>({ source: manualSource().source, threadId: 't', initialState });
    let calls = 0;
    let renders = 0;
    function Lines() {
      renders++;
      const lines = useAgentState((doc: Doc) => {
        calls++;
        return doc.lines.filter((l) => l !== '');
      });
      return <span data-testid="lines">{lines.join(',')}</span>;
    }
    render(
      <AgentProvider store={store}>
        <Lines />
      </AgentProvider>,
    );
    const first = renders;
    calls = 0;
    await edit(store, (d) => {
      d.note = 'x';
    });
    await edit(store, (d) => {
      d.note = 'y';
    });
    expect(renders).toBe(first);
    expect(calls).toBe(2);
    await edit(store, (d) => {
      d.lines.push('c');
    });
    expect(screen.getByTestId('lines').textContent).toBe('a,b,c');
  });

  it('compares a Map or a Date it builds by identity: under StrictMode it renders without looping and shows each change', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const store = createAgentStore<Doc>({ source: manualSource().source, threadId: 't', initialState });
      function Built() {
        const byLine = useAgentState((doc: Doc) => new Map(doc.lines.map((l, i) => [i, l])));
        const at = useAgentState((doc: Doc) => new Date(doc.n * 1000));
        return <span data-testid="built">{`${[...byLine.values()].join('')} ${at.getTime()}`}</span>;
      }
      render(
        <StrictMode>
          <AgentProvider store={store}>
            <Built />
          </AgentProvider>
        </StrictMode>,
      );
      expect(screen.getByTestId('built').textContent).toBe('ab 1000');
      await edit(store, (d) => {
        d.lines = ['c'];
        d.n = 2;
      });
      expect(screen.getByTestId('built').textContent).toBe('c 2000');
      expect(errors).not.toHaveBeenCalled();
    } finally {
      errors.mockRestore();
    }
  });

  it('takes an array of another length for a change, though its holes leave it no other member', async () => {
    const store = createAgentStore<Doc>({ source: manualSource().source, threadId: 't', initialState });
    function Slots() {
      const slots = useAgentState((doc: Doc) => new Array<string>(doc.n));
      return <span data-testid="slots">{slots.length}</span>;
    }
    render(
      <AgentProvider store={store}>
        <Slots />
      </AgentProvider>,
    );
    expect(screen.getByTestId('slots').textContent).toBe('1');
    await edit(store, (d) => {
      d.n = 3;
    });
    expect(screen.getByTestId('slots').textContent).toBe('3');
  });

  it('takes an object whose keys come in another order for a change (its entries are drawn in order)', async () => {
    const store = createAgentStore<Doc>({ source: manualSource().source, threadId: 't', initialState });
    function Order() {
      const byKey = useAgentState((doc: Doc) => Object.fromEntries(doc.order.map((k) => [k, k.toUpperCase()])));
      return <span data-testid="order">{Object.values(byKey).join(',')}</span>;
    }
    render(
      <AgentProvider store={store}>
        <Order />
      </AgentProvider>,
    );
    expect(screen.getByTestId('order').textContent).toBe('A,B');
    await edit(store, (d) => {
      d.order = ['b', 'a'];
    });
    expect(screen.getByTestId('order').textContent).toBe('B,A');
  });
});
