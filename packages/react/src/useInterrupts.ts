'use client';

import type { OpenInterrupt } from '@aguikit/core';
import { useAgentSelector } from './useAgentSelector.js';

/**
 * The open interrupts of the thread, in arrival order.
 *
 * @example
 * const interrupts = useInterrupts();
 */
export function useInterrupts(): readonly OpenInterrupt[] {
  return useAgentSelector((s) => s.thread.interrupts);
}
