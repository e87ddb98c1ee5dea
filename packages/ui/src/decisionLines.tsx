'use client';

import type { InterruptAnswer, ThreadState } from '@aguikit/core';
import { type AgentStore, useAgentSelector, useAgentStore } from '@aguikit/react';
import * as React from 'react';
import { clientContext } from './clientContext.js';
import { isDatable } from './dates.js';
import { formAnswerText, type InterruptMessages, type ValueWords, valueWords } from './interruptForm.js';
import { isolated } from './isolated.js';
import { useLocale } from './locale.js';
import { clip } from './textCut.js';
import { useMomentText } from './useHydrated.js';
import type { OutlineItem } from './useMessageOutline.js';

/**
 * The lines answered interrupts leave in a `MessageList`'s transcript: what
 * each decided, read from the thread's answers and the session log, placed
 * after the messages of the run that asked.
 */

/** A row of the list: a message, a subagent's group, or the line an answered interrupt leaves. */
export type Row = OutlineItem | { kind: 'decision'; id: string };

/** What an answered interrupt decided, as the transcript says it. */
export interface Decision {
  interruptId: string;
  kind: 'approved' | 'rejected' | 'confirmed' | 'answered' | 'cancelled';
  /** The tool the interrupt held, or its message. */
  subject?: string;
  comment?: string;
  /** A non-approval answer, in words. */
  summary?: string;
  /** When it was sent (the session log's clock), if known. */
  at?: number;
  /** The run that asked (its messages come before the line), and the run the answer started. */
  askedIn?: string;
  answeredIn: string;
}

type RawInterrupt = { id?: unknown; message?: unknown; toolCallId?: unknown; responseSchema?: unknown };
/** How an answer is said: its values, and the interrupt panel's phrases. */
type AnswerWords = { words: ValueWords; answer: InterruptMessages['answer'] };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const PROSE = ['comment', 'comments', 'reason', 'note', 'notes', 'feedback', 'message', 'explanation'];
const SUBJECT_LENGTH = 80;
const SUMMARY_LENGTH = 160;

/**
 * What each answer decided, with the interrupt it answered: the interrupt's
 * data comes from the run outcome that raised it (in the store's session log),
 * the tool from the call it held, the time from the resume entry that sent it.
 */
function readDecisions(store: AgentStore, answers: readonly InterruptAnswer[], say: AnswerWords): Decision[] {
  if (answers.length === 0) return [];
  const thread = store.getState().thread;
  const raised = new Map<string, { interrupt: RawInterrupt; runId?: string }>();
  const sentAt = new Map<string, number>();
  for (const entry of store.session.entries) {
    if (entry.type === 'resume') {
      // The last resume that sent the answer: one the agent could not take is sent again (retry()) under its run id.
      for (const r of entry.resume) sentAt.set(`${entry.runId} ${r.interruptId}`, entry.at);
    } else if (entry.type === 'event' && isRecord(entry.event) && entry.event.type === 'RUN_FINISHED') {
      const { outcome, runId } = entry.event;
      if (!isRecord(outcome) || outcome.type !== 'interrupt' || !Array.isArray(outcome.interrupts)) continue;
      outcome.interrupts.forEach((it: unknown, i) => {
        if (!isRecord(it)) return;
        const id = typeof it.id === 'string' && it.id !== '' ? it.id : `${String(runId)}-interrupt-${i}`;
        raised.set(id, { interrupt: it, ...(typeof runId === 'string' ? { runId } : {}) });
      });
    }
  }
  const heldCalls = new Map<string, { name: string; runId?: string }>();
  for (const call of thread.toolCalls) {
    if (call.answer) heldCalls.set(call.answer.interruptId, { name: call.name, ...(call.runId ? { runId: call.runId } : {}) });
  }
  return answers.map((answer) => {
    const found = raised.get(answer.interruptId);
    const toolCallId = found && typeof found.interrupt.toolCallId === 'string' ? found.interrupt.toolCallId : undefined;
    const byInterrupt = toolCallId ? thread.toolCalls.get(toolCallId) : undefined;
    const held = heldCalls.get(answer.interruptId) ?? (byInterrupt ? { name: byInterrupt.name, runId: byInterrupt.runId } : undefined);
    const message = found && typeof found.interrupt.message === 'string' ? found.interrupt.message : undefined;
    const subject = held?.name || (message ? clip(message, SUBJECT_LENGTH) : undefined);
    const askedIn = found?.runId ?? held?.runId;
    const at = sentAt.get(`${answer.runId} ${answer.interruptId}`) ?? thread.runs[answer.runId]?.startedAt;
    const base = {
      interruptId: answer.interruptId,
      answeredIn: answer.runId,
      ...(subject ? { subject } : {}),
      ...(askedIn ? { askedIn } : {}),
      ...(at !== undefined ? { at } : {}),
    };
    if (answer.status === 'cancelled') return { ...base, kind: 'cancelled' };
    const payload = answer.payload;
    if (isRecord(payload) && typeof payload.approved === 'boolean') {
      const comment = PROSE.map((key) => payload[key]).find((v): v is string => typeof v === 'string' && v.trim() !== '');
      return { ...base, kind: payload.approved ? 'approved' : 'rejected', ...(comment ? { comment: clip(comment, SUMMARY_LENGTH) } : {}) };
    }
    // A resolved answer with no payload is a confirmation's Yes: what it confirmed is the interrupt's message (or tool).
    if (payload === undefined) return { ...base, kind: 'confirmed' };
    // In the words the interrupt's own panel says it in ("Your answer: …"): its fields by the titles its form gave them.
    const schema = found && isRecord(found.interrupt.responseSchema) ? found.interrupt.responseSchema : undefined;
    const summary = payload === null || payload === '' ? '' : clip(formAnswerText(payload, schema, say.words, say.answer), SUMMARY_LENGTH);
    return { ...base, kind: 'answered', ...(summary ? { summary } : {}) };
  });
}

