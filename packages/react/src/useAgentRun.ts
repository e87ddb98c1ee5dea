import { type AgentSource, httpSseSource, type OpenInterrupt, type RunStatus } from '@aguikit/core';
import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import { useOptionalAgentStore } from './context.js';
import { type AgentStore, createAgentStore } from './store.js';
import type { AgentActions, AgentStoreOptions, AgentStoreState } from './types.js';

export interface UseAgentRunOptions extends Partial<Omit<AgentStoreOptions, 'source'>> {
  /** Where events come from. Read once: a new source on a later render is ignored (the store is not recreated). */
  source?: AgentSource;
  /** Shorthand for `source: httpSseSource({ url, headers })`, read once as well. */
  url?: string;
  headers?: Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>);
}

export interface AgentRun extends AgentActions {
  store: AgentStore;
  status: RunStatus;
  connection: AgentStoreState['connection'];
  error: AgentStoreState['error'];
  refusal: AgentStoreState['refusal'];
  inFlight: AgentStoreState['inFlight'];
  interrupts: readonly OpenInterrupt[];
}

const pick =
  <K extends keyof AgentStoreState>(key: K) =>
  (s: AgentStoreState) =>
    s[key];
const selectStatus = (s: AgentStoreState) => s.thread.run.status;
const selectInterrupts = (s: AgentStoreState) => s.thread.interrupts;

/**
 * Connects a component to an agent. With a `source` (or `url`) it creates the
 * thread's store once and keeps it for the component's lifetime; without, it
 * uses the store of the nearest `<AgentProvider>`. Options passed inline on
 * every render never recreate the store or the source; callbacks, tools and
 * context are updated in place. Re-renders when the run's status, the
 * connection, an error, a refusal or the open interrupts change — never for
 * a token.
 *
 * @example
 * const agent = useAgentRun({ url: '/api/agent' });
 * <button disabled={agent.inFlight !== undefined} onClick={() => agent.run('Hello')}>Send</button>
 */
export function useAgentRun(options: UseAgentRunOptions = {}): AgentRun {
  const context = useOptionalAgentStore();
  const [own] = useState(() => {
    const source =
      options.source ??
      (options.url ? httpSseSource({ url: options.url, ...(options.headers ? { headers: options.headers } : {}) }) : undefined);
    if (!source) return null;
    const { source: _s, url: _u, headers: _h, ...rest } = options;
    return createAgentStore({ ...rest, source });
  });
  const store = own ?? context;
  if (!store) throw new Error('useAgentRun needs a `source` (or `url`) option, or an <AgentProvider> above it.');

  useEffect(() => {
    const { source: _s, url: _u, headers: _h, ...rest } = options;
    if (Object.keys(rest).length) store.configure(rest);
  });

  const state = store.getState();
  return {
    store,
    status: useStore(store, selectStatus),
    connection: useStore(store, pick('connection')),
    error: useStore(store, pick('error')),
    refusal: useStore(store, pick('refusal')),
    inFlight: useStore(store, pick('inFlight')),
    interrupts: useStore(store, selectInterrupts),
    run: state.run,
    stop: state.stop,
    resume: state.resume,
    cancelInterrupts: state.cancelInterrupts,
    setState: state.setState,
    reconnect: state.reconnect,
    reset: state.reset,
  };
}
