'use client';

import { useSelectorFor } from './useAgentSelector.js';

/**
 * The ids of the thread's messages, in order. Stable while a message streams:
 * a list that renders from it re-renders only when a message is added or
 * removed, a `MESSAGES_SNAPSHOT` restates the history, or an activity is
 * replaced under another agent.
 *
 * @example
 * const ids = useMessageIds();
 * return ids.map((id) => <Message key={id} id={id} />);
 */
export function useMessageIds(): readonly string[] {
  return useSelectorFor('useMessageIds', (s) => s.thread.messages.ids);
}
