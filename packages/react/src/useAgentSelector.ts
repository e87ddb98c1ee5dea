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
 * does, which is not needed here), memoized (reselect's `createSelector`)
 * or not. One that builds new members each time
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
 * keys and members (`Object.is`), or two plain objects of the same keys, in
 * the same order, and members, whether the selector built it, memoized it
 * (reselect's `createSelector`, a cache of the app's) or took it from the
 * state. The selector runs once per change; an object it gives again is
 * what it gave for that object before, not compared again (a restated object
 * equal to the last result costs one comparison, not one per later change of
 * the store). The shared document itself and
 * a large object of it (one of more than 128 keys after its first write,
 * which a delta changes in O(1)) are compared by identity, as anything else
 * is (a Map, a Date): a snapshot may restate 100,000 keys. Any other plain object of the state is new only as the
 * engine copies or replaces it, which takes time in the order of its keys,
 * as comparing it does; the last two objects compared are not compared
 * again (a selector that picks in turn between two lists neither again).
 */
export function useSelectorFor<T>(hook: string, selector: (state: AgentStoreState) => T): T {
  // The state, the selector, what it gave, what the selector returned for it (the result, or a new equal object), and the
  // last two objects compared with whether they were equal.
  const last = React.useRef<[AgentStoreState?, ((state: AgentStoreState) => T)?, T?, T?, ([unknown, unknown, boolean] | undefined)?]>([]);
  return useStore(useStoreFor(hook), (state) => {
    const [held, by, a, given, pair] = last.current;
    if (held === state && by === selector) return a as T;
    const next = selector(state);
    const b = next as Record<string, unknown>;
    const kind = (a as Record<string, unknown>)?.constructor;
    // The object the last result stood for, given again (kept by the state, or by a memo): the last result, not compared
    // again at each change of the store that leaves it. An array that grows in place (`store.log.entries`) stands for it
    // only while it has its length: a reset's new log, empty as the last was, is shown once it grows.
    const alike =
      a !== b &&
      kind === b?.constructor &&
      (kind === Array
        ? (a as unknown[]).length === b.length
        : kind === Object && b !== state.thread.sharedState.document && !large(a) && !large(b));
    // The two objects compared last are not compared again: a selector that picks in turn between two objects of 100,000
    // keys (some 100 ms to list and compare) compares them once.
    let compared = pair;
    if (alike && next !== given && !(pair && (pair[0] === a ? pair[1] === b : pair[0] === b && pair[1] === a)))
      compared = [a, b, sameMembers(a as Record<string, unknown>, b)];
    const same = alike && (next === given || compared?.[2] === true);
    const result = same ? (a as T) : next;
    // The pair is kept while the result is one of its objects (a pick in turn between them): once the selector gives
    // neither, the two objects (which may be large, and gone from the state) are let go.
    last.current = [state, selector, result, next, compared && (compared[0] === result || compared[1] === result) ? compared : undefined];
    return result;
  });
}

/** The mark of a large object of the shared state (`LARGE_OBJECT` of @aguikit/core, a symbol of the global registry). */
const LARGE = Symbol.for('aguikit.largeObject');
const large = (value: unknown) => (value as { [LARGE]?: unknown })[LARGE] === true;
