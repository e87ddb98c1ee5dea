'use client';

import type { RunStatus } from '@aguikit/core';
import { useSelectorFor } from './useAgentSelector.js';

/**
 * The status of the current or last run.
 *
 * @example
 * const status = useRunStatus(); // 'running'
 */
export function useRunStatus(): RunStatus {
  return useSelectorFor('useRunStatus', (s) => s.thread.run.status);
}
