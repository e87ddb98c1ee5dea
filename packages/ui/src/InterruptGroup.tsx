'use client';

import { isExpired, type ResumeResponse } from '@aguikit/core';
import { useAgentSelector, useAgentStore, useInterrupts } from '@aguikit/react';
import type { ReactNode } from 'react';
import * as React from 'react';
import { type InterruptSession, NO_REFUSALS, SessionContext, useSession } from './interruptContext.js';

const NO_ANSWERS: ReadonlyMap<string, ResumeResponse> = new Map();
const FIELD = 'input:not([type="hidden"]):not(:disabled), select:not(:disabled), textarea:not(:disabled)';

/**
 * Focuses the first field of an interrupt, or the interrupt itself when it has none (never a button: Enter must
 * not answer). Returns whether it found a field.
 */
function focusFirstField(element: HTMLElement | undefined): boolean {
  if (!element) return false;
  const field = element.querySelector<HTMLElement>(FIELD);
  (field ?? element).focus();
  return field !== null;
}

/**
 * Props of `Interrupt.Group` (and of `InterruptDialog`, without `children`).
 *
 * @example
 * const store = createAgentStore({ source, now: () => serverTime() });
 * <InterruptDialog initialFocus="none" title="Approvals" />
 */
export interface InterruptGroupProps {
  children?: ReactNode;
  /** The clock expiry is measured with; the store's own clock (`store.now`) by default. */
  now?: () => number;
  /** Where focus goes when an interrupt appears: its first field (default), or nowhere. */
  initialFocus?: 'first-field' | 'none';
  /** The region's heading; by default it says how many answers the agent is waiting for. */
  title?: ReactNode;
}

