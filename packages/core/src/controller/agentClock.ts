/**
 * The agent's time, as it says it. An interrupt's `expiresAt` is set by the
 * agent's clock; a machine whose own clock is minutes off would show an
 * approval as expired the moment it arrives (and refuse the answer), or keep
 * one open the agent has closed.
 *
 * Each event with a `timestamp` (ms since the epoch) is a reading: the
 * agent's time when it was sent, seen here after the trip, so `timestamp -
 * Date.now()` is the agent's lead on this machine, less the trip. The largest
 * such lead is the best estimate, and an older event (a replay, a buffered
 * one) never pulls it back. A stamp outside 2000–2200, or more than a day off
 * this machine's clock, is no reading (seconds, microseconds, zero, a broken
 * stamp). Until the first stamp, a successful HTTP answer's `Date` header is
 * a reading too, to the second: it counts only where it is more than two
 * seconds off this machine's clock, and the first stamp replaces it (a proxy
 * may have written the header).
 */
export interface AgentClock {
  /** The agent's time now, if it said; else the machine's. */
  now(): number;
  /** Takes an incoming event's `timestamp` as a reading of the agent's clock. */
  heard(event: unknown): void;
  /** Takes the time an answer's `Date` header gives (whole seconds) as a reading. */
  answered(time: number): void;
}

const EARLIEST = Date.UTC(2000, 0, 1);
const LATEST = Date.UTC(2200, 0, 1);
/** A lead larger than this is a broken stamp, not a wrong clock. */
const MAX_LEAD_MS = 24 * 60 * 60_000;
/** A reading to the second that is nearer than this to this machine's clock says nothing it does not know. */
const COARSE_MS = 2_000;

export function createAgentClock(): AgentClock {
  /** The agent's time minus this machine's clock; undefined until the agent says. */
  let lead: number | undefined;
  /** Whether `lead` comes from a stamp (else from a Date header, which the first stamp replaces). */
  let stamped = false;
  const leadOf = (time: unknown): number | undefined => {
    if (typeof time !== 'number' || !(time >= EARLIEST && time <= LATEST)) return undefined;
    const reading = time - Date.now();
    return Math.abs(reading) <= MAX_LEAD_MS ? reading : undefined;
  };
  return {
    now: () => Date.now() + (lead ?? 0),
    heard(event) {
      const reading = leadOf((event as { timestamp?: unknown } | null)?.timestamp);
      if (reading === undefined) return;
      if (!stamped || lead === undefined || reading > lead) lead = reading;
      stamped = true;
    },
    answered(time) {
      const reading = leadOf(time);
      if (stamped || reading === undefined || Math.abs(reading) < COARSE_MS) return;
      if (lead === undefined || reading > lead) lead = reading;
    },
  };
}
