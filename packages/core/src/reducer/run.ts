import { warning } from '../diagnostics.js';
import { noteLargeObjects } from '../jsonPatch.js';
import type {
  InterruptAnswer,
  OpenInterrupt,
  RunState,
  RunStatus,
  RunSummary,
  ThreadState,
  ToolCallFailureCode,
  ToolCallRecord,
} from '../model.js';
import type { EventOf, ResumeEntry, TokenUsage } from '../protocol.js';
import { entry, updateToolCall, withDiagnostics } from './eventHelpers.js';
import { withKey, withMeta } from './grow.js';
import { defined, putMessage, putToolCall, settleSubagents, streamingIds, without } from './helpers.js';
import { addInputMessages } from './messages.js';
import { ownJson, sameJson } from './ownJson.js';

/** The thread the open run's RUN_STARTED named. */
const startThread = (state: ThreadState): string | undefined => state.run.threadId ?? state.threadId;

/**
 * Whether a RUN_STARTED of `runId` is a run that ended sent again, which stays as it ended. An agent answering a resume
 * by streaming the thread again from its start: a run that ended, started again ahead of the resume's run, is that run
 * sent again (the questions the resume answered stay answered). So is one started again while another run is open (a
 * run whose RUN_STARTED came before the history it replays), which goes on. A run the agent starts under an id of its
 * own is new: what it asks, even under an answered question's id, opens.
 */
export function startedAgain(state: ThreadState, runId: string): boolean {
  const before = entry(state.runs, runId);
  return before !== undefined && ENDED.has(before.status) && (resumeUnderWay(state) || state.run.status === 'running');
}

export function runStarted(state: ThreadState, event: EventOf<'RUN_STARTED'>, index: number, at?: number): ThreadState {
  if (startedAgain(state, event.runId)) return state;
  const input = event.input;
  const threadId = state.threadId ?? event.threadId;
  const run: RunState = {
    runId: event.runId,
    status: 'running',
    steps: [],
    ...defined({
      threadId: event.threadId === threadId ? undefined : event.threadId,
      parentRunId: event.parentRunId,
      protocolVersion: event.protocolVersion,
      metadata: event.metadata,
      tools: Array.isArray(input?.tools) ? input.tools : undefined,
      context: Array.isArray(input?.context) ? input.context : undefined,
      forwardedProps: input?.forwardedProps as unknown,
    }),
  };
  const replaced =
    state.run.status === 'running' && state.run.runId !== undefined && state.run.runId !== event.runId ? state.run.runId : undefined;
  // A run replaced before its terminal arrived never told how it ended.
  const runs = replaced === undefined ? state.runs : settleRun(state, replaced, 'unknown', at);
  let next: ThreadState = {
    ...state,
    threadId,
    run,
    runs: withKey(runs, event.runId, {
      runId: event.runId,
      status: 'running',
      ...defined({ parentRunId: event.parentRunId, startedAt: at, metadata: event.metadata }),
    }),
  };
  if (input?.messages?.length) next = addInputMessages(next, input.messages, at);
  if (input?.resume?.length) next = recordResume(next, input.resume, event.runId);
  if (input?.state !== undefined) next = inputState(next, input.state as unknown, index);
  return next;
}

/**
 * A run's input restates the document it starts from: it becomes the
 * document while no STATE_SNAPSHOT has come (a snapshot is the agent's word,
 * and wins), and a document that differs from one the thread had changed, or
 * from a snapshot's, is reported. A document the client edited since its
 * last restatement stays: the client sent the input before those edits
 * (while its request was on the way), which go out with the next run.
 */
