'use client';

import { expiryTime, type OpenInterrupt, type ResumeResponse } from '@aguikit/core';
import { useAgentSelector, useAgentStore, useToolCall } from '@aguikit/react';
import type Form from '@rjsf/core';
import type { ReactNode } from 'react';
import * as React from 'react';
import { type Expiry, useExpiry } from './Countdown.js';
import {
  type InterruptRootContext,
  type InterruptState,
  NO_REFUSALS,
  RootContext,
  useInterruptRoot,
  useSession,
} from './interruptContext.js';
import {
  type AnswerShape,
  answerShape,
  formAnswerText,
  type InterruptMessages,
  reasonKind,
  type ValueWords,
  valueWords,
} from './interruptForm.js';
import { useLocale } from './locale.js';
import { RefusalItems } from './RefusalItems.js';
import { clip } from './textCut.js';
import { useBrowserLayoutEffect } from './useBrowserLayoutEffect.js';
import { useMomentText } from './useHydrated.js';

const EXPIRED: Expiry = { state: 'expired', remainingMs: 0 };

/**
 * The longest message the interrupt is described by as it is (a screen reader reads the description each time focus
 * enters the card): a longer one (a log, a policy) is described by its start and a word that the rest is in the card.
 */
const DESCRIPTION_MAX = 300;

/** `a` and `b` as one class list. */
export function cx(a: string, b: string | undefined): string {
  return b ? `${a} ${b}` : a;
}

/**
 * An answer in words, as "Your answer: …" shows it and the announcement says
 * it: Approved or Rejected with the comment, Yes or No for a question
 * without a form, the fields given for a form.
 */
export function answerText(
  answer: ResumeResponse,
  interrupt: OpenInterrupt,
  shape: AnswerShape,
  t: InterruptMessages,
  words: ValueWords,
): string {
  // Without a form, the protocol's only other answer than yes is `cancelled`: it is the No.
  if (answer.status === 'cancelled') return shape === 'confirm' ? t.answer.no : t.answer.dismissed;
  if (shape === 'confirm') return t.answer.yes;
  const schema = interrupt.responseSchema;
  if (shape === 'approval') {
    const { approved, ...rest } = (answer.payload ?? {}) as Record<string, unknown>;
    const verdict = approved === true ? t.answer.approved : t.answer.rejected;
    const given = Object.entries(rest).filter(([, v]) => v !== undefined && v !== '');
    if (given.length === 0) return verdict;
    const [only] = given;
    if (given.length === 1 && only && typeof only[1] === 'string') return t.answer.withComment(verdict, only[1]);
    return `${verdict}; ${formAnswerText(rest, schema, words, t.answer)}`;
  }
  const title = typeof schema?.title === 'string' ? schema.title : '';
  const isObject = typeof answer.payload === 'object' && answer.payload !== null && !Array.isArray(answer.payload);
  const text = formAnswerText(answer.payload, schema, words, t.answer);
  return !isObject && title ? t.answer.field(title, text) : text;
}

/**
 * The longest subject an interrupt is named by (the name is read each time focus enters the card): a question of a
 * few KB (a log) names it by its start.
 */
const SUBJECT_MAX = 100;

/**
 * What an interrupt is about, to tell it apart from others open under the same
 * heading: the tool an approval would run, else the title of its form, else
 * its question (its start, when long), else (a custom reason) the reason as sent.
 */
function subjectOf(interrupt: OpenInterrupt, toolName: string | undefined, t: InterruptMessages): string | undefined {
  if (interrupt.toolCallId !== undefined) return toolName ?? t.unknownCall(interrupt.toolCallId);
  // Each by its start when long: a title or a reason of a few hundred characters (a URL, a path) is read as often.
  const title = interrupt.responseSchema?.title;
  if (typeof title === 'string' && title !== '') return clip(title, SUBJECT_MAX);
  if (interrupt.message) return clip(interrupt.message, SUBJECT_MAX);
  return reasonKind(interrupt.reason) === 'custom' ? clip(interrupt.reason, SUBJECT_MAX) : undefined;
}

/**
 * Props of `Interrupt.Root`: one open interrupt (from `useInterrupts()`) and
 * its parts; other props go to its `<article>`.
 *
 * @example
 * <Interrupt.Root interrupt={interrupts[0]}><Interrupt.Header /><Interrupt.Actions /></Interrupt.Root>
 */
