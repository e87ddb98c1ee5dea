'use client';

import type { RunState } from '@aguikit/core';
import { useSelectorFor } from './useAgentSelector.js';

/**
 * The current (or last) run as the thread holds it: status, error, steps,
 * token usage, result, metadata, and its input's tools, context and
 * forwarded props. Changes when the run record does, never for a token.
 *
 * @example
 * const { usage, result } = useRun();
 */
export function useRun(): RunState {
  return useSelectorFor('useRun', (s) => s.thread.run);
}
