import { error, warning } from './diagnostics.js';
import type { ExpandedEvent } from './expand.js';
import { GrowingMap, GrowingSet } from './growingSet.js';
import type { Diagnostic } from './model.js';
import { OpenKeys } from './openKeys.js';
import { type Interrupt, isAgUiEvent, type Message, UNDERSTOOD_PROTOCOL_VERSION } from './protocol.js';

export interface VerifierOptions {
  /** The thread the stream belongs to; otherwise taken from its first RUN_STARTED. */
  threadId?: string;
  /** Tool calls known from earlier history, so that a RESULT for one of them is legal. */
  knownToolCallIds?: Iterable<string>;
  /**
   * The same, looked up where they are kept (a thread's `toolCalls`): a
   * thread's thousands of calls are not copied into every stream's verifier.
   */
  isKnownToolCall?: (id: string) => boolean;
  /** Interrupts open before the stream starts, which the next run's resume must cover. */
  openInterruptIds?: Iterable<string>;
  /**
   * Answers the client recorded as it sent them (`recordResume`): the run
   * they were sent with may restate them in its RUN_STARTED `input`.
   */
  answeredInterrupts?: Iterable<{ interruptId: string; runId: string }>;
}

export interface Verifier {
  /**
   * Checks one expanded event; returns the violations it shows (empty when none). `again`: the thread takes this
   * RUN_STARTED as a run that ended sent again (its reducer keeps that run as it ended): started inside an open run, it
   * is reported, and the open run goes on.
   */
  check(event: ExpandedEvent, index: number, again?: boolean): readonly Diagnostic[];
  /** Checks the end of the stream at `index` (the count of events): a run still open is a truncated stream. */
  end(index: number): readonly Diagnostic[];
  /** A verifier in the state this one is in, which goes on apart from it. */
  fork(): Verifier;
}

/** What a verifier holds between events (see `fork`): its sets and maps are copied, their lanes shared (none changes). */
interface VerifierState {
  threadId: string | undefined;
  phase: 'before' | 'active' | 'finished' | 'errored';
  runId: string | undefined;
  runThread: string | undefined;
  sets: readonly ReadonlySet<string>[];
  open: readonly OpenKeys[];
  /** Forked, not copied: every id the thread ever had (see growingSet.ts). */
  grown: readonly GrowingSet[];
  /** The lane each tool call was started in, of every call the thread had: forked, not copied. */
  toolLanes: GrowingMap<Lane>;
  maps: readonly OpenKeys<Lane>[];
  answeredBy: ReadonlyMap<string, string>;
}

type Lane = { subagentRunId: string | undefined };

/**
 * Creates the invariant verifier of one event stream. It checks the rules of
 * AG-UI 1.0 and the invariants every verifiable run must satisfy:
 *
 * - lifecycle: the first event is RUN_STARTED (or RUN_ERROR), one RUN_STARTED
 *   per run id, no nested run, nothing but a new run (or a late RUN_ERROR)
 *   after a terminal, RUN_FINISHED agrees with its run and thread (one naming
 *   another run, or another thread than its run's, is reported and ends
 *   nothing), and no message, tool call, reasoning message or subagent is
 *   left open by it;
 * - text and reasoning: CONTENT only between START and END of its message;
 * - tool calls: START -> ARGS* -> END, and a RESULT that names a known call;
 * - interrupts: an interrupt outcome is non-empty, each interrupt has a
 *   unique non-empty id, and a later run's resume covers every open one;
 * - subagents: a terminal names an announced subagent, and a continuation
 *   event keeps its opener's `subagentRunId`;
 * - the end of the stream: a run without RUN_FINISHED or RUN_ERROR is truncated.
 *
 * Violations are diagnostics with the event index; the verifier never throws.
 *
 * @example
 * const verifier = createVerifier();
 * events.forEach((e, i) => diagnostics.push(...verifier.check(e, i)));
 * diagnostics.push(...verifier.end(events.length));
 */
