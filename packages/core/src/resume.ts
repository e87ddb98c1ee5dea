/**
 * `@aguikit/core/resume`: what builds the `RunAgentInput` that answers open
 * interrupts. A store loads it when an interrupt opens (`loadResumeBuilder`
 * in the main entry), so it stays out of an application's first load.
 */
import { isExpired } from './expiry.js';
import { newId } from './ids.js';
import type { OpenInterrupt, ThreadState } from './model.js';
import { type Context, PROTOCOL_VERSION, type ResumeEntry, type RunAgentInput, type Tool } from './protocol.js';
import { MAX_JSON_DEPTH, nestsWithin } from './reducer/ownJson.js';
import { thrownText } from './thrownText.js';
import { requestMessages } from './toAgUiMessages.js';

/** One answer to an open interrupt. Reject is a `resolved` payload; `cancelled` means no answer was given. */
export interface ResumeResponse {
  interruptId: string;
  status: 'resolved' | 'cancelled';
  payload?: unknown;
  metadata?: Record<string, unknown>;
}

/**
 * Checks an answer against its interrupt's `responseSchema`: the answer's
 * problems as readable strings (empty when fine), or `{ schemaInvalid }` when
 * the schema itself cannot be used (it does not compile, or refers to itself
 * without end), so no answer can be checked and only a cancel is possible.
 * A validator that throws is taken as `{ schemaInvalid }` with its message.
 */
export type PayloadValidator = (interrupt: Pick<OpenInterrupt, 'responseSchema'>, payload: unknown) => PayloadCheck;

/**
 * What a `PayloadValidator` found. `cause` is set where the schema is not at
 * fault: `'code-generation-forbidden'` when the page (its Content Security
 * Policy without 'unsafe-eval') forbids compiling it to code.
 */
export type PayloadCheck = readonly string[] | { readonly schemaInvalid: string; readonly cause?: SchemaRefusalCause };

/** Why answers to a schema cannot be checked where the schema is not at fault (see `PayloadCheck`). */
export type SchemaRefusalCause = 'code-generation-forbidden';

export interface BuildResumeOptions {
  /** The time the decision is made (ms or Date), to check `expiresAt`. */
  now: number | Date;
  /** The new run's id; generated when absent. */
  runId?: string;
  tools?: Tool[];
  context?: Context[];
  forwardedProps?: unknown;
  /** Who decided, for the audit record. */
  decidedBy?: string;
}

export interface ResumeRefusal {
  interruptId?: string;
  code:
    | 'NO_THREAD'
    | 'NO_OPEN_INTERRUPTS'
    | 'UNKNOWN_INTERRUPT'
    | 'DUPLICATE_RESPONSE'
    | 'MISSING_RESPONSE'
    | 'INVALID_STATUS'
    | 'EXPIRED'
    | 'SCHEMA_INVALID'
    | 'PAYLOAD_INVALID';
  message: string;
  /** For SCHEMA_INVALID: set where the schema is not at fault (see `PayloadCheck`). */
  cause?: SchemaRefusalCause;
}

/** The audit record of one decision. */
export interface Decision {
  threadId: string;
  runId: string;
  interruptId: string;
  reason: string;
  toolCallId?: string;
  toolName?: string;
  toolArgs?: unknown;
  status: 'resolved' | 'cancelled';
  payload?: unknown;
  decidedBy?: string;
  decidedAt: string;
}

export type BuildResumeResult = { ok: true; input: RunAgentInput; decisions: Decision[] } | { ok: false; errors: ResumeRefusal[] };

/**
 * Builds the `RunAgentInput` of a resume: the same thread, a new run id, the
 * history and shared state, and `resume[]` covering every open interrupt.
 * Refuses (with one clear error per problem, and nothing built) when a
 * response is missing, duplicated, names an interrupt that is not open,
 * resolves an expired interrupt (only `cancelled` is possible then), or
 * carries a payload its `responseSchema` rejects.
 *
 * @example
 * const validate = await loadPayloadValidator();
 * const r = buildResumeWith(state, [{ interruptId: 'i1', status: 'resolved', payload: { approved: true } }], { now: Date.now(), validate });
 * if (r.ok) await send(r.input); else show(r.errors);
 */
