import { describe } from '../describe.js';
import { warning } from '../diagnostics.js';
import { applyJsonPatch, noteLargeObjects, type PatchFailureCode } from '../jsonPatch.js';
import type { MessageRecord, SharedState, ThreadState } from '../model.js';
import type { EventOf } from '../protocol.js';
import { origin, withDiagnostics } from './eventHelpers.js';
import { withMeta } from './grow.js';
import { putMessage, stamp, without } from './helpers.js';
import { COPY_DEPTH, nestsWithin } from './ownJson.js';

/** STATE_SNAPSHOT replaces the whole document (never a merge) and heals a desynced state. */
export function stateSnapshot(state: ThreadState, event: EventOf<'STATE_SNAPSHOT'>): ThreadState {
  // Measured as it enters, so that the first delta into a large object of it costs O(1) (largeObject.ts).
  noteLargeObjects(event.snapshot);
  const { metadata } = withMeta(state.sharedState, event.metadata);
  return {
    ...state,
    sharedState: {
      document: event.snapshot,
      sync: 'in-sync',
      version: state.sharedState.version + 1,
      basis: 'snapshot',
      ...(metadata ? { metadata } : {}),
    },
  };
}

/**
 * STATE_DELTA applies its operations in order and atomically. A failing
 * operation leaves the document as it was, marks it `desynced` with the
 * failing operation and says so in a diagnostic; further deltas are not
 * applied until a snapshot arrives, since they were computed against a
 * document this client no longer has.
 */
export function stateDelta(state: ThreadState, event: EventOf<'STATE_DELTA'>, index: number): ThreadState {
  const shared = state.sharedState;
  if (shared.sync === 'desynced') {
    return withDiagnostics(meta(state, event), [
      warning(
        index,
        event.type,
        'DELTA_WHILE_DESYNCED',
        `STATE_DELTA not applied: the state is desynced since event ${shared.failure?.index ?? '?'}; waiting for a STATE_SNAPSHOT.`,
      ),
    ]);
  }
  if (event.delta.length === 0) return meta(state, event);
  const result = applyJsonPatch(shared.document, event.delta);
  const kept = withMeta(without(without(shared, 'failure'), 'lastDelta'), event.metadata);
  if (result.ok) {
    return {
      ...state,
      sharedState: { ...kept, document: result.document, sync: 'in-sync', version: shared.version + 1, lastDelta: event.delta },
    };
  }
  const op = result.operation as { op?: unknown; path?: unknown };
  const message = `Failed to apply state patch: operation ${result.operationIndex} (${String(op.op)} ${describe(op.path)}) ${result.message}. Nothing applied; the state is marked desynced until a STATE_SNAPSHOT.`;
  return withDiagnostics(desynced(state, kept, index, result), [warning(index, event.type, 'PATCH_FAILED', message)]);
}

/**
 * A STATE_SNAPSHOT or STATE_DELTA refused whole for a value nested too deep
 * to keep: the document stays as it was, and is desynced, since the agent's
 * is another now (later deltas are made against the agent's).
 */
export function stateTooDeep(
  state: ThreadState,
  event: EventOf<'STATE_SNAPSHOT' | 'STATE_DELTA'>,
  index: number,
  message: string,
): ThreadState {
  const shared = state.sharedState;
  if (shared.sync === 'desynced' && event.type === 'STATE_DELTA') return state;
  // The first operation holding the value, as the event's copy met it (a snapshot replaces the whole document); none
  // when the value is elsewhere (the event's metadata).
  const operation =
    event.type === 'STATE_DELTA'
      ? event.delta.find((op) => !nestsWithin(op, COPY_DEPTH - 2))
      : nestsWithin(event.snapshot, COPY_DEPTH - 1)
        ? undefined
        : { op: 'replace', path: '' };
  return desynced(state, without(without(shared, 'failure'), 'lastDelta'), index, { operation, code: 'TOO_DEEP', message });
}

