/**
 * `@aguikit/core`: what applications use. The run controller, the session
 * log, the transports and the protocol's constants. The engine's pieces
 * (validate, expand, verify, reduce, replay) are in `@aguikit/core/engine`,
 * which the controller loads on demand; what only aguikit's own packages and
 * tests need is in `@aguikit/core/internal`.
 */
export { createRunController } from './controller/controller.js';
export type { Engine } from './controller/engineLoader.js';
export { loadEngine } from './controller/engineLoader.js';
export type { PrepareOptions, Recording, RecordingOptions } from './controller/recording.js';
export { frameScheduler } from './controller/scheduler.js';
export type { ParsedSession, SessionLineProblem } from './controller/sessionFile.js';
export { parseSession } from './controller/sessionFile.js';
export type { AgentEventEntry, ClientEntry, SessionEntry, SessionEntryBody, SessionLog } from './controller/sessionLog.js';
export { type SerializeOptions, serializeSession } from './controller/sessionWrite.js';
export { createRecording } from './controller/startFrom.js';
export type {
  ActionResult,
  FrameScheduler,
  FrontendTool,
  Refusal,
  RefusalCode,
  RunActions,
  RunController,
  RunControllerOptions,
  RunFailure,
  RunFailureCode,
  RunRequest,
  RunSnapshot,
  SharedStateRecipe,
} from './controller/types.js';
export type { EventLog, LoggedEvent, ParsedEventLog } from './eventLog.js';
// The engine's types: its functions are in `@aguikit/core/engine`.
export type { ExpandedEvent, Expander, ExpandResult } from './expand.js';
export { expiryTime, isExpired } from './expiry.js';
export type { IdMap } from './idMap.js';
export type { PatchFailureCode, PatchResult } from './jsonPatch.js';
export type {
  ArgsErrorCode,
  ConnectionStatus,
  CustomRecord,
  Diagnostic,
  InterruptAnswer,
  MessageRecord,
  MessageRole,
  OpenInterrupt,
  RawRecord,
  ReasoningSpan,
  RecordMetadata,
  RunState,
  RunStatus,
  RunSummary,
  SharedState,
  SubagentRecord,
  ThreadState,
  ToolCallFailureCode,
  ToolCallRecord,
  ToolCallStatus,
} from './model.js';
export type { EventPipeline, PipelineOptions, ReplayOptions } from './pipeline.js';
export { isLargeObject, toPlainJson } from './plainJson.js';
export type {
  ActivityMessage,
  AgentCapabilities,
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
export { EVENT_TYPES, isAgUiEvent, PROTOCOL_VERSION } from './protocol.js';
export type { ThreadStateInit } from './reducer/index.js';
export type {
  BuildResumeOptions,
  BuildResumeResult,
  Decision,
  PayloadCheck,
  PayloadValidator,
  ResumeRefusal,
  ResumeResponse,
  SchemaRefusalCause,
} from './resume.js';
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
export type { Verifier, VerifierOptions } from './verify.js';
