import type { OpenInterrupt, RunState, RunStatus, ThreadState, ToolCallRecord } from '../model.js';
import type { EventOf, ResumeEntry } from '../protocol.js';
import { entry, putMessage, putToolCall, updateToolCall, without } from './helpers.js';
import { addInputMessages } from './messages.js';

export function runStarted(state: ThreadState, event: EventOf<'RUN_STARTED'>): ThreadState {
  const run: RunState = {
    runId: event.runId,
    status: 'running',
    steps: [],
    ...(event.parentRunId !== undefined ? { parentRunId: event.parentRunId } : {}),
    ...(event.protocolVersion !== undefined ? { protocolVersion: event.protocolVersion } : {}),
  };
  const replaced =
    state.run.status === 'running' && state.run.runId !== undefined && state.run.runId !== event.runId ? state.run.runId : undefined;
  // A run replaced before its terminal arrived never told how it ended.
  const runs = replaced === undefined ? state.runs : settleRun(state, replaced, 'unknown', event.timestamp);
  let next: ThreadState = {
    ...state,
    threadId: state.threadId ?? event.threadId,
    run,
    runs: {
      ...runs,
      [event.runId]: {
        runId: event.runId,
        status: 'running',
        ...(event.parentRunId !== undefined ? { parentRunId: event.parentRunId } : {}),
        ...(event.timestamp !== undefined ? { startedAt: event.timestamp } : {}),
      },
    },
  };
  if (event.input?.messages?.length) next = addInputMessages(next, event.input.messages);
  if (event.input?.resume?.length) next = recordResume(next, event.input.resume, event.runId);
  return next;
}

/**
 * Records the answers of a resume: the interrupts it covers are no longer
 * open, and the calls they held are released. Called for a RUN_STARTED whose
 * input carries `resume`, and by a client when it sends one.
 *
 * @example
 * state = recordResume(state, input.resume ?? [], input.runId);
 */
export function recordResume(state: ThreadState, resume: readonly ResumeEntry[], runId: string): ThreadState {
  const answered = new Map(resume.map((r) => [r.interruptId, r]));
  const stillOpen = state.interrupts.filter((it) => !answered.has(it.id));
  if (stillOpen.length === state.interrupts.length) return state;
  let next: ThreadState = {
    ...state,
    interrupts: stillOpen,
    answers: [
      ...state.answers,
      ...state.interrupts
        .filter((it) => answered.has(it.id))
        .map((it) => {
          const r = answered.get(it.id) as ResumeEntry;
          return { interruptId: it.id, status: r.status, runId, ...(r.payload !== undefined ? { payload: r.payload as unknown } : {}) };
        }),
    ],
  };
  for (const it of state.interrupts) {
    if (answered.has(it.id) && it.toolCallId) next = updateToolCall(next, it.toolCallId, (c) => without(c, 'interruptId'));
  }
  return next;
}

export function runFinished(state: ThreadState, event: EventOf<'RUN_FINISHED'>): ThreadState {
  const outcome = event.outcome;
  const status: RunStatus = outcome?.type === 'interrupt' ? 'interrupted' : outcome?.type === 'cancelled' ? 'cancelled' : 'success';
  const runs = settleRun(state, event.runId, status, event.timestamp);
  // A late RUN_FINISHED of a run that a newer run replaced does not touch the newer run.
  if (state.run.runId !== undefined && state.run.runId !== event.runId && state.run.status === 'running') return { ...state, runs };
  const run: RunState = {
    ...(state.run.runId !== undefined ? { runId: state.run.runId } : { runId: event.runId }),
    ...(state.run.parentRunId !== undefined ? { parentRunId: state.run.parentRunId } : {}),
    ...(state.run.protocolVersion !== undefined ? { protocolVersion: state.run.protocolVersion } : {}),
    status,
    outcome: outcome?.type ?? 'success',
    steps: [],
    ...(event.result !== undefined ? { result: event.result as unknown } : {}),
    ...(event.usage !== undefined ? { usage: event.usage } : {}),
    ...(outcome?.type === 'success' && outcome.pendingToolCallIds ? { pendingToolCallIds: outcome.pendingToolCallIds } : {}),
  };
  let next = closeOpenWork({ ...state, run, runs }, 'the run finished before the arguments were complete');
  if (outcome?.type === 'interrupt') next = openInterrupts(next, outcome.interrupts, event.runId);
  return next;
}