/** The rows with each decision after the last row of the run that asked (or before the first of the run it started). */
function placeDecisions(rows: readonly OutlineItem[], decisions: readonly Decision[], thread: ThreadState): readonly Row[] {
  if (decisions.length === 0) return rows;
  const lastOf = new Map<string, number>();
  const firstOf = new Map<string, number>();
  rows.forEach((row, i) => {
    const runId = row.kind === 'message' ? thread.messages.byId.get(row.id)?.runId : undefined;
    if (runId === undefined) return;
    lastOf.set(runId, i);
    if (!firstOf.has(runId)) firstOf.set(runId, i);
  });
  const after = new Map<number, Decision[]>();
  for (const decision of decisions) {
    const asked = decision.askedIn === undefined ? undefined : lastOf.get(decision.askedIn);
    const started = firstOf.get(decision.answeredIn);
    const at = asked ?? (started !== undefined ? started - 1 : rows.length - 1);
    after.set(at, [...(after.get(at) ?? []), decision]);
  }
  const out: Row[] = [...(after.get(-1) ?? []).map((d) => ({ kind: 'decision' as const, id: d.interruptId }))];
  rows.forEach((row, i) => {
    out.push(row);
    for (const d of after.get(i) ?? []) out.push({ kind: 'decision', id: d.interruptId });
  });
  return out;
}

export const DecisionsContext = clientContext<ReadonlyMap<string, Decision>>(new Map());

/**
 * The line an answered interrupt leaves in the transcript, after the
 * messages of the run that asked: what was decided ("You approved
 * refund_order", "You rejected refund_order, comment: “…”", "You confirmed:
 * …", "You answered: …", "Cancelled: …") and when: the locale's
 * `format.time` for a decision of today (by the store's clock, which timed
 * it), `format.dateTime` for one of an earlier day. It takes focus after a
 * decision (`tabIndex={-1}`), found by `[data-agk-decision="<interruptId>"]`.
 */
export function DecisionLine({ id }: { id: string }) {
  const decision = React.useContext(DecisionsContext).get(id);
  const { messages, format, lang } = useLocale();
  const time = useMomentText(format, lang, useAgentStore().now);
  if (!decision) return null;
  const d = messages.messages.decision;
  const { subject } = decision;
  const main =
    decision.kind === 'approved'
      ? subject
        ? isolated(d.approved, subject)
        : d.approvedPlain
      : decision.kind === 'rejected'
        ? subject
          ? isolated(d.rejected, subject)
          : d.rejectedPlain
        : decision.kind === 'cancelled'
          ? subject
            ? isolated(d.cancelled, subject)
            : d.cancelledPlain
          : decision.kind === 'confirmed'
            ? subject
              ? isolated(d.confirmed, subject)
              : d.confirmedPlain
            : decision.summary
              ? isolated(d.answered, decision.summary)
              : d.answeredPlain;
  return (
    <p className="agk-decision agk-root" data-agk-decision={id} data-status={decision.kind} tabIndex={-1}>
      <span className="agk-decision__icon" aria-hidden="true" />
      {main}
      {decision.comment ? isolated(d.comment, decision.comment) : null}
      {isDatable(decision.at) ? (
        <>
          {' · '}
          <time dateTime={new Date(decision.at).toISOString()}>{time(decision.at)}</time>
        </>
      ) : null}
    </p>
  );
}

/** The list's rows with the decision lines placed among them, and the decisions by interrupt id (for `DecisionsContext`). */
export function useDecisionRows(
  store: AgentStore,
  outlineRows: readonly OutlineItem[],
): { rows: readonly Row[]; decisionsById: ReadonlyMap<string, Decision> } {
  const { messages, format } = useLocale();
  const say = React.useMemo(
    () => ({ words: valueWords(messages.interrupt, format), answer: messages.interrupt.answer }),
    [messages, format],
  );
  const answers = useAgentSelector((s) => s.thread.answers);
  const decisions = React.useMemo(() => readDecisions(store, answers, say), [store, answers, say]);
  const decisionsById = React.useMemo(() => new Map(decisions.map((d) => [d.interruptId, d])), [decisions]);
  const rows = React.useMemo(() => placeDecisions(outlineRows, decisions, store.getState().thread), [outlineRows, decisions, store]);
  return { rows, decisionsById };
}
