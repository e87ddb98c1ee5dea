/**
 * The client model: what `reduceThread` produces and the React layer reads.
 * Every collection is immutable and structurally shared: an event replaces
 * only the records it changes, so `Object.is` tells a component whether its
 * slice moved.
 *
 * The rules every record keeps:
 *
 * - **Ownership.** The state never shares a mutable object with its caller.
 *   Every JSON value that enters it (an event's object-valued fields:
 *   metadata, documents, content parts, activity content, results,
 *   interrupts, a run's input; what a client hands to `createThreadState`,
 *   `appendMessages`, `addToolResult`, `setSharedDocument` or `recordResume`)
 *   is deep-copied once, on entry: a caller that changes an event after
 *   pushing it changes nothing here. A large object (a read-only Proxy) is
 *   not copied, since nothing can write into it; `setSharedDocument` keeps
 *   the subtrees the state already owns. Readers get the state's own objects
 *   and must not write into them.
 * - **Metadata.** Every event's `metadata` is merged per key, last write
 *   wins (never recursing), into the record the event builds or updates: a
 *   message, a tool call, the run (`RunState` and its `RunSummary`), a step
 *   (`RunState.stepMetadata`), the shared state, a subagent, a reasoning
 *   span, an activity, a CUSTOM or RAW record, and the message list
 *   (`messages.metadata`, from MESSAGES_SNAPSHOT). This includes events that
 *   change nothing else: a chunk without `delta`, a failed patch, a delta
 *   held while the state is desynced, an activity snapshot with
 *   `replace: false`. TOOL_CALL_RESULT's metadata goes to the tool message
 *   it builds. A MESSAGES_SNAPSHOT (or a run's input) restates its messages
 *   and their calls whole: their metadata is what it says.
 * - **Time.** `reduceThread` reads no clock of its own. An event's time is
 *   its `timestamp`, else the time it was received, which the caller passes
 *   (`reduceThread`'s `receivedAt`, a number or a clock; the pipeline's
 *   `now` option, `Date.now` by default, or `push(raw, at)`); given neither,
 *   a record gets no time. A replay given a clock (or the times the events
 *   were received) is deterministic.
 * - **Keys.** Records are keyed by id. A tool call whose id a call of an
 *   earlier run holds (a run restarting ids, as some providers do) gets a
 *   record of its own: the earlier call moves, unchanged, to the key
 *   `<id>#<its runId>` (its parent message's `toolCallIds` follows it), so
 *   `toolCalls.get(id)` is always the latest call with that id, the one later
 *   events, results and interrupts name. A message the client would build
 *   under an id an earlier run's message holds (the assistant message named
 *   after such a call, a tool result) is built under the id
 *   `<id>#<runId>` (this run's) instead, and the earlier one keeps its id
 *   and place: messages are found through `messages.ids`, where each keeps
 *   its place. So a message's key is its `id`; a tool call's `id` stays the
 *   protocol id (`toAgUiMessages` sends history back as the agent sent it)
 *   and a message's `toolCallIds` hold the keys of its calls. A
 *   TEXT_MESSAGE_START or REASONING_MESSAGE_START naming an earlier message
 *   reopens it and appends, as the protocol says of replayed history. The
 *   verifier still reports the reused id (DUPLICATE_TOOL_CALL_START).
 */

import type { IdMap } from './idMap.js';
import type { PatchFailureCode } from './jsonPatch.js';
import type { ContentPart, Context, Interrupt, TokenUsage, Tool, UnknownEvent } from './protocol.js';

export type RunStatus = 'idle' | 'running' | 'success' | 'interrupted' | 'cancelled' | 'error' | 'unknown';
export type ConnectionStatus = 'idle' | 'connecting' | 'open' | 'closed' | 'reconnecting' | 'failed';
/**
 * Where a tool call is. `denied`: the interrupt that held it was answered
 * with a rejection (a `resolved` answer whose payload has `approved: false`).
 * `cancelled`: it was answered `cancelled` (the only answer an expired
 * interrupt can get). A later TOOL_CALL_RESULT still settles a denied or
 * cancelled call (`succeeded`): the result is what the agent did.
 */
/**
 * Why a call failed without a result of its own: `ARGS_INCOMPLETE`, its run
 * finished before the arguments were complete; `RUN_FAILED`, its run failed
 * (`RUN_ERROR`) first; `STOPPED`, the run was stopped (`stop()`) first.
 */
export type ToolCallFailureCode = 'ARGS_INCOMPLETE' | 'RUN_FAILED' | 'STOPPED';

/** Why a call's complete arguments are kept as text: they are not JSON, or nest deeper than the state keeps (512 levels). */
export type ArgsErrorCode = 'NOT_JSON' | 'TOO_DEEP';

export type ToolCallStatus = 'declared' | 'args_streaming' | 'ready' | 'executing' | 'succeeded' | 'failed' | 'denied' | 'cancelled';
/** Metadata as kept on a record: merged per key from every event that carried it. */
export type RecordMetadata = Readonly<Record<string, unknown>>;
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
  /**
   * While the run is open, the thread its RUN_STARTED named when that is
   * not the thread's own (an agent that names threads of its own): its
   * RUN_FINISHED must name the same one to end it.
   */
  threadId?: string;
  /** From RUN_STARTED, RUN_FINISHED and RUN_ERROR. */
  metadata?: RecordMetadata;
  /** Each step's metadata (STEP_STARTED, STEP_FINISHED), by step name. */
  stepMetadata?: Readonly<Record<string, RecordMetadata>>;
  /** The run's input as RUN_STARTED restated it (`input.tools`, `input.context`, `input.forwardedProps`). */
  tools?: readonly Tool[];
  context?: readonly Context[];
  forwardedProps?: unknown;
}

