/**
 * The shape of every AG-UI 1.0 event (and of the retired THINKING_* events),
 * as data: which fields are required, which optional, and of what kind. One
 * table instead of thirty hand-written checkers keeps the rules reviewable
 * against the specification line by line.
 */
export type FieldKind =
  | 'string'
  | 'number'
  | 'boolean'
  | 'object'
  | 'json'
  | 'content'
  | 'patch'
  | 'messages'
  | 'runInput'
  | 'usage'
  | 'runOutcome'
  | 'subagentOutcome'
  | 'textRole'
  | 'toolRole'
  | 'reasoningRole'
  | 'encryptedSubtype';

export interface EventShape {
  required: Readonly<Record<string, FieldKind>>;
  /** `required` as a list, so checking an event walks no object keys. */
  requiredList: readonly (readonly [string, FieldKind])[];
  optional: Readonly<Record<string, FieldKind>>;
  /** Whether the event may carry `subagentRunId` (every event but RUN_* and MESSAGES_SNAPSHOT). */
  attributable: boolean;
}

const shape = (required: Record<string, FieldKind>, optional: Record<string, FieldKind> = {}, attributable = true): EventShape => ({
  required,
  requiredList: Object.entries(required),
  optional,
  attributable,
});

const messageId = { messageId: 'string' } as const;
const toolCallId = { toolCallId: 'string' } as const;

export const EVENT_SHAPES: Readonly<Record<string, EventShape>> = {
  RUN_STARTED: shape(
    { threadId: 'string', runId: 'string' },
    { protocolVersion: 'string', parentRunId: 'string', input: 'runInput' },
    false,
  ),
  RUN_FINISHED: shape({ threadId: 'string', runId: 'string' }, { result: 'json', outcome: 'runOutcome', usage: 'usage' }, false),
  RUN_ERROR: shape({ message: 'string' }, { code: 'string', usage: 'usage' }, false),
  STEP_STARTED: shape({ stepName: 'string' }),
  STEP_FINISHED: shape({ stepName: 'string' }),
  TEXT_MESSAGE_START: shape(messageId, { role: 'textRole', name: 'string' }),
  TEXT_MESSAGE_CONTENT: shape({ ...messageId, delta: 'string' }),
  TEXT_MESSAGE_END: shape(messageId),
  TEXT_MESSAGE_CHUNK: shape({}, { messageId: 'string', role: 'textRole', delta: 'string', name: 'string' }),
  TOOL_CALL_START: shape({ ...toolCallId, toolCallName: 'string' }, { parentMessageId: 'string' }),
  TOOL_CALL_ARGS: shape({ ...toolCallId, delta: 'string' }),
  TOOL_CALL_END: shape(toolCallId),
  TOOL_CALL_CHUNK: shape({}, { toolCallId: 'string', toolCallName: 'string', parentMessageId: 'string', delta: 'string' }),
  TOOL_CALL_RESULT: shape({ ...messageId, ...toolCallId, content: 'content' }, { role: 'toolRole' }),
  STATE_SNAPSHOT: shape({ snapshot: 'json' }),
  STATE_DELTA: shape({ delta: 'patch' }),
  MESSAGES_SNAPSHOT: shape({ messages: 'messages' }, {}, false),
  ACTIVITY_SNAPSHOT: shape({ ...messageId, activityType: 'string', content: 'object' }, { replace: 'boolean' }),
  ACTIVITY_DELTA: shape({ ...messageId, activityType: 'string', patch: 'patch' }),
  REASONING_START: shape(messageId),
  REASONING_MESSAGE_START: shape({ ...messageId, role: 'reasoningRole' }),
  REASONING_MESSAGE_CONTENT: shape({ ...messageId, delta: 'string' }),
  REASONING_MESSAGE_END: shape(messageId),
  REASONING_MESSAGE_CHUNK: shape({}, { messageId: 'string', delta: 'string' }),
  REASONING_END: shape(messageId),
  REASONING_ENCRYPTED_VALUE: shape({ subtype: 'encryptedSubtype', entityId: 'string', encryptedValue: 'string' }),
  SUBAGENT_STARTED: shape(
    { subagentRunId: 'string', name: 'string' },
    { description: 'string', parentSubagentRunId: 'string', parentToolCallId: 'string', parentMessageId: 'string' },
  ),
  SUBAGENT_FINISHED: shape({ subagentRunId: 'string' }, { result: 'json', outcome: 'subagentOutcome' }),
  SUBAGENT_ERROR: shape({ subagentRunId: 'string', message: 'string' }, { code: 'string' }),
  RAW: shape({ event: 'json' }, { source: 'string' }),
  CUSTOM: shape({ name: 'string', value: 'json' }),
  THINKING_START: shape({}, { title: 'string' }),
  THINKING_END: shape({}),
  THINKING_TEXT_MESSAGE_START: shape({}),
  THINKING_TEXT_MESSAGE_CONTENT: shape({ delta: 'string' }),
  THINKING_TEXT_MESSAGE_END: shape({}),
};

/** Fields every event may carry. */
export const BASE_FIELDS: Readonly<Record<string, FieldKind>> = {
  timestamp: 'number',
  rawEvent: 'json',
  metadata: 'object',
};
