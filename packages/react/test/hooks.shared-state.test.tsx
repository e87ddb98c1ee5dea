import type { SharedState } from '@aguikit/core';
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AgentProvider, createAgentStore, useAgentState, useShallow, useSharedState } from '../src/index.js';
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
  it("re-renders once per change of what it picks when wrapped in zustand's useShallow, as the README shows", async () => {
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
});
