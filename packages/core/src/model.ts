/**
 * The client model: what `reduceThread` produces and the React layer reads.
 * Every collection is immutable and structurally shared: an event replaces
 * only the records it changes, so `Object.is` tells a component whether its
 * slice moved.
 */
import type { IdMap } from './idMap.js';
import type { ContentPart, Interrupt, TokenUsage, UnknownEvent } from './protocol.js';

export type RunStatus = 'idle' | 'running' | 'success' | 'interrupted' | 'cancelled' | 'error' | 'unknown';
export type ConnectionStatus = 'idle' | 'connecting' | 'open' | 'closed' | 'reconnecting' | 'failed';
export type ToolCallStatus = 'declared' | 'args_streaming' | 'ready' | 'executing' | 'succeeded' | 'failed';
export type MessageRole = 'user' | 'assistant' | 'system' | 'developer' | 'tool' | 'reasoning' | 'activity';

/** A problem found in the stream: where it was, what is wrong, and what was done about it. */
export interface Diagnostic {
  /** Arrival index of the offending event in the stream (-1 when it concerns the stream's end). */
  index: number;
  eventType?: string;
  /** Stable code, e.g. `CONTENT_WITHOUT_START` or `PATCH_FAILED`. */
  code: string;
  message: string;
  /** `error`: the stream broke a protocol rule. `warning`: tolerated, and said so. */
  severity: 'error' | 'warning';
}

export interface RunState {
  runId?: string;
  parentRunId?: string;
  status: RunStatus;
  outcome?: 'success' | 'interrupt' | 'cancelled';
  error?: { message: string; code?: string };
  /** Names of the steps started and not yet finished, in start order. */
  steps: readonly string[];
  usage?: readonly TokenUsage[];
  result?: unknown;
  /** Frontend tool calls the run stopped on (`outcome.pendingToolCallIds`). */
  pendingToolCallIds?: readonly string[];
  protocolVersion?: string;
}

export interface RunSummary {
  runId: string;
  parentRunId?: string;
  status: RunStatus;
  startedAt?: number;
  finishedAt?: number;
}

export interface MessageRecord {
  id: string;
  role: MessageRole;
  /** Text accumulated from deltas, content parts, or (role `activity`) the activity's JSON object. */
  content: string | readonly ContentPart[] | Readonly<Record<string, unknown>>;
  /** True between START and END. */
  streaming: boolean;
  name?: string;
  /** Tool calls this assistant message carries, in order. */
  toolCallIds?: readonly string[];
  /** For role `tool`: the call it answers. */
  toolCallId?: string;
  /** For role `tool`: the error the tool reported. */
  error?: string;
  /** For role `activity`. */
  activityType?: string;
  encryptedValue?: string;
  subagentRunId?: string;
  runId?: string;
  /** Merged per key from every event of the message; last write wins. */
  metadata?: Readonly<Record<string, unknown>>;
}

export interface ToolCallRecord {
  id: string;
  name: string;
  parentMessageId?: string;
  /** Raw concatenation of the ARGS deltas. */
  argsText: string;
  /** Parsed once the arguments are complete; `undefined` while they stream or when they are not JSON. */
  args?: unknown;
  /** Set when the complete arguments are not valid JSON. */
  argsError?: string;
  status: ToolCallStatus;
  result?: { messageId: string; content: string | readonly ContentPart[]; error?: string };
  /** Why a call failed without a result of its own (its run failed, or ended mid-arguments). */
  failure?: string;
  /** An open interrupt waits on this call. */
  interruptId?: string;
  subagentRunId?: string;
  runId?: string;
  encryptedValue?: string;
  metadata?: Readonly<Record<string, unknown>>;
}

export interface SharedState {
  /** The JSON document; `STATE_SNAPSHOT` replaces it whole. */
  document: unknown;
  sync: 'in-sync' | 'desynced';
  /** Why the state is desynced: the operation that failed. Deltas wait for a snapshot. */
  failure?: { index: number; operation: unknown; message: string };
  /** Bumps on every change of the document or of `sync`. */
  version: number;
  /** The operations of the last delta that applied, to highlight them. */
  lastDelta?: readonly unknown[];
}

export interface SubagentRecord {
  subagentRunId: string;
  name: string;
  description?: string;
  parentSubagentRunId?: string;
  parentToolCallId?: string;
  parentMessageId?: string;
  status: 'running' | 'success' | 'suspended' | 'error';
  result?: unknown;
  error?: { message: string; code?: string };
  /** Interrupts a suspended subagent waits on. */
  interruptIds?: readonly string[];
}

export interface ReasoningSpan {
  id: string;
  status: 'open' | 'closed';
  messageIds: readonly string[];
  encryptedValue?: string;
}

/** An open interrupt, with the run that raised it. */
export interface OpenInterrupt extends Interrupt {
  runId?: string;
}

/** A resume that covered interrupts, as the thread recorded it. */
export interface InterruptAnswer {
  interruptId: string;
  status: 'resolved' | 'cancelled';
  payload?: unknown;
  runId: string;
}

export interface CustomRecord {
  name: string;
  value: unknown;
  subagentRunId?: string;
}

export interface RawRecord {
  event: unknown;
  source?: string;
  subagentRunId?: string;
}

export interface ThreadState {
  threadId?: string;
  /** The current or last run. */
  run: RunState;
  /** Every run of the thread by runId (parentRunId kept: branches). */
  runs: Readonly<Record<string, RunSummary>>;
  /** Message ids in order, and the records by id (a persistent map: O(1) per token at any length). */
  messages: { ids: readonly string[]; byId: IdMap<MessageRecord> };
  toolCalls: IdMap<ToolCallRecord>;
  sharedState: SharedState;
  /** Open interrupts of the thread, in arrival order; only a resume that covers them clears them. */
  interrupts: readonly OpenInterrupt[];
  /** Answers sent for interrupts, oldest first. */
  answers: readonly InterruptAnswer[];
  subagents: Readonly<Record<string, SubagentRecord>>;
  reasoning: Readonly<Record<string, ReasoningSpan>>;
  custom: readonly CustomRecord[];
  raw: readonly RawRecord[];
  unknownEvents: readonly UnknownEvent[];
  diagnostics: readonly Diagnostic[];
  /** How many diagnostics were not kept once `diagnostics` reached its cap. */
  droppedDiagnostics: number;
  /** Number of events reduced so far. */
  eventCount: number;
}
