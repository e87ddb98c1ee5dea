import { MIN_PAUSE_MS, type Pace } from './pace.js';

/** A run this server is producing. */
export interface Producer {
  /** How many of its events are stored. */
  stored: number;
  /** The streams waiting for its next event. */
  waiting: Set<() => void>;
  /** The clients reading it now (its own and those following it): while none is, it is produced without pauses. */
  readers: number;
  /** Ends the pause it is in, once its last reader goes. */
  idle?: (() => void) | undefined;
  /** When each of its events is due. */
  pace: Pace;
  /** Storage failed under it before the run's end: what its log holds is not the whole run (it is produced again). */
  failed?: boolean;
}

/** The runs this server is producing, and the paces of those it produced ahead of them. */
export interface Producers {
  /** The runs this server is producing, by id. */
  readonly live: Map<string, Producer>;
  /** Wakes the streams waiting for the run's next event. */
  wakeFollowers(runId: string): void;
  /** The pace of a run produced here ahead of it, while an event of it is still to come due. */
  paceOf(runId: string): Pace | undefined;
  /** Keeps the pace of a run produced to its end ahead of it, for a client that comes back before its last event is due. */
  remember(runId: string, pace: Pace): void;
  /**
   * A pause of the run's pacing: `ms`, or less once the last client reading it
   * goes, or none once the server stops (what is left is produced at once).
   */
  pause(ms: number, producer: Producer): Promise<void>;
  /** The server stops: each pause ends now, and none is taken from now on. */
  stop(): void;
}

/** Runs produced ahead of their pace whose last event is not yet due, remembered at most (the oldest forgotten first). */
const MAX_PACES = 1024;

export function createProducers(): Producers {
  const live = new Map<string, Producer>();
  /** The pace of each run produced here ahead of it whose last event is not yet due, by id (`Pace`). */
  const paces = new Map<string, Pace>();
  /** What wakes each paced wait early, once the server stops. */
  const wakers = new Set<() => void>();
  let stopping = false;

  function paceOf(runId: string): Pace | undefined {
    const pace = live.get(runId)?.pace ?? paces.get(runId);
    if (pace && pace.until !== undefined && pace.until - performance.now() < MIN_PAUSE_MS) {
      paces.delete(runId);
      return undefined;
    }
    return pace;
  }

  return {
    live,
    wakeFollowers(runId) {
      const producer = live.get(runId);
      if (!producer) return;
      for (const wake of [...producer.waiting]) wake();
      producer.waiting.clear();
    },
    paceOf,
    remember(runId, pace) {
      if (!pace.early || pace.until === undefined || pace.until - performance.now() < MIN_PAUSE_MS) return;
      paces.delete(runId);
      paces.set(runId, pace);
      if (paces.size <= MAX_PACES) return;
      for (const id of paces.keys()) paceOf(id);
      for (const id of paces.keys()) {
        if (paces.size <= MAX_PACES) break;
        paces.delete(id);
      }
    },
    pause: (ms, producer) =>
      new Promise<void>((resolve) => {
        if (stopping) return resolve();
        const done = () => {
          clearTimeout(timer);
          wakers.delete(done);
          if (producer.idle === done) producer.idle = undefined;
          resolve();
        };
        const timer = setTimeout(done, ms);
        wakers.add(done);
        producer.idle = done;
      }),
    stop() {
      stopping = true;
      for (const wake of [...wakers]) wake();
    },
  };
}
