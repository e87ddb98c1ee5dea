import { createContext, type ReactNode, useContext, useState } from 'react';
import { type AgentStore, createAgentStore } from './store.js';
import type { AgentStoreOptions } from './types.js';

const AgentStoreContext = createContext<AgentStore | null>(null);

export type AgentProviderProps = { children?: ReactNode } & (
  | { store: AgentStore; options?: never }
  | { options: AgentStoreOptions; store?: never }
);

/**
 * Makes one thread's store available to the hooks below it: pass a `store`
 * (from `createAgentStore` or `useAgentRun().store`), or `options` to create
 * one for the lifetime of the provider (later option objects are ignored, so
 * inline options never recreate it).
 *
 * @example
 * <AgentProvider options={{ source: httpSseSource({ url: '/api/agent' }) }}><Chat /></AgentProvider>
 */
export function AgentProvider(props: AgentProviderProps) {
  const [own] = useState(() => (props.store ? null : createAgentStore(props.options as AgentStoreOptions)));
  return <AgentStoreContext.Provider value={props.store ?? own}>{props.children}</AgentStoreContext.Provider>;
}

/** The store of the nearest `AgentProvider`; throws a clear error outside one. */
export function useAgentStore(): AgentStore {
  const store = useContext(AgentStoreContext);
  if (!store) throw new Error('useAgentStore must be used within <AgentProvider>.');
  return store;
}

/** The store of the nearest `AgentProvider`, or null outside one. */
export function useOptionalAgentStore(): AgentStore | null {
  return useContext(AgentStoreContext);
}
