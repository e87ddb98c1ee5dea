import type { SubagentRecord, ThreadState } from '../model.js';
import type { EventOf } from '../protocol.js';
import { entry } from './helpers.js';

export function subagentStarted(state: ThreadState, event: EventOf<'SUBAGENT_STARTED'>): ThreadState {
  const record: SubagentRecord = { subagentRunId: event.subagentRunId, name: event.name, status: 'running' };
  for (const key of ['description', 'parentSubagentRunId', 'parentToolCallId', 'parentMessageId'] as const) {
    const value = event[key];
    if (value !== undefined) record[key] = value;
  }
  return { ...state, subagents: { ...state.subagents, [record.subagentRunId]: record } };
}

export function subagentFinished(state: ThreadState, event: EventOf<'SUBAGENT_FINISHED'>): ThreadState {
  const current = entry(state.subagents, event.subagentRunId) ?? {
    subagentRunId: event.subagentRunId,
    name: event.subagentRunId,
    status: 'running',
  };
  const suspended = event.outcome?.type === 'suspended';
  const record: SubagentRecord = {
    ...current,
    status: suspended ? 'suspended' : 'success',
    ...(event.result !== undefined ? { result: event.result as unknown } : {}),
    ...(event.outcome?.type === 'suspended' && event.outcome.interruptIds ? { interruptIds: event.outcome.interruptIds } : {}),
  };
  return { ...state, subagents: { ...state.subagents, [record.subagentRunId]: record } };
}

export function subagentError(state: ThreadState, event: EventOf<'SUBAGENT_ERROR'>): ThreadState {
  const current = entry(state.subagents, event.subagentRunId) ?? {
    subagentRunId: event.subagentRunId,
    name: event.subagentRunId,
    status: 'running',
  };
  const error = { message: event.message, ...(event.code !== undefined ? { code: event.code } : {}) };
  return { ...state, subagents: { ...state.subagents, [event.subagentRunId]: { ...current, status: 'error', error } } };
}
