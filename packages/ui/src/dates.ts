/** Whether `ms` (milliseconds since the epoch) is a time a Date holds (±8.64e15): one a `<time>` can show. */
export const isDatable = (ms: number | undefined): ms is number => ms !== undefined && Number.isFinite(ms) && Math.abs(ms) <= 8.64e15;

/** Whether `a` and `b` (milliseconds since the epoch) fall on the same day of the reader's calendar (their time zone). */
export const sameDay = (a: number, b: number): boolean => new Date(a).toDateString() === new Date(b).toDateString();
