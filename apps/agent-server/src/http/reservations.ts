/** Room held among the runs being produced (see `RunStreams.reserve`). */
export interface Reservation {
  /** The request-body bytes it holds room for. */
  readonly bytes: number;
  release(): void;
  /**
   * Holds its bytes on past `release`, until the hold returned is released
   * too: a stream of its run that outlasts the run's production (a client
   * fallen behind, reading the rest from the log) holds the same body, and it
   * is counted once, freed by whichever goes last. The room of its run among
   * `maxRuns` is freed by `release` all the same.
   */
  share(): { release(): void };
}

/** What the runs being produced may hold at once. */
export interface RoomLimits {
  maxRuns: number;
  maxRunInputBytes: number;
}

/**
 * The room among the runs being produced: the runs, the reservations of any
 * kind, and the input bytes they hold. `reserve` (see `RunStreams.reserve`)
 * answers undefined when there is none.
 */
export function roomAmongRuns(limits: RoomLimits): (bytes: number, kind?: 'run' | 'stream') => Reservation | undefined {
  let reservedRuns = 0;
  let reservations = 0;
  let reservedBytes = 0;

  return function reserve(bytes, kind = 'run') {
    const run = kind === 'run' ? 1 : 0;
    if (reservedRuns + run > limits.maxRuns || (reservations > 0 && reservedBytes + bytes > limits.maxRunInputBytes)) return undefined;
    reservedRuns += run;
    reservations++;
    reservedBytes += bytes;
    let held = true;
    /** What holds the bytes: the reservation itself while it is held, and each hold shared from it. */
    let holders = 1;
    const letGo = () => {
      if (--holders > 0) return;
      reservations--;
      reservedBytes -= bytes;
    };
    return {
      bytes,
      release() {
        if (!held) return;
        held = false;
        reservedRuns -= run;
        letGo();
      },
      share() {
        // Released already: the bytes are held by nothing, and are not taken again.
        if (holders === 0) return { release() {} };
        holders++;
        let shared = true;
        return {
          release() {
            if (!shared) return;
            shared = false;
            letGo();
          },
        };
      },
    };
  };
}