export function createVerifier(options: VerifierOptions = {}, from?: VerifierState): Verifier {
  let threadId = from ? from.threadId : options.threadId;
  let phase = from?.phase ?? 'before';
  let runId = from?.runId;
  /** The thread the active run's RUN_STARTED named: a RUN_FINISHED naming another is no end of it (nor is it the thread's). */
  let runThread = from?.runThread;
  const set = (i: number, initial?: Iterable<string>) => new Set<string>(from ? from.sets[i] : initial);
  const grown = (i: number, initial?: Iterable<string>) => from?.grown[i] ?? new GrowingSet(initial);
  const map = (i: number) => new OpenKeys<Lane>(from?.maps[i]);
  const keys = (i: number) => new OpenKeys(from?.open[i]);
  const runIds = grown(0);
  const openText = map(0);
  const openReasoning = map(1);
  const openTools = map(2);
  const toolLanes = from?.toolLanes ?? new GrowingMap<Lane>();
  const knownTools = grown(1, options.knownToolCallIds);
  const isKnownTool = (id: string): boolean => knownTools.has(id) || options.isKnownToolCall?.(id) === true;
  const results = grown(2);
  const spans = keys(0);
  const steps = keys(1);
  const subagents = keys(2);
  const interrupts = set(0, options.openInterruptIds);
  // Read only, once made: a fork shares it.
  const answeredBy = from?.answeredBy ?? new Map([...(options.answeredInterrupts ?? [])].map((a) => [a.interruptId, a.runId]));

  // The message or call last found open, and in which map: the deltas of a stream name it again and again, and
  // comparing the id with it spares hashing each new id string. Forgotten whenever anything closes.
  let openMap: OpenKeys<Lane> | undefined;
  let openId = '';
  const isOpen = (map: OpenKeys<Lane>, id: string): boolean => {
    if (map === openMap && id === openId) return true;
    if (!map.has(id)) return false;
    openMap = map;
    openId = id;
    return true;
  };
  const close = (map: OpenKeys<Lane>, id: string) => {
    openMap = undefined;
    map.delete(id);
  };

  /** Remembers the calls a restated history holds, so a result for one of them is not a stranger's. */
  const learnCalls = (messages: readonly Message[] | undefined) => {
    for (const m of messages ?? []) {
      if (m.role === 'assistant') for (const call of m.toolCalls ?? []) knownTools.add(call.id);
    }
  };

  const closeAll = () => {
    openMap = undefined;
    openText.clear();
    openReasoning.clear();
    openTools.clear();
    steps.clear();
    subagents.clear();
  };

  // The event being checked and what was found, kept across calls so the per-event path allocates
  // nothing when the event is fine (which is nearly always).
  let out: Diagnostic[] | undefined;
  let index = 0;
  let type = '';
  let sub: string | undefined;
  const found = (d: Diagnostic) => {
    if (out) out.push(d);
    else out = [d];
  };
  const err = (code: string, message: string) => found(error(index, type, code, message));
  const warn = (code: string, message: string) => found(warning(index, type, code, message));
  const subOf = () => sub;
  const lane = (byId: { get(id: string): Lane | undefined }, id: string, what: string) => {
    if (sub === undefined) return;
    const opener = byId.get(id);
    if (opener && sub !== opener.subagentRunId) {
      err(
        'ATTRIBUTION_MISMATCH',
        `${type} for ${what} '${id}' carries subagentRunId '${sub}', which does not match its opener's '${opener.subagentRunId ?? '(main agent)'}'.`,
      );
    }
  };

  return {
    fork: () =>
      createVerifier(options, {
        threadId,
        phase,
        runId,
        runThread,
        sets: [interrupts],
        open: [spans, steps, subagents],
        grown: [runIds.fork(), knownTools.fork(), results.fork()],
        maps: [openText, openReasoning, openTools],
        toolLanes: toolLanes.fork(),
        answeredBy,
      }),
    check(event, at, again) {
      const found = inspect(event, at, again);
      out = undefined;
      return found ?? NONE;
    },
    end(at) {
      if (phase !== 'active') return [];
      return [truncated(at, runId)];
    },
  };

  function inspect(event: ExpandedEvent, at: number, again?: boolean): Diagnostic[] | undefined {
    index = at;
    type = event.type;
    const raw = (event as { subagentRunId?: unknown }).subagentRunId;
    sub = typeof raw === 'string' ? raw : undefined;
    if (phase === 'before' && type !== 'RUN_STARTED' && type !== 'RUN_ERROR') {
      err('FIRST_EVENT_NOT_RUN_STARTED', `First event must be 'RUN_STARTED', got '${type}'.`);
      phase = 'active';
    } else if (phase !== 'active' && type !== 'RUN_STARTED' && type !== 'RUN_ERROR') {
      const how = phase === 'finished' ? 'RUN_FINISHED' : 'RUN_ERROR';
      err('EVENT_AFTER_RUN_END', `The run has already finished with '${how}'; '${type}' arrived outside any run.`);
    }
    if (!isAgUiEvent(event)) return out;
    switch (event.type) {
      case 'RUN_STARTED': {
        const nested = phase === 'active' && runId !== undefined;
        if (nested) err('NESTED_RUN_STARTED', `Cannot send 'RUN_STARTED' while a run is still active (run '${runId}').`);
        if (runIds.has(event.runId))
          err('DUPLICATE_RUN_ID', `RUN_STARTED for run '${event.runId}', which already started: one RUN_STARTED per run.`);
        if (threadId !== undefined && event.threadId !== threadId) {
          err(
            'THREAD_MISMATCH',
            `RUN_STARTED names thread '${event.threadId}', but the stream belongs to thread '${threadId}': every run carries the input's threadId.`,
          );
        }
        // A run that ended, sent again inside the open one (a history streamed again), is no run of its own: the open run
        // goes on (its end, not the history's, closes it), as it does in the thread.
        if (nested && again) return out;
        threadId ??= event.threadId;
        runIds.add(event.runId);
        runId = event.runId;
        runThread = event.threadId;
        phase = 'active';
        checkVersion(event.protocolVersion, warn);
        if (event.input) {
          checkResume(event.input.resume, interrupts, (id) => answeredBy.get(id) === event.runId, err, warn);
          learnCalls(event.input.messages);
        }
        return out;
      }
      case 'RUN_FINISHED': {
        if (phase === 'active') {
          if (runId !== undefined && event.runId !== runId) {
            err(
              'RUN_ID_MISMATCH',
              `RUN_FINISHED names run '${event.runId}' but the active run is '${runId}': RUN_STARTED and RUN_FINISHED must agree on their runId.`,
            );
            // The end of another run (or of this one in another thread, below) closes nothing of the active one, nor does the
            // thread's: it goes on, and its own end closes it.
            return out;
          }
          if (threadId !== undefined && event.threadId !== threadId)
            err('THREAD_MISMATCH', `RUN_FINISHED names thread '${event.threadId}'; it must carry the input's threadId '${threadId}'.`);
          if (runId !== undefined && event.threadId !== runThread) return out;
          const open = (what: string, ids: OpenKeys<Lane>) => {
            if (ids.size)
              err('OPEN_AT_RUN_FINISHED', `Cannot send 'RUN_FINISHED' while ${what} are still active: ${ids.keys().join(', ')}.`);
          };
          open('text messages', openText);
          open('tool calls', openTools);
          open('reasoning messages', openReasoning);
          if (subagents.size)
            err('SUBAGENT_STILL_ACTIVE', `Cannot send 'RUN_FINISHED' while subagents are still active: ${subagents.keys().join(', ')}.`);
          if (steps.size) warn('STEP_STILL_ACTIVE', `RUN_FINISHED while steps are still active: ${steps.keys().join(', ')}.`);
        }
        const outcome = event.outcome;
        if (outcome?.type === 'interrupt') checkInterrupts(outcome.interrupts, interrupts, isKnownTool, err, warn);
        if (outcome?.type === 'success') {
          for (const id of outcome.pendingToolCallIds ?? []) {
            if (!isKnownTool(id))
              warn('UNKNOWN_PENDING_TOOL_CALL', `RUN_FINISHED lists pending tool call '${id}', which was never started.`);
          }
        }
        closeAll();
        phase = 'finished';
        return out;
      }
      case 'RUN_ERROR':
        closeAll();
        phase = 'errored';
        return out;
      case 'STEP_STARTED':
        if (steps.has(event.stepName)) warn('STEP_ALREADY_ACTIVE', `STEP_STARTED for step '${event.stepName}', which is already active.`);
        steps.set(event.stepName);
        return out;
      case 'STEP_FINISHED':
        if (!steps.delete(event.stepName)) err('STEP_NOT_STARTED', `STEP_FINISHED for step '${event.stepName}' that was not started.`);
        return out;
      case 'TEXT_MESSAGE_START':
      case 'REASONING_MESSAGE_START': {
        const map = type === 'TEXT_MESSAGE_START' ? openText : openReasoning;
        if (map.has(event.messageId))
          err('DUPLICATE_START', `${type} for '${event.messageId}', which is still open (START twice without END).`);
        else map.set(event.messageId, { subagentRunId: subOf() });
        return out;
      }
      case 'TEXT_MESSAGE_CONTENT':
      case 'REASONING_MESSAGE_CONTENT': {
        const text = type === 'TEXT_MESSAGE_CONTENT';
        const map = text ? openText : openReasoning;
        if (!isOpen(map, event.messageId))
          err(
            'CONTENT_WITHOUT_START',
            `No active ${text ? 'text' : 'reasoning'} message found with ID '${event.messageId}': CONTENT outside START..END; the text is kept.`,
          );
        else lane(map, event.messageId, 'message');
        return out;
      }
      case 'TEXT_MESSAGE_END':
      case 'REASONING_MESSAGE_END': {
        const map = type === 'TEXT_MESSAGE_END' ? openText : openReasoning;
        if (!map.has(event.messageId))
          err('END_WITHOUT_START', `${type} for '${event.messageId}', which is not open (END twice, or no START).`);
        else lane(map, event.messageId, 'message');
        close(map, event.messageId);
        return out;
      }
      case 'TOOL_CALL_START':
        if (openTools.has(event.toolCallId) || isKnownTool(event.toolCallId))
          err('DUPLICATE_TOOL_CALL_START', `TOOL_CALL_START for '${event.toolCallId}', which was already started.`);
        openTools.set(event.toolCallId, { subagentRunId: subOf() });
        toolLanes.set(event.toolCallId, { subagentRunId: subOf() });
        knownTools.add(event.toolCallId);
        return out;
      case 'TOOL_CALL_ARGS':
      case 'TOOL_CALL_END':
        if (!isOpen(openTools, event.toolCallId)) {
          const why = isKnownTool(event.toolCallId) ? 'after its TOOL_CALL_END' : 'without TOOL_CALL_START';
          err(
            type === 'TOOL_CALL_ARGS' ? 'ARGS_WITHOUT_START' : 'TOOL_END_WITHOUT_START',
            `${type} for tool call '${event.toolCallId}' ${why}.`,
          );
        } else lane(openTools, event.toolCallId, 'tool call');
        if (type === 'TOOL_CALL_END') close(openTools, event.toolCallId);
        return out;
      case 'TOOL_CALL_RESULT':
        if (openTools.has(event.toolCallId))
          err('RESULT_BEFORE_END', `TOOL_CALL_RESULT for '${event.toolCallId}' before its TOOL_CALL_END.`);
        else if (!isKnownTool(event.toolCallId))
          err(
            'RESULT_FOR_UNKNOWN_CALL',
            `TOOL_CALL_RESULT names tool call '${event.toolCallId}', which was never started; kept as a tool message.`,
          );
        else if (results.has(event.toolCallId))
          warn('DUPLICATE_RESULT', `A second TOOL_CALL_RESULT for '${event.toolCallId}'; the later one is kept.`);
        lane(toolLanes, event.toolCallId, 'tool call');
        results.add(event.toolCallId);
        return out;
      case 'REASONING_START':
        spans.set(event.messageId);
        return out;
      case 'REASONING_END':
        if (!spans.delete(event.messageId))
          warn('REASONING_END_WITHOUT_START', `REASONING_END for '${event.messageId}', which was not started.`);
        return out;
      case 'SUBAGENT_STARTED':
        if (subagents.has(event.subagentRunId))
          err('DUPLICATE_SUBAGENT', `SUBAGENT_STARTED for '${event.subagentRunId}', which is still running.`);
        subagents.set(event.subagentRunId);
        return out;
      case 'SUBAGENT_FINISHED':
      case 'SUBAGENT_ERROR':
        if (!subagents.delete(event.subagentRunId))
          err('SUBAGENT_NOT_STARTED', `${type} for subagent '${event.subagentRunId}', which was never announced with SUBAGENT_STARTED.`);
        return out;
      case 'MESSAGES_SNAPSHOT':
        learnCalls(event.messages);
        return out;
      default:
        return out;
    }
  }
}

