'use client';

import type { RunFailure } from '@aguikit/core';
import { type AgentStore, useAgentRun, useAgentSelector, useAgentStore } from '@aguikit/react';
import * as React from 'react';
import { ShowAll } from './LongText.js';
import { useLocale } from './locale.js';
import { clip, textHead } from './textCut.js';
import { useBrowserLayoutEffect } from './useBrowserLayoutEffect.js';
import { useMergedRef } from './useMergedRef.js';
import { useRestingValue } from './useRestingAnnouncement.js';

type Tone = 'neutral' | 'info' | 'success' | 'warning' | 'danger';
type RunStrings = ReturnType<typeof useLocale>['messages']['run'];

/**
 * What the status shows, for styling (`data-state`): `idle`, `running`,
 * `reconnecting`, `waiting` (interrupts open), `done`, `stopped`, `failed`
 * (the agent's RUN_ERROR, or a request that failed) and `disconnected` (the
 * stream ended inside the run: it can be reconnected).
 */
export type RunStatusState = 'idle' | 'running' | 'reconnecting' | 'waiting' | 'done' | 'stopped' | 'failed' | 'disconnected';

export interface RunStatusProps extends React.ComponentPropsWithoutRef<'div'> {}

const selectStep = (s: { thread: { run: { steps: readonly string[] } } }) => s.thread.run.steps.at(-1);
const selectRunId = (s: { thread: { run: { runId?: string } } }) => s.thread.run.runId;
const selectRunError = (s: { thread: { run: { error?: { message: string; code?: string } } } }) => s.thread.run.error;
const selectAttempt = (s: { reconnecting?: { attempt: number; of: number } | undefined }) => s.reconnecting;

/** Why a request failed, from its typed code (never from the English message), and where it was redirected to. */
function describeFailure(failure: RunFailure, t: RunStrings): string {
  const redirected = failure.redirectedTo ? ` ${t.failure.redirected(textHead(failure.redirectedTo, 200))}` : '';
  return describeCode(failure, t) + redirected;
}

