'use client';

import type { LoggedEvent } from '@aguikit/core';
import * as React from 'react';
import { useStore } from 'zustand';
import { useStoreFor } from './context.js';
import { useSelectorFor } from './useAgentSelector.js';

/** What `useEventLog` gives: one object per change of the log. */
export interface EventLogView {
  /** How many events this render shows. */
  readonly count: number;
  /**
   * The log's own array, appended in place (a reset starts a new one): its
   * first `count` events are this render's. It costs nothing at a flush, and
   * it stays the same array as it grows: depend on `count`, not on it.
   */
  readonly events: readonly LoggedEvent[];
  /** The first `count` events as an array of their own, new at each change: made as it is first read, in O(`count`). */
  readonly entries: readonly LoggedEvent[];
}

/**
 * The raw events received, in arrival order. Re-renders when events arrive
 * (once per flushed batch), and gives the same object until then. A long
 * timeline reads `events` up to `count`, which costs nothing per flush;
 * `entries` copies the log when read.
 *
 * @example
 * const { events, count } = useEventLog();
 */
export function useEventLog(): EventLogView {
  const store = useStoreFor('useEventLog');
  const count = useSelectorFor('useEventLog', (s) => s.eventCount);
  // The array itself, by identity, not the log that holds it: a reset starts a new one, which may hold as many events as
  // the old by the time React renders (a count alone would not tell them apart).
  const events = useStore(store, () => store.log.entries);
  // One object per change, not per render: an effect or a memo that depends on it runs when events arrive.
  return React.useMemo(() => {
    let entries: readonly LoggedEvent[] | undefined;
    return {
      count,
      events,
      get entries() {
        entries ??= events.slice(0, count);
        return entries;
      },
    };
  }, [events, count]);
}
