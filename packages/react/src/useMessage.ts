'use client';

import type { MessageRecord } from '@aguikit/core';
import { useSelectorFor } from './useAgentSelector.js';

/**
 * One message by id; changes only when that message changes (a token of
 * another message does not re-render it).
 *
 * @example
 * const message = useMessage(id);
 */
export function useMessage(id: string): MessageRecord | undefined {
  return useSelectorFor('useMessage', (s) => s.thread.messages.byId.get(id));
}
