export type { EventLog, LoggedEvent, ParsedEventLog } from './eventLog.js';
export { compactEvents, createEventLog, parseEventLog, serializeEventLog } from './eventLog.js';
export type { ExpandedEvent, Expander, ExpandResult } from './expand.js';
export { createExpander } from './expand.js';
export { isExpired } from './expiry.js';
export type { IdMap } from './idMap.js';
export { idMap } from './idMap.js';
export { newId } from './ids.js';
export type { PatchResult } from './jsonPatch.js';
export { applyJsonPatch, LARGE_OBJECT_KEYS, loadLargeObjects } from './jsonPatch.js';
export type {
  ConnectionStatus,
  CustomRecord,
  Diagnostic,
  InterruptAnswer,
  MessageRecord,
  MessageRole,
  OpenInterrupt,
  RawRecord,
  ReasoningSpan,
  RunState,
  RunStatus,
  RunSummary,
  SharedState,
  SubagentRecord,
  ThreadState,
  ToolCallRecord,
  ToolCallStatus,
} from './model.js';
export type { EventPipeline, PipelineOptions, ReplayOptions } from './pipeline.js';
export { createEventPipeline, replayEvents } from './pipeline.js';
export { isLargeObject, toPlainJson } from './plainJson.js';
export type {
  ActivityMessage,
  AgUiEvent,
  AgUiEventType,
  AssistantMessage,
  ContentPart,
  Context,
  DeveloperMessage,
  EventOf,
  Interrupt,
  JsonPatch,
  JsonPatchOperation,
  Message,
  Metadata,
  ReasoningMessage,
  ResumeEntry,
  Role,
  RunAgentInput,
  RunFinishedCancelledOutcome,
  RunFinishedInterruptOutcome,
  RunFinishedOutcome,
  RunFinishedSuccessOutcome,
  SubagentFinishedOutcome,
  SystemMessage,
  ThinkingEvent,
  TokenUsage,
  Tool,
  ToolCall,
  ToolMessage,
  UnknownEvent,
  UserMessage,
  ValidatedEvent,
} from './protocol.js';
export { EVENT_TYPES, isAgUiEvent, PROTOCOL_VERSION, UNDERSTOOD_PROTOCOL_VERSION } from './protocol.js';
export type { ThreadStateInit } from './reducer/index.js';
export { createThreadState, reduceThread } from './reducer/index.js';
export { addToolResult, appendMessages, cancelRun, markToolCallExecuting, setSharedDocument } from './reducer/local.js';
export { recordResume, streamTruncated } from './reducer/run.js';
export type { BuildResumeOptions, BuildResumeResult, Decision, PayloadValidator, ResumeRefusal, ResumeResponse } from './resume.js';
export { loadResumeBuilder } from './resumeLoader.js';
export type { ToAgUiMessagesOptions } from './toAgUiMessages.js';
export { toAgUiMessages } from './toAgUiMessages.js';
export type { AgUiAgentLike } from './transports/agUiAgent.js';
export { agUiAgentSource } from './transports/agUiAgent.js';
export type { HttpSseSourceOptions } from './transports/httpSse.js';
export { httpSseSource } from './transports/httpSse.js';
export type { AgentSource, SourceRunOptions } from './transports/source.js';
export { AgentTransportError } from './transports/source.js';
export type { ValidateOptions, ValidationResult } from './validate.js';
export { validateEvent } from './validate.js';
export type { Verifier, VerifierOptions } from './verify.js';
export { createVerifier } from './verify.js';
