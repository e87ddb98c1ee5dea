'use client';

import type { SubagentRecord } from '@aguikit/core';
import { useSelectorFor } from './useAgentSelector.js';

/**
 * The thread's subagents by `subagentRunId`: name, parent, status, error.
 * Changes only on a SUBAGENT_* event, never for a token.
 *
 * @example
 * const subagents = useSubagents();
 * const running = Object.values(subagents).filter((s) => s.status === 'running');
 */
export function useSubagents(): Readonly<Record<string, SubagentRecord>> {
  return useSelectorFor('useSubagents', (s) => s.thread.subagents);
}
