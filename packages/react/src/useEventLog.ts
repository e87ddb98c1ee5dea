'use client';

import type { LoggedEvent } from '@aguikit/core';
import * as React from 'react';
import { useAgentStore } from './context.js';
import { useAgentSelector } from './useAgentSelector.js';

/**
 * The raw events received, in arrival order. Re-renders when events arrive
 * (once per flushed batch); the entries array is append-only.
 *
 * @example
 * const { entries, count } = useEventLog();
 */
export function useEventLog(): { entries: readonly LoggedEvent[]; count: number } {
  const store = useAgentStore();
  const count = useAgentSelector((s) => s.eventCount);
  const log = store.log;
  const entries = React.useMemo(() => log.entries.slice(0, count), [log, count]);
  return { entries, count };
}
