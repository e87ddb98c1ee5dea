import type { ExpandedEvent } from '../expand.js';
import type { ConnectionStatus, Diagnostic, RunStatus, ThreadState, ToolCallRecord } from '../model.js';
import type { AgentCapabilities, ContentPart, Context, JsonPatchOperation, Message, UserMessage } from '../protocol.js';
import type { Decision, ResumeRefusal, ResumeResponse } from '../resume.js';
import type { AgentSource } from '../transports/source.js';
import type { Recording } from './recording.js';
import type { SessionEntry, SessionLog } from './sessionLog.js';

/** Schedules `flush` for the next frame; returns a cancel function. */
export type FrameScheduler = (flush: () => void) => () => void;

/** A tool the browser runs when the agent calls it. Its result is sent back in the next run. */
export interface FrontendTool {
  description: string;
  /** JSON Schema of the arguments, sent to the agent. */
  parameters?: Record<string, unknown>;
  /** Runs the tool. `signal` aborts when the run it belongs to is stopped or the thread is reset or destroyed: its result is then dropped. */
  handler: (args: unknown, call: ToolCallRecord, context: { signal: AbortSignal }) => unknown;
}

export interface RunControllerOptions<Doc = unknown> {
  source: AgentSource;
  threadId?: string;
  initialMessages?: Message[];
  initialState?: Doc;
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
  /**
   * How many runs in a row the controller starts by itself to send frontend
   * tool results, after one action of the user's (default 10): an agent that
   * calls a tool in every run is not sent its results for ever. Past it, the
   * results wait for the next run, and `refusal` says so
   * (`FOLLOW_UPS_EXHAUSTED`).
   */
  maxFollowUps?: number;
  /** When batches flush; one animation frame by default. */
  scheduler?: FrameScheduler;
  /**
   * The clock used for interrupt expiry and the log's times. Without it, the
   * agent's clock as far as its stamped events (`timestamp`) tell it, else
   * `Date.now` (see `RunController.now`).
   */
  now?: () => number;
  /**
   * A saved session (`parseSession`) to start from: its entries become the
   * start of this controller's log and its thread the thread (a stream left
   * open in it is ended as cut off). `threadId`, `initialMessages` and
   * `initialState` are then the log's own. Its agent events are applied as
   * the controller is made, by the engine: `await loadEngine()` first (a log
   * holding agent events throws otherwise, saying so). A `Recording`
   * (`createRecording(entries).until(i)`) starts from its checkpoint instead
   * of applying every entry: a viewer at any point of a long recording.
   */
  log?: readonly SessionEntry[] | Recording;
  /**
   * Shows `log` as it was recorded at its last entry: a stream left open in
   * it stays open (its run `running`, as it was then) instead of being ended
   * as cut off. For a viewer of a recording at any point (the playground's
   * replay); nothing resumes that stream.
   */
  asRecorded?: boolean;
  /**
   * When to ask the agent what it supports (`source.capabilities()`): as the
   * controller is made (`'at-once'`, the default), or only once
   * `askCapabilities()` is called (`'when-held'`). A binding that makes
   * controllers while rendering asks once one is held, so a render React
   * throws away (a suspended mount, a hidden `<Activity>`) sends nothing.
   */
  askCapabilities?: 'at-once' | 'when-held';
}

import type { RunFailure } from './failure.js';

export type { RunFailure, RunFailureCode } from './failure.js';

export type RefusalCode =
  | 'RUN_IN_PROGRESS'
  | 'INTERRUPTS_OPEN'
  | 'NOTHING_TO_RECONNECT'
  | 'NO_RESUME_POINT'
  | 'RESUME_REFUSED'
  | 'NOTHING_TO_RETRY'
  /** A shared-state edit waited (for immer, the engine, the edits before it) and the thread was reset meanwhile: it was dropped. */
  | 'THREAD_RESET'
  /** A shared-state edit the document cannot take: a path through a member it only inherits, an index it lacks, a value nested past MAX_JSON_DEPTH. Nothing changed. */
  | 'EDIT_REFUSED'
  /** Code the action needs, loaded on demand (the engine, immer, the resume builder), could not be loaded: nothing was done; try again. */
  | 'ENGINE_UNAVAILABLE'
  /** The message asked to be sent has the id of one the thread already holds: nothing was sent. */
  | 'MESSAGE_ID_TAKEN'
  /** The message asked to be sent is no user message the log can keep (no id, content neither text nor parts, another role): nothing was sent. */
  | 'MESSAGE_INVALID'
  /** The controller started `maxFollowUps` runs in a row by itself to send tool results, and started no more: the results wait for the next run. */
  | 'FOLLOW_UPS_EXHAUSTED'
  | 'DESTROYED';

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

