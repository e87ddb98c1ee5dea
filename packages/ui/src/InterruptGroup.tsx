'use client';

import { isExpired, type OpenInterrupt, type ResumeResponse } from '@aguikit/core';
import { type AgentStore, useAgentSelector, useAgentStore, useInterrupts } from '@aguikit/react';
import type { ReactNode } from 'react';
import * as React from 'react';
import { useExpiryClock } from './Countdown.js';
import { useHeldActions } from './heldActions.js';
import { type InterruptSession, NO_REFUSALS, SessionContext, useSession } from './interruptContext.js';
import { focusWithQuestion, revealField } from './interruptFocus.js';
import { answerShape } from './interruptForm.js';
import { useLocale } from './locale.js';
import { RefusalItems } from './RefusalItems.js';
import { useBrowserLayoutEffect } from './useBrowserLayoutEffect.js';
import { useMergedRef } from './useMergedRef.js';
import { useStoreSwitch, useThreadKey } from './useStoreSwitch.js';

const NO_ANSWERS: ReadonlyMap<string, ResumeResponse> = new Map();

/** An answer on its way: the run that raised its interrupt, and whether it closes it without answering. */
interface Sent {
  runId: string | undefined;
  closes: boolean;
}

const FIELD = 'input:not([type="hidden"]):not(:disabled), select:not(:disabled), textarea:not(:disabled)';
const COMPOSER = 'form.agk-composer .agk-composer__input';
const CHAT = 'section.agk-chat';
/** How long focus waits on the chat region for the decision's line in the transcript. */
const LINE_WAIT_MS = 3000;

/** An interrupt's first enabled field, if its fields are there. */
function firstField(element: HTMLElement | undefined): HTMLElement | null {
  return element?.querySelector<HTMLElement>(FIELD) ?? null;
}

const TEXT_INPUTS = /^(|text|search|email|url|tel|password|number|date|datetime-local|month|time|week)$/;

/** Focus is in a field the user types in (a text box, a content-editable element) outside `region`. */
function typingElsewhere(doc: Document, region: HTMLElement | null): boolean {
  const active = doc.activeElement as HTMLElement | null;
  if (!active || active === doc.body || region?.contains(active)) return false;
  if (active instanceof HTMLTextAreaElement) return true;
  if (active instanceof HTMLInputElement) return TEXT_INPUTS.test(active.type);
  return active.isContentEditable || active.getAttribute('contenteditable') === 'true';
}

/** The ends of the text selected on the page outside `region`, or null when none is. */
function selectedOutside(doc: Document, region: HTMLElement | null): readonly unknown[] | null {
  const s = doc.getSelection();
  if (!s || s.isCollapsed || !s.anchorNode || region?.contains(s.anchorNode)) return null;
  return [s.anchorNode, s.anchorOffset, s.focusNode, s.focusOffset];
}

/** The keyboard shortcut that jumps to an open interrupt: Alt+Shift+D (by key position, so it works on every layout). */
function isShortcut(e: KeyboardEvent): boolean {
  return e.altKey && e.shiftKey && !e.ctrlKey && !e.metaKey && (e.code === 'KeyD' || e.key.toLowerCase() === 'd');
}

/** Where focus is looked for when it must move: the chat that holds `node` (two chats may share a page), else the page. */
function scopeOf(node: Element | null | undefined, doc: Document): ParentNode {
  return node?.closest(CHAT) ?? doc;
}

/** The chat region `scope` is, or holds. */
function chatIn(scope: ParentNode): HTMLElement | null {
  return scope instanceof HTMLElement && scope.matches(CHAT) ? scope : scope.querySelector<HTMLElement>(CHAT);
}

/**
 * Where focus goes once an answer is on its way (the buttons that gave it
 * are about to go): the composer's text box if there is one, else the
 * decision's line in the transcript once the message list renders it
 * (`[data-agk-decision]`), the chat region meanwhile (without one, `back`:
 * where focus was before the interrupt took it). Never the page body.
 * Returns a function that stops waiting for the line.
 */
