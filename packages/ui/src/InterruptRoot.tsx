'use client';

import type { OpenInterrupt, ResumeResponse } from '@aguikit/core';
import { useAgentSelector } from '@aguikit/react';
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
import { answerShape, reasonKind } from './interruptForm.js';

const EXPIRED: Expiry = { state: 'expired', remainingMs: 0 };

/**
 * Props of `Interrupt.Root`: one open interrupt (from `useInterrupts()`) and its parts.
 *
 * @example
 * <Interrupt.Root interrupt={interrupts[0]}><Interrupt.Header /><Interrupt.Actions /></Interrupt.Root>
 */
export interface InterruptRootProps {
  interrupt: OpenInterrupt;
  children?: ReactNode;
}

/** The `Interrupt.Root` part: see `Interrupt`. */
export function InterruptRoot({ interrupt, children }: InterruptRootProps) {
  const session = useSession('Root');
  const refusal = useAgentSelector((s) => s.refusal);
  const clock = useExpiry(interrupt.expiresAt, session.now);
  const [formFailed, setFormFailed] = React.useState(false);
  const [formReady, setFormReady] = React.useState(false);
  const form = React.useRef<Form>(null);
  const intent = React.useRef<boolean | undefined>(undefined);
  const reactId = React.useId().replace(/[^\w-]/g, '');
  const { register, drop, busy, fieldsReady } = session;

  const errors =
    refusal?.code === 'RESUME_REFUSED' ? (refusal.errors ?? NO_REFUSALS).filter((e) => e.interruptId === interrupt.id) : NO_REFUSALS;
  // The store's clock has the last word: when it says expired, so does the dialog.
  const expiry = errors.some((e) => e.code === 'EXPIRED') ? EXPIRED : clock;
  const answer = session.answers.get(interrupt.id);
  const state: InterruptState = busy ? 'submitting' : expiry.state === 'expired' ? 'expired' : 'open';
  const shape = answerShape(interrupt.responseSchema);

  // A resolved answer kept for an interrupt that has since expired can no longer be sent.
  React.useEffect(() => {
    if (expiry.state === 'expired' && answer?.status === 'resolved') drop(interrupt.id);
  }, [expiry.state, answer, drop, interrupt.id]);

  // The form's code loads on demand: focus that went to the interrupt while it loaded moves on to its first field.
  React.useEffect(() => {
    if (formReady) fieldsReady(interrupt.id);
  }, [formReady, fieldsReady, interrupt.id]);

  // React calls it with null when the element goes (or before a new ref takes over): the interrupt is unregistered then.
  const ref = React.useCallback((element: HTMLElement | null) => register(interrupt.id, element), [register, interrupt.id]);

  const ctx: InterruptRootContext = {
    interrupt,
    kind: reasonKind(interrupt.reason),
    shape,
    state,
    expiry,
    answer,
    errors,
    formFailed,
    formReady,
    ids: { title: `${reactId}-title`, message: `${reactId}-message`, form: `${reactId}-form`, fields: `agk${reactId}` },
    form,
    intent,
    resolve(payload) {
      if (state !== 'open' || formFailed) return;
      session.answer({ interruptId: interrupt.id, status: 'resolved', ...(payload !== undefined ? { payload } : {}) });
    },
    cancel() {
      if (!busy) session.answer({ interruptId: interrupt.id, status: 'cancelled' });
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
        ref={ref}
        tabIndex={-1}
        className="agk-card agk-interrupt agk-root"
        aria-labelledby={ctx.ids.title}
        aria-describedby={interrupt.message ? ctx.ids.message : undefined}
        data-state={state}
        data-reason={ctx.kind}
        data-shape={shape}
        data-answer={answer?.status ?? 'none'}
      >
        {children}
      </article>
    </RootContext.Provider>
  );
}

/** The `Interrupt.Errors` part: see `Interrupt`. */
export function InterruptErrors() {
  const { errors } = useInterruptRoot('Errors');
  if (errors.length === 0) return null;
  return (
    <div role="alert" className="agk-interrupt__errors">
      <p className="agk-interrupt__errors-title">This answer was not accepted:</p>
      <ul>
        {errors.map((e) => (
          <li key={`${e.code}:${e.message}`} data-code={e.code}>
            {e.message}
          </li>
        ))}
      </ul>
    </div>
  );
}

function answerSummary(answer: ResumeResponse, shape: InterruptRootContext['shape']): string {
  if (answer.status === 'cancelled') return 'Cancelled, no answer given';
  if (shape === 'confirm') return 'Confirmed';
  const approved = (answer.payload as { approved?: unknown } | undefined)?.approved;
  if (shape === 'approval') return approved === true ? 'Approved' : 'Rejected';
  return 'Answered';
}

function statusText(root: InterruptRootContext): string {
  if (root.state === 'submitting') return 'Sending…';
  if (root.state === 'expired') {
    const at = root.interrupt.expiresAt === undefined ? Number.NaN : Date.parse(root.interrupt.expiresAt);
    const when = Number.isNaN(at) ? '' : ` at ${new Date(at).toLocaleTimeString()}`;
    return `This request expired${when}: it can no longer be answered, only cancelled.`;
  }
  return root.answer ? `Your answer: ${answerSummary(root.answer, root.shape)}.` : '';
}

/** The `Interrupt.Actions` part: see `Interrupt`. */
export function InterruptActions() {
  const root = useInterruptRoot('Actions');
  const session = useSession('Actions');
  const { shape, state, answer } = root;
  const disabled = state === 'submitting';
  const answerable = state !== 'expired' && !root.formFailed;
  // Approve, Reject and Submit act through the form, whose code may still be loading.
  const formActionDisabled = disabled || !root.formReady;
  return (
    <div className="agk-interrupt__actions">
      <p role="status" className="agk-interrupt__status">
        {statusText(root)}
      </p>
      <div className="agk-interrupt__buttons">
        {answer ? (
          <button type="button" className="agk-button" disabled={disabled} onClick={() => session.reopen(root.interrupt.id)}>
            Change answer
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
                  Approve
                </button>
                <button
                  type="button"
                  className="agk-button"
                  data-variant="danger"
                  disabled={formActionDisabled}
                  onClick={() => root.decide(false)}
                >
                  Reject
                </button>
              </>
            ) : null}
            {answerable && shape === 'form' ? (
              <button type="submit" form={root.ids.form} className="agk-button" data-variant="primary" disabled={formActionDisabled}>
                Submit
              </button>
            ) : null}
            {answerable && shape === 'confirm' ? (
              <button type="button" className="agk-button" data-variant="primary" disabled={disabled} onClick={() => root.resolve()}>
                Confirm
              </button>
            ) : null}
            <button type="button" className="agk-button" disabled={disabled} onClick={root.cancel}>
              Cancel
            </button>
          </>
        )}
      </div>
    </div>
  );
}
