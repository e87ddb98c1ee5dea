import type { OpenInterrupt } from './model.js';

/** A date and time with no offset (`Z`, `+08:00`), which JavaScript would read in the local time zone: its date and its time to the millisecond. */
const NO_OFFSET = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?)\d*$/;

/**
 * When an interrupt's `expiresAt` falls, in ms since the epoch; NaN for what
 * is no ISO 8601 time. A time without an offset is the agent's in UTC (what
 * Python's `isoformat()` writes for a naive UTC time), never the local time
 * of the machine that reads it.
 *
 * @example
 * expiryTime('2026-12-04T10:00:00') === Date.parse('2026-12-04T10:00:00Z'); // true, in any time zone
 */
export function expiryTime(expiresAt: string): number {
  // Written as ISO 8601 in UTC: `T` between date and time (a space or a `t` also read), milliseconds at most.
  const naive = NO_OFFSET.exec(expiresAt);
  return Date.parse(naive ? `${naive[1]}T${naive[2]}Z` : expiresAt);
}

/** Whether `interrupt` has expired at `now` (an unreadable `expiresAt` never expires; see `expiryTime`). */
export function isExpired(interrupt: Pick<OpenInterrupt, 'expiresAt'>, now: number | Date): boolean {
  if (interrupt.expiresAt === undefined) return false;
  const at = expiryTime(interrupt.expiresAt);
  return !Number.isNaN(at) && +now >= at;
}
