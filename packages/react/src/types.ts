import type {
  AgentSource,
  ConnectionStatus,
  ContentPart,
  Context,
  Decision,
  Diagnostic,
  ExpandedEvent,
  Message,
  ResumeRefusal,
  ResumeResponse,
  RunStatus,
  ThreadState,
  ToolCallRecord,
  UserMessage,
} from '@aguikit/core';
import type { FrameScheduler } from './scheduler.js';

/** A tool the browser runs when the agent calls it. Its result is sent back in the next run. */
export interface FrontendTool {
  description: string;
  /** JSON Schema of the arguments, sent to the agent. */
  parameters?: Record<string, unknown>;
  handler: (args: unknown, call: ToolCallRecord) => unknown;
}

export interface AgentStoreOptions {
  source: AgentSource;
  threadId?: string;
  initialMessages?: Message[];
  initialState?: unknown;
  tools?: Record<string, FrontendTool>;
  context?: Context[];
  forwardedProps?: unknown;
  /** Each decision on an interrupt, as an audit record, before its resume is sent. */
  onDecision?: (decision: Decision) => void;
  /** Every event that reaches the reducer, in order. */
  onEvent?: (event: ExpandedEvent, index: number) => void;
  /** Every diagnostic as it is found. */
  onDiagnostic?: (diagnostic: Diagnostic) => void;
  /** Start the next run by itself once the frontend tools of a finished run have results. Default true. */
  autoContinue?: boolean;
  /** When batches flush; one animation frame by default. */
  scheduler?: FrameScheduler;
  /** The clock used for interrupt expiry. */
  now?: () => number;
}

export type RefusalCode = 'RUN_IN_PROGRESS' | 'INTERRUPTS_OPEN' | 'NOTHING_TO_RECONNECT' | 'NO_RESUME_POINT' | 'RESUME_REFUSED';

/** Why an action did nothing. */
export interface Refusal {
  code: RefusalCode;
  message: string;
  /** For RESUME_REFUSED: one entry per problem. */
  errors?: readonly ResumeRefusal[];
}

export type ActionResult = { ok: true; status: RunStatus } | ({ ok: false } & Refusal);

/** What a run is asked with: a message, and optionally more input. */
export interface RunRequest {
  message?: string | ContentPart[] | UserMessage;
  context?: Context[];
  forwardedProps?: unknown;
}

export interface AgentActions {
  /** Sends a user message and runs the agent. Refused while a run is in flight or interrupts are open. */
  run(request?: string | RunRequest): Promise<ActionResult>;
  /** Stops the run in flight: the request is aborted and the run is `cancelled`. */
  stop(): void;
  /** Answers every open interrupt in one resume; a second call while it is in flight joins the first. */
  resume(responses: ResumeResponse[]): Promise<ActionResult>;
  /** Cancels every open interrupt (the user gives no answer). */
  cancelInterrupts(): Promise<ActionResult>;
  /** Edits the shared state; the edit is sent with the next run. */
  setState(updater: unknown | ((document: unknown) => unknown)): void;
  /** Resumes a stream that dropped, after the last event id the server sent. */
  reconnect(): Promise<ActionResult>;
  /** Back to an empty thread (the initial messages and state). */
  reset(): void;
}

export interface AgentStoreState extends AgentActions {
  thread: ThreadState;
  connection: ConnectionStatus;
  /** A transport failure (an agent's own failure is `thread.run.error`). */
  error?: { message: string; code?: string; status?: number } | undefined;
  /** Why the last action was refused, until the next one succeeds. */
  refusal?: Refusal | undefined;
  /** The kind of request in flight. */
  inFlight?: 'run' | 'resume' | undefined;
  /** Number of raw events received (the event log grows append-only). */
  eventCount: number;
  decisions: readonly Decision[];
}
