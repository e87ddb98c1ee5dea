import type { AgUiEventType } from '../../src/index.js';

/** One valid example of every AG-UI 1.0 event type, with every required field. */
export const VALID_EXAMPLES: Record<AgUiEventType, Record<string, unknown>> = {
  RUN_STARTED: { type: 'RUN_STARTED', threadId: 't1', runId: 'r1' },
  RUN_FINISHED: { type: 'RUN_FINISHED', threadId: 't1', runId: 'r1' },
  RUN_ERROR: { type: 'RUN_ERROR', message: 'boom', code: 'E1' },
  STEP_STARTED: { type: 'STEP_STARTED', stepName: 'plan' },
  STEP_FINISHED: { type: 'STEP_FINISHED', stepName: 'plan' },
  TEXT_MESSAGE_START: { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' },
  TEXT_MESSAGE_CONTENT: { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'Hi' },
  TEXT_MESSAGE_END: { type: 'TEXT_MESSAGE_END', messageId: 'm1' },
  TEXT_MESSAGE_CHUNK: { type: 'TEXT_MESSAGE_CHUNK', messageId: 'm2', delta: 'Hey' },
  TOOL_CALL_START: { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'lookup', parentMessageId: 'm1' },
  TOOL_CALL_ARGS: { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"q":1}' },
  TOOL_CALL_END: { type: 'TOOL_CALL_END', toolCallId: 'c1' },
  TOOL_CALL_CHUNK: { type: 'TOOL_CALL_CHUNK', toolCallId: 'c2', toolCallName: 'search', delta: '{}' },
  TOOL_CALL_RESULT: { type: 'TOOL_CALL_RESULT', messageId: 'tm1', toolCallId: 'c1', content: 'ok' },
  STATE_SNAPSHOT: { type: 'STATE_SNAPSHOT', snapshot: { count: 1 } },
  STATE_DELTA: { type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/count', value: 2 }] },
  MESSAGES_SNAPSHOT: { type: 'MESSAGES_SNAPSHOT', messages: [{ id: 'u1', role: 'user', content: 'hello' }] },
  ACTIVITY_SNAPSHOT: { type: 'ACTIVITY_SNAPSHOT', messageId: 'a1', activityType: 'PLAN', content: { steps: [] } },
  ACTIVITY_DELTA: { type: 'ACTIVITY_DELTA', messageId: 'a1', activityType: 'PLAN', patch: [{ op: 'add', path: '/steps/-', value: 's1' }] },
  REASONING_START: { type: 'REASONING_START', messageId: 'rs1' },
  REASONING_MESSAGE_START: { type: 'REASONING_MESSAGE_START', messageId: 'rm1', role: 'reasoning' },
  REASONING_MESSAGE_CONTENT: { type: 'REASONING_MESSAGE_CONTENT', messageId: 'rm1', delta: 'think' },
  REASONING_MESSAGE_END: { type: 'REASONING_MESSAGE_END', messageId: 'rm1' },
  REASONING_MESSAGE_CHUNK: { type: 'REASONING_MESSAGE_CHUNK', messageId: 'rm2', delta: 'more' },
  REASONING_END: { type: 'REASONING_END', messageId: 'rs1' },
  REASONING_ENCRYPTED_VALUE: { type: 'REASONING_ENCRYPTED_VALUE', subtype: 'message', entityId: 'rm1', encryptedValue: 'xyz' },
  SUBAGENT_STARTED: { type: 'SUBAGENT_STARTED', subagentRunId: 's1', name: 'researcher' },
  SUBAGENT_FINISHED: { type: 'SUBAGENT_FINISHED', subagentRunId: 's1' },
  SUBAGENT_ERROR: { type: 'SUBAGENT_ERROR', subagentRunId: 's1', message: 'failed' },
  RAW: { type: 'RAW', event: { any: 'thing' }, source: 'vendor' },
  CUSTOM: { type: 'CUSTOM', name: 'note', value: { x: 1 } },
};

/** A complete, valid single run wrapping `events`. */
export function run(events: readonly Record<string, unknown>[], runId = 'r1', threadId = 't1'): Record<string, unknown>[] {
  return [{ type: 'RUN_STARTED', threadId, runId }, ...events, { type: 'RUN_FINISHED', threadId, runId }];
}

/** A text message as START, CONTENT per delta, END. */
export function text(messageId: string, ...deltas: string[]): Record<string, unknown>[] {
  return [
    { type: 'TEXT_MESSAGE_START', messageId, role: 'assistant' },
    ...deltas.map((delta) => ({ type: 'TEXT_MESSAGE_CONTENT', messageId, delta })),
    { type: 'TEXT_MESSAGE_END', messageId },
  ];
}

/** A tool call as START, ARGS per delta, END. */
export function toolCall(toolCallId: string, name: string, args: string[], parentMessageId?: string): Record<string, unknown>[] {
  return [
    { type: 'TOOL_CALL_START', toolCallId, toolCallName: name, ...(parentMessageId ? { parentMessageId } : {}) },
    ...args.map((delta) => ({ type: 'TOOL_CALL_ARGS', toolCallId, delta })),
    { type: 'TOOL_CALL_END', toolCallId },
  ];
}

/** Diagnostic codes of a state, for compact assertions. */
export function codes(state: { diagnostics: readonly { code: string }[] }): string[] {
  return state.diagnostics.map((d) => d.code);
}
