/**
 * The stores the bindings make while rendering: one per component however
 * React renders it (StrictMode, `<Activity>`, a suspended mount), none that
 * asks the agent anything before it is held, all destroyed once shown and
 * unmounted; the provider's store made again from its first options; and a
 * child's layout effect that runs the agent sending that render's options.
 */
import { act, render, screen } from '@testing-library/react';
import { Activity, StrictMode, Suspense, useEffect, useLayoutEffect, useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { AgentProvider, createAgentStore, useAgentRun, useAgentStore } from '../src/index.js';
import { manualSource, tick } from './support/sources.js';

// Every store the bindings make, to see which were destroyed (createAgentStore, wrapped).
const made = vi.hoisted(() => [] as { getState(): { destroyed: boolean } }[]);
vi.mock('../src/store.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../src/store.js')>();
  return {
    ...original,
    createAgentStore: (options: Parameters<typeof original.createAgentStore>[0]) => {
      const store = original.createAgentStore(options);
      made.push(store);
      return store;
    },
  };
});

const settle = () =>
  act(async () => {
    await tick();
    await tick();
  });

/** A source whose `capabilities()` the test counts. */
function counted() {
  const m = manualSource();
  const capabilities = vi.fn(async () => ({}));
  m.source.capabilities = capabilities;
  return { m, capabilities };
}