function focusAfterDecision(doc: Document, scope: ParentNode, interruptId: string | undefined, back: HTMLElement | null): () => void {
  const composer = scope.querySelector<HTMLElement>(COMPOSER);
  if (composer) {
    composer.focus();
    return () => undefined;
  }
  // No chat around the dialog: where focus was before the interrupt took it, until the line is there.
  const chat = chatIn(scope) ?? (back?.isConnected ? back : null);
  chat?.focus();
  if (interruptId === undefined) return () => undefined;
  const selector = `[data-agk-decision="${CSS.escape(interruptId)}"]`;
  const started = Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const look = () => {
    const line = scope.querySelector<HTMLElement>(selector);
    const active = doc.activeElement;
    // Only while focus is still where it was put: a reader who moved on keeps their place.
    if (line && (active === chat || active === doc.body || active === null)) line.focus();
    else if (!line && Date.now() - started < LINE_WAIT_MS) timer = setTimeout(look, 30);
  };
  look();
  return () => clearTimeout(timer);
}

/**
 * Props of `Interrupt.Group` (and of `InterruptDialog`, without `children`);
 * other props go to its `<section>`.
 *
 * @example
 * const store = createAgentStore({ source, now: () => serverTime() });
 * <InterruptDialog initialFocus="none" title="Approvals" />
 */

/** The run's status line (`<RunStatus>`), which says a failed resume where one is on the page. */
const RUN_STATUS = '.agk-runstatus';

/** The RunStatus lines heard saying the dialog's run: shown, in the dialog's chat (the dialog outside a chat: in none). */
function runStatuses(region: HTMLElement | null, doc: Document): Element[] {
  const chat = region?.closest(CHAT) ?? null;
  return [...doc.querySelectorAll(RUN_STATUS)].filter(
    (s) => s.closest(CHAT) === chat && !s.closest('[hidden],[aria-hidden="true"],[inert]') && s.checkVisibility?.() !== false,
  );
}

/** Whether a RunStatus that was there when the answers were sent shows the run's failure now: it says it, once. */
function failureHeard(atSend: readonly Element[], region: HTMLElement | null, doc: Document): boolean {
  return runStatuses(region, doc).some((s) => atSend.includes(s) && s.matches('[data-state="failed"],[data-state="disconnected"]'));
}

/** HTTP statuses that say the request was not handled (try later), not that the agent's side refused it. */
const NOT_HANDLED = new Set([408, 425, 429]);

/**
 * Whether the agent's side refused answers it gave back: its RUN_ERROR before its run began, or an HTTP 4xx answer
 * (other than one that says to try later). Else they never reached it (offline, a 5xx, a stop before it took them).
 */
function refusedBy(state: ReturnType<AgentStore['getState']>): boolean {
  const { failure } = state;
  if (!failure) return state.thread.run.status === 'error';
  const status = failure.status ?? 0;
  return failure.code === 'HTTP_STATUS' && status >= 400 && status < 500 && !NOT_HANDLED.has(status);
}

/** How long an announcement stays in the live region: long enough to be said, then it is cleared. */
export const ANNOUNCEMENT_CLEAR_MS = 10_000;

export interface InterruptGroupProps extends Omit<React.HTMLAttributes<HTMLElement>, 'title' | 'children'> {
  children?: ReactNode;
  /** The clock expiry is measured with; the store's own clock (`store.now`) by default. */
  now?: () => number;
  /**
   * Where focus goes when an interrupt appears: its first enabled field
   * (default; the interrupt itself where the field and its question cannot
   * both be in view; not while the user is typing elsewhere: then it is
   * announced, and Alt+Shift+D goes to it), or nowhere.
   */
  initialFocus?: 'first-field' | 'none';
  /** The region's heading; by default it says how many answers the agent is waiting for. */
  title?: ReactNode;
}

