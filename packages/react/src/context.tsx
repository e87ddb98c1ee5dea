'use client';

import * as React from 'react';
import { clientContext } from './clientContext.js';
import { ownedOptions, useOwnedStore } from './ownedStore.js';
import { type AgentStore, createAgentStore } from './store.js';
import type { AgentStoreOptions } from './types.js';

const AgentStoreContext = clientContext<AgentStore | null>(null);

export type AgentProviderProps<Doc = unknown> = { children?: React.ReactNode } & (
  | { store: AgentStore<Doc>; options?: never }
  | { options: AgentStoreOptions<Doc>; store?: never }
);

/**
 * Makes one thread's store available to the hooks below it: pass a `store`
 * (from `createAgentStore` or `useAgentRun().store`), which the provider
 * leaves alone, or `options` to create one for the lifetime of the provider
 * (destroyed when it unmounts; later option objects are ignored, so inline
 * options never recreate it).
 *
 * @example
 * <AgentProvider options={{ source: httpSseSource({ url: '/api/agent' }) }}><Chat /></AgentProvider>
 */
export function AgentProvider<Doc = unknown>(props: AgentProviderProps<Doc>) {
  // A store the provider created is the provider's: destroyed when it unmounts. One passed in is left alone.
  const [creates] = React.useState(() => !props.store);
  // Read once: a store made again (after a hidden <Activity>) is made from the first options too, not from later ones.
  const [options] = React.useState(() => props.options as AgentStoreOptions<Doc>);
  // A plain-JavaScript app, or `store={maybeStore}` before the store exists: said as what the provider needs.
  if (creates && !options)
    throw new Error(
      'AgentProvider needs a `store` (from createAgentStore, or useAgentRun().store) or `options` to create one: it was given neither (a `store` that is still undefined?).',
    );
  const own = useOwnedStore<Doc>(creates ? (log) => createAgentStore<Doc>(ownedOptions({ ...options, ...(log ? { log } : {}) })) : null);
  // The hooks read documents as `unknown` (or as the type their caller names): the store's own type stays out of the context.
  const store = (props.store ?? own) as AgentStore | null;
  if (!store)
    throw new Error(
      'AgentProvider was given a `store` when it mounted and now has none: it keeps the store it started with and makes none from later `options`. Keep passing the store, or give the provider a new `key` to start over with `options`.',
    );
  return <AgentStoreContext.Provider value={store}>{props.children}</AgentStoreContext.Provider>;
}

/** The store of the nearest `AgentProvider`; throws a clear error outside one. */
export function useAgentStore(): AgentStore {
  return useStoreFor('useAgentStore');
}

/** The store of the nearest `AgentProvider` for `hook`: outside one, an error that names the hook the app called and how to give it a store. */
export function useStoreFor(hook: string): AgentStore {
  const store = React.useContext(AgentStoreContext);
  if (!store)
    throw new Error(
      `${hook} must be used below <AgentProvider>: wrap the components that call it in <AgentProvider store={agent.store}> (the store of useAgentRun or createAgentStore) or <AgentProvider options={{ source }}>.`,
    );
  return store;
}

/** The store of the nearest `AgentProvider`, or null outside one. */
export function useOptionalAgentStore(): AgentStore | null {
  return React.useContext(AgentStoreContext);
}