export interface InterruptRootProps extends React.HTMLAttributes<HTMLElement> {
  interrupt: OpenInterrupt;
  children?: ReactNode;
}

/** The `Interrupt.Root` part: see `Interrupt`. */
export const InterruptRoot = React.forwardRef<HTMLElement, InterruptRootProps>(function InterruptRoot(
  { interrupt, children, className, onFocus, onBlur, ...rest },
  forwardedRef,
) {
  const session = useSession('Root');
  const { messages, format } = useLocale();
  const t = messages.interrupt;
  const refusal = useAgentSelector((s) => s.refusal);
  const clock = useExpiry(interrupt.expiresAt, session.now);
  const [formFailed, setFormFailed] = React.useState(false);
  const [formReady, setFormReady] = React.useState(false);
  const form = React.useRef<Form>(null);
  const intent = React.useRef<boolean | undefined>(undefined);
  const element = React.useRef<HTMLElement | null>(null);
  /** Focus is (or was, until the control that had it went away) inside this interrupt. */
  const focusInside = React.useRef(false);
  const reactId = React.useId().replace(/[^\w-]/g, '');
  const { register, drop, busy, fieldsReady } = session;

  const errors =
    refusal?.code === 'RESUME_REFUSED' ? (refusal.errors ?? NO_REFUSALS).filter((e) => e.interruptId === interrupt.id) : NO_REFUSALS;
  // The store's clock has the last word: when it says expired, so does the dialog.
  const expiry = errors.some((e) => e.code === 'EXPIRED') ? EXPIRED : clock;
  const answer = session.answers.get(interrupt.id);
  const state: InterruptState = busy ? 'submitting' : expiry.state === 'expired' ? 'expired' : answer ? 'answered' : 'open';
  const shape = answerShape(interrupt.responseSchema);
  const words = valueWords(t, format);
  const kind = reasonKind(interrupt.reason);
  const toolName = useToolCall(interrupt.toolCallId ?? '')?.name;
  // Another open interrupt under the same heading: each is named by what it is about too, or two approvals read the same.
  const sameHeading = session.interrupts.some((other) => other.id !== interrupt.id && reasonKind(other.reason) === kind);
  const subject = sameHeading ? subjectOf(interrupt, toolName, t) : undefined;
  // Two about the same thing too (two payments by one tool): each is named by its place among them as well. Worked out
  // again only when the open interrupts change (a tool's name is known before its call is interrupted).
  const store = useAgentStore();
  const place = React.useMemo(() => {
    if (!sameHeading) return '';
    const calls = store.getState().thread.toolCalls;
    const alike = session.interrupts.filter(
      (other) =>
        reasonKind(other.reason) === kind &&
        subjectOf(other, other.toolCallId === undefined ? undefined : calls.get(other.toolCallId)?.name, t) === subject,
    );
    return alike.length > 1 ? `${alike.findIndex((other) => other.id === interrupt.id) + 1}/${alike.length}` : '';
  }, [store, session.interrupts, sameHeading, subject, kind, interrupt.id, t]);
  const [position = 0, total = 0] = place.split('/').map(Number);
  // Nothing to name it by (no tool, title or message): alike ones are told apart by their place alone.
  const name = subject !== undefined ? t.named(t.titles[kind], subject) : place !== '' ? t.titles[kind] : undefined;
  const label = name !== undefined && place !== '' ? t.nth(name, format.number(position), format.number(total)) : name;

  // A resolved answer kept for an interrupt that has since expired can no longer be sent.
  React.useEffect(() => {
    if (expiry.state === 'expired' && answer?.status === 'resolved') drop(interrupt.id);
  }, [expiry.state, answer, drop, interrupt.id]);

  // The form's code loads on demand: focus waiting for the interrupt's fields moves to the first one.
  React.useEffect(() => {
    if (formReady) fieldsReady(interrupt.id);
  }, [formReady, fieldsReady, interrupt.id]);

  // At expiry the answer controls go (or are disabled), and so does Change answer once the kept answer is dropped (a
  // render later): focus that was on one moves to the action that remains, or the card itself when none does (closed
  // without answering, that answer is kept).
  useBrowserLayoutEffect(() => {
    const card = element.current;
    if (expiry.state !== 'expired' || !card || !focusInside.current) return;
    const doc = card.ownerDocument;
    const active = doc.activeElement as HTMLElement | null;
    const lost = !active || active === doc.body || (card.contains(active) && active.matches(':disabled'));
    if (!lost) return;
    (card.querySelector<HTMLElement>('[data-agk-action="dismiss"]') ?? card).focus();
  }, [expiry.state, answer]);

  // React calls it with null when the element goes (or before a new ref takes over): the interrupt is unregistered then.
  const ref = React.useCallback(
    (node: HTMLElement | null) => {
      element.current = node;
      register(interrupt.id, node);
      if (typeof forwardedRef === 'function') forwardedRef(node);
      else if (forwardedRef) forwardedRef.current = node;
    },
    [register, interrupt.id, forwardedRef],
  );

  const message = interrupt.message ?? '';
  const cut = message.length > DESCRIPTION_MAX ? t.messageStart(clip(message, DESCRIPTION_MAX)) : undefined;
  const summarize = (response: ResumeResponse) => answerText(response, interrupt, shape, t, words);
  const ctx: InterruptRootContext = {
    interrupt,
    kind,
    shape,
    state,
    expiry,
    answer,
    errors,
    formFailed,
    formReady,
    ids: { title: `${reactId}-title`, message: `${reactId}-message`, form: `${reactId}-form`, fields: `agk${reactId}` },
    summarize,
    form,
    intent,
    resolve(payload) {
      if (state !== 'open' || formFailed) return;
      const response: ResumeResponse = { interruptId: interrupt.id, status: 'resolved', ...(payload !== undefined ? { payload } : {}) };
      session.answer(response, summarize(response));
    },
    cancel() {
      if (busy) return;
      const response: ResumeResponse = { interruptId: interrupt.id, status: 'cancelled' };
      session.answer(response, summarize(response));
    },
    decide(approved) {
      const current = form.current;
      if (state !== 'open' || !current) return;
      intent.current = approved;
      current.setFieldValue('approved', approved);
      current.submit();
    },
    reportFormFailure: () => setFormFailed(true),
    reportFormReady: setFormReady,
  };

  return (
    <RootContext.Provider value={ctx}>
      <article
        tabIndex={-1}
        aria-labelledby={label === undefined ? ctx.ids.title : undefined}
        aria-label={label}
        aria-describedby={!interrupt.message ? undefined : cut === undefined ? ctx.ids.message : `${reactId}-description`}
        {...rest}
        ref={ref}
        className={cx('agk-card agk-interrupt agk-root', className)}
        data-state={state}
        data-reason={ctx.kind}
        data-shape={shape}
        data-answer={answer?.status ?? 'none'}
        onFocus={(e) => {
          onFocus?.(e);
          focusInside.current = true;
        }}
        onBlur={(e) => {
          onBlur?.(e);
          // A control removed while focused blurs with no related target: focus is still "ours" until it lands elsewhere.
          const to = e.relatedTarget as Node | null;
          if (to && !e.currentTarget.contains(to)) focusInside.current = false;
        }}
      >
        {cut === undefined ? null : (
          <span id={`${reactId}-description`} hidden>
            {cut}
          </span>
        )}
        {children}
      </article>
    </RootContext.Provider>
  );
});