function inputState(state: ThreadState, document: unknown, index: number): ThreadState {
  const shared = state.sharedState;
  // The same document: restated, the client's edits among it (a later input that differs is taken again).
  if (sameJson(document, shared.document))
    return shared.basis === 'client' ? { ...state, sharedState: { ...shared, basis: 'input' } } : state;
  if (shared.basis === 'client') return state;
  const snapshot = shared.basis === 'snapshot';
  // Measured as it enters, as a snapshot is (largeObject.ts).
  if (!snapshot) noteLargeObjects(document);
  const next: ThreadState = snapshot
    ? state
    : {
        ...state,
        sharedState: {
          ...without(without(shared, 'failure'), 'lastDelta'),
          document,
          sync: 'in-sync',
          version: shared.version + 1,
          basis: 'input',
        },
      };
  if (!snapshot && shared.version === 0) return next;
  const kept = snapshot ? 'the last STATE_SNAPSHOT’s document is kept' : 'the input’s replaces it, as no STATE_SNAPSHOT has come';
  return withDiagnostics(next, [
    warning(index, 'RUN_STARTED', 'INPUT_STATE_CONFLICT', `RUN_STARTED's input.state differs from the thread's document; ${kept}.`),
  ]);
}

/**
 * Records the answers of a resume: the interrupts it covers are no longer
 * open, and the calls they held are released, with the answer. A call whose
 * approval was rejected (a `resolved` answer whose payload has
 * `approved: false`) becomes `denied`; one answered `cancelled` (the only
 * answer an expired interrupt can get) becomes `cancelled`; any other answer
 * leaves it for its result. A call that already has its result keeps its
 * status. Called for a RUN_STARTED whose input carries `resume`, and by a
 * client when it sends one.
 *
 * @example
 * state = recordResume(state, input.resume ?? [], input.runId);
 */
export function recordResume(state: ThreadState, resume: readonly ResumeEntry[], runId: string): ThreadState {
  const answered = new Map(resume.map((r) => [r.interruptId, r]));
  const stillOpen = state.interrupts.filter((it) => !answered.has(it.id));
  if (stillOpen.length === state.interrupts.length) return state;
  const answers: InterruptAnswer[] = [];
  let next = state;
  for (const it of state.interrupts) {
    const r = answered.get(it.id);
    if (!r) continue;
    const answer: InterruptAnswer = {
      interruptId: it.id,
      status: r.status,
      runId,
      ...defined({ payload: ownJson(r.payload as unknown) }),
    };
    answers.push(answer);
    if (it.toolCallId)
      next = updateToolCall(next, it.toolCallId, (c) => {
        const rejected = (answer.payload as { approved?: unknown } | undefined)?.approved === false;
        const status =
          c.status === 'succeeded' || c.status === 'failed'
            ? c.status
            : r.status === 'cancelled'
              ? 'cancelled'
              : rejected
                ? 'denied'
                : c.status;
        return { ...without(c, 'interruptId'), status, answer };
      });
  }
  return { ...next, interrupts: stillOpen, answers: [...state.answers, ...answers] };
}

/** What a resume closed: its interrupts and the calls they held, as they were before it. */
export interface ResumeTaken {
  runId: string;
  interrupts: readonly OpenInterrupt[];
  calls: readonly ToolCallRecord[];
  /** The ids of the interrupts open then, in their order. */
  order: readonly string[];
}

/** What `recordResume(state, resume, runId)` closes, read before it does. */
export function resumeTaken(state: ThreadState, resume: readonly ResumeEntry[], runId: string): ResumeTaken | undefined {
  const answered = new Set(resume.map((r) => r.interruptId));
  const interrupts = state.interrupts.filter((it) => answered.has(it.id));
  if (!interrupts.length) return undefined;
  const calls: ToolCallRecord[] = [];
  for (const it of interrupts) {
    const call = it.toolCallId === undefined ? undefined : state.toolCalls.get(it.toolCallId);
    if (call) calls.push(call);
  }
  return { runId, interrupts, calls, order: state.interrupts.map((it) => it.id) };
}

/**
 * A resume the agent never took (its request failed before any event): the
 * interrupts it answered are open again, in the order they had, ahead of
 * any opened since, the calls they held are held again as they were (unless
 * a result settled them meanwhile), and its answers are gone. The user
 * answers again. One refused because its interrupts were answered first
 * elsewhere (`cause` `ALREADY_ANSWERED`, another tab) leaves them closed and
 * their calls held no more, without this answer, which the agent did not take.
 */