/** One sentence on why a request failed, from its typed code. */
function describeCode(failure: RunFailure, t: RunStrings): string {
  const { status } = failure;
  switch (failure.code) {
    case 'HTTP_STATUS': {
      // A resume whose questions were answered elsewhere first: said in the user's language, not as the agent's English.
      if (failure.cause === 'ALREADY_ANSWERED') return t.failure.alreadyAnswered;
      // What the body says (a JSON error's message, not its JSON); a log of an earlier version has only the body.
      const words = (failure.said ?? failure.body)?.trim();
      const said = words ? ` ${t.failure.said(textHead(words, 200))}` : '';
      if (status === 404) return t.failure.notFound + said;
      if (status === 401 || status === 403) return t.failure.refused(status) + said;
      if (status !== undefined && [408, 425, 429, 502, 503, 504].includes(status))
        return t.failure.notHandled(status, failure.retryAfterMs && failure.retryAfterMs / 1000) + said;
      return t.failure.httpStatus(status ?? 0) + said;
    }
    case 'NETWORK':
      return t.failure.network;
    case 'INVALID_URL':
      return t.failure.invalidUrl;
    case 'INVALID_REQUEST':
      return t.failure.invalidRequest;
    case 'INVALID_STREAM':
      // What the answer said (a gateway's JSON error, a sign-in page's title) is what tells what to fix.
      return t.failure.invalidStream + (failure.said ? ` ${t.failure.said(textHead(failure.said, 200))}` : '');
    case 'CONNECTION_LOST':
      return t.failure.connectionLost;
    case 'SOURCE_ERROR':
      return t.failure.sourceError(failure.message.replace(/^The agent's source failed: /, ''));
    case 'ENGINE_UNAVAILABLE':
      return t.failure.engineUnavailable;
  }
}

/** The typed error code of a JSON error body (`{ "error": { "code": ... } }`, as aguikit's agent server answers), if any. */
function bodyCode(body: string | undefined): string | undefined {
  if (!body?.trimStart().startsWith('{')) return undefined;
  try {
    const code = (JSON.parse(body) as { error?: { code?: unknown } } | null)?.error?.code;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}

/** What helps after a failure, when it is not an action: check the URL, the credentials, the allowed origins, the endpoint. */
function hintFor(failure: RunFailure, t: RunStrings): string | undefined {
  if (failure.code === 'INVALID_URL' || (failure.code === 'HTTP_STATUS' && failure.status === 404)) return t.hint.checkUrl;
  if (failure.code === 'HTTP_STATUS' && failure.status === 403 && bodyCode(failure.body) === 'ORIGIN_NOT_ALLOWED')
    return t.hint.allowOrigin;
  if (failure.code === 'HTTP_STATUS' && (failure.status === 401 || failure.status === 403)) return t.hint.checkCredentials;
  if (failure.code === 'INVALID_STREAM') return t.hint.checkEndpoint;
  return undefined;
}

/**
 * Where focus goes when the action it was on leaves the page (Retry or
 * Reconnect did their work): the composer's text box, else the chat region,
 * else the status itself; never `<body>`.
 */
function focusAfterAction(root: HTMLElement) {
  const chat = root.closest<HTMLElement>('section.agk-chat');
  const input = (chat ?? root.ownerDocument).querySelector<HTMLElement>('.agk-composer__input');
  const target = input ?? chat ?? root;
  if (target === root && !root.hasAttribute('tabindex')) root.tabIndex = -1;
  target.focus();
}

/** How the last Reconnect the user asked for went. */
type Reconnect =
  | { phase: 'idle' }
  | { phase: 'pending' }
  | { phase: 'done' }
  /**
   * Why, as data (worded at render, in the locale of the moment): the store's
   * refusal (`NO_RESUME_POINT`, `NOTHING_TO_RECONNECT`: final, trying again
   * cannot help) or the request's failure.
   */
  | { phase: 'failed'; final: boolean; refusal?: 'NO_RESUME_POINT' | 'NOTHING_TO_RECONNECT'; failure?: RunFailure };

const IDLE: Reconnect = { phase: 'idle' };

/** The status as last put on the page, with what it was worked out from (the connection aside). */
interface Shown {
  from: readonly unknown[];
  state: RunStatusState;
  tone: Tone;
  badge: string;
  detail: React.ReactNode;
  hint: string | undefined;
}

/** How many characters of a step's name are shown. */
const STEP_NAME = 120;

/**
 * The run as a person needs it, in one place: idle, running (with the
 * current step), done, waiting for an answer, stopped, failed (the agent's
 * code and message, or why the request failed, with what helps: Retry when
 * sending it again can work, a hint to check the agent's URL after a 404 or
 * an invalid URL), or connection lost (the stream ended inside the run) with
 * Reconnect. Reconnecting says so, then "Reconnected" or "Could not
 * reconnect: <reason>. Try again." A failure's words are shown three lines
 * at most, with Show all for the rest. The words are a polite live region
 * (`role="status"`); the actions sit beside it, outside, so they are not
 * read again on every change. `data-state` names the state (see
 * `RunStatusState`); `data-status` is the run's status and `data-connection`
 * the connection's.
 *
 * @example
 * <RunStatus className="my-status" />
 */
export const RunStatus = React.forwardRef<HTMLDivElement, RunStatusProps>(function RunStatus({ className, ...props }, ref) {
  useAgentStore('<RunStatus>');
  const agent = useAgentRun();
  const runError = useAgentSelector(selectRunError);
  const attempt = useAgentSelector(selectAttempt);
  const { messages, format, lang } = useLocale();
  const t = messages.run;
  const { status, connection, failure, refusal, inFlight, store } = agent;
  // The status is a polite live region: a burst of steps is said once it rests, not step by step. A run that starts
  // (or goes on after a pause) and another thread's store show their own step at once, never the one that rested before.
  const runId = useAgentSelector(selectRunId);
  const step = useRestingValue(useAgentSelector(selectStep), store, runId, status === 'running');
  // What the last Reconnect did, and in which thread: the provider switched to another store shows that one's own.
  const [reconnectOf, setReconnectOf] = React.useState<{ store?: AgentStore; reconnect: Reconnect }>({ reconnect: IDLE });
  const reconnect = reconnectOf.store === store ? reconnectOf.reconnect : IDLE;
  const rootRef = React.useRef<HTMLDivElement | null>(null);
  const setRoot = useMergedRef(rootRef, ref);
  // The words of a notice: cut to a few lines until the reader asks for all of them (for this failure only).
  const detailRef = React.useRef<HTMLSpanElement>(null);
  /** What the status last put on the page (set as it commits), held while a failed connection's end is on its way (see `settling`). */
  const shownRef = React.useRef<Shown | undefined>(undefined);
  const [clipped, setClipped] = React.useState(false);
  const [wholeOf, setWholeOf] = React.useState<unknown>();
  // An action button that leaves the page while focused hands focus on (see focusAfterAction).
  const refocus = React.useRef(false);
  const actionRef = React.useCallback((node: HTMLButtonElement | null) => {
    if (node) return;
    const active = rootRef.current?.ownerDocument.activeElement;
    if (active?.classList.contains('agk-runstatus__action') && rootRef.current?.contains(active)) refocus.current = true;
  }, []);
  useBrowserLayoutEffect(() => {
    if (!refocus.current || !rootRef.current) return;
    const { activeElement, body } = rootRef.current.ownerDocument;
    refocus.current = false;
    if (!activeElement || activeElement === body || !activeElement.isConnected) focusAfterAction(rootRef.current);
  });

  // A new request the user started (not the reconnect itself) ends what the last reconnect said.
  const pending = reconnect.phase === 'pending';
  // A new thread (reset) has no run: what the last Reconnect did is not said of it.
  const fresh = useAgentSelector((s) => s.thread.messages.ids.length === 0 && s.thread.run.status === 'idle');
  React.useEffect(() => {
    if ((inFlight !== undefined && !pending) || fresh) setReconnectOf((prev) => (prev.store === store ? { reconnect: IDLE } : prev));
  }, [inFlight, pending, store, fresh]);

  const onReconnect = () => {
    const setReconnect = (next: Reconnect) => setReconnectOf({ store, reconnect: next });
    setReconnect({ phase: 'pending' });
    void agent.reconnect().then((result) => {
      const after = store.getState();
      const runStatus = after.thread.run.status;
      if (result.ok && runStatus !== 'unknown' && runStatus !== 'error') return setReconnect({ phase: 'done' });
      if (!result.ok && (result.code === 'NO_RESUME_POINT' || result.code === 'NOTHING_TO_RECONNECT')) {
        return setReconnect({ phase: 'failed', final: true, refusal: result.code });
      }
      setReconnect({ phase: 'failed', final: false, ...(after.failure ? { failure: after.failure } : {}) });
    });
  };

  /** The words for a reconnect that failed. */
  const reconnectReason = (failed: Extract<Reconnect, { phase: 'failed' }>) =>
    failed.refusal === 'NO_RESUME_POINT'
      ? t.hint.noResumePoint
      : failed.refusal === 'NOTHING_TO_RECONNECT'
        ? t.hint.nothingToReconnect
        : failed.failure
          ? describeFailure(failed.failure, t)
          : t.failure.connectionLost;

  const cutOff = status === 'unknown';
  const reconnecting = connection === 'reconnecting' || pending;
  const reconnectFailed = reconnect.phase === 'failed' ? reconnect : undefined;
  // After a reconnect that failed, Reconnect stays while trying again can help (the store retries or resumes).
  const canTryAgain = reconnectFailed !== undefined && !reconnectFailed.final && (cutOff || failure?.retryable === true);

  let state: RunStatusState;
  let tone: Tone;
  let badge: string;
  let detail: React.ReactNode = null;
  let hint: string | undefined;
  if (reconnecting) {
    state = 'reconnecting';
    tone = 'info';
    badge = attempt
      ? t.reconnecting(attempt.attempt, attempt.of, format.number(attempt.attempt), format.number(attempt.of))
      : t.reconnecting();
  } else if (reconnectFailed && (cutOff || status === 'error')) {
    state = 'disconnected';
    tone = 'warning';
    badge = t.status.unknown;
    const reason = reconnectReason(reconnectFailed);
    detail = reconnectFailed.final ? t.reconnectRefused(reason) : t.reconnectFailed(reason);
  } else if (cutOff) {
    state = 'disconnected';
    tone = 'warning';
    badge = t.status.unknown;
    detail = t.lost(
      failure?.cause === 'UNFINISHED_EVENT'
        ? t.failure.unfinishedEvent
        : failure && failure.code !== 'CONNECTION_LOST'
          ? describeFailure(failure, t)
          : undefined,
    );
  } else if (status === 'error' || (failure && inFlight === undefined)) {
    // The agent's own RUN_ERROR (its code and message), or a request that failed (the store's typed failure).
    state = 'failed';
    tone = 'danger';
    badge = t.status.error;
    if (failure) {
      detail = describeFailure(failure, t);
      hint = hintFor(failure, t);
    } else if (runError) {
      detail = (
        <>
          {runError.code ? <code>{runError.code}</code> : null} {runError.message}
        </>
      );
    }
  } else {
    // Answers on their way (a resume in flight, or every interrupt answered): nobody waits for the person any more.
    switch (status === 'interrupted' && (inFlight || !agent.interrupts.length) ? 'running' : status) {
      case 'running':
        state = 'running';
        tone = 'info';
        badge = t.status.running;
        // A step's name is a label: its head names it (the status is read out again on each change).
        detail = step ? t.step(clip(step, STEP_NAME)) : null;
        break;
      case 'success':
        state = 'done';
        tone = 'success';
        badge = t.status.success;
        break;
      case 'interrupted':
        state = 'waiting';
        tone = 'warning';
        badge = t.status.interrupted;
        break;
      case 'cancelled':
        state = 'stopped';
        tone = 'neutral';
        badge = t.status.cancelled;
        break;
      default:
        state = 'idle';
        tone = 'neutral';
        badge = t.status.idle;
    }
    if (reconnect.phase === 'done') detail = t.reconnected;
  }
  if (!detail && !reconnecting && refusal?.code === 'NO_RESUME_POINT') detail = t.hint.noResumePoint;
  if (!detail && !reconnecting && refusal?.code === 'FOLLOW_UPS_EXHAUSTED') detail = t.hint.followUpsExhausted;
  // The transport says its connection failed just before the stream's end reaches the thread: for that moment the run
  // still reads as running, and a reconnect that met a dead agent would be followed by "Running" said again before
  // "Connection lost". What was shown stays until the failure is in.
  // Held only while nothing else it was worked out from has moved (another store or thread, a step, the language...):
  // a source that goes on after saying its connection failed is shown going on.
  const settling = connection === 'failed' && status === 'running' && failure === undefined;
  const from = [store, runId, step, t, reconnect, refusal, runError, agent.interrupts];
  const held = shownRef.current;
  const holding = settling && held !== undefined && from.every((part, i) => Object.is(part, held.from[i]));
  if (holding) ({ state, tone, badge, detail, hint } = held);
  const shown: Shown = { from, state, tone, badge, detail, hint };
  // Kept as the page shows it, not as a render that may never reach the page (one React set aside) worked it out.
  useBrowserLayoutEffect(() => {
    if (!holding) shownRef.current = shown;
  });

  // Offered only where it can work: the stream was cut off in this session, after an event the agent named (an SSE id).
  // It stays (unavailable) while the reconnect it started goes on, so focus on it is kept.
  const canReconnect = (cutOff && failure?.reconnectable === true && !reconnectFailed?.final) || pending || canTryAgain;
  // No Reconnect to offer: the agent named no event to go on from, or the run was cut off in a session saved earlier.
  if (cutOff && !reconnecting && !reconnectFailed && failure?.reconnectable !== true)
    hint = failure ? t.hint.noResumePoint : t.hint.cutOffEarlier;
  const canRetry = !canReconnect && !reconnecting && inFlight === undefined && failure?.retryable === true;
  const isError = state === 'failed';
  // A notice's words are cut to a few lines (an agent's RUN_ERROR may be a whole stack trace), with Show all for the rest.
  const notice = state === 'failed' || state === 'disconnected';
  const whole = notice && wholeOf !== undefined && wholeOf === (failure ?? runError);
  const cut = notice && !whole;
  useBrowserLayoutEffect(() => {
    const shown = detailRef.current;
    if (!shown || !cut) return setClipped(false);
    const measure = () => setClipped(shown.scrollHeight > shown.clientHeight + 1);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(shown);
    return () => observer.disconnect();
  }, [cut, detail]);
  const badgeItem = (
    <span className="agk-badge" data-tone={tone}>
      {badge}
    </span>
  );
  return (
    <div
      ref={setRoot}
      lang={lang}
      {...props}
      className={className ? `agk-runstatus agk-root ${className}` : 'agk-runstatus agk-root'}
      data-state={state}
      data-status={status}
      data-connection={connection}
    >
      <div className="agk-runstatus__live" role="status" aria-live="polite" aria-atomic="true" data-status={status}>
        {state === 'reconnecting' ? <span className="agk-runstatus__spinner" aria-hidden="true" /> : null}
        {notice && detail ? null : badgeItem}
        {/* Spaces between the parts (a flex row draws none): the region is read as one text, "RunningStep" otherwise. */}
        {detail && !notice ? ' ' : null}
        {detail ? (
          <span
            ref={detailRef}
            className={isError ? 'agk-runstatus__detail agk-error-text' : 'agk-runstatus__detail'}
            data-cut={cut ? 'true' : undefined}
            tabIndex={whole ? -1 : undefined}
          >
            {/* A notice's badge heads its first line: the notice is as tall as its words, not a line more. */}
            {notice ? <>{badgeItem} </> : null}
            {detail}
          </span>
        ) : null}
        {hint ? ' ' : null}
        {hint ? <span className="agk-runstatus__detail agk-runstatus__hint">{hint}</span> : null}
      </div>
      {cut && clipped ? (
        <ShowAll label={messages.messages.longText.showAll} show={() => setWholeOf(failure ?? runError)} focus={detailRef} />
      ) : null}
      {canRetry || canReconnect ? (
        // biome-ignore lint/a11y/useSemanticElements: a fieldset groups a form's fields; these are two actions beside a status
        <div className="agk-runstatus__actions" role="group" aria-label={t.actions.label}>
          {canRetry ? (
            <button
              ref={actionRef}
              type="button"
              className="agk-button agk-runstatus__action"
              data-variant="primary"
              onClick={() => void agent.retry()}
            >
              {t.actions.retry}
            </button>
          ) : null}
          {canReconnect ? (
            <button
              ref={actionRef}
              type="button"
              className="agk-button agk-runstatus__action"
              data-variant="primary"
              aria-disabled={reconnecting ? true : undefined}
              onClick={() => {
                if (!reconnecting) onReconnect();
              }}
            >
              {t.actions.reconnect}
            </button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
});
