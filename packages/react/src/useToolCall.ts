'use client';

import type { ToolCallRecord } from '@aguikit/core';
import { useSelectorFor } from './useAgentSelector.js';

/**
 * One tool call by id: name, arguments as they stream, status, result, and
 * the interrupt that waits on it.
 *
 * @example
 * const call = useToolCall(toolCallId);
 */
export function useToolCall(id: string): ToolCallRecord | undefined {
  return useSelectorFor('useToolCall', (s) => s.thread.toolCalls.get(id));
}
