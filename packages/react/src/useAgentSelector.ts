'use client';

import * as React from 'react';
import { useStore } from 'zustand';
import { useStoreFor } from './context.js';
import { sameMembers } from './layers.js';
import type { AgentStoreState } from './types.js';

/**
 * The base of every hook: selects a slice of the nearest agent store, and
 * re-renders only when that slice changes. A selector may build an object or
 * an array (`(s) => ({ a: s.a, b: s.b })`, a `filter`): a result equal member
 * by member to the last one is the last one, so it neither loops nor
 * re-renders while its members stay the same (as zustand's `useShallow`
 * does, which is not needed here). One that builds new members each time
 * (`map((x) => ({ ...x }))`) re-renders at every change of the store.
 *
 * @example
 * const steps = useAgentSelector((s) => s.thread.run.steps);
 */
export function useAgentSelector<T>(selector: (state: AgentStoreState) => T): T {
  return useSelectorFor('useAgentSelector', selector);
}

/**
 * `useAgentSelector` for `hook`, which an error outside a provider names.
 * For the same state and selector it gives the same result (React asks for
 * it again, and would take a new object for a change and render for ever).
 * A new result equal to the last is the last: two arrays of the same length,
 * keys and members (`Object.is`), compared without running the selector
 * again; two plain objects of the same keys, in the same order, and members,
 * compared only when the selector built it (a second call gives another): a
 * document it returns as it is may hold 100,000 keys. Anything else (a Map,
 * a Date) is compared by identity.
 */
export function useSelectorFor<T>(hook: string, selector: (state: AgentStoreState) => T): T {
  // The state, the selector and what it gave.
  const last = React.useRef<[AgentStoreState?, ((state: AgentStoreState) => T)?, T?]>([]);
  return useStore(useStoreFor(hook), (state) => {
    const [held, by, a] = last.current;
    if (held === state && by === selector) return a as T;
    const next = selector(state);
    const b = next as Record<string, unknown>;
    const kind = (a as Record<string, unknown>)?.constructor;
    const same =
      a !== b &&
      kind === b?.constructor &&
      (kind === Array ? (a as unknown[]).length === b.length : kind === Object && selector(state) !== next) &&
      sameMembers(a as Record<string, unknown>, b);
    const result = same ? (a as T) : next;
    last.current = [state, selector, result];
    return result;
  });
}
