'use client';

import type { SharedState } from '@aguikit/core';
import { useSelectorFor } from './useAgentSelector.js';

/**
 * The shared state as a whole: the document, whether it is in sync, the
 * operation that desynced it, and the last delta that applied. Re-renders
 * only when one of them changes (the record is replaced, never mutated).
 *
 * @example
 * const { sync, failure } = useSharedState();
 * if (sync === 'desynced') warn(`State out of sync: ${failure?.message}`);
 */
export function useSharedState(): SharedState {
  return useSelectorFor('useSharedState', (s) => s.thread.sharedState);
}
