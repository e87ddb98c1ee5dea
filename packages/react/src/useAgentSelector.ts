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
 * it again, and would take a new object for a change and render for ever),
 * and a result the selector built (a second call gives another) that is
 * shallow-equal to the last is the last.
 */
export function useSelectorFor<T>(hook: string, selector: (state: AgentStoreState) => T): T {
  // The state, the selector and what it gave.
  const last = React.useRef<[AgentStoreState, (state: AgentStoreState) => T, T] | null>(null);
  return useStore(useStoreFor(hook), (state) => {
    const before = last.current;
    if (before?.[0] === state && before[1] === selector) return before[2];
    const next = selector(state);
    // Compared member by member only when the selector builds its result: a document it returns as it is may hold
    // 100,000 keys.
    const result = before && !Object.is(selector(state), next) && shallowEqual(before[2], next) ? before[2] : next;
    last.current = [state, selector, result];
    return result;
  });
}

/** Two plain objects, or two arrays, whose members are the same (`Object.is`); anything else (a Map, a Date) is not. */
function shallowEqual(a: unknown, b: unknown): boolean {
  const kind = (a as object | null | undefined)?.constructor;
  return (
    kind === (b as object | null | undefined)?.constructor &&
    (kind === Object || kind === Array) &&
    sameMembers(a as Record<string, unknown>, b as Record<string, unknown>)
  );
}
