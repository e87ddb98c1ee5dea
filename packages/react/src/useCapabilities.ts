'use client';

import type { AgentCapabilities } from '@aguikit/core';
import { useSelectorFor } from './useAgentSelector.js';

/**
 * What the agent says it supports (AG-UI's `AgentCapabilities`, read once
 * from the source), or undefined while unknown or when it does not say: hide
 * what it does not support, never what it has not said.
 *
 * @example
 * const caps = useCapabilities();
 * const canAttach = caps?.multimodal?.input?.image === true;
 */
export function useCapabilities(): AgentCapabilities | undefined {
  return useSelectorFor('useCapabilities', (s) => s.capabilities);
}
