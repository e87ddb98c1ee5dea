import type { SubagentRecord, ThreadState } from '../model.js';
import type { EventOf } from '../protocol.js';
import { entry } from './eventHelpers.js';
import { withKey, withMeta } from './grow.js';
import { defined } from './helpers.js';

export function subagentStarted(state: ThreadState, event: EventOf<'SUBAGENT_STARTED'>): ThreadState {
  const { subagentRunId, name, description, parentSubagentRunId, parentToolCallId, parentMessageId, metadata } = event;
  return put(state, {
    subagentRunId,
    name,
    status: 'running',
    ...defined({ description, parentSubagentRunId, parentToolCallId, parentMessageId, metadata }),
  });
}

export function subagentFinished(state: ThreadState, event: EventOf<'SUBAGENT_FINISHED'>): ThreadState {
  const suspended = event.outcome?.type === 'suspended';
  return put(
    state,
    withMeta(
      {
        ...current(state, event.subagentRunId),
        status: suspended ? 'suspended' : 'success',
        ...defined({
          result: event.result as unknown,
          interruptIds: event.outcome?.type === 'suspended' ? event.outcome.interruptIds : undefined,
        }),
      },
      event.metadata,
    ),
  );
}

export function subagentError(state: ThreadState, event: EventOf<'SUBAGENT_ERROR'>): ThreadState {
  const error = { message: event.message, ...defined({ code: event.code }) };
  return put(state, withMeta({ ...current(state, event.subagentRunId), status: 'error', error }, event.metadata));
}

/** The subagent's record, or one for a subagent never announced (named after its id). */
function current(state: ThreadState, id: string): SubagentRecord {
  return entry(state.subagents, id) ?? { subagentRunId: id, name: id, status: 'running' };
}

function put(state: ThreadState, record: SubagentRecord): ThreadState {
  return { ...state, subagents: withKey(state.subagents, record.subagentRunId, record) };
}
