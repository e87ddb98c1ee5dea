'use client';

import type { SharedState } from '@aguikit/core';
import { useAgentSelector } from './useAgentSelector.js';

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
  return useAgentSelector((s) => s.thread.sharedState);
}