export function buildResumeWith(
  state: ThreadState,
  responses: readonly ResumeResponse[],
  options: BuildResumeOptions & { validate: PayloadValidator },
): BuildResumeResult {
  if (!Number.isFinite(+options.now)) throw new TypeError(`buildResumeWith: options.now is not a time (${String(options.now)}).`);
  const errors: ResumeRefusal[] = [];
  const threadId = state.threadId;
  if (threadId === undefined) errors.push({ code: 'NO_THREAD', message: 'The thread has no id yet: there is nothing to resume.' });
  if (state.interrupts.length === 0) errors.push({ code: 'NO_OPEN_INTERRUPTS', message: 'There are no open interrupts to resume.' });
  const open = new Map(state.interrupts.map((it) => [it.id, it]));
  const seen = new Set<string>();
  for (const r of responses) {
    const it = open.get(r.interruptId);
    const refuse = (code: ResumeRefusal['code'], message: string, cause?: SchemaRefusalCause) =>
      errors.push({ interruptId: r.interruptId, code, message, ...(cause === undefined ? {} : { cause }) });
    if (!it) {
      refuse('UNKNOWN_INTERRUPT', `Interrupt '${r.interruptId}' is not open on this thread.`);
      continue;
    }
    if (seen.has(r.interruptId)) refuse('DUPLICATE_RESPONSE', `Interrupt '${r.interruptId}' is answered twice.`);
    seen.add(r.interruptId);
    if (r.status !== 'resolved' && r.status !== 'cancelled') {
      refuse('INVALID_STATUS', `Interrupt '${r.interruptId}': status must be 'resolved' or 'cancelled', got '${String(r.status)}'.`);
      continue;
    }
    if (r.status === 'cancelled') continue;
    if (isExpired(it, options.now)) {
      refuse('EXPIRED', `Interrupt '${r.interruptId}' expired at ${it.expiresAt}: it can only be cancelled.`);
      continue;
    }
    if (!nestsWithin(r.payload, MAX_JSON_DEPTH)) {
      refuse(
        'PAYLOAD_INVALID',
        `Interrupt '${r.interruptId}': the answer is nested deeper than ${MAX_JSON_DEPTH} levels of objects and arrays.`,
      );
      continue;
    }
    const found = check(options.validate, it, r.payload);
    if ('schemaInvalid' in found)
      refuse('SCHEMA_INVALID', `Interrupt '${r.interruptId}': ${found.schemaInvalid}; it can only be cancelled.`, found.cause);
    else if (found.length)
      refuse('PAYLOAD_INVALID', `Interrupt '${r.interruptId}': the answer does not match its responseSchema: ${found.join('; ')}.`);
  }
  for (const id of open.keys()) {
    if (!seen.has(id))
      errors.push({
        interruptId: id,
        code: 'MISSING_RESPONSE',
        message: `Interrupt '${id}' has no answer: a resume must cover every open interrupt.`,
      });
  }
  if (errors.length || threadId === undefined) return { ok: false, errors };

  const runId = options.runId ?? newId('run');
  const resume: ResumeEntry[] = responses.map((r) => ({
    interruptId: r.interruptId,
    status: r.status,
    ...(r.payload !== undefined && r.status === 'resolved' ? { payload: r.payload } : {}),
    ...(r.metadata !== undefined ? { metadata: r.metadata } : {}),
  }));
  const input: RunAgentInput = {
    threadId,
    runId,
    protocolVersion: PROTOCOL_VERSION,
    ...(state.run.runId !== undefined ? { parentRunId: state.run.runId } : {}),
    state: state.sharedState.document,
    messages: requestMessages(state, 'resume'),
    tools: options.tools ?? [],
    context: options.context ?? [],
    ...(options.forwardedProps !== undefined ? { forwardedProps: options.forwardedProps } : {}),
    resume,
  };
  const decidedAt = new Date(+options.now).toISOString();
  const decisions = responses.map((r): Decision => {
    const it = open.get(r.interruptId) as OpenInterrupt;
    const call = it.toolCallId === undefined ? undefined : state.toolCalls.get(it.toolCallId);
    return {
      threadId,
      runId,
      interruptId: it.id,
      reason: it.reason,
      status: r.status,
      decidedAt,
      ...(it.toolCallId !== undefined ? { toolCallId: it.toolCallId } : {}),
      ...(call ? { toolName: call.name, toolArgs: call.args ?? call.argsText } : {}),
      ...(r.payload !== undefined && r.status === 'resolved' ? { payload: r.payload } : {}),
      ...(options.decidedBy !== undefined ? { decidedBy: options.decidedBy } : {}),
    };
  });
  return { ok: true, input, decisions };
}

function check(validate: PayloadValidator, interrupt: OpenInterrupt, payload: unknown): PayloadCheck {
  try {
    return validate(interrupt, payload);
  } catch (e) {
    return { schemaInvalid: `the answer cannot be checked against its responseSchema: ${thrownText(e)}` };
  }
}

/**
 * The JSON Schema validator of interrupt answers (ajv), loaded on first use:
 * an application that never answers an interrupt with a schema never loads it.
 *
 * @example
 * const validate = await loadPayloadValidator();
 */
export function loadPayloadValidator(): Promise<PayloadValidator> {
  return import('./schema.js').then((m) => m.validateResponsePayload);
}
