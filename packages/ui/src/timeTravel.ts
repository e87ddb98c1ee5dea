import type { LoggedEvent } from '@aguikit/core';

/** A point in the log a user picked: the entries as they were then, so a later reset cannot change what it shows. */
export interface LogPoint {
  position: number;
  entries: readonly LoggedEvent[];
}

/** The point still names the same event in `entries`: a reset starts a new list, and the old selection means nothing in it. */
export function stillValid(point: LogPoint | undefined, entries: readonly LoggedEvent[]): point is LogPoint {
  return point !== undefined && entries[point.position] === point.entries[point.position];
}
