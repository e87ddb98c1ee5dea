'use client';

import type { Diagnostic } from '@aguikit/core';
import { useSelectorFor } from './useAgentSelector.js';

/**
 * Every problem found in the stream, with the index of the event.
 *
 * @example
 * const errors = useDiagnostics().filter((d) => d.severity === 'error');
 */
export function useDiagnostics(): readonly Diagnostic[] {
  return useSelectorFor('useDiagnostics', (s) => s.thread.diagnostics);
}
