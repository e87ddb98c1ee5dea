/**
 * AG-UI 1.0 protocol types, taken type-only from `@ag-ui/core` so that no
 * runtime code (and no zod) reaches the bundle. The official package types the
 * `type` field with a TypeScript enum; aguikit re-types each event with the
 * enum's string literal, so that events written as plain JSON objects (as they
 * arrive off the wire) type-check and `switch (event.type)` narrows.
 */
import type { EventType, Event as OfficialEvent, RunFinishedOutcome as OfficialRunFinishedOutcome } from '@ag-ui/core';

export type {
  ActivityMessage,
  AgentCapabilities,
  AssistantMessage,
  ContentPart,
  Context,
  DeveloperMessage,
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
  RunFinishedSuccessOutcome,
  SubagentFinishedOutcome,
  SystemMessage,
  TokenUsage,
  Tool,
  ToolCall,
  ToolMessage,
  UserMessage,
} from '@ag-ui/core';

type WithLiteralType<E> = E extends { type: infer T extends EventType } ? Omit<E, 'type'> & { type: `${T}` } : never;

/** Every AG-UI 1.0 event, with `type` as a string literal. */
export type AgUiEvent = WithLiteralType<OfficialEvent>;
/** The name of an AG-UI 1.0 event type, e.g. `'TEXT_MESSAGE_CONTENT'`. */
export type AgUiEventType = AgUiEvent['type'];
/** The event whose `type` is `T`: `EventOf<'TOOL_CALL_START'>`. */
export type EventOf<T extends AgUiEventType> = Extract<AgUiEvent, { type: T }>;
export type RunFinishedOutcome = OfficialRunFinishedOutcome;

/**
 * An event whose type this version does not know. It is never an error: it is
 * kept in `ThreadState.unknownEvents` so that an application can observe it.
 */
export interface UnknownEvent {
  type: string;
  [field: string]: unknown;
}

/** The retired `THINKING_*` events that older agents still send; mapped to `REASONING_*`. */
export interface ThinkingEvent {
  type: 'THINKING_START' | 'THINKING_END' | 'THINKING_TEXT_MESSAGE_START' | 'THINKING_TEXT_MESSAGE_CONTENT' | 'THINKING_TEXT_MESSAGE_END';
  delta?: string;
  title?: string;
  timestamp?: number;
  metadata?: Record<string, unknown>;
}

/** What validation lets through: a known event, a retired one, or an unknown one. */
export type ValidatedEvent = AgUiEvent | ThinkingEvent | UnknownEvent;

/** The protocol version aguikit sends in `RunAgentInput.protocolVersion`. */
export const PROTOCOL_VERSION = '1.0';
/**
 * The newest protocol version whose event shapes aguikit understands (1.1 only
 * adds to 1.0 and its conformance corpus is checked in the tests); a stream
 * that declares a newer one is still read, with a warning.
 */
export const UNDERSTOOD_PROTOCOL_VERSION = '1.1';

/** Every event type of AG-UI 1.0, in the order of the specification. */
export const EVENT_TYPES = [
  'RUN_STARTED',
  'RUN_FINISHED',
  'RUN_ERROR',
  'STEP_STARTED',
  'STEP_FINISHED',
  'TEXT_MESSAGE_START',
  'TEXT_MESSAGE_CONTENT',
  'TEXT_MESSAGE_END',
  'TEXT_MESSAGE_CHUNK',
  'TOOL_CALL_START',
  'TOOL_CALL_ARGS',
  'TOOL_CALL_END',
  'TOOL_CALL_CHUNK',
  'TOOL_CALL_RESULT',
  'STATE_SNAPSHOT',
  'STATE_DELTA',
  'MESSAGES_SNAPSHOT',
  'ACTIVITY_SNAPSHOT',
  'ACTIVITY_DELTA',
  'REASONING_START',
  'REASONING_MESSAGE_START',
  'REASONING_MESSAGE_CONTENT',
  'REASONING_MESSAGE_END',
  'REASONING_MESSAGE_CHUNK',
  'REASONING_END',
  'REASONING_ENCRYPTED_VALUE',
  'SUBAGENT_STARTED',
  'SUBAGENT_FINISHED',
  'SUBAGENT_ERROR',
  'RAW',
  'CUSTOM',
] as const satisfies readonly AgUiEventType[];

const KNOWN: ReadonlySet<string> = new Set(EVENT_TYPES);

/** True when `event` is one of the AG-UI 1.0 event types (as opposed to an unknown one). */
export function isAgUiEvent(event: { type: string }): event is AgUiEvent {
  const type = event.type;
  // A stream repeats a type for long stretches: comparing with the last known one spares hashing each new string.
  if (type === lastKnown) return true;
  if (!KNOWN.has(type)) return false;
  lastKnown = type;
  return true;
}

let lastKnown = '';

type MissingEventType = Exclude<AgUiEventType, (typeof EVENT_TYPES)[number]>;
// Fails to compile when @ag-ui/core gains an event type that EVENT_TYPES lacks.
const everyEventTypeListed: MissingEventType extends never ? true : never = true;
void everyEventTypeListed;
