'use client';

import { useAgentSelector } from './useAgentSelector.js';

/**
 * The ids of the thread's messages, in order. Stable while a message streams:
 * a list that renders from it re-renders only when a message is added or removed.
 *
 * @example
 * const ids = useMessageIds();
 * return ids.map((id) => <Message key={id} id={id} />);
 */
export function useMessageIds(): readonly string[] {
  return useAgentSelector((s) => s.thread.messages.ids);
}