const NONE: readonly Diagnostic[] = [];

/** The diagnostic of a stream that ended while run `runId` was open. */
export function truncated(index: number, runId: string | undefined): Diagnostic {
  return error(
    index,
    undefined,
    'STREAM_TRUNCATED',
    `The stream ended without a terminal event (no RUN_FINISHED or RUN_ERROR) for run '${runId ?? '?'}'; its status is unknown, not success.`,
  );
}

type Report = (code: string, message: string) => void;

function checkVersion(version: string | undefined, warn: Report) {
  if (version === undefined) return;
  const m = /^(\d+)\.(\d+)(?:\.(\d+))?$/.exec(version);
  if (!m) {
    warn(
      'PROTOCOL_VERSION_UNREADABLE',
      `RUN_STARTED declares protocolVersion '${version}', which aguikit cannot interpret; read as ${UNDERSTOOD_PROTOCOL_VERSION}.`,
    );
    return;
  }
  const [major, minor] = UNDERSTOOD_PROTOCOL_VERSION.split('.').map(Number) as [number, number];
  const [a, b] = [Number(m[1]), Number(m[2])];
  if (a > major || (a === major && b > minor)) {
    warn(
      'PROTOCOL_VERSION_NEWER',
      `RUN_STARTED declares protocolVersion '${version}', newer than ${UNDERSTOOD_PROTOCOL_VERSION} which aguikit understands; unknown fields and events are kept but not interpreted.`,
    );
  }
}