export function reopenInterrupts(state: ThreadState, taken: ResumeTaken, cause?: string): ThreadState {
  const elsewhere = cause === 'ALREADY_ANSWERED';
  const ids = new Set(taken.interrupts.map((it) => it.id));
  const place = (id: string) => {
    const at = taken.order.indexOf(id);
    return at < 0 ? taken.order.length : at;
  };
  const interrupts = [...taken.interrupts, ...state.interrupts.filter((it) => !ids.has(it.id))];
  let next: ThreadState = {
    ...state,
    interrupts: elsewhere ? state.interrupts : interrupts.sort((a, b) => place(a.id) - place(b.id)),
    answers: state.answers.filter((a) => a.runId !== taken.runId || !ids.has(a.interruptId)),
  };
  for (const call of taken.calls) {
    const now = next.toolCalls.get(call.id);
    if (now && now.status !== 'succeeded' && now.status !== 'failed')
      next = putToolCall(next, elsewhere ? without(call, 'interruptId') : call);
  }
  return next;
}

/** How a run that has ended ended: a second terminal event of the same run changes none of it. */
const ENDED: ReadonlySet<RunStatus> = new Set(['success', 'interrupted', 'cancelled', 'error']);

export function runFinished(state: ThreadState, event: EventOf<'RUN_FINISHED'>, at?: number): ThreadState {
  // A RUN_FINISHED of the run that has already ended (a duplicate, which a reconnect may replay) is the verifier's to
  // report: the run ended once. A run left `unknown` by a cut is still open to it: its reconnect delivers the end.
  if (state.run.runId === event.runId && ENDED.has(state.run.status)) return state;
  // So is the end of an earlier run that ended (an agent sending again the end that asked the questions a resumed run
  // answered): its interrupts, answered, never open again, and the newer run stays the thread's.
  const other = state.run.runId !== undefined && state.run.runId !== event.runId;
  const earlier = entry(state.runs, event.runId);
  if (other && earlier && ENDED.has(earlier.status)) return state;
  // A close that names another thread than the run's RUN_STARTED is about another conversation (the verifier
  // reports it): the run stays open, and a stream that stops there leaves it `unknown`, never a success.
  if (state.run.runId === event.runId && event.threadId !== startThread(state)) return state;
  const outcome = event.outcome;
  const status: RunStatus = outcome?.type === 'interrupt' ? 'interrupted' : outcome?.type === 'cancelled' ? 'cancelled' : 'success';
  const runs = settleRun(state, event.runId, status, at, event);
  // A late RUN_FINISHED of another run (one a newer run replaced, left `unknown`, or one never started) settles that
  // run only: the thread's run, running or ended, is untouched, and no interrupt opens for a run that is not it.
  if (other) return { ...state, runs };
  const {
    error: _error,
    result: _result,
    usage: _usage,
    pendingToolCallIds: _pending,
    outcome: _outcome,
    threadId: _thread,
    ...kept
  } = state.run;
  const run: RunState = withMeta(
    {
      ...kept,
      runId: kept.runId ?? event.runId,
      status,
      outcome: outcome?.type ?? 'success',
      steps: [],
      ...defined({
        result: event.result as unknown,
        usage: event.usage,
        pendingToolCallIds: outcome?.type === 'success' ? outcome.pendingToolCallIds : undefined,
      }),
    },
    event.metadata,
  );
  let next = closeOpenWork({ ...state, run, runs }, 'ARGS_INCOMPLETE', 'the run finished before the arguments were complete', at);
  if (outcome?.type === 'interrupt') next = openInterrupts(next, outcome.interrupts, event.runId);
  return next;
}

