'use client';

import { type AgentSource, httpSseSource, type OpenInterrupt, type RunSnapshot, type RunStatus } from '@aguikit/core';
import * as React from 'react';
import { useStore } from 'zustand';
import { useOptionalAgentStore } from './context.js';
import type { OptionsLayer } from './layers.js';
import { createOwnedStore, useOwnedStore } from './ownedStore.js';
import { type AgentStore, actionsOf, onServer } from './store.js';
import type { AgentActions, AgentStoreOptions, AgentStoreState } from './types.js';

export interface UseAgentRunOptions<Doc = unknown> extends Partial<Omit<AgentStoreOptions<Doc>, 'source'>> {
  /** Where events come from. Read once: a new source on a later render is ignored (the store is not recreated). */
  source?: AgentSource;
  /** Shorthand for `source: httpSseSource({ url, headers })`, read once as well. */
  url?: string;
  headers?: Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>);
}

export interface AgentRun<Doc = unknown> extends AgentActions<Doc> {
  store: AgentStore<Doc>;
  status: RunStatus;
  connection: AgentStoreState['connection'];
  /** Why the last request failed (a typed code, a sentence to show, whether `retry()` can help), until the next one starts. */
  failure: AgentStoreState['failure'];
  refusal: AgentStoreState['refusal'];
  inFlight: AgentStoreState['inFlight'];
  interrupts: readonly OpenInterrupt[];
}

/**
 * An insertion effect in the browser: it runs before every layout effect of
 * the commit, a child's included, so a child's layout or passive effect that
 * runs the agent sends this render's options. On a server, a plain effect,
 * which never runs there.
 */
const useBeforeChildEffects = onServer ? React.useEffect : React.useInsertionEffect;
/** A layout effect in the browser (React undoes it when `<Activity>` hides the component); a plain effect on a server. */
const useIsomorphicLayoutEffect = onServer ? React.useEffect : React.useLayoutEffect;

const pick =
  <K extends keyof RunSnapshot>(key: K) =>
  (s: RunSnapshot) =>
    s[key];
const selectStatus = (s: RunSnapshot) => s.thread.run.status;
const selectInterrupts = (s: RunSnapshot) => s.thread.interrupts;

/**
 * Connects a component to an agent. With a `source` (or `url`) it creates the
 * thread's store once, keeps it for the component's lifetime and destroys it
 * on unmount (StrictMode's unmount and mount again keep it); without, it uses
 * the store of the nearest `<AgentProvider>`, which it leaves alone. Options passed inline on
 * every render never recreate the store or the source; callbacks, tools and
 * context are updated in place. Re-renders when the run's status, the
 * connection, an error, a refusal or the open interrupts change — never for
 * a token — and gives the same object until one of them does (or the store,
 * or an action the store holds), so it can be a dependency of an effect or a
 * memo.
 *
 * @example
 * const agent = useAgentRun({ url: '/api/agent' });
 * <button disabled={agent.inFlight !== undefined} onClick={() => agent.run('Hello')}>Send</button>
 */
export function useAgentRun<Doc = unknown>(options: UseAgentRunOptions<Doc> = {}): AgentRun<Doc> {
  const context = useOptionalAgentStore() as AgentStore<Doc> | null;
  // Read once: the source of the first render is the store's for its lifetime.
  const [source] = React.useState(
    () =>
      options.source ??
      // An empty URL is a URL all the same: its run fails with INVALID_URL, as the README says, rather than this throwing.
      (options.url !== undefined
        ? httpSseSource({ url: options.url, ...(options.headers ? { headers: options.headers } : {}) })
        : undefined),
  );
  // The store this hook creates is this component's: destroyed when it unmounts.
  const own = useOwnedStore<Doc>(
    source
      ? (log) => {
          const { source: _s, url: _u, headers: _h, ...rest } = options;
          return createOwnedStore<Doc>({ ...rest, source, ...(log ? { log } : {}) });
        }
      : null,
  );
  const store = own ?? context;
  if (!store) throw new Error('useAgentRun needs a `source` (or `url`) option, or an <AgentProvider> above it.');

  // The keys the last render gave: one a render leaves out goes back to the controller's default.
  const given = React.useRef<readonly string[]>([]);
  // A provider's store is not this component's: its options go on top of the provider's while it is shown (a layout
  // effect, which <Activity> undoes as it hides the component, where an insertion effect would stay).
  const layer = React.useRef<OptionsLayer<Doc> | undefined>(undefined);
  // This component's key among the layers: shown again, it goes back to where it first joined.
  const place = React.useRef({});
  const latest = React.useRef<Partial<AgentStoreOptions<Doc>>>({});
  useIsomorphicLayoutEffect(() => {
    if (own) return;
    layer.current = store.layer(place.current);
    layer.current.set(latest.current);
    return () => {
      layer.current?.remove();
      layer.current = undefined;
    };
  }, [own, store]);
  // Before any effect of this render's children: an effect that runs the agent sends this render's options.
  useBeforeChildEffects(() => {
    const { source: _s, url: _u, headers: _h, ...rest } = options;
    if (!own) {
      latest.current = rest;
      layer.current?.set(rest);
      return;
    }
    const next: Record<string, unknown> = { ...rest };
    for (const key of given.current) if (!Object.hasOwn(next, key)) next[key] = undefined;
    given.current = Object.keys(rest);
    if (Object.keys(next).length) store.configure(next);
  });

  const status = useStore(store, selectStatus);
  const connection = useStore(store, pick('connection'));
  const failure = useStore(store, pick('failure'));
  const refusal = useStore(store, pick('refusal'));
  const inFlight = useStore(store, pick('inFlight'));
  const interrupts = useStore(store, selectInterrupts);
  // The actions as the store holds them at this render: an app may set its own (setState) in place of the controller's.
  const agent = { store, status, connection, failure, refusal, inFlight, interrupts, ...actionsOf(store.getState()) };
  // One object per change of what it holds, not per render: an effect or a memo that depends on it runs when it changes.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the dependencies are the object's members, always the same keys in the same order.
  return React.useMemo(() => agent, Object.values(agent));
}
