import type { LoggedEvent } from '@aguikit/core';

/**
 * A point in the log a user picked: the log's array it was picked in, which
 * only grows (a reset starts a new one), so a later reset cannot change what
 * it shows.
 */
export interface LogPoint {
  position: number;
  entries: readonly LoggedEvent[];
}

/**
 * The point still names the same event among the first `count` of `entries`:
 * a reset starts a new list, and the old selection means nothing in it.
 */
export function stillValid(point: LogPoint | undefined, entries: readonly LoggedEvent[], count = entries.length): point is LogPoint {
  return point !== undefined && point.position < count && entries[point.position] === point.entries[point.position];
}

/**
 * The operations to mark in the shared state shown after a picked event: the
 * event's own, when it is a delta that changed the document. The state after
 * any other event (an empty delta, a token) still holds the last delta that
 * did, which that event did not apply.
 */
export function ownDelta(entry: LoggedEvent, lastDelta: readonly unknown[] | undefined): readonly unknown[] | undefined {
  const event = entry.event as { type?: unknown; delta?: unknown } | null;
  return event?.type === 'STATE_DELTA' && Array.isArray(event.delta) && event.delta.length > 0 ? lastDelta : undefined;
}
