'use client';

import type { LoggedEvent } from '@aguikit/core';
import * as React from 'react';
import { useStoreFor } from './context.js';
import { useSelectorFor } from './useAgentSelector.js';

/**
 * The raw events received, in arrival order. Re-renders when events arrive
 * (once per flushed batch), and gives the same object until then; the
 * entries array is append-only.
 *
 * @example
 * const { entries, count } = useEventLog();
 */
export function useEventLog(): { entries: readonly LoggedEvent[]; count: number } {
  const store = useStoreFor('useEventLog');
  const count = useSelectorFor('useEventLog', (s) => s.eventCount);
  // The array itself, not the log that holds it: a reset starts a new one, which may hold as many events as the old by
  // the time React renders (a count alone would not tell them apart).
  const all = useSelectorFor('useEventLog', () => store.log.entries);
  // One object per change, not per render: an effect or a memo that depends on it runs when events arrive.
  return React.useMemo(() => ({ entries: all.slice(0, count), count }), [all, count]);
}
