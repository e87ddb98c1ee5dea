'use client';

import type { RunSummary } from '@aguikit/core';
import { useSelectorFor } from './useAgentSelector.js';

/**
 * One run of the thread by id (its status, parent and times), or undefined
 * for no id or an unknown one. Changes only when that run starts or settles,
 * so a message can show how its own run ended.
 *
 * @example
 * const failed = useRunSummary(message.runId)?.status === 'error';
 */
export function useRunSummary(runId: string | undefined): RunSummary | undefined {
  // Own keys only: a run id is an opaque string, and 'constructor' must not find Object.prototype's.
  return useSelectorFor('useRunSummary', (s) =>
    runId !== undefined && Object.hasOwn(s.thread.runs, runId) ? s.thread.runs[runId] : undefined,
  );
}
