import type { Interrupt, ResumeEntry, RunAgentInput } from '@aguikit/core';
import type { TimedEvent } from '@aguikit/scenarios';
import { RequestError } from './request.js';

interface Answered {
  status: ResumeEntry['status'];
  payload: string;
}

/** What the server knows of a thread: its open interrupts and the answers it accepted. */
export class ThreadBook {
  private readonly open = new Map<string, Map<string, Interrupt>>();
  private readonly answered = new Map<string, Map<string, Answered>>();

  private openOf(threadId: string) {
    let m = this.open.get(threadId);
    if (!m) {
      m = new Map();
      this.open.set(threadId, m);
    }
    return m;
  }

  private answeredOf(threadId: string) {
    let m = this.answered.get(threadId);
    if (!m) {
      m = new Map();
      this.answered.set(threadId, m);
    }
    return m;
  }

  /**
   * Refuses an input that does not answer the thread's open interrupts as the
   * protocol requires. A resume that repeats an answer already accepted (the
   * same interrupt, status and payload) is let through: retried requests are
   * idempotent.
   */
  check(input: RunAgentInput, now: number): void {
    const open = this.openOf(input.threadId);
    const answered = this.answeredOf(input.threadId);
    const resume = input.resume ?? [];
    if (resume.length === 0) {
      if (open.size > 0) {
        throw new RequestError(
          409,
          'RESUME_REQUIRED',
          `The thread has open interrupts (${[...open.keys()].join(', ')}): answer them with resume before sending a new message.`,
        );
      }
      return;
    }
    for (const r of resume) {
      const it = open.get(r.interruptId);
      if (it) {
        if (r.status === 'resolved' && it.expiresAt !== undefined && now >= Date.parse(it.expiresAt)) {
          throw new RequestError(
            422,
            'INTERRUPT_EXPIRED',
            `Interrupt '${r.interruptId}' expired at ${it.expiresAt}: it can only be cancelled.`,
          );
        }
        continue;
      }
      const before = answered.get(r.interruptId);
      if (!before)
        throw new RequestError(422, 'UNKNOWN_INTERRUPT', `Interrupt '${r.interruptId}' is not open on thread '${input.threadId}'.`);
      if (before.status !== r.status || before.payload !== JSON.stringify(r.payload ?? null)) {
        throw new RequestError(409, 'ALREADY_ANSWERED', `Interrupt '${r.interruptId}' was already answered differently.`);
      }
    }
    const covered = new Set(resume.map((r) => r.interruptId));
    const missing = [...open.keys()].filter((id) => !covered.has(id));
    if (missing.length)
      throw new RequestError(409, 'RESUME_INCOMPLETE', `The resume must cover every open interrupt; missing: ${missing.join(', ')}.`);
  }

  /** Records an accepted run: its answers close interrupts, its interrupt outcome opens new ones. */
  apply(input: RunAgentInput, events: readonly TimedEvent[]): void {
    const open = this.openOf(input.threadId);
    const answered = this.answeredOf(input.threadId);
    for (const r of input.resume ?? []) {
      if (open.delete(r.interruptId)) answered.set(r.interruptId, { status: r.status, payload: JSON.stringify(r.payload ?? null) });
    }
    const last = events.at(-1)?.event as { type?: string; outcome?: { type?: string; interrupts?: Interrupt[] } } | undefined;
    if (last?.type === 'RUN_FINISHED' && last.outcome?.type === 'interrupt') {
      for (const it of last.outcome.interrupts ?? []) open.set(it.id, it);
    }
  }
}
