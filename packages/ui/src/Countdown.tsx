'use client';

import { isExpired } from '@aguikit/core';
import * as React from 'react';
import { useInterruptRoot } from './interruptContext.js';
import { formatRemaining } from './interruptForm.js';

/** `none`: no (readable) `expiresAt`, it never expires. */
export type ExpiryState = 'none' | 'running' | 'expired';

export interface Expiry {
  state: ExpiryState;
  /** Milliseconds left (0 once expired, Infinity without an expiry). */
  remainingMs: number;
}

/**
 * The live time left before `expiresAt`, read from `now` once a second and
 * with the same rule as the store (`isExpired`): an unreadable date never
 * expires. The timer stops at expiry and on unmount.
 *
 * @example
 * const expiry = useExpiry(interrupt.expiresAt, Date.now);
 * if (expiry.state === 'expired') showCancelOnly();
 */
export function useExpiry(expiresAt: string | undefined, now: () => number): Expiry {
  const deadline = expiresAt === undefined ? Number.NaN : Date.parse(expiresAt);
  const [time, setTime] = React.useState(now);
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
  return expired ? { state: 'expired', remainingMs: 0 } : { state: 'running', remainingMs: deadline - time };
}

/**
 * The time left to answer an interrupt, as a badge (`role="timer"`, so it is
 * not announced every second); "Expired" once the deadline has passed.
 * `data-state` is `running | expired`; nothing is rendered without `expiresAt`.
 *
 * @example
 * <Interrupt.Root interrupt={interrupt}><Interrupt.Countdown /></Interrupt.Root>
 */
export function Countdown() {
  const { expiry } = useInterruptRoot('Countdown');
  if (expiry.state === 'none') return null;
  const tone = expiry.state === 'expired' ? 'danger' : expiry.remainingMs <= 60_000 ? 'warning' : 'info';
  return (
    <span className="agk-badge agk-interrupt__countdown" role="timer" data-tone={tone} data-state={expiry.state}>
      {expiry.state === 'expired' ? 'Expired' : `Expires in ${formatRemaining(expiry.remainingMs)}`}
    </span>
  );
}