/** A recipe for `updateSharedState`: mutate the draft (immer), or return a new document. */
// biome-ignore lint/suspicious/noConfusingVoidType: a recipe that only mutates the draft returns nothing, which TypeScript types as void.
export type SharedStateRecipe<Doc> = (draft: Doc) => Doc | undefined | void;

/** The actions on a thread. Every one is safe to call at any time: what cannot be done now is refused, never thrown. */
export interface RunActions<Doc = unknown> {
  /** Sends a user message and runs the agent. Refused while a run is in flight or interrupts are open. */
  run(request?: string | RunRequest): Promise<ActionResult>;
  /** Stops the run in flight: the request is aborted, its frontend tools are aborted, and the run is `cancelled`. */
  stop(): void;
  /** Answers every open interrupt in one resume; a second call while it is in flight joins the first. */
  resume(responses: ResumeResponse[]): Promise<ActionResult>;
  /** Cancels every open interrupt (the user gives no answer). */
  cancelInterrupts(): Promise<ActionResult>;
  /**
   * Edits the shared state with immer (a recipe), or with JSON Patch
   * operations (no draft: what an edit inside an object of 100,000 keys
   * needs, where immer copies the object): the edit is a client STATE_DELTA
   * in the log and goes out with the next run.
   */
  updateSharedState(recipe: SharedStateRecipe<Doc>): Promise<ActionResult>;
  updateSharedState(operations: readonly JsonPatchOperation[]): Promise<ActionResult>;
  /** Replaces the shared state document, or edits it with a recipe (as `updateSharedState`). */
  setState(next: Doc | SharedStateRecipe<Doc>): Promise<ActionResult>;
  /** Resumes a stream that dropped, after the last event id the server sent. */
  reconnect(): Promise<ActionResult>;
  /** Sends again a request that failed before the agent could start (`failure.retryable`). */
  retry(): Promise<ActionResult>;
  /** Starts a new thread with the initial messages and state, under a new `threadId` unless the app named it (`threadId`). */
  reset(): void;
}

/** What a binding reads: one immutable object, replaced on every change. */
export interface RunSnapshot {
  thread: ThreadState;
  connection: ConnectionStatus;
  /** While the source retries a dropped stream by itself: which retry (from 1), of how many at most. */
  reconnecting?: { attempt: number; of: number } | undefined;
  /** The last request's failure, until the next request starts. */
  failure?: RunFailure | undefined;
  /** Why the last action was refused, until the next one succeeds. */
  refusal?: Refusal | undefined;
  /** The kind of request in flight. */
  inFlight?: 'run' | 'resume' | undefined;
  /** Number of agent events received (the session log's agent events). */
  eventCount: number;
  /** Number of entries in the session log. */
  logLength: number;
  /**
   * How many times the thread was reset in the session log. With
   * `thread.threadId`, it names the thread shown: a reset that keeps an id
   * the app named is another thread all the same.
   */
  resets: number;
  decisions: readonly Decision[];
  /** Destroyed: every action is refused, nothing streams. */
  destroyed: boolean;
  /** What the agent says it supports (`source.capabilities()`), once known; undefined while unknown or when it does not say. */
  capabilities?: AgentCapabilities | undefined;
}

/** One controller per thread: a snapshot to read, a way to hear of changes, the actions, and a lifecycle. */
export interface RunController<Doc = unknown> extends RunActions<Doc> {
  getSnapshot(): RunSnapshot;
  /** Called after every change of the snapshot; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
  /** Every change to what the user sees, in order: agent events and the client's own entries. */
  readonly log: SessionLog;
  /**
   * The thread as it was after log entry `index` (time travel): read from a checkpoint of the log (see
   * `createRecording`), so it applies at most 1,024 entries once a read has gone that far.
   */
  stateAt(index: number): ThreadState;
  /** Replaces callbacks, tools, context and the like without recreating the controller (the source stays). */
  configure(options: Partial<Omit<RunControllerOptions<Doc>, 'source'>>): void;
  /**
   * The controller's clock: the app's `now`; else the agent's time, from the
   * `timestamp` (ms since the epoch) of the events it sends, so a machine
   * whose clock is minutes off measures `expiresAt` as the agent set it; else
   * `Date.now()`.
   */
  now(): number;
  /** Asks the agent what it supports, once (see `askCapabilities` in the options); later calls do nothing. */
  askCapabilities(): void;
  /** Aborts what streams, drops late tool results, forgets listeners; every later action is refused. */
  destroy(): void;
}
