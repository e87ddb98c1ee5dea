export type { FrameScheduler } from '@aguikit/core';
export { frameScheduler } from '@aguikit/core';
/** zustand's: for zustand's own hooks; `useAgentState` and `useAgentSelector` compare a built object or array member by member without it. */
export { useShallow } from 'zustand/react/shallow';
export type { AgentProviderProps } from './context.js';
export { AgentProvider, useAgentStore } from './context.js';
export type { AgentStore } from './store.js';
export { createAgentStore } from './store.js';
export type {
  ActionResult,
  AgentActions,
  AgentStoreOptions,
  AgentStoreState,
  FrontendTool,
  Refusal,
  RefusalCode,
  RunFailure,
  RunFailureCode,
  RunRequest,
} from './types.js';
export type { AgentRun, UseAgentRunOptions } from './useAgentRun.js';
export { useAgentRun } from './useAgentRun.js';
export { useAgentSelector } from './useAgentSelector.js';
export { useAgentState } from './useAgentState.js';
export { useCapabilities } from './useCapabilities.js';
export { useDiagnostics } from './useDiagnostics.js';
export type { EventLogView } from './useEventLog.js';
export { useEventLog } from './useEventLog.js';
export { useInterrupts } from './useInterrupts.js';
export { useLastReplyId } from './useLastReplyId.js';
export { useMessage } from './useMessage.js';
export { useMessageAttribution } from './useMessageAttribution.js';
export { useMessageIds } from './useMessageIds.js';
export { useRun } from './useRun.js';
export { useRunStatus } from './useRunStatus.js';
export { useRunSummary } from './useRunSummary.js';
export { useSharedState } from './useSharedState.js';
export { useSubagents } from './useSubagents.js';
export { useToolCall } from './useToolCall.js';
