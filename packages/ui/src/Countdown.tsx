'use client';

import { expiryTime, isExpired } from '@aguikit/core';
import * as React from 'react';
import { clientContext } from './clientContext.js';
import { useInterruptRoot, useSession } from './interruptContext.js';
import { useLocale } from './locale.js';
import { useHydrated, useMomentText } from './useHydrated.js';

/**
 * The clock an `AgentChat` given `now` measures expiry with: every part in
 * it (its interrupt dialog, the tool cards waiting on an interrupt) reads
 * the same time, so none says a request expired that another still counts down.
 */
export const ExpiryClock = clientContext<(() => number) | undefined>(undefined);

/** The clock expiry is measured with: `given`, else an enclosing `AgentChat`'s, else the store's. */
export function useExpiryClock(store: { now: () => number }, given?: () => number): () => number {
  const chat = React.useContext(ExpiryClock);
  return given ?? chat ?? store.now;
}

/**
 * `none`: no (readable) `expiresAt`, it never expires. `pending`: the time
 * now is not known yet (a server render, and the browser's hydration of it).
 */
export type ExpiryState = 'none' | 'pending' | 'running' | 'expired';

export interface Expiry {
  state: ExpiryState;
  /** Milliseconds left (0 once expired, Infinity without an expiry, NaN while pending). */
  remainingMs: number;
}

const PENDING: Expiry = { state: 'pending', remainingMs: Number.NaN };

/**
 * The live time left before `expiresAt`, read from `now` once a second and
 * with the same rule as the store (`isExpired`): an unreadable date never
 * expires. The timer stops at expiry and on unmount. A server render, and
 * the browser's hydration of its HTML, read no clock: `pending` until hydrated.
 *
 * @example
 * const expiry = useExpiry(interrupt.expiresAt, Date.now);
 * if (expiry.state === 'expired') showCancelOnly();
 */
export function useExpiry(expiresAt: string | undefined, now: () => number): Expiry {
  const deadline = expiresAt === undefined ? Number.NaN : expiryTime(expiresAt);
  const [time, setTime] = React.useState(now);
  // Another clock (a replay's store at another entry) is read at once, not after its first tick.
  const [clock, setClock] = React.useState(() => now);
  if (clock !== now) {
    setClock(() => now);
    setTime(now());
  }
  const hydrated = useHydrated();
  const known = !Number.isNaN(deadline);
  const expired = expiresAt !== undefined && known && isExpired({ expiresAt }, time);

  React.useEffect(() => {
    if (!known || expired) return;
    const tick = () => setTime(now());
    let interval: ReturnType<typeof setInterval> | undefined;
    // The first tick falls a whole number of seconds before the deadline, so 0:00 and expiry land on the deadline itself.
    const first = setTimeout(
      () => {
        tick();
        interval = setInterval(tick, 1000);
      },
      (deadline - now()) % 1000 || 1000,
    );
    return () => {
      clearTimeout(first);
      clearInterval(interval);
    };
  }, [known, expired, deadline, now]);

  if (!known) return { state: 'none', remainingMs: Number.POSITIVE_INFINITY };
  if (!hydrated) return PENDING;
  return expired ? { state: 'expired', remainingMs: 0 } : { state: 'running', remainingMs: deadline - time };
}

/** The moments the time left is announced: 2 minutes, 1 minute, 30 seconds (in seconds). */
const MILESTONES = [120, 60, 30];

/** The last milestone the time left has reached (in seconds), or undefined above the first. */
function milestone(remainingMs: number): number | undefined {
  let reached: number | undefined;
  for (const s of MILESTONES) if (remainingMs <= s * 1000) reached = s;
  return reached;
}

/** Props of `Interrupt.Countdown`: DOM props of its badge. */
export type CountdownProps = React.HTMLAttributes<HTMLSpanElement>;

/**
 * The time left to answer an interrupt, as a badge (`role="timer"`, which
 * screen readers do not read out as it changes every second), "Expired" once
 * the deadline has passed; read with the locale's `format.clock`. A
 * separate polite live region says the time left at 2 minutes, 1 minute and
 * 30 seconds (`format.duration`), and that the request expired at the end.
 * `data-state` is `running | expired`; nothing is rendered without
 * `expiresAt`.
 *
 * The deadline is the agent's: the protocol carries `expiresAt` on the
 * interrupt and no message a client can send to move it (a resume must
 * answer every open interrupt; AG-UI has no "extend"), so there is no "more
 * time" button of aguikit's own, and the announcements and the expired
 * state say that the agent set the deadline. An agent that does grant more
 * time declares it as an answer: an option of its `responseSchema` (say a
 * `decision` enum with "need more time"), which the generated form offers
 * like any other, and answers it by raising a new interrupt with a later
 * `expiresAt`.
 *
 * @example
 * <Interrupt.Root interrupt={interrupt}><Interrupt.Countdown /></Interrupt.Root>
 */
export const Countdown = React.forwardRef<HTMLSpanElement, CountdownProps>(function Countdown({ className, ...rest }, ref) {
  const { expiry, interrupt, answer } = useInterruptRoot('Countdown');
  const { now } = useSession('Countdown');
  const { messages, format, lang } = useLocale();
  const time = useMomentText(format, lang, now);
  const t = messages.interrupt;
  // Only milestones reached while it is on screen are said: one already passed when it opened (or when the time was
  // first known, once hydrated) is shown, not announced.
  const opened = React.useRef<{ first: number | undefined } | null>(null);
  if (opened.current === null && expiry.state !== 'pending')
    opened.current = { first: expiry.state === 'running' ? milestone(expiry.remainingMs) : undefined };
  const first = opened.current?.first;
  if (expiry.state === 'none' || expiry.state === 'pending') return null;
  const tone = expiry.state === 'expired' ? 'danger' : expiry.remainingMs <= 60_000 ? 'warning' : 'info';
  const reached = expiry.state === 'running' ? milestone(expiry.remainingMs) : undefined;
  const at = interrupt.expiresAt === undefined ? Number.NaN : expiryTime(interrupt.expiresAt);
  // One whose answer is kept (closed, or a No) is not left to be closed: its expiry alone is said.
  const kept = answer?.status === 'cancelled';
  const said =
    expiry.state === 'expired'
      ? Number.isNaN(at)
        ? kept
          ? t.expiredHeld
          : t.expiredNow
        : (kept ? t.expiredHeldAt : t.expiredAt)(time(at))
      : reached !== undefined && reached !== first
        ? t.timeLeft(format.duration(reached))
        : '';
  return (
    <>
      <span
        role="timer"
        {...rest}
        ref={ref}
        className={className ? `agk-badge agk-interrupt__countdown ${className}` : 'agk-badge agk-interrupt__countdown'}
        data-tone={tone}
        data-state={expiry.state}
      >
        {expiry.state === 'expired' ? t.expired : t.expiresIn(format.clock(expiry.remainingMs / 1000))}
      </span>
      <span className="agk-visually-hidden" aria-live="polite" aria-atomic="true">
        {said}
      </span>
    </>
  );
});