/** A run of the thread, kept after newer runs replace it as `ThreadState.run`. */
export interface RunSummary {
  runId: string;
  parentRunId?: string;
  status: RunStatus;
  /** The time of its RUN_STARTED (see the time rule above). */
  startedAt?: number;
  /** The time of its terminal event. */
  finishedAt?: number;
  metadata?: RecordMetadata;
  usage?: readonly TokenUsage[];
  result?: unknown;
}

export interface MessageRecord {
  id: string;
  role: MessageRole;
  /** Text accumulated from deltas, content parts, or (role `activity`) the activity's JSON object. */
  content: string | readonly ContentPart[] | Readonly<Record<string, unknown>>;
  /** True between START and END. */
  streaming: boolean;
  name?: string;
  /** Tool calls this assistant message carries, in order: their keys in `ThreadState.toolCalls`. */
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
  metadata?: RecordMetadata;
  /** When the message started: its START (or the event that created it), a snapshot or run input that brought it. */
  startedAt?: number;
  /**
   * When it ended: its END, its run's terminal event, or the time it was
   * created for a message that does not stream. Absent while it streams, and
   * for a message cut off by a truncated stream (its end is not known).
   */
  endedAt?: number;
  /** The run was stopped (`stop()`) while this message streamed: its text may be cut short. */
  stopped?: true;
  /**
   * `client`: the client added it (`appendMessages`, `addToolResult`) and no
   * run input or MESSAGES_SNAPSHOT has restated it yet, so a snapshot that
   * leaves it out keeps it.
   */
  source?: 'client';
}

export interface ToolCallRecord {
  id: string;
  name: string;
  parentMessageId?: string;
  /** Raw concatenation of the ARGS deltas. */
  argsText: string;
  /** Parsed once the arguments are complete; `undefined` while they stream or when they are not JSON. */
  args?: unknown;
  /**
   * Why the complete arguments are no value the call can take, in English for
   * logs: the JSON parser's own words, or how deep they nest.
   */
  argsError?: string;
  /** The same as a value to switch on (and to word in the reader's language). */
  argsErrorCode?: ArgsErrorCode;
  status: ToolCallStatus;
  result?: { messageId: string; content: string | readonly ContentPart[]; error?: string };
  /** Why a call failed without a result of its own (its run failed, or ended mid-arguments), in English for logs. */
  failure?: string;
  /** The same as a value to switch on (and to word in the reader's language). */
  failureCode?: ToolCallFailureCode;
  /** An open interrupt waits on this call. */
  interruptId?: string;
  /** The answer to the interrupt that held the call (its status says what the answer did: `denied`, `cancelled`). */
  answer?: InterruptAnswer;
  subagentRunId?: string;
  runId?: string;
  encryptedValue?: string;
  metadata?: RecordMetadata;
}

export interface SharedState {
  /** The JSON document; `STATE_SNAPSHOT` replaces it whole. */
  document: unknown;
  sync: 'in-sync' | 'desynced';
  /** Why the state is desynced: the operation that failed, why as a code, and in English. Deltas wait for a snapshot. */
  failure?: { index: number; operation: unknown; code: PatchFailureCode; message: string };
  /** Bumps on every change of the document or of `sync`. */
  version: number;
  /** The operations of the last delta that applied, to highlight them. */
  lastDelta?: readonly unknown[];
  /** From STATE_SNAPSHOT and STATE_DELTA (applied, failed or held). */
  metadata?: RecordMetadata;
  /**
   * What last restated the whole document: a STATE_SNAPSHOT, or a run's
   * input (`RUN_STARTED.input.state`, taken while no snapshot has come), or
   * the client, which edited it since (its edits go out with the next run:
   * a run's input, which it may have sent before them, does not undo them).
   * Absent: the thread's initial document.
   */
  basis?: 'snapshot' | 'input' | 'client';
}

export interface SubagentRecord {
  subagentRunId: string;
  name: string;
  description?: string;
  parentSubagentRunId?: string;
  parentToolCallId?: string;
  parentMessageId?: string;
  /** `cancelled`: the user stopped the run it belonged to while it ran. */
  status: 'running' | 'success' | 'suspended' | 'error' | 'cancelled';
  result?: unknown;
  error?: { message: string; code?: string };
  /** Interrupts a suspended subagent waits on. */
  interruptIds?: readonly string[];
  metadata?: RecordMetadata;
}

export interface ReasoningSpan {
  id: string;
  status: 'open' | 'closed';
  messageIds: readonly string[];
  encryptedValue?: string;
  /** The title a retired THINKING_START gave it. */
  title?: string;
  metadata?: RecordMetadata;
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
  metadata?: RecordMetadata;
}

export interface RawRecord {
  event: unknown;
  source?: string;
  subagentRunId?: string;
  metadata?: RecordMetadata;
}

export interface ThreadState {
  threadId?: string;
  /** The current or last run. */
  run: RunState;
  /** Every run of the thread by runId (parentRunId kept: branches). */
  runs: Readonly<Record<string, RunSummary>>;
  /**
   * Message keys in order, and the records by key (a persistent map: O(1)
   * per token at any length), with the metadata of the MESSAGES_SNAPSHOTs
   * that restated the list.
   */
  messages: { ids: readonly string[]; byId: IdMap<MessageRecord>; metadata?: RecordMetadata };
  /** By key: the call's id, or `<id>#<runId>` for a call a later run's call of the same id set aside (see the key rule above). */
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
