'use client';

import type { ThreadState } from '@aguikit/core';
import type { AgentStoreState } from './types.js';
import { useSelectorFor } from './useAgentSelector.js';

const NONE: ReadonlyMap<string, string> = new Map();
// Keyed by the ids array: it is replaced when a message is added or removed, or an activity is replaced under another
// agent, and kept while one streams.
const cache = new WeakMap<readonly string[], ReadonlyMap<string, string>>();

function attribution({ ids, byId }: ThreadState['messages']): ReadonlyMap<string, string> {
  const found = cache.get(ids);
  if (found) return found;
  const map = new Map<string, string>();
  for (const id of ids) {
    const sub = byId.get(id)?.subagentRunId;
    if (sub !== undefined) map.set(id, sub);
  }
  const result = map.size ? map : NONE;
  cache.set(ids, result);
  return result;
}

const select = (s: AgentStoreState) => attribution(s.thread.messages);

/**
 * Which subagent each message came from: message id -> `subagentRunId`, for
 * the attributed messages only (the main agent's are absent). Recomputed when
 * a message is added or removed, or an activity is replaced under another
 * agent (the only way a message changes agents), not for a token, so a list
 * can group by subagent and still not re-render while a message streams.
 *
 * @example
 * const attribution = useMessageAttribution();
 * const mine = useMessageIds().filter((id) => attribution.get(id) === 'researcher-1');
 */
export function useMessageAttribution(): ReadonlyMap<string, string> {
  return useSelectorFor('useMessageAttribution', select);
}