/** Props of `Interrupt.Errors`: DOM props of its alert. */
export type InterruptErrorsProps = React.HTMLAttributes<HTMLDivElement>;

/** The `Interrupt.Errors` part: see `Interrupt`. */
export const InterruptErrors = React.forwardRef<HTMLDivElement, InterruptErrorsProps>(function InterruptErrors(
  { className, ...rest },
  ref,
) {
  const { errors } = useInterruptRoot('Errors');
  const t = useLocale().messages.interrupt;
  if (errors.length === 0) return null;
  return (
    <div role="alert" {...rest} ref={ref} className={cx('agk-interrupt__errors', className)}>
      <p className="agk-interrupt__errors-title">{t.notAccepted}</p>
      <ul>
        <RefusalItems errors={errors} />
      </ul>
    </div>
  );
});

/**
 * When the interrupt expired, held with the one action left: a short line ("Expired at 12:03"), so that on a phone
 * the held notice and Close take a row each, not a block over the card's content. That it can no longer be answered,
 * and why, is said under the heading (`expiredWhy`); the countdown announces the whole of it (`expiredAt`).
 */
function ExpiredText({ expiresAt, now }: { expiresAt: string | undefined; now: () => number }) {
  const { messages, format, lang } = useLocale();
  const time = useMomentText(format, lang, now);
  const t = messages.interrupt;
  const at = expiresAt === undefined ? Number.NaN : expiryTime(expiresAt);
  return <>{Number.isNaN(at) ? t.expiredHeld : t.expiredHeldAt(time(at))}</>;
}