/** The `Interrupt.Group` part: see `Interrupt`. */
export const InterruptGroup = React.forwardRef<HTMLElement, InterruptGroupProps>(function InterruptGroup(
  { children, now: nowProp, initialFocus = 'first-field', title, className, onKeyDown, onFocus, onBlur, ...rest },
  forwardedRef,
) {
  const store = useAgentStore();
  const { messages, format, lang } = useLocale();
  const t = messages.interrupt;
  const now = useExpiryClock(store, nowProp);
  const interrupts = useInterrupts();
  const inFlight = useAgentSelector((s) => s.inFlight);
  const [kept, setKept] = React.useState(NO_ANSWERS);
  // The store answers are being sent to, and the interrupts they answer (each by its id and the run that raised it, and
  // whether it is closed without an answer): another store the provider switches to (another thread) is not busy for it,
  // and a question raised while the resumed run's stream is still open is not being answered, even under a reused id.
  const [sendingTo, setSendingTo] = React.useState<{ store: AgentStore; sent: ReadonlyMap<string, Sent>; closing: boolean }>();
  const [announcement, setAnnouncement] = React.useState({ text: '', n: 0 });
  const sendingRef = React.useRef<AgentStore | undefined>(undefined);
  const shownStore = React.useRef(store);
  shownStore.current = store;
  const region = React.useRef<HTMLElement | null>(null);
  const elements = React.useRef(new Map<string, HTMLElement>());
  const seen = React.useRef(new Set<string>());
  /** Interrupts whose fields are still loading, with where focus was when they opened: they take focus when their fields come. */
  const awaitingFields = React.useRef(new Map<string, Element | null>());
  const pendingFocus = React.useRef<{ to: 'next' } | { to: 'interrupt'; id: string } | undefined>(undefined);
  /** Where focus was before it came into the region: Escape takes it back there. */
  const returnTo = React.useRef<HTMLElement | null>(null);
  const stopWaiting = React.useRef<() => void>(() => undefined);
  /** Focus is in the region (a control removed with focus in it fires no blur): its going hands focus on. */
  const focusInside = React.useRef(false);
  const announcer = React.useRef<HTMLDivElement>(null);
  const sendButton = React.useRef<HTMLButtonElement>(null);
  const headingId = React.useId();
  const mode = interrupts.length > 1 ? 'collect' : 'immediate';
  const busy = sendingTo?.store === store || inFlight !== undefined;
  const busyRef = React.useRef(busy);
  busyRef.current = busy;
  const answers = React.useMemo(() => {
    const open = new Map<string, ResumeResponse>();
    for (const it of interrupts) {
      const answer = kept.get(it.id);
      if (answer) open.set(it.id, answer);
    }
    return open;
  }, [kept, interrupts]);

  const setRef = useMergedRef(region, forwardedRef);
  useHeldActions(region, interrupts.map((it) => it.id).join(' '));

  const announce = React.useCallback((text: string) => setAnnouncement((prev) => ({ text, n: prev.n + 1 })), []);
  // Said, then cleared: a reader who later visits the region does not find an outcome of a run long gone.
  React.useEffect(() => {
    if (!announcement.text) return;
    const timer = setTimeout(
      () => setAnnouncement((prev) => (prev.n === announcement.n ? { text: '', n: prev.n } : prev)),
      ANNOUNCEMENT_CLEAR_MS,
    );
    return () => clearTimeout(timer);
  }, [announcement]);

  // Another thread shown (the provider switched stores, or a reset): nothing kept or said of the last one. The open
  // interrupts of a store switched to were there before, not raised now; after a reset, each one the new thread raises
  // is new, though it reuses an id the last one had.
  useStoreSwitch(
    store,
    (anotherStore) => {
      setAnnouncement((prev) => (prev.text ? { text: '', n: prev.n } : prev));
      setKept(NO_ANSWERS);
      seen.current = new Set(anotherStore ? store.getState().thread.interrupts.map((it) => it.id) : []);
    },
    useThreadKey(),
  );

  /** Stops listening to the store for what comes of the last answer sent (its sending, a retry of it). */
  const following = React.useRef<() => void>(() => undefined);
  React.useEffect(
    () => () => {
      stopWaiting.current();
      following.current();
    },
    [],
  );

  /** Focuses an interrupt's first enabled field (with its question in view, else the interrupt: focusWithQuestion); the interrupt itself when it has none; waits while its form's fields load. */
  const focusInterrupt = React.useCallback(
    (interruptId: string) => {
      const element = elements.current.get(interruptId);
      if (!element) return;
      const field = firstField(element);
      if (field) {
        awaitingFields.current.delete(interruptId);
        focusWithQuestion(element, field);
        return;
      }
      const it = store.getState().thread.interrupts.find((i) => i.id === interruptId);
      const loading = it?.responseSchema !== undefined && element.querySelector('.agk-interrupt__form-placeholder') !== null;
      // The fields are disabled while the run that raised the interrupt is still in flight: they are waited for too.
      const disabled = busyRef.current && element.querySelector('input:disabled, select:disabled, textarea:disabled') !== null;
      if (loading || disabled) awaitingFields.current.set(interruptId, element.ownerDocument.activeElement);
      // Its start below the area's held heading, as a field's would be.
      else focusWithQuestion(element, element);
    },
    [store],
  );

  const fieldsReady = React.useCallback((interruptId: string) => {
    if (!awaitingFields.current.has(interruptId)) return;
    const before = awaitingFields.current.get(interruptId);
    const element = elements.current.get(interruptId);
    // Still disabled (the request is in flight): the end of the request calls this again.
    if (element && busyRef.current && element.querySelector('input:disabled, select:disabled, textarea:disabled')) return;
    awaitingFields.current.delete(interruptId);
    if (!element) return;
    const doc = element.ownerDocument;
    const active = doc.activeElement;
    // Only while focus is still where it was when the interrupt opened: a reader who moved on keeps their place.
    if (active !== before && active !== doc.body && active !== null) return;
    if (typingElsewhere(doc, region.current)) return;
    const field = firstField(element);
    focusWithQuestion(element, field ?? element);
  }, []);

  const deliver = React.useCallback(
    (responses: ResumeResponse[], said: string) => {
      // A second click can land before the re-render that disables the button: the ref, not the state, decides.
      if (sendingRef.current === store || store.getState().inFlight) return;
      sendingRef.current = store;
      // A Close without answering closes its question (one without a form has no Close: its `cancelled` is its No).
      const open = store.getState().thread.interrupts;
      const sent = new Map<string, Sent>();
      for (const r of responses) {
        const it = open.find((i) => i.id === r.interruptId);
        sent.set(r.interruptId, { runId: it?.runId, closes: r.status === 'cancelled' && answerShape(it?.responseSchema) !== 'confirm' });
      }
      setSendingTo({ store, sent, closing: [...sent.values()].every((s) => s.closes) });
      const doc = region.current?.ownerDocument ?? document;
      // The buttons that gave the answer are about to go (or be disabled): focus moves to a stable place first.
      stopWaiting.current();
      const back = returnTo.current && !region.current?.contains(returnTo.current) ? returnTo.current : null;
      stopWaiting.current = focusAfterDecision(doc, scopeOf(region.current, doc), responses[0]?.interruptId, back);
      // Where focus was put (the composer, the chat, `back`), and what the composer held then: typing in it since is
      // a reviewer who moved on.
      const placed = doc.activeElement === doc.body ? null : (doc.activeElement as HTMLElement | null);
      const draft = placed instanceof HTMLTextAreaElement || placed instanceof HTMLInputElement ? placed.value : undefined;
      const selectedAtSend = selectedOutside(doc, region.current);
      // A live region drawn with the failure already in it is not read: only a RunStatus there before the send says it.
      const statusAtSend = runStatuses(region.current, doc);
      /** Whether an interrupt these answers answer is open (again: one the resumed run raises under its id is another). */
      const answeredOpen = (s: ReturnType<AgentStore['getState']>) =>
        s.thread.interrupts.some((it) => sent.has(it.id) && sent.get(it.id)?.runId === it.runId);
      // Said once the answers are on their way: the store has recorded them (their interrupts closed) and sends them,
      // the resume still in flight; not when the resumed run ends, seconds later. Answers the store refuses never go.
      // What followed an earlier answer (a retry of it) is over: this one is said from here on.
      following.current();
      let onItsWay = false;
      const unsubscribe = store.subscribe((s) => {
        if (onItsWay || s.inFlight !== 'resume' || answeredOpen(s)) return;
        onItsWay = true;
        unsubscribe();
        if (shownStore.current === store) announce(said);
      });
      // The dialog gone, nothing is said into it.
      following.current = unsubscribe;
      /** Empties the region of "sent" said of answers that came back: the outcome is said elsewhere (RunStatus). */
      const unsay = () => setAnnouncement((prev) => (prev.text === said ? { text: '', n: prev.n } : prev));
      /** Says that answers came back: by a RunStatus there at the send that shows the failure (the region emptied), else here. */
      const cameBack = (s: ReturnType<AgentStore['getState']>) => {
        if (failureHeard(statusAtSend, region.current, doc)) return unsay();
        announce(refusedBy(s) ? t.announce.refused : t.announce.notSent);
      };
      /**
       * Answers that came back with a failure a retry can fix (RunStatus's Retry): the retry sends them again, their
       * questions closed again, and that is said as their sending was, and so is what comes of it.
       */
      const followRetries = () => {
        let again = false;
        const stop = store.subscribe((s) => {
          if (shownStore.current !== store) return stop();
          if (!again) {
            // Nothing failed any more and nothing is in flight (a reset, another run): there is no retry to follow.
            if (s.inFlight === undefined && s.failure === undefined) return stop();
            if (s.inFlight !== 'resume' || answeredOpen(s)) return;
            again = true;
            announce(said);
            return;
          }
          if (s.inFlight !== undefined) return;
          again = false;
          if (answeredOpen(s)) {
            cameBack(s);
            if (!s.failure?.retryable) stop();
            return;
          }
          stop();
          if (s.failure?.cause === 'ALREADY_ANSWERED') announce(t.announce.answeredElsewhere);
        });
        following.current = stop;
      };
      let request: ReturnType<ReturnType<AgentStore['getState']>['resume']>;
      try {
        request = store.getState().resume(responses);
      } catch (error) {
        // Nothing went: the dialog is not left sending, nor listening, and focus goes back to the question. The error
        // goes to the page as an uncaught one would (thrown here, it would break the form the answer came from).
        unsubscribe();
        sendingRef.current = undefined;
        setSendingTo(undefined);
        stopWaiting.current();
        const first = store.getState().thread.interrupts[0];
        if (first) pendingFocus.current = { to: 'interrupt', id: first.id };
        if (typeof reportError === 'function') reportError(error);
        else
          setTimeout(() => {
            throw error;
          });
        return;
      }
      void request
        .then((result) => {
          unsubscribe();
          // The provider switched to another thread meanwhile: what follows belongs to the thread it was sent in.
          if (shownStore.current !== store) return;
          const after = store.getState();
          // The agent's side refused them as answered first elsewhere (another tab): they stay closed, this answer unused.
          if (onItsWay && after.failure?.cause === 'ALREADY_ANSWERED' && !answeredOpen(after)) {
            setKept(NO_ANSWERS);
            if (failureHeard(statusAtSend, region.current, doc)) return unsay();
            return announce(t.announce.answeredElsewhere);
          }
          if (result.ok) {
            setKept(NO_ANSWERS);
            // The agent never took them (offline, an HTTP error, its RUN_ERROR before its run began, a stop first): the
            // questions are open again, their answers in their forms, and what was said of them as sent is taken back.
            // Focus the page lost goes back to them, and so does focus still where the answer put it (the composer,
            // untouched since).
            if (!answeredOpen(after)) return;
            // A stop or a reset ended the resume before its answers went: nothing was sent, nothing failed.
            if (!onItsWay && after.failure === undefined) return;
            const active = doc.activeElement;
            const first = after.thread.interrupts[0];
            const untouched = active === placed && (draft === undefined || (active as HTMLTextAreaElement).value === draft);
            // Focus on the page with text selected outside the questions since the send: a reviewer reading there.
            const selected = selectedOutside(doc, region.current);
            const reading = selected !== null && !selected.every((part, i) => part === selectedAtSend?.[i]);
            const lost = !active || (active === doc.body && !reading);
            const left = lost || untouched || region.current?.contains(active);
            if (first && left) pendingFocus.current = { to: 'interrupt', id: first.id };
            // Said once, whether focus goes back or not: by a RunStatus there at the send that shows the failure, else here.
            cameBack(after);
            if (after.failure?.retryable) followRetries();
            return;
          }
          // Refused: the interrupts are still open, their errors shown next to them; focus goes back to the first.
          if (onItsWay) unsay();
          stopWaiting.current();
          const first = store.getState().thread.interrupts[0];
          if (first) pendingFocus.current = { to: 'interrupt', id: first.id };
        })
        .finally(() => {
          unsubscribe();
          if (sendingRef.current !== store) return;
          sendingRef.current = undefined;
          setSendingTo(undefined);
        });
    },
    [store, announce, t],
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

  const jump = React.useCallback(() => {
    const doc = region.current?.ownerDocument ?? document;
    const active = doc.activeElement as HTMLElement | null;
    if (active && active !== doc.body && !region.current?.contains(active)) returnTo.current = active;
    const target = interrupts.find((it) => !answers.has(it.id));
    // Every answer saved: what is left to do is to send them.
    if (!target && sendButton.current && !sendButton.current.disabled) return sendButton.current.focus();
    if (!target) return;
    awaitingFields.current.delete(target.id);
    const element = elements.current.get(target.id);
    const field = firstField(element);
    if (element && field) focusWithQuestion(element, field);
    else element?.focus();
  }, [interrupts, answers]);

  /** What is on its way for `it`: not for another interrupt raised since under its id. */
  const sentFor = (it: OpenInterrupt): Sent | undefined => {
    const sent = sendingTo?.store === store ? sendingTo.sent.get(it.id) : undefined;
    return sent !== undefined && sent.runId === it.runId ? sent : undefined;
  };

  const session: InterruptSession = {
    mode,
    interrupts,
    now,
    busy,
    closing(interruptId) {
      const it = interrupts.find((i) => i.id === interruptId);
      return it !== undefined && sentFor(it)?.closes === true;
    },
    answers,
    answer(response, summary) {
      if (mode === 'immediate') return deliver([response], t.announce.sent(summary));
      const answered = new Set(answers.keys()).add(response.interruptId).size;
      setKept((prev) => new Map(prev).set(response.interruptId, response));
      announce(t.announce.saved(summary, answered, interrupts.length, format.number(answered), format.number(interrupts.length)));
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
      deliver(responses, t.announce.sentMany(responses.length, format.number(responses.length)));
    },
    sendButton,
    announce,
  };

  React.useEffect(() => {
    const fresh = interrupts.find((it) => !seen.current.has(it.id));
    for (const it of interrupts) seen.current.add(it.id);
    for (const id of awaitingFields.current.keys()) if (!interrupts.some((it) => it.id === id)) awaitingFields.current.delete(id);
    if (!fresh || initialFocus !== 'first-field') return;
    const doc = region.current?.ownerDocument ?? document;
    // Someone typing elsewhere (the composer, say) keeps every character: the interrupt is announced instead.
    if (typingElsewhere(doc, region.current)) return announce(t.announce.opened(t.shortcut));
    const active = doc.activeElement as HTMLElement | null;
    if (active && active !== doc.body && !region.current?.contains(active)) returnTo.current = active;
    focusInterrupt(fresh.id);
  }, [interrupts, initialFocus, focusInterrupt, announce, t]);

  // Fields disabled while a request was in flight are enabled now: focus waiting for them moves to the first one.
  React.useEffect(() => {
    if (busy) return;
    for (const id of [...awaitingFields.current.keys()]) {
      const element = elements.current.get(id);
      if (element && element.querySelector('.agk-interrupt__form-placeholder') === null) fieldsReady(id);
    }
  }, [busy, fieldsReady]);

  // Alt+Shift+D goes to the first interrupt that still needs an answer, from anywhere on the page.
  React.useEffect(() => {
    if (interrupts.length === 0) return;
    const doc = region.current?.ownerDocument ?? document;
    const onKey = (e: KeyboardEvent) => {
      if (!isShortcut(e)) return;
      e.preventDefault();
      jump();
    };
    doc.addEventListener('keydown', onKey);
    return () => doc.removeEventListener('keydown', onKey);
  }, [interrupts.length, jump]);

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

  // Send answers is disabled under focus when a kept answer is dropped (its interrupt expired): focus moves to what is
  // left to do, the first interrupt without an answer (Close without answering, once it expired), before the browser
  // drops it to the page.
  useBrowserLayoutEffect(() => {
    const send = sendButton.current;
    if (!send?.disabled || busy || send.ownerDocument.activeElement !== send) return;
    const next = interrupts.find((it) => !answers.has(it.id));
    if (!next) return;
    const element = elements.current.get(next.id);
    const dismiss = element?.matches('[data-state="expired"]') ? element.querySelector<HTMLElement>('[data-agk-action="dismiss"]') : null;
    if (dismiss) dismiss.focus();
    else focusInterrupt(next.id);
  });

  const onRegionKeyDown = (e: React.KeyboardEvent<HTMLElement>) => {
    onKeyDown?.(e);
    if (e.defaultPrevented || e.key !== 'Escape') return;
    // Escape leaves the region without answering: back to where focus came from, or the composer, or the chat.
    const doc = e.currentTarget.ownerDocument;
    const back = returnTo.current;
    const target =
      back?.isConnected && !e.currentTarget.contains(back)
        ? back
        : (scopeOf(e.currentTarget, doc).querySelector<HTMLElement>(COMPOSER) ?? chatIn(scopeOf(e.currentTarget, doc)));
    if (!target) return;
    e.preventDefault();
    target.focus();
  };

  const onRegionBlur = (e: React.FocusEvent<HTMLElement>) => {
    onBlur?.(e);
    if (!e.currentTarget.contains(e.relatedTarget as Node | null)) focusInside.current = false;
  };

  const onRegionFocus = (e: React.FocusEvent<HTMLElement>) => {
    onFocus?.(e);
    focusInside.current = true;
    const from = e.relatedTarget as HTMLElement | null;
    if (from && !e.currentTarget.contains(from)) returnTo.current = from;
    if (e.target.matches(FIELD)) revealField(e.target);
  };

  // The region goes with its last interrupt, answered or not (a reset, a stop, another thread): focus that was in it
  // goes to the composer, else the chat, else where it was before the interrupt took it, never to the page body. An
  // answer has moved it already (focusAfterDecision).
  const none = interrupts.length === 0;
  useBrowserLayoutEffect(() => {
    if (!none || !focusInside.current) return;
    focusInside.current = false;
    const doc = announcer.current?.ownerDocument;
    const active = doc?.activeElement;
    if (!doc || (active && active !== doc.body && active.isConnected)) return;
    const scope = scopeOf(announcer.current, doc);
    const back = returnTo.current?.isConnected ? returnTo.current : null;
    (scope.querySelector<HTMLElement>(COMPOSER) ?? chatIn(scope) ?? back)?.focus();
  }, [none]);

  // Answers on their way (until the store has checked and recorded them, which closes their interrupts) are no longer
  // what the agent waits for: they are being sent. A question the resumed run raises is waited for.
  const sending = sendingTo !== undefined && interrupts.some((it) => sentFor(it) !== undefined);
  const count = format.number(interrupts.length);
  const heading =
    title ??
    (sending
      ? interrupts.length === 1
        ? sendingTo.closing
          ? t.closingOne
          : t.sendingOne
        : sendingTo.closing
          ? t.closingMany(interrupts.length, count)
          : t.sendingMany(interrupts.length, count)
      : interrupts.length === 1
        ? t.waitingOne
        : t.waitingMany(interrupts.length, count));
  return (
    <SessionContext.Provider value={session}>
      {interrupts.length > 0 ? (
        <section
          role="dialog"
          aria-modal="false"
          aria-labelledby={headingId}
          aria-keyshortcuts="Alt+Shift+D"
          lang={lang}
          {...rest}
          ref={setRef}
          className={className ? `agk-interrupts agk-root ${className}` : 'agk-interrupts agk-root'}
          data-state={busy ? 'submitting' : 'open'}
          data-mode={mode}
          onKeyDown={onRegionKeyDown}
          onFocus={onRegionFocus}
          onBlur={onRegionBlur}
        >
          <h2 id={headingId} className="agk-interrupts__title">
            {heading}
          </h2>
          {children}
        </section>
      ) : null}
      {/* Outside the region, so what is said when the last answer goes (the region with it) is still heard. */}
      <div
        ref={announcer}
        lang={lang}
        className="agk-visually-hidden"
        role="status"
        aria-live="polite"
        aria-atomic="true"
        data-agk-interrupt-announcer=""
      >
        {announcement.text ? <span key={announcement.n}>{announcement.text}</span> : null}
      </div>
    </SessionContext.Provider>
  );
});

/** Props of `Interrupt.Send`: DOM props of its `<footer>`. */
export type InterruptSendProps = React.HTMLAttributes<HTMLElement>;

/** The `Interrupt.Send` part: see `Interrupt`. */
export const InterruptSend = React.forwardRef<HTMLElement, InterruptSendProps>(function InterruptSend({ className, ...rest }, ref) {
  const session = useSession('Send');
  const { messages, format } = useLocale();
  const t = messages.interrupt;
  const refusal = useAgentSelector((s) => s.refusal);
  const { interrupts, answers, mode } = session;
  const open = new Set(interrupts.map((it) => it.id));
  const general =
    refusal?.code === 'RESUME_REFUSED'
      ? (refusal.errors ?? NO_REFUSALS).filter((e) => e.interruptId === undefined || !open.has(e.interruptId))
      : NO_REFUSALS;
  if (mode === 'immediate' && general.length === 0) return null;
  const complete = answers.size === interrupts.length;
  return (
    <footer
      {...rest}
      ref={ref}
      className={className ? `agk-interrupts__footer ${className}` : 'agk-interrupts__footer'}
      data-state={session.busy ? 'submitting' : complete ? 'ready' : 'waiting'}
    >
      {general.length > 0 ? (
        <ul role="alert" className="agk-interrupt__errors">
          <RefusalItems errors={general} />
        </ul>
      ) : null}
      {mode === 'collect' ? (
        <>
          <p className="agk-interrupts__progress">
            {t.progress(answers.size, interrupts.length, format.number(answers.size), format.number(interrupts.length))}
          </p>
          <button
            ref={session.sendButton}
            type="button"
            className="agk-button"
            data-variant="primary"
            disabled={!complete || session.busy}
            onClick={session.send}
          >
            {t.sendAnswers}
          </button>
        </>
      ) : null}
    </footer>
  );
});