/** The state marked desynced by the event at `index`, with the operation that failed (named only, when its value is too deep). */
function desynced(
  state: ThreadState,
  kept: SharedState,
  index: number,
  result: { operation: unknown; code: PatchFailureCode; message: string },
): ThreadState {
  const { operation } = result;
  // A value too deep to keep is not kept here either: the operation is named by its op, path and from.
  const named =
    result.code === 'TOO_DEEP' && typeof operation === 'object' && operation !== null
      ? Object.fromEntries(
          ['op', 'path', 'from'].filter((k) => Object.hasOwn(operation, k)).map((k) => [k, (operation as Record<string, unknown>)[k]]),
        )
      : operation;
  return {
    ...state,
    sharedState: {
      ...kept,
      sync: 'desynced',
      failure: { index, operation: named, code: result.code, message: result.message },
      version: state.sharedState.version + 1,
    },
  };
}

/** The state with the event's metadata merged into the shared state's (nothing else changes). */
function meta(state: ThreadState, event: EventOf<'STATE_DELTA'>): ThreadState {
  return event.metadata === undefined ? state : { ...state, sharedState: withMeta(state.sharedState, event.metadata) };
}

/** ACTIVITY_SNAPSHOT creates or replaces an activity message; `replace: false` keeps an existing one (merging the metadata). */
export function activitySnapshot(state: ThreadState, event: EventOf<'ACTIVITY_SNAPSHOT'>, index: number, at?: number): ThreadState {
  const existing = state.messages.byId.get(event.messageId);
  if (existing && existing.role !== 'activity') {
    return withDiagnostics(state, [
      warning(
        index,
        event.type,
        'ACTIVITY_ID_CONFLICT',
        `ACTIVITY_SNAPSHOT for '${event.messageId}', which is a ${existing.role} message; ignored.`,
      ),
    ]);
  }
  if (existing && event.replace === false)
    return event.metadata === undefined ? state : putMessage(state, withMeta(existing, event.metadata));
  const record: MessageRecord = {
    id: event.messageId,
    role: 'activity',
    activityType: event.activityType,
    content: event.content,
    streaming: false,
    ...origin(event, state),
    ...(existing?.metadata ? { metadata: existing.metadata } : {}),
    ...stamp(existing?.startedAt ?? at),
  };
  const next = putMessage(state, withMeta(record, event.metadata));
  // Replaced under another agent: the list of ids is new too, as when a message comes or goes, so what is worked out
  // from the list once (which agent each message is from) is worked out again.
  if (!existing || existing.subagentRunId === record.subagentRunId) return next;
  return { ...next, messages: { ...next.messages, ids: [...next.messages.ids] } };
}

/** ACTIVITY_DELTA patches an activity's content atomically; a missing target invents nothing. */
export function activityDelta(state: ThreadState, event: EventOf<'ACTIVITY_DELTA'>, index: number): ThreadState {
  const existing = state.messages.byId.get(event.messageId);
  if (existing?.role !== 'activity') {
    return withDiagnostics(state, [
      warning(
        index,
        event.type,
        'ACTIVITY_TARGET_MISSING',
        `ACTIVITY_DELTA for '${event.messageId}', which is not an activity message; skipped.`,
      ),
    ]);
  }
  const result = applyJsonPatch(existing.content, event.patch);
  if (!result.ok) {
    return withDiagnostics(event.metadata === undefined ? state : putMessage(state, withMeta(existing, event.metadata)), [
      warning(
        index,
        event.type,
        'ACTIVITY_PATCH_FAILED',
        `Failed to apply activity patch for '${event.messageId}': ${result.message}; activity kept as it was.`,
      ),
    ]);
  }
  return putMessage(
    state,
    withMeta({ ...existing, activityType: event.activityType, content: result.document as MessageRecord['content'] }, event.metadata),
  );
}