describe('the store a component makes', () => {
  it('under StrictMode, hidden by <Activity> until destroyed and shown again, is made again once: every store made is destroyed after unmount', async () => {
    const { m, capabilities } = counted();
    made.length = 0;
    function Chat() {
      const agent = useAgentRun({ source: m.source, threadId: 't1' });
      return <p>{agent.status}</p>;
    }
    const at = (mode: 'visible' | 'hidden') => (
      <StrictMode>
        <Activity mode={mode}>
          <Chat />
        </Activity>
      </StrictMode>
    );
    const view = render(at('visible'));
    await act(tick);
    view.rerender(at('hidden'));
    await settle();
    expect(made[0]?.getState().destroyed).toBe(true);
    view.rerender(at('visible'));
    await settle();
    expect(made).toHaveLength(2);
    view.unmount();
    await settle();
    expect(made.map((s) => s.getState().destroyed)).toEqual([true, true]);
    // One question per store held: the first, and the one made again.
    expect(capabilities).toHaveBeenCalledTimes(2);
  });

  it.each([
    ['useAgentRun({ source })', 'mount'],
    ['useAgentRun({ source })', 'run'],
    ['AgentProvider options', 'mount'],
    ['AgentProvider options', 'run'],
  ] as const)(
    "made by %s, destroyed while hidden: a child's effect (deps: %s) that runs the agent as it is shown uses the store made again",
    async (owner, deps) => {
      const m = manualSource();
      const results: string[] = [];
      function Ask({ run }: { run: ReturnType<typeof useAgentRun>['run'] }) {
        const effect = () => {
          void run('你好').then((r) => results.push(r.ok ? 'ok' : r.code));
        };
        // biome-ignore lint/correctness/useExhaustiveDependencies: a mount effect, as an app writes one to greet once
        useEffect(effect, deps === 'mount' ? [] : [run]);
        return null;
      }
      function Child() {
        return <Ask run={useAgentRun().run} />;
      }
      function Own() {
        return <Ask run={useAgentRun({ source: m.source, threadId: 't' }).run} />;
      }
      const at = (mode: 'visible' | 'hidden') => (
        <Activity mode={mode}>
          {owner === 'AgentProvider options' ? (
            <AgentProvider options={{ source: m.source, threadId: 't' }}>
              <Child />
            </AgentProvider>
          ) : (
            <Own />
          )}
        </Activity>
      );
      const view = render(at('visible'));
      await act(async () => {
        await tick();
        const runId = m.requests[0]?.runId ?? '';
        m.push({ type: 'RUN_STARTED', threadId: 't', runId }, { type: 'RUN_FINISHED', threadId: 't', runId });
        m.end();
        await tick();
      });
      view.rerender(at('hidden'));
      await settle();
      view.rerender(at('visible'));
      await settle();
      expect(results).toEqual(['ok']);
      expect(m.requests).toHaveLength(2);
      expect(m.requests[1]?.messages.map((message) => message.content)).toEqual(['你好', '你好']);
      view.unmount();
    },
  );

  it.each(['useAgentRun source', 'AgentProvider options'] as const)(
    'made by %s, destroyed by the app while shown, stays destroyed, shown, hidden by <Activity> and shown again',
    async (owner) => {
      const m = manualSource();
      const seen: ReturnType<typeof useAgentRun>['store'][] = [];
      function Chat() {
        const agent = useAgentRun(owner === 'useAgentRun source' ? { source: m.source, threadId: 't1' } : undefined);
        seen.push(agent.store);
        return <p>{agent.status}</p>;
      }
      const at = (mode: 'visible' | 'hidden') => (
        <Activity mode={mode}>
          {owner === 'AgentProvider options' ? (
            <AgentProvider options={{ source: m.source, threadId: 't1' }}>
              <Chat />
            </AgentProvider>
          ) : (
            <Chat />
          )}
        </Activity>
      );
      const view = render(at('visible'));
      await act(tick);
      const first = seen.at(-1);
      await act(async () => {
        first?.destroy();
        await tick();
      });
      expect(seen.at(-1)).toBe(first);
      expect(first?.getState().destroyed).toBe(true);
      // An "End chat" the app wired to destroy: a tab switch that hides and shows the chat does not bring it back.
      view.rerender(at('hidden'));
      await act(tick);
      view.rerender(at('visible'));
      await act(tick);
      expect(seen.at(-1)).toBe(first);
      expect(seen.at(-1)?.getState().destroyed).toBe(true);
      view.unmount();
    },
  );

  it.each(['useAgentRun source', 'AgentProvider options'] as const)(
    "made by %s, destroyed by the app from a child's effect as it mounts (an expired session's End chat), stays destroyed: none is made again, and nothing loops",
    async (owner) => {
      const m = manualSource();
      made.length = 0;
      const seen: ReturnType<typeof useAgentRun>['store'][] = [];
      function EndExpired() {
        const store = useAgentStore();
        useEffect(() => {
          store.destroy();
        }, [store]);
        return null;
      }
      function Own() {
        const agent = useAgentRun({ source: m.source, threadId: 't1' });
        seen.push(agent.store);
        return (
          <AgentProvider store={agent.store}>
            <EndExpired />
          </AgentProvider>
        );
      }
      function Provided() {
        seen.push(useAgentRun().store);
        return <EndExpired />;
      }
      const view = render(
        owner === 'useAgentRun source' ? (
          <Own />
        ) : (
          <AgentProvider options={{ source: m.source, threadId: 't1' }}>
            <Provided />
          </AgentProvider>
        ),
      );
      await settle();
      expect(made).toHaveLength(1);
      expect(new Set(seen).size).toBe(1);
      expect(seen.at(-1)?.getState().destroyed).toBe(true);
      view.unmount();
    },
  );

  it('in a mount React throws away (a sibling suspends) asks the agent nothing: only the store shown does, and it is destroyed after unmount', async () => {
    const { m, capabilities } = counted();
    made.length = 0;
    let ready = false;
    let resolve: () => void = () => undefined;
    const gate = new Promise<void>((r) => {
      resolve = () => {
        ready = true;
        r();
      };
    });
    function Chat() {
      useAgentRun({ source: m.source, threadId: 't' });
      return null;
    }
    function Slow() {
      if (!ready) throw gate;
      return <p>ready</p>;
    }
    const view = render(
      <Suspense fallback={<p>loading</p>}>
        <Chat />
        <Slow />
      </Suspense>,
    );
    await act(async () => {
      resolve();
      await gate;
      await tick();
    });
    expect(screen.getByText('ready')).toBeInTheDocument();
    expect(capabilities).toHaveBeenCalledTimes(1);
    view.unmount();
    await settle();
    expect(capabilities).toHaveBeenCalledTimes(1);
    expect(made.at(-1)?.getState().destroyed).toBe(true);
  });

  it('pre-rendered in a hidden <Activity> and removed before it was shown asks the agent nothing', async () => {
    const { m, capabilities } = counted();
    made.length = 0;
    function Chat() {
      useAgentRun({ source: m.source, threadId: 't' });
      return null;
    }
    const view = render(
      <Activity mode="hidden">
        <Chat />
      </Activity>,
    );
    await act(tick);
    view.rerender(<p>other tab</p>);
    view.unmount();
    await settle();
    expect(made).toHaveLength(1);
    expect(capabilities).not.toHaveBeenCalled();
    expect(m.requests).toHaveLength(0);
  });

  it('createAgentStore, made by the app, asks the agent what it supports at once', async () => {
    const { m, capabilities } = counted();
    const store = createAgentStore({ source: m.source });
    expect(capabilities).toHaveBeenCalledTimes(1);
    store.retain()();
    expect(capabilities).toHaveBeenCalledTimes(1);
  });
});

