/**
 * The agent's time, as its stamped events show it. An interrupt's
 * `expiresAt` is set by the agent's clock; a machine whose own clock is
 * minutes off would show an approval as expired the moment it arrives (and
 * refuse the answer), or keep one open the agent has closed.
 *
 * Each event with a `timestamp` (ms since the epoch) is a reading: the
 * agent's time when it was sent, seen here after the trip, so `timestamp -
 * Date.now()` is the agent's lead on this machine, less the trip. The
 * largest such lead is the best estimate, and an older event (a replay, a
 * buffered one) never pulls it back. A stamp outside 2000–2200 is no such
 * clock (seconds, microseconds, zero) and is ignored. An HTTP answer's
 * `Date` header is a reading too, to the second: it counts only where it is
 * more than two seconds off this machine's clock. Should this machine's clock
 * be set (a sync, a sleep) the lead no longer holds: it is dropped, and the
 * machine's own clock is used until the agent's next reading.
 */
export interface AgentClock {
  /** The agent's time now, if an event told it; else the machine's. */
  now(): number;
  /** Takes an incoming event's `timestamp` as a reading of the agent's clock. */
  heard(event: unknown): void;
  /** Takes the time an answer's `Date` header gives (whole seconds) as a reading. */
  answered(time: number): void;
}

const EARLIEST = Date.UTC(2000, 0, 1);
const LATEST = Date.UTC(2200, 0, 1);
/** How far the wall clock may move apart from the steady one between two looks before it is taken as set. */
const JUMP_MS = 2_000;
/** A reading to the second that is nearer than this to this machine's clock says nothing it does not know. */
const COARSE_MS = 2_000;

const steady = () => (typeof performance !== 'undefined' ? performance.now() : Date.now());

export function createAgentClock(): AgentClock {
  /** The agent's time minus this machine's wall clock; undefined until a stamped event says. */
  let lead: number | undefined;
  let wallAt = 0;
  let steadyAt = 0;
  /** The lead, unless the wall clock was set since it was last looked at. */
  const current = (wall: number) => {
    if (lead === undefined) return undefined;
    const at = steady();
    if (Math.abs(wall - wallAt - (at - steadyAt)) > JUMP_MS) lead = undefined;
    wallAt = wall;
    steadyAt = at;
    return lead;
  };
  const read = (stamp: unknown, grain: number) => {
    if (typeof stamp !== 'number' || !(stamp >= EARLIEST && stamp <= LATEST)) return;
    const wall = Date.now();
    if (Math.abs(stamp - wall) < grain) return;
    const known = current(wall);
    if (known === undefined || stamp - wall > known) {
      lead = stamp - wall;
      wallAt = wall;
      steadyAt = steady();
    }
  };
  return {
    now() {
      const wall = Date.now();
      return wall + (current(wall) ?? 0);
    },
    heard(event) {
      read((event as { timestamp?: unknown } | null)?.timestamp, 0);
    },
    answered(time) {
      read(time, COARSE_MS);
    },
  };
}
