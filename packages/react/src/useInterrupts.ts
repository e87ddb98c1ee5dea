'use client';

import type { OpenInterrupt } from '@aguikit/core';
import { useSelectorFor } from './useAgentSelector.js';

/**
 * The open interrupts of the thread, in arrival order.
 *
 * @example
 * const interrupts = useInterrupts();
 */
export function useInterrupts(): readonly OpenInterrupt[] {
  return useSelectorFor('useInterrupts', (s) => s.thread.interrupts);
}