describe('a threadId that changes between renders', () => {
  it('is read once, as the source is: the store keeps its thread (the README says to give the component a key to switch)', async () => {
    const { m } = counted();
    let agent!: ReturnType<typeof useAgentRun>;
    function Chat({ conversation }: { conversation: string }) {
      agent = useAgentRun({ source: m.source, threadId: conversation });
      return <p>{agent.status}</p>;
    }
    const view = render(<Chat conversation="conv-1" />);
    await settle();
    view.rerender(<Chat conversation="conv-2" />);
    await settle();
    expect(agent.store.getState().thread.threadId).toBe('conv-1');
    view.rerender(<Chat key="conv-2" conversation="conv-2" />);
    await settle();
    expect(agent.store.getState().thread.threadId).toBe('conv-2');
    view.unmount();
  });
});

describe("AgentProvider's options", () => {
  it('are read once: a later source is ignored, before and after <Activity> brought the store back', async () => {
    const a = manualSource();
    const b = manualSource();
    let agent: ReturnType<typeof useAgentRun> | undefined;
    function Chat() {
      agent = useAgentRun();
      return null;
    }
    const at = (mode: 'visible' | 'hidden', source: typeof a.source) => (
      <Activity mode={mode}>
        <AgentProvider options={{ source, threadId: 't' }}>
          <Chat />
        </AgentProvider>
      </Activity>
    );
    const finish = (runId: string) => {
      a.push({ type: 'RUN_STARTED', threadId: 't', runId }, { type: 'RUN_FINISHED', threadId: 't', runId });
      a.end();
    };
    const view = render(at('visible', a.source));
    view.rerender(at('visible', b.source));
    await act(async () => {
      void agent?.run('one');
      await tick();
      finish(a.requests[0]?.runId ?? '');
      await tick();
    });
    expect([a.requests.length, b.requests.length]).toEqual([1, 0]);
    view.rerender(at('hidden', b.source));
    await settle();
    view.rerender(at('visible', b.source));
    await act(tick);
    await act(async () => {
      void agent?.run('two');
      await tick();
    });
    expect([a.requests.length, b.requests.length]).toEqual([2, 0]);
    // The thread came back with the store: the first run's message is in the second request.
    expect(a.requests[1]?.messages.map((msg) => msg.content)).toContain('one');
  });
});