function checkInterrupts(list: readonly Interrupt[], open: Set<string>, isKnownTool: (id: string) => boolean, err: Report, warn: Report) {
  if (list.length === 0)
    err('INTERRUPT_OUTCOME_EMPTY', 'RUN_FINISHED has an interrupt outcome with no interrupts: it must carry at least one.');
  const seen = new Set<string>();
  for (const it of list) {
    if (typeof it.id !== 'string' || it.id === '') {
      err('INTERRUPT_WITHOUT_ID', `An interrupt (reason '${it.reason}') has no id: it cannot be resumed; kept under a generated id.`);
      continue;
    }
    if (seen.has(it.id)) err('DUPLICATE_INTERRUPT_ID', `The outcome has two interrupts carrying the id '${it.id}'.`);
    seen.add(it.id);
    open.add(it.id);
    if (it.reason === 'tool_call' && it.toolCallId === undefined)
      warn('INTERRUPT_WITHOUT_TOOL_CALL', `Interrupt '${it.id}' has reason tool_call but no toolCallId.`);
    if (it.toolCallId !== undefined && !isKnownTool(it.toolCallId))
      warn('INTERRUPT_UNKNOWN_TOOL_CALL', `Interrupt '${it.id}' points at tool call '${it.toolCallId}', which was never started.`);
    if (it.expiresAt !== undefined && Number.isNaN(Date.parse(it.expiresAt)))
      warn(
        'INTERRUPT_BAD_EXPIRY',
        `Interrupt '${it.id}' has expiresAt '${it.expiresAt}', which is not an ISO 8601 time; treated as never expiring.`,
      );
  }
}

function checkResume(
  resume: readonly { interruptId: string }[] | undefined,
  open: Set<string>,
  recordedForThisRun: (id: string) => boolean,
  err: Report,
  warn: Report,
) {
  const covered = new Set((resume ?? []).map((r) => r.interruptId));
  const missing = [...open].filter((id) => !covered.has(id));
  if (open.size > 0 && missing.length > 0) {
    err(
      'RESUME_INCOMPLETE',
      `The run's input does not resume every open interrupt: ${missing.join(', ')} left open. A resume must cover all of them.`,
    );
  }
  for (const id of covered) {
    if (!open.delete(id) && !recordedForThisRun(id))
      warn('RESUME_UNKNOWN_INTERRUPT', `The run's input resumes interrupt '${id}', which is not open.`);
  }
}
