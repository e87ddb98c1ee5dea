import type { EventPlan } from '@aguikit/scenarios';

/** The shortest pause worth a timer: shorter ones are added up until they are worth one. */
export const MIN_PAUSE_MS = 4;

/**
 * A run's pace: each event is due its `delayMs` (at the run's speed) after
 * the one before it, counted from when its stream began. A run is paced only
 * while a client reads it: once none does, what is left is produced at once
 * (see `RunStreams.stream`), ahead of when it is due. The first event so made
 * is noted (`early`), so a client that comes back (a reconnect, or a client
 * that stopped reading and reads again) reads each of them when it is due, as
 * it would have had it stayed: what it missed at once, the rest at the pace.
 * Known to the server that produced the run, while it is produced and until
 * its last event is due.
 */
export interface Pace {
  /** The speed the run plays at: 0 is no pauses. */
  readonly speed: number;
  /** The first event made ahead of when it was due, and when it was due (`performance.now()`). */
  early?: { index: number; at: number };
  /** When the run's last event is due (`performance.now()`), once the run is produced to its end. */
  until?: number;
}

/**
 * How long each event of a run is still ahead of when it is due, for a client
 * that reads the run's events in order. Reads the run's plan (`plan`) only
 * for the events made early.
 */
export function pacer(pace: Pace | undefined, plan: () => EventPlan): (index: number) => number {
  let at: { index: number; at: number } | undefined;
  let events: EventPlan | undefined;
  return (index) => {
    const early = pace?.early;
    if (!pace || !early || index < early.index || !(pace.speed > 0)) return 0;
    if (!at || at.index > index) at = { ...early };
    events ??= plan();
    while (at.index < index) {
      at.index++;
      at.at += (events.at(at.index)?.delayMs ?? 0) / pace.speed;
    }
    return at.at - performance.now();
  };
}