export function runError(state: ThreadState, event: EventOf<'RUN_ERROR'>, at?: number): ThreadState {
  const runId = state.run.runId;
  const error = { message: event.message, ...defined({ code: event.code }) };
  const run: RunState = withMeta(
    {
      ...without(without(without(state.run, 'threadId'), 'outcome'), 'pendingToolCallIds'),
      status: 'error',
      error,
      steps: [],
      ...defined({ usage: event.usage }),
    },
    event.metadata,
  );
  const runs = runId === undefined ? state.runs : settleRun(state, runId, 'error', at, event);
  let next = closeOpenWork({ ...state, run, runs }, 'RUN_FAILED', `the run failed before the tool returned: ${event.message}`, at);
  // Calls of this run that were waiting for a backend result will not get one.
  for (const call of next.toolCalls) {
    if (call.runId === runId && (call.status === 'ready' || call.status === 'executing') && !call.interruptId) {
      next = putToolCall(next, {
        ...call,
        status: 'failed',
        failure: `the run failed before the tool returned: ${event.message}`,
        failureCode: 'RUN_FAILED',
      });
    }
  }
  // Subagents still running fail with it.
  return settleSubagents(next, { status: 'error', error });
}

function settleRun(
  state: ThreadState,
  runId: string,
  status: RunStatus,
  at: number | undefined,
  event?: { metadata?: Record<string, unknown>; usage?: TokenUsage[]; result?: unknown },
): ThreadState['runs'] {
  const summary: RunSummary = withMeta(entry(state.runs, runId) ?? { runId, status }, event?.metadata);
  return withKey(state.runs, runId, { ...summary, status, ...defined({ finishedAt: at, usage: event?.usage, result: event?.result }) });
}

/** At a run's end nothing may still look live: streaming messages close (ending then), half-streamed calls fail. */
function closeOpenWork(state: ThreadState, code: ToolCallFailureCode, why: string, at: number | undefined): ThreadState {
  let next = state;
  for (const id of streamingIds(state)) {
    const m = state.messages.byId.get(id);
    if (m?.streaming) next = putMessage(next, { ...m, streaming: false, ...defined({ endedAt: at }) });
  }
  const calls = state.toolCalls;
  for (const call of calls.watched ? calls.watched.map((id) => calls.get(id) as ToolCallRecord) : calls) {
    if (call.status === 'declared' || call.status === 'args_streaming') {
      next = putToolCall(next, { ...call, status: 'failed', failure: why, failureCode: code });
    }
  }
  return next;
}

function openInterrupts(state: ThreadState, list: readonly OpenInterrupt[], runId: string): ThreadState {
  // By id, in order: an interrupt under an id already open replaces it, and goes last.
  const open = new Map(state.interrupts.map((it) => [it.id, it]));
  let next = state;
  list.forEach((raw, i) => {
    const id = typeof raw.id === 'string' && raw.id !== '' ? raw.id : `${runId}-interrupt-${i}`;
    const it: OpenInterrupt = { ...raw, id, runId };
    open.delete(id);
    open.set(id, it);
    if (it.toolCallId !== undefined) {
      const call = next.toolCalls.get(it.toolCallId);
      if (call) next = putToolCall(next, { ...call, interruptId: id } satisfies ToolCallRecord);
    }
  });
  return { ...next, interrupts: [...open.values()] };
}

/**
 * Whether the answers last given wait for their run: a resume is under way
 * whose run has not started (one the agent did not take, or refused, was
 * settled as it failed).
 */
function resumeUnderWay(state: ThreadState): boolean {
  const last = state.answers[state.answers.length - 1];
  return last !== undefined && !Object.hasOwn(state.runs, last.runId);
}

/**
 * The stream ended: no message is left looking live (when they ended is not
 * known: they get no `endedAt`), whether its run was open or the agent opened
 * it after the run ended; and a run still open has the status `unknown`
 * (never `success`).
 */
export function streamTruncated(state: ThreadState): ThreadState {
  let next = state;
  if (state.run.status === 'running') {
    const runId = state.run.runId;
    const runs =
      runId === undefined
        ? state.runs
        : withKey(state.runs, runId, { ...(entry(state.runs, runId) ?? { runId }), status: 'unknown' as const });
    next = { ...state, run: { ...state.run, status: 'unknown' }, runs };
  }
  for (const id of streamingIds(state)) {
    const m = state.messages.byId.get(id);
    if (m?.streaming) next = putMessage(next, { ...m, streaming: false });
  }
  return next;
}
