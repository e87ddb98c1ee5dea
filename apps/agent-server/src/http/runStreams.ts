import type { ServerResponse } from 'node:http';
import type { Scenario } from '@aguikit/scenarios';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { EffectRecord, RunRecord, Storage } from '../storage/types.js';
import type { Delivery } from './delivery.js';
import { logFollower } from './followLog.js';
import { runProducer, type StreamStart } from './produceRun.js';
import { createProducers, type Producer } from './producers.js';
import { type Reservation, roomAmongRuns } from './reservations.js';
import { openSseClient, type SseClient } from './sseClient.js';

export interface RunStreamOptions {
  storage: Storage;
  maxRuns: number;
  maxRunInputBytes: number;
  heartbeatMs: number;
  /** A client whose stream has not drained for this long is disconnected. */
  drainTimeoutMs: number;
  /**
   * A client whose stream has not drained for this long no longer holds its
   * run back: the run goes on without waiting for it (at once, when no other
   * client reads it), and the client, once it takes what was written, reads
   * the rest from the log.
   */
  stallTimeoutMs: number;
  now: () => number;
  onEffect: (record: EffectRecord) => void;
  /** Told when each client starts and stops reading a run, and whether it was sent the run's end. */
  delivery: Delivery;
  /** Where a run produced without a request logs (see `finish`). */
  log: () => FastifyBaseLogger;
}

export interface RunStreams {
  /**
   * Streams a run from event `from`: the frames its log holds first (sent as
   * they are), then the rest produced from its record, each performed (its
   * side effect), stored and only then sent. The run is produced to its end
   * whether or not its client stays: a client that goes (a closed tab, a
   * dropped connection) leaves the agent working, as a real one would, and a
   * reconnect reads what it did from the log. It is paced while a client
   * reads it (its own, or one following it); once none does (each went, or
   * has taken nothing for `stallTimeoutMs`), what is left is produced at
   * once, so a run left by its clients soon frees its room among the runs
   * being produced; a client that comes back reads each of those events when
   * it is due, as it would have had it stayed (`Pace`). A run this server is
   * producing already (or produced ahead of its pace, until its last event
   * is due) is not produced again: the stream reads its log and follows it
   * as the producer stores each event. Resolves once the run is
   * produced (or storage failed); a storage failure before the first byte is
   * thrown (a 503), after it the stream ends with what was recorded.
   * `fresh`: the plan of a run just begun (nothing stored yet). `readFrom`:
   * read and produce from this earlier index, sending only from `from` (a
   * client that has events the log lost or never held: they are made,
   * performed and stored, not sent).
   */
  stream(
    request: FastifyRequest,
    reply: FastifyReply,
    scenario: Scenario,
    run: RunRecord,
    from: number,
    speed: number,
    extra?: StreamStart,
  ): Promise<void>;
  /**
   * Room for one more run holding `bytes` of input among the runs being
   * produced (`maxRuns`, `maxRunInputBytes`), held until the run given it
   * (`stream`'s `reservation`) is produced or it is released; undefined when
   * there is none. `'stream'`: room for a stream of a run begun already (a
   * retry, a reconnect), which holds its request's body as long as it lasts:
   * it counts against the bytes, not the runs, and is held until that stream
   * ends (or, when it produces the run, until the run is produced). Either
   * kind's bytes are held on, once, while the client of the stream that
   * produces the run, fallen behind, reads the rest from the log.
   */
  reserve(bytes: number, kind?: 'run' | 'stream'): Reservation | undefined;
  /**
   * Produces a run to its end without a client: one a server that stopped
   * (kill -9, a power cut) left unfinished (`Storage.unfinished`). What its
   * log holds is kept, the rest made, performed and stored at once; a client
   * that comes for it meanwhile follows it, as it would any run produced here.
   */
  finish(scenario: Scenario, run: RunRecord): Promise<void>;
  /** Ends every open response now; the runs go on, no longer paced, and `settled()` says when they are done. */
  endStreams(): void;
  /** Resolves once no run is being produced. */
  settled(): Promise<void>;
  /** When the oldest run being produced started (its record's `startedAt`); undefined when none is. */
  oldestProducing(): number | undefined;
  /** Responses open, the bytes they hold unsent, and runs being produced (with or without a client). */
  health(): { streams: number; bufferedBytes: number; runs: number };
}

export function runStreams(options: RunStreamOptions): RunStreams {
  const { storage } = options;
  /** The responses streaming now, each with what ends it. */
  const open = new Map<ServerResponse, () => void>();
  /** The runs being produced. */
  const producing = new Set<Promise<void>>();
  /** The start of each run being produced: retention never prunes one of them. */
  const starts = new Map<Promise<void>, number>();
  const producers = createProducers();
  const { live } = producers;
  const reserve = roomAmongRuns(options);

  /** Opens a client's response to a run, counted among the readers of its producer (if any) while it reads. */
  function respond(request: FastifyRequest, reply: FastifyReply, runId: string): SseClient {
    const producer = live.get(runId);
    return openSseClient(request, reply, runId, {
      ...options,
      open,
      reading(now) {
        if (!producer) return;
        if (now) producer.readers++;
        // The last client reading the run went, or stopped taking what it is sent: its producer stops pacing it.
        else if (--producer.readers === 0) producer.idle?.();
      },
    });
  }

  const { deliver, follow } = logFollower(storage, producers, respond);
  const produce = runProducer({ ...options, producers, respond, deliver });

  /** Produces `record` (`run`), tracked until it is done: followed by any stream of it meanwhile, never pruned. */
  function track(record: RunRecord, speed: number, run: () => Promise<void>, reservation: Reservation | undefined): Promise<void> {
    const producer: Producer = { stored: 0, waiting: new Set(), readers: 0, pace: { speed } };
    live.set(record.runId, producer);
    const produced = run();
    const tracked = produced
      .catch(() => {})
      .finally(() => {
        reservation?.release();
        producing.delete(tracked);
        starts.delete(tracked);
        // Its followers read the rest of the log and end.
        producers.wakeFollowers(record.runId);
        live.delete(record.runId);
        producers.remember(record.runId, producer.pace);
      });
    producing.add(tracked);
    starts.set(tracked, record.startedAt);
    return produced;
  }

  return {
    stream(request, reply, scenario, record, from, speed, extra = {}) {
      // A run produced here already is not produced twice: this stream reads what its producer stores. One produced
      // to its end ahead of its pace is read at its pace (a stream that would make what its log lacks produces it).
      if (live.has(record.runId) || (extra.fresh === undefined && extra.readFrom === undefined && producers.paceOf(record.runId)))
        return follow(request, reply, scenario, record, from).finally(() => extra.reservation?.release());
      return track(record, speed, () => produce({ request, reply }, scenario, record, from, speed, extra), extra.reservation);
    },
    finish(scenario, record) {
      if (live.has(record.runId)) return Promise.resolve();
      return track(record, 0, () => produce(undefined, scenario, record, 0, 0, { readFrom: 0 }), undefined);
    },
    reserve,
    endStreams() {
      producers.stop();
      for (const end of [...open.values()]) end();
    },
    async settled() {
      while (producing.size > 0) await Promise.all(producing);
    },
    oldestProducing() {
      let oldest: number | undefined;
      for (const at of starts.values()) if (oldest === undefined || at < oldest) oldest = at;
      return oldest;
    },
    health() {
      let bufferedBytes = 0;
      for (const res of open.keys()) bufferedBytes += res.writableLength;
      return { streams: open.size, bufferedBytes, runs: producing.size };
    },
  };
}
