'use client';

import * as React from 'react';
import { clientContext } from './clientContext.js';
import { createOwnedStore, useOwnedStore } from './ownedStore.js';
import type { AgentStore } from './store.js';
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
  const own = useOwnedStore<Doc>(creates ? (log) => createOwnedStore<Doc>({ ...options, ...(log ? { log } : {}) }) : null);
  // The hooks read documents as `unknown` (or as the type their caller names): the store's own type stays out of the context.
  const store = (props.store ?? own) as AgentStore | null;
  if (!store)
    throw new Error(
      'AgentProvider was given a `store` when it mounted and now has none: it keeps the store it started with and makes none from later `options`. Keep passing the store, or give the provider a new `key` to start over with `options`.',
    );
  return <AgentStoreContext.Provider value={store}>{props.children}</AgentStoreContext.Provider>;
}

/**
 * The store of the nearest `AgentProvider`. Outside one it throws an error
 * that names `caller` and says how to give it a store: a component that needs
 * a provider passes its own name as written in JSX (`'<MyChat>'`), so the
 * error names what the app rendered rather than a hook inside it.
 *
 * @example
 * function MyChat() {
 *   const store = useAgentStore('<MyChat>');
 *   // ...
 * }
 */
export function useAgentStore(caller = 'useAgentStore'): AgentStore {
  return useStoreFor(caller);
}

/**
 * The store of the nearest `AgentProvider` for `caller` (a hook's name, or a
 * component's as `<Name>`): outside one, an error that names it and how to
 * give it a store.
 */
export function useStoreFor(caller: string): AgentStore {
  const store = React.useContext(AgentStoreContext);
  if (!store) {
    const who = caller.startsWith('<')
      ? `${caller} must be rendered below <AgentProvider>: wrap it in`
      : `${caller} must be used below <AgentProvider>: wrap the components that call it in`;
    throw new Error(
      `${who} <AgentProvider store={agent.store}> (the store of useAgentRun or createAgentStore) or <AgentProvider options={{ source }}>.`,
    );
  }
  return store;
}

/** The store of the nearest `AgentProvider`, or null outside one. */
export function useOptionalAgentStore(): AgentStore | null {
  return React.useContext(AgentStoreContext);
}