/** Props of `Interrupt.Actions`: DOM props of its `<div>`. */
export type InterruptActionsProps = React.HTMLAttributes<HTMLDivElement>;

/**
 * The `Interrupt.Actions` part: see `Interrupt`. Its buttons say what they
 * do: Approve / Reject for an approval, Yes / No for a question without a
 * form, Submit for a form answered alone and Save answer when several
 * answers are sent together, and Close without answering (sends
 * `cancelled`), which cannot be read as an answer to the question. An
 * answer kept for later says what it was ("Your answer: Approved, with the
 * comment …").
 */
export const InterruptActions = React.forwardRef<HTMLDivElement, InterruptActionsProps>(function InterruptActions(
  { className, ...rest },
  ref,
) {
  const root = useInterruptRoot('Actions');
  const session = useSession('Actions');
  const t = useLocale().messages.interrupt;
  const { shape, state, answer } = root;
  const disabled = state === 'submitting';
  const answerable = state !== 'expired' && !root.formFailed;
  // Closed without answering, then expired: `cancelled` is still sent, and Close is all it could be given again.
  const closedThenExpired = state === 'expired' && answer?.status === 'cancelled';
  // Approve, Reject and Submit act through the form, whose code may still be loading.
  const formActionDisabled = disabled || !root.formReady;
  const status =
    state === 'submitting' ? (
      session.closing(root.interrupt.id) ? (
        t.closing
      ) : (
        t.sending
      )
    ) : state === 'expired' && !closedThenExpired ? (
      <ExpiredText expiresAt={root.interrupt.expiresAt} now={session.now} />
    ) : answer ? (
      t.yourAnswer(root.summarize(answer))
    ) : null;
  return (
    <div {...rest} ref={ref} className={cx('agk-interrupt__actions', className)} data-state={state}>
      {/* Not a live region: answers, expiry and sending are announced once by the group and the countdown. */}
      <p className="agk-interrupt__status">{status}</p>
      <div className="agk-interrupt__buttons">
        {closedThenExpired ? null : answer ? (
          <button type="button" className="agk-button" disabled={disabled} onClick={() => session.reopen(root.interrupt.id)}>
            {t.changeAnswer}
          </button>
        ) : (
          <>
            {answerable && shape === 'approval' ? (
              <>
                <button
                  type="button"
                  className="agk-button"
                  data-variant="primary"
                  disabled={formActionDisabled}
                  onClick={() => root.decide(true)}
                >
                  {t.approve}
                </button>
                <button
                  type="button"
                  className="agk-button"
                  data-variant="danger"
                  disabled={formActionDisabled}
                  onClick={() => root.decide(false)}
                >
                  {t.reject}
                </button>
              </>
            ) : null}
            {answerable && shape === 'form' ? (
              <button type="submit" form={root.ids.form} className="agk-button" data-variant="primary" disabled={formActionDisabled}>
                {session.mode === 'collect' ? t.saveAnswer : t.submit}
              </button>
            ) : null}
            {answerable && shape === 'confirm' ? (
              <>
                <button type="button" className="agk-button" data-variant="primary" disabled={disabled} onClick={() => root.resolve()}>
                  {t.confirmYes}
                </button>
                {/* Without a form the protocol's No is `cancelled`: the same answer Close without answering would send. */}
                <button type="button" className="agk-button" data-agk-action="dismiss" disabled={disabled} onClick={root.cancel}>
                  {t.confirmNo}
                </button>
              </>
            ) : (
              <button type="button" className="agk-button" data-agk-action="dismiss" disabled={disabled} onClick={root.cancel}>
                {t.dismiss}
              </button>
            )}
          </>
        )}
      </div>
    </div>
  );
});