/** The `Interrupt.Group` part: see `Interrupt`. */
export function InterruptGroup({ children, now: nowProp, initialFocus = 'first-field', title }: InterruptGroupProps) {
  const store = useAgentStore();
  const now = nowProp ?? store.now;
  const interrupts = useInterrupts();
  const inFlight = useAgentSelector((s) => s.inFlight);
  const [kept, setKept] = React.useState(NO_ANSWERS);
  const [sending, setSending] = React.useState(false);
  const sendingRef = React.useRef(false);
  const elements = React.useRef(new Map<string, HTMLElement>());
  const seen = React.useRef(new Set<string>());
  /** Interrupts focused while they had no field yet (their form's code was loading): their first field gets focus when it comes. */
  const awaitingFields = React.useRef(new Set<string>());
  const pendingFocus = React.useRef<{ to: 'next' } | { to: 'interrupt'; id: string } | undefined>(undefined);
  const sendButton = React.useRef<HTMLButtonElement>(null);
  const headingId = React.useId();
  const mode = interrupts.length > 1 ? 'collect' : 'immediate';
  const busy = sending || inFlight !== undefined;
  const answers = React.useMemo(() => {
    const open = new Map<string, ResumeResponse>();
    for (const it of interrupts) {
      const answer = kept.get(it.id);
      if (answer) open.set(it.id, answer);
    }
    return open;
  }, [kept, interrupts]);

  const deliver = React.useCallback(
    (responses: ResumeResponse[]) => {
      // A second click can land before the re-render that disables the button: the ref, not the state, decides.
      if (sendingRef.current || store.getState().inFlight) return;
      sendingRef.current = true;
      setSending(true);
      void store
        .getState()
        .resume(responses)
        .then((result) => {
          if (result.ok) setKept(NO_ANSWERS);
        })
        .finally(() => {
          sendingRef.current = false;
          setSending(false);
        });
    },
    [store],
  );

  const drop = React.useCallback((interruptId: string) => {
    setKept((prev) => {
      if (!prev.has(interruptId)) return prev;
      const next = new Map(prev);
      next.delete(interruptId);
      return next;
    });
  }, []);

  const register = React.useCallback((interruptId: string, element: HTMLElement | null) => {
    if (element) elements.current.set(interruptId, element);
    else elements.current.delete(interruptId);
  }, []);

  /** Focuses an interrupt's first field, or the interrupt until its form's fields are there. */
  const focusInterrupt = React.useCallback((interruptId: string) => {
    if (focusFirstField(elements.current.get(interruptId))) awaitingFields.current.delete(interruptId);
    else awaitingFields.current.add(interruptId);
  }, []);

  const fieldsReady = React.useCallback((interruptId: string) => {
    if (!awaitingFields.current.delete(interruptId)) return;
    const element = elements.current.get(interruptId);
    // Only while focus is still where it was put: a reader who moved on keeps their place.
    if (element && element.ownerDocument.activeElement === element) focusFirstField(element);
  }, []);

  const session: InterruptSession = {
    mode,
    interrupts,
    now,
    busy,
    answers,
    answer(response) {
      if (mode === 'immediate') return deliver([response]);
      setKept((prev) => new Map(prev).set(response.interruptId, response));
      pendingFocus.current = { to: 'next' };
    },
    reopen(interruptId) {
      drop(interruptId);
      pendingFocus.current = { to: 'interrupt', id: interruptId };
    },
    drop,
    register,
    fieldsReady,
    send() {
      const at = now();
      const responses: ResumeResponse[] = [];
      for (const it of interrupts) {
        const answer = answers.get(it.id);
        if (!answer || (answer.status === 'resolved' && isExpired(it, at))) return;
        responses.push(answer);
      }
      deliver(responses);
    },
    sendButton,
  };

  React.useEffect(() => {
    const fresh = interrupts.find((it) => !seen.current.has(it.id));
    for (const it of interrupts) seen.current.add(it.id);
    for (const id of awaitingFields.current) if (!interrupts.some((it) => it.id === id)) awaitingFields.current.delete(id);
    if (fresh && initialFocus === 'first-field') focusInterrupt(fresh.id);
  }, [interrupts, initialFocus, focusInterrupt]);

  // The button that gave an answer is replaced by its summary: focus moves on instead of falling to the page.
  React.useEffect(() => {
    const target = pendingFocus.current;
    if (!target) return;
    pendingFocus.current = undefined;
    if (target.to === 'interrupt') return focusInterrupt(target.id);
    const next = interrupts.find((it) => !answers.has(it.id));
    if (next) focusInterrupt(next.id);
    else sendButton.current?.focus();
  });

  if (interrupts.length === 0) return null;
  const heading =
    title ?? (interrupts.length === 1 ? 'The agent is waiting for your answer' : `The agent is waiting for ${interrupts.length} answers`);
  return (
    <SessionContext.Provider value={session}>
      <section
        role="dialog"
        aria-modal="false"
        aria-labelledby={headingId}
        className="agk-interrupts agk-root"
        data-state={busy ? 'submitting' : 'open'}
        data-mode={mode}
      >
        <h2 id={headingId} className="agk-interrupts__title">
          {heading}
        </h2>
        {children}
      </section>
    </SessionContext.Provider>
  );
}

/** The `Interrupt.Send` part: see `Interrupt`. */
export function InterruptSend() {
  const session = useSession('Send');
  const refusal = useAgentSelector((s) => s.refusal);
  const { interrupts, answers, mode } = session;
  const open = new Set(interrupts.map((it) => it.id));
  const general =
    refusal?.code === 'RESUME_REFUSED'
      ? (refusal.errors ?? NO_REFUSALS).filter((e) => e.interruptId === undefined || !open.has(e.interruptId))
      : NO_REFUSALS;
  if (mode === 'immediate' && general.length === 0) return null;
  return (
    <footer className="agk-interrupts__footer">
      {general.length > 0 ? (
        <ul role="alert" className="agk-interrupt__errors">
          {general.map((e) => (
            <li key={`${e.code}:${e.message}`} data-code={e.code}>
              {e.message}
            </li>
          ))}
        </ul>
      ) : null}
      {mode === 'collect' ? (
        <>
          <p className="agk-interrupts__progress">
            {answers.size} of {interrupts.length} answered. All answers are sent together.
          </p>
          <button
            ref={session.sendButton}
            type="button"
            className="agk-button"
            data-variant="primary"
            disabled={answers.size < interrupts.length || session.busy}
            onClick={session.send}
          >
            Send answers
          </button>
        </>
      ) : null}
    </footer>
  );
}
