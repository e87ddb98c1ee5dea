import { isExpired, type ResumeResponse } from '@aguikit/core';
import { useAgentSelector, useAgentStore, useInterrupts } from '@aguikit/react';
import { type ReactNode, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { type InterruptSession, NO_REFUSALS, SessionContext, useSession } from './interruptContext.js';

const NO_ANSWERS: ReadonlyMap<string, ResumeResponse> = new Map();
const FIELD = 'input:not([type="hidden"]):not(:disabled), select:not(:disabled), textarea:not(:disabled)';

/** Focuses the first field of an interrupt, or the interrupt itself when it has none (never a button: Enter must not answer). */
function focusFirstField(element: HTMLElement | undefined) {
  if (!element) return;
  (element.querySelector<HTMLElement>(FIELD) ?? element).focus();
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
  const [kept, setKept] = useState(NO_ANSWERS);
  const [sending, setSending] = useState(false);
  const sendingRef = useRef(false);
  const elements = useRef(new Map<string, HTMLElement>());
  const seen = useRef(new Set<string>());
  const pendingFocus = useRef<{ to: 'next' } | { to: 'interrupt'; id: string } | undefined>(undefined);
  const sendButton = useRef<HTMLButtonElement>(null);
  const headingId = useId();
  const mode = interrupts.length > 1 ? 'collect' : 'immediate';
  const busy = sending || inFlight !== undefined;
  const answers = useMemo(() => {
    const open = new Map<string, ResumeResponse>();
    for (const it of interrupts) {
      const answer = kept.get(it.id);
      if (answer) open.set(it.id, answer);
    }
    return open;
  }, [kept, interrupts]);

  const deliver = useCallback(
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

  const drop = useCallback((interruptId: string) => {
    setKept((prev) => {
      if (!prev.has(interruptId)) return prev;
      const next = new Map(prev);
      next.delete(interruptId);
      return next;
    });
  }, []);

  const register = useCallback((interruptId: string, element: HTMLElement | null) => {
    if (element) elements.current.set(interruptId, element);
    else elements.current.delete(interruptId);
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

  useEffect(() => {
    const fresh = interrupts.find((it) => !seen.current.has(it.id));
    for (const it of interrupts) seen.current.add(it.id);
    if (fresh && initialFocus === 'first-field') focusFirstField(elements.current.get(fresh.id));
  }, [interrupts, initialFocus]);

  // The button that gave an answer is replaced by its summary: focus moves on instead of falling to the page.
  useEffect(() => {
    const target = pendingFocus.current;
    if (!target) return;
    pendingFocus.current = undefined;
    if (target.to === 'interrupt') return focusFirstField(elements.current.get(target.id));
    const next = interrupts.find((it) => !answers.has(it.id));
    if (next) focusFirstField(elements.current.get(next.id));
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
        className="agk-interrupts"
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