export function runError(state: ThreadState, event: EventOf<'RUN_ERROR'>): ThreadState {
  const runId = state.run.runId;
  const error = { message: event.message, ...(event.code !== undefined ? { code: event.code } : {}) };
  const run: RunState = {
    ...without(without(state.run, 'outcome'), 'pendingToolCallIds'),
    status: 'error',
    error,
    steps: [],
    ...(event.usage !== undefined ? { usage: event.usage } : {}),
  };
  const runs = runId === undefined ? state.runs : settleRun(state, runId, 'error', event.timestamp);
  let next = closeOpenWork({ ...state, run, runs }, `the run failed before the tool returned: ${event.message}`);
  // Calls of this run that were waiting for a backend result will not get one.
  for (const call of next.toolCalls) {
    if (call.runId === runId && (call.status === 'ready' || call.status === 'executing') && !call.interruptId) {
      next = putToolCall(next, { ...call, status: 'failed', failure: `the run failed before the tool returned: ${event.message}` });
    }
  }
  return next;
}

export function stepStarted(state: ThreadState, event: EventOf<'STEP_STARTED'>): ThreadState {
  if (state.run.steps.includes(event.stepName)) return state;
  return { ...state, run: { ...state.run, steps: [...state.run.steps, event.stepName] } };
}

export function stepFinished(state: ThreadState, event: EventOf<'STEP_FINISHED'>): ThreadState {
  if (!state.run.steps.includes(event.stepName)) return state;
  return { ...state, run: { ...state.run, steps: state.run.steps.filter((s) => s !== event.stepName) } };
}

function settleRun(state: ThreadState, runId: string, status: RunStatus, at: number | undefined): ThreadState['runs'] {
  const summary = entry(state.runs, runId) ?? { runId };
  return { ...state.runs, [runId]: { ...summary, status, ...(at !== undefined ? { finishedAt: at } : {}) } };
}

/** At a run's end nothing may still look live: streaming messages close, half-streamed calls fail. */
function closeOpenWork(state: ThreadState, why: string): ThreadState {
  let next = state;
  for (const id of state.messages.ids) {
    const m = state.messages.byId.get(id);
    if (m?.streaming) next = putMessage(next, { ...m, streaming: false });
  }
  for (const call of state.toolCalls) {
    if (call.status === 'declared' || call.status === 'args_streaming') {
      next = putToolCall(next, { ...call, status: 'failed', failure: why });
    }
  }
  return next;
}

function openInterrupts(state: ThreadState, list: readonly OpenInterrupt[], runId: string): ThreadState {
  let interrupts = state.interrupts;
  let next = state;
  list.forEach((raw, i) => {
    const id = typeof raw.id === 'string' && raw.id !== '' ? raw.id : `${runId}-interrupt-${i}`;
    const it: OpenInterrupt = { ...raw, id, runId };
    interrupts = [...interrupts.filter((o) => o.id !== id), it];
    if (it.toolCallId !== undefined) {
      const call = next.toolCalls.get(it.toolCallId);
      if (call) next = putToolCall(next, { ...call, interruptId: id } satisfies ToolCallRecord);
    }
  });
  return { ...next, interrupts };
}

/**
 * The stream ended while a run was open: the run's status is `unknown` (never
 * `success`), and no message is left looking live.
 */
export function streamTruncated(state: ThreadState): ThreadState {
  if (state.run.status !== 'running') return state;
  const runId = state.run.runId;
  const runs =
    runId === undefined
      ? state.runs
      : { ...state.runs, [runId]: { ...(entry(state.runs, runId) ?? { runId }), status: 'unknown' as const } };
  let next: ThreadState = { ...state, run: { ...state.run, status: 'unknown' }, runs };
  for (const id of state.messages.ids) {
    const m = state.messages.byId.get(id);
    if (m?.streaming) next = putMessage(next, { ...m, streaming: false });
  }
  return next;
}
