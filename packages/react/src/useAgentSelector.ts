'use client';

import { useStore } from 'zustand';
import { useStoreFor } from './context.js';
import type { AgentStoreState } from './types.js';

/**
 * The base of every hook: selects a slice of the nearest agent store, and
 * re-renders only when that slice changes (`Object.is`). The selector must
 * return existing objects, not new ones.
 *
 * @example
 * const steps = useAgentSelector((s) => s.thread.run.steps);
 */
export function useAgentSelector<T>(selector: (state: AgentStoreState) => T): T {
  return useSelectorFor('useAgentSelector', selector);
}

/** `useAgentSelector` for `hook`, which an error outside a provider names. */
export function useSelectorFor<T>(hook: string, selector: (state: AgentStoreState) => T): T {
  return useStore(useStoreFor(hook), selector);
}
