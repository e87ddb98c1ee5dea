import { createThreadState, type LoggedEvent, replayEvents, type ThreadState } from '@aguikit/core';

/** A point in the log a user picked: the entries as they were then, so a later reset cannot change what it shows. */
export interface LogPoint {
  position: number;
  entries: readonly LoggedEvent[];
}

/** The point still names the same event in `entries`: a reset starts a new log, and the old selection means nothing in it. */
export function stillValid(point: LogPoint | undefined, entries: readonly LoggedEvent[]): point is LogPoint {
  return point !== undefined && entries[point.position] === point.entries[point.position];
}

/**
 * The thread as the raw events up to and including `position` make it, as
 * one stream that may go on (`open`: a run still running is not truncated).
 * O(position): call it when a point is picked, never per render.
 */
export function threadAfter(point: LogPoint, threadId: string | undefined): ThreadState {
  return replayEvents(
    point.entries.slice(0, point.position + 1).map((e) => e.event),
    createThreadState(threadId === undefined ? {} : { threadId }),
    { open: true },
  );
}