describe("a child's layout effect that runs the agent", () => {
  it("sends the options of the render that ran it (the store's own, and a provider's)", async () => {
    for (const provided of [false, true]) {
      const m = manualSource();
      function AskOnPage({ page, run }: { page: string; run: ReturnType<typeof useAgentRun>['run'] }) {
        useLayoutEffect(() => {
          if (page === 'checkout') void run('Anything to know about checkout?');
        }, [page, run]);
        return null;
      }
      function Page() {
        const [page, setPage] = useState('home');
        const context = [{ description: 'page', value: page }];
        const agent = useAgentRun(provided ? { context } : { source: m.source, threadId: 't', context });
        return (
          <>
            <button type="button" onClick={() => setPage('checkout')}>
              go
            </button>
            <AskOnPage page={page} run={agent.run} />
          </>
        );
      }
      const view = render(
        provided ? (
          <AgentProvider options={{ source: m.source, threadId: 't' }}>
            <Page />
          </AgentProvider>
        ) : (
          <Page />
        ),
      );
      await act(async () => {
        screen.getByText('go').click();
        await tick();
      });
      expect(m.requests[0]?.context).toEqual([{ description: 'page', value: 'checkout' }]);
      view.unmount();
    }
  });
});

describe('a child below a provider, hidden by <Activity>', () => {
  it("adds nothing to the provider's runs while hidden, pre-rendered or hidden after it was shown", async () => {
    const m = manualSource();
    let run: ReturnType<typeof useAgentRun>['run'] | undefined;
    function Tab({ name }: { name: string }) {
      const agent = useAgentRun({
        tools: { [name]: { description: `the ${name} tab's tool`, handler: () => name } },
        context: [{ description: 'tab', value: name }],
      });
      run = agent.run;
      return null;
    }
    const at = (shown: 'orders' | 'billing') => (
      <AgentProvider options={{ source: m.source, threadId: 't' }}>
        <Activity mode={shown === 'orders' ? 'visible' : 'hidden'}>
          <Tab name="orders" />
        </Activity>
        <Activity mode={shown === 'billing' ? 'visible' : 'hidden'}>
          <Tab name="billing" />
        </Activity>
      </AgentProvider>
    );
    const view = render(at('orders'));
    await act(tick);
    const ask = async () => {
      await act(async () => {
        void run?.('hi');
        await tick();
      });
      const input = m.requests.at(-1);
      const runId = input?.runId ?? '';
      await act(async () => {
        m.push({ type: 'RUN_STARTED', threadId: 't', runId }, { type: 'RUN_FINISHED', threadId: 't', runId });
        m.end();
        await tick();
      });
      return { tools: input?.tools.map((t) => t.name), context: input?.context.map((c) => c.value) };
    };
    expect(await ask()).toEqual({ tools: ['orders'], context: ['orders'] });
    view.rerender(at('billing'));
    await act(tick);
    expect(await ask()).toEqual({ tools: ['billing'], context: ['billing'] });
    view.unmount();
  });
});

describe('children below a provider, one hidden by <Activity> and shown again', () => {
  it('keep the order they first joined in: tools and context go out as before the child was hidden', async () => {
    const m = manualSource();
    const store = createAgentStore({ source: m.source, threadId: 't' });
    function Child({ name }: { name: string }) {
      useAgentRun({ tools: { [name]: { description: name, handler: () => name } }, context: [{ description: name, value: name }] });
      return null;
    }
    const at = (mode: 'visible' | 'hidden') => (
      <AgentProvider store={store}>
        <Activity mode={mode}>
          <Child name="订单" />
        </Activity>
        <Child name="billing" />
      </AgentProvider>
    );
    const view = render(at('visible'));
    view.rerender(at('hidden'));
    await act(tick);
    view.rerender(at('visible'));
    await act(async () => {
      void store.getState().run('x');
      await tick();
    });
    expect(m.requests[0]?.context.map((c) => c.description)).toEqual(['订单', 'billing']);
    expect(m.requests[0]?.tools.map((t) => t.name)).toEqual(['订单', 'billing']);
    view.unmount();
    store.destroy();
  });
});
