import { createHash } from 'node:crypto';
import type { Interrupt, ResumeEntry, RunAgentInput } from '@aguikit/core';
import { validateResponsePayload } from '@aguikit/core/schema';
import type { EventPlan } from '@aguikit/scenarios';
import { RequestError } from './request.js';
import { canonicalJson } from './storage/idempotency.js';
import type { ThreadRecord } from './storage/types.js';

/**
 * Refuses an input that does not answer the thread's open interrupts as the
 * protocol requires. A resume that repeats an answer already accepted (the
 * same interrupt, status and payload) is let through: retried requests are
 * idempotent. One that mixes such answers with answers to open interrupts is
 * refused (409 `RESUME_MIXED`). Errors say how many interrupts are open, never which: their ids
 * are what a resume needs, and only the client that ran the thread has them.
 * `unseen`: every open interrupt was raised after each client of its run went
 * (see delivery.ts): a new message is taken, and cancels them (`nextThread`).
 */
export function checkResume(thread: ThreadRecord | undefined, input: RunAgentInput, now: number, unseen = false): void {
  const open = new Map((thread?.open ?? []).map((it) => [it.id, it]));
  const answered = thread?.answered ?? {};
  const resume = input.resume ?? [];
  if (resume.length === 0) {
    if (open.size > 0 && !unseen) {
      throw new RequestError(
        409,
        'RESUME_REQUIRED',
        `The thread has ${open.size} open interrupt${open.size === 1 ? '' : 's'}: answer ${open.size === 1 ? 'it' : 'them'} with resume before sending a new message.`,
      );
    }
    return;
  }
  resume.forEach((r, i) => {
    const it = open.get(r.interruptId);
    if (it) {
      if (r.status === 'resolved' && it.expiresAt !== undefined && now >= Date.parse(it.expiresAt)) {
        throw new RequestError(
          422,
          'INTERRUPT_EXPIRED',
          `The interrupt of resume[${i}] expired at ${it.expiresAt}: it can only be cancelled.`,
        );
      }
      // The answer the interrupt asked for, as the client's form checked it: nothing else reaches the scenario.
      const problems = r.status === 'resolved' ? answerProblems(it, r.payload) : [];
      if (problems.length)
        throw new RequestError(
          422,
          'INVALID_ANSWER',
          `The answer in resume[${i}] does not match its interrupt's responseSchema: ${problems.slice(0, 3).join('; ')}.`,
        );
      return;
    }
    const before = Object.hasOwn(answered, r.interruptId) ? answered[r.interruptId] : undefined;
    if (!before) throw new RequestError(422, 'UNKNOWN_INTERRUPT', `resume[${i}] answers an interrupt that is not open on this thread.`);
    if (before.status !== r.status || (r.status === 'resolved' && !sameAnswer(before.payload, r))) {
      throw new RequestError(409, 'ALREADY_ANSWERED', `The interrupt of resume[${i}] was already answered differently.`);
    }
  });
  const covered = new Set(resume.map((r) => r.interruptId));
  // A retry repeats every answer of the resume it retries; one that repeats a closed interrupt's answer beside an open
  // one's is no retry, and the scenario would take the old answer for the new.
  const repeated = resume.filter((r) => !open.has(r.interruptId)).length;
  if (repeated > 0 && repeated < resume.length)
    throw new RequestError(
      409,
      'RESUME_MIXED',
      `resume repeats ${repeated} answer${repeated === 1 ? '' : 's'} already taken beside answers to open interrupts: answer the open interrupts alone.`,
    );
  const missing = [...open.keys()].filter((id) => !covered.has(id)).length;
  if (missing)
    throw new RequestError(
      409,
      'RESUME_INCOMPLETE',
      `The resume must cover every open interrupt; ${missing} of ${open.size} are not answered.`,
    );
}

/**
 * What a thread keeps of an answer's payload: a SHA-256 of its JSON, so a
 * retried resume is recognised without the thread's record growing with
 * what clients send. A cancel's payload means nothing and is not kept.
 */
function fingerprint(r: ResumeEntry): string {
  return r.status === 'resolved' ? sha256(canonicalJson(r.payload ?? null)) : '';
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * `kept` is this resolved answer's fingerprint: of its canonical JSON (keys
 * in order, so the same answer retried with its keys in another order is
 * the same answer), of its JSON as sent (a record of an earlier version), or
 * its JSON itself (a record written before fingerprints).
 */
function sameAnswer(kept: string, r: ResumeEntry): boolean {
  if (kept === fingerprint(r)) return true;
  const sent = JSON.stringify(r.payload ?? null);
  return kept === sha256(sent) || kept === sent;
}

/** The answers a thread remembers, newest kept: a retry of an older one is refused as unknown, its run long done. */
export const MAX_ANSWERED = 1_024;

/** A compiled validator is kept per schema object: each distinct schema (as JSON) is one object here, however often storage copies it. */
const schemas = new Map<string, object>();
/** Far more than the scenarios' few schemas; a bound all the same. */
const MAX_SCHEMAS = 256;

/** What is wrong with `payload` as an answer to `interrupt` (its `responseSchema`, checked by ajv as the client does); empty when nothing. */
function answerProblems(interrupt: Interrupt, payload: unknown): readonly string[] {
  const schema = interrupt.responseSchema;
  if (!schema || typeof schema !== 'object') return [];
  const text = JSON.stringify(schema);
  let shared = schemas.get(text);
  if (!shared) {
    if (schemas.size >= MAX_SCHEMAS) schemas.clear();
    shared = schema;
    schemas.set(text, shared);
  }
  const found = validateResponsePayload({ ...interrupt, responseSchema: shared }, payload);
  // A schema no answer can meet (as the client finds it too): only a cancel gets through.
  return 'schemaInvalid' in found ? [found.schemaInvalid] : found;
}

/**
 * The thread after an accepted run: its answers close interrupts, its interrupt outcome opens new ones. `unseen`:
 * a new message (no resume) cancels the open interrupts, which no client saw (see `checkResume`).
 */
export function nextThread(thread: ThreadRecord | undefined, input: RunAgentInput, events: EventPlan, unseen = false): ThreadRecord {
  const open = new Map((thread?.open ?? []).map((it) => [it.id, it]));
  const answered = { ...(thread?.answered ?? {}) };
  const answers: readonly ResumeEntry[] =
    unseen && !input.resume?.length
      ? [...open.keys()].map((interruptId) => ({ interruptId, status: 'cancelled' as const }))
      : (input.resume ?? []);
  for (const r of answers) {
    if (open.delete(r.interruptId)) answered[r.interruptId] = { status: r.status, payload: fingerprint(r) };
  }
  const ids = Object.keys(answered);
  for (const id of ids.slice(0, Math.max(0, ids.length - MAX_ANSWERED))) delete answered[id];
  const fresh = raised(events);
  for (const it of fresh) open.set(it.id, it);
  return { threadId: input.threadId, open: [...open.values()], answered, ...(fresh.length ? { raisedBy: input.runId } : {}) };
}

/** The interrupts a run's interrupting end raises. */
function raised(events: EventPlan): Interrupt[] {
  const last = events.at(-1)?.event as { type?: string; outcome?: { type?: string; interrupts?: Interrupt[] } } | undefined;
  return last?.type === 'RUN_FINISHED' && last.outcome?.type === 'interrupt' ? (last.outcome.interrupts ?? []) : [];
}

/** The ids of the interrupts a run's end raises. */
export const raisedBy = (events: EventPlan): string[] => raised(events).map((it) => it.id);
