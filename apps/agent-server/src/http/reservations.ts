/** Room held among the runs being produced (see `RunStreams.reserve`). */
export interface Reservation {
  /** The request-body bytes it holds room for. */
  readonly bytes: number;
  /** Whether it holds room among `maxRuns` (a run's), or bytes alone (a stream's: see `RunStreams.reserve`). */
  readonly run: boolean;
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

/** Room among the runs being produced: `reserve` for a request, `queue` for a run that waits its turn. */
export interface Room {
  /** Room now (see `RunStreams.reserve`), or undefined when there is none. */
  (bytes: number, kind?: 'run' | 'stream'): Reservation | undefined;
  /**
   * Room for a run produced without a request (one a killed process left
   * unfinished) holding `bytes` of input, once there is some: such runs take
   * their turns first, so while one waits, a request's run finds no room.
   */
  queue(bytes: number): Promise<Reservation>;
}

/**
 * The room among the runs being produced: the runs, the reservations of any
 * kind, and the input bytes they hold. `reserve` (see `RunStreams.reserve`)
 * answers undefined when there is none.
 */
export function roomAmongRuns(limits: RoomLimits): Room {
  let reservedRuns = 0;
  let reservations = 0;
  let reservedBytes = 0;
  /** Runs waiting their turn (`Room.queue`), first come first: each is given the room of the next run to end. */
  const queued: { bytes: number; give: (reservation: Reservation) => void }[] = [];

  const fits = (bytes: number, run: number) =>
    reservedRuns + run <= limits.maxRuns && (reservations === 0 || reservedBytes + bytes <= limits.maxRunInputBytes);

  /** Gives the room that runs and streams left to the runs waiting for it, in turn. */
  const handOn = () => {
    for (let next = queued[0]; next && fits(next.bytes, 1); next = queued[0]) {
      queued.shift();
      next.give(take(next.bytes, 1));
    }
  };

  const reserve = (bytes: number, kind: 'run' | 'stream' = 'run') => {
    const run = kind === 'run' ? 1 : 0;
    // A run that waits its turn is ahead of any a request asks for.
    if ((run > 0 && queued.length > 0) || !fits(bytes, run)) return undefined;
    return take(bytes, run);
  };

  function take(bytes: number, run: number): Reservation {
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
      handOn();
    };
    return {
      bytes,
      run: run > 0,
      release() {
        if (!held) return;
        held = false;
        reservedRuns -= run;
        letGo();
        // Its bytes may be held on (`share`): the run's room is free all the same.
        handOn();
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
  }

  return Object.assign(reserve, {
    queue: (bytes: number) =>
      new Promise<Reservation>((give) => {
        queued.push({ bytes, give });
        handOn();
      }),
  });
}
