import type { OpenInterrupt } from './model.js';

/** Whether `interrupt` has expired at `now` (an unreadable `expiresAt` never expires). */
export function isExpired(interrupt: Pick<OpenInterrupt, 'expiresAt'>, now: number | Date): boolean {
  if (interrupt.expiresAt === undefined) return false;
  const at = Date.parse(interrupt.expiresAt);
  return !Number.isNaN(at) && +now >= at;
}
