'use client';

import type { ThreadState } from '@aguikit/core';
import { useSelectorFor } from './useAgentSelector.js';

// Keyed by the ids array: it is replaced when a message is added or removed and kept while one streams.
const cache = new WeakMap<readonly string[], ReadonlyMap<string, string>>();

function lastReplies({ ids, byId }: ThreadState['messages']): ReadonlyMap<string, string> {
  const found = cache.get(ids);
  if (found) return found;
  const map = new Map<string, string>();
  for (const id of ids) {
    const message = byId.get(id);
    if (message?.runId !== undefined && (message.role === 'assistant' || message.role === 'reasoning')) map.set(message.runId, id);
  }
  cache.set(ids, map);
  return map;
}

/**
 * The id of a run's last reply (its last assistant or reasoning message, in
 * thread order): the one a failure or a stop may have cut short. Looked up
 * in a table rebuilt when a message is added or removed, never for a token;
 * the hook re-renders only when the answer changes.
 *
 * @example
 * const cutShort = useRunSummary(message.runId)?.status === 'error' && useLastReplyId(message.runId) === message.id;
 */
export function useLastReplyId(runId: string | undefined): string | undefined {
  return useSelectorFor('useLastReplyId', (s) => (runId === undefined ? undefined : lastReplies(s.thread.messages).get(runId)));
}
