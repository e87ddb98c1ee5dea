import type { ServerResponse } from 'node:http';
import type { Scenario } from '@aguikit/scenarios';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { type EffectRecord, type RunRecord, type Storage, StorageUnavailable } from '../storage/types.js';
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
   * thrown (a 503), after it the stream ends with what was recorded. Either
   * way the run is produced again, without a client, once storage is back.
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
   * Whether `stream` with `extra` would produce the run (from its record, to
   * its end, as a new run is) rather than follow the stream producing it here
   * or read it at the pace it was produced at. A stream that produces it
   * holds room among the runs being produced as a new run does.
   */
  produces(runId: string, extra: StreamStart): boolean;
  /**
   * Room for one more run holding `bytes` of input among the runs being
   * produced (`maxRuns`, `maxRunInputBytes`), held until the run given it
   * (`stream`'s `reservation`) is produced or it is released; undefined when
   * there is none. `'stream'`: room for a stream of a run begun already (a
   * retry, a reconnect), which holds its request's body as long as it lasts:
   * it counts against the bytes, not the runs, and is held until that stream
   * ends (or, when it produces the run, until the run is produced). Either
   * kind's bytes are held on, once, while the client of the stream that
   * produces the run, fallen behind, reads the rest from the log. `runId`:
   * the run a stream that produces it is of; one storage failed under that
   * waits to be tried again hands it the room it kept, so the run holds one.
   */
  reserve(bytes: number, kind?: 'run' | 'stream', runId?: string): Reservation | undefined;
  /**
   * Produces a run to its end without a client: one a server that stopped
   * (kill -9, a power cut) left unfinished (`Storage.unfinished`). What its
   * log holds is kept, the rest made, performed and stored at once; a client
   * that comes for it meanwhile follows it, as it would any run produced here.
   * It takes room among the runs being produced as any run does (`maxRuns`):
   * past it, it waits its turn, ahead of the runs requests ask for.
   */
  finish(scenario: Scenario, run: RunRecord): Promise<void>;
  /** Ends every open response now; the runs go on, no longer paced, and `settled()` says when they are done. */
  endStreams(): void;
  /** Resolves once no run is being produced. */
  settled(): Promise<void>;
  /** When the oldest run being produced started (its record's `startedAt`); undefined when none is. */
  oldestProducing(): number | undefined;
  /**
   * Responses open, the bytes they hold unsent, runs being produced (with or without a client), and runs storage
   * failed under that wait to be tried again (`retrying`: one may hold its room among `maxRuns` meanwhile).
   */
  health(): { streams: number; bufferedBytes: number; runs: number; retrying: number };
  /**
   * For a request refused room (`reserve` with `bytes` and `kind`): how long until the next try of a run storage
   * failed under that keeps its room, when the rooms such runs keep are enough on their own to refuse it (they hold
   * every one of `maxRuns`, or the bytes it lacks). Undefined otherwise: the end of a run being produced frees what
   * it needs, whether or not storage comes back.
   */
  roomHeldForStorage(bytes: number, kind: 'run' | 'stream'): number | undefined;
  /** How long until run `runId`, storage failed under, is tried again; undefined when it waits for no try. */
  nextTry(runId: string): number | undefined;
}

/** A run storage failed under, to be produced again (see `again`). */
interface Retry {
  failures: number;
  /** Its pause is not over yet. */
  waiting: boolean;
  cancel(): void;
  /** The room it keeps, handed to the caller (a client come back for the run), once. */
  take(): Reservation | undefined;
  /** The room it keeps still, if any. */
  held(): Reservation | undefined;
  /** When (`performance.now()`) it is tried next. */
  due: number;
}

/** The pause before a run that storage failed under is produced again, doubled at each failure up to the longest. */
const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 30_000;

export function runStreams(options: RunStreamOptions): RunStreams {
  const { storage } = options;
  /** The responses streaming now, each with what ends it. */
  const open = new Map<ServerResponse, () => void>();
  /** The runs being produced. */
  const producing = new Set<Promise<void>>();
  /** The runs produced without a request (`finish`) that wait for room among the runs being produced. */
  const queued = new Set<Promise<void>>();
  /** The start of each run being produced or waiting to be (its turn, or to be tried again): retention never prunes one of them. */
  const starts = new Map<object, number>();
  /** The runs storage failed under, to be produced again (`again`): how often it failed, and what calls the next try off. */
  const retries = new Map<string, Retry>();
  /** The server stops: a run storage failed under is left to the next start. */
  let stopped = false;
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

  /**
   * Produces `record` (`run`), tracked until it is done: followed by any stream of it meanwhile, never pruned. One
   * that storage failed under is produced again later (`again`).
   */
  function track(
    scenario: Scenario,
    record: RunRecord,
    speed: number,
    run: () => Promise<boolean>,
    reservation: Reservation | undefined,
  ): Promise<void> {
    const producer: Producer = { stored: 0, waiting: new Set(), readers: 0, pace: { speed } };
    live.set(record.runId, producer);
    const produced = run();
    const tracked = produced
      // Storage that failed before the first byte (a 503 to the client, if any) fails the run the same way.
      .catch((e: unknown) => !(e instanceof StorageUnavailable))
      .then((whole) => {
        producer.failed = !whole;
        // A run storage failed under keeps its room among the runs being produced until it is tried again (`again`).
        if (whole || !reservation?.run) reservation?.release();
        producing.delete(tracked);
        starts.delete(tracked);
        // Its followers read the rest of the log and end.
        producers.wakeFollowers(record.runId);
        live.delete(record.runId);
        producers.remember(record.runId, producer.pace);
        if (whole) retries.get(record.runId)?.cancel();
        else again(scenario, record, reservation?.run ? reservation : undefined);
      });
    producing.add(tracked);
    starts.set(tracked, record.startedAt);
    return produced.then(() => undefined);
  }

  /**
   * Produces a run that storage failed under (a full disk, a lost connection) again after a pause, without a
   * client, as one a killed process left (`finish`): the run was accepted, its side effects are due whether or
   * not its client comes back. The pause doubles at each failure, up to `MAX_RETRY_MS`; a client that comes
   * back meanwhile has it produced. Meanwhile it is never pruned, and it keeps the room among the runs being
   * produced it had (`room`, released when the retry is called off), until the pause reaches `MAX_RETRY_MS` (about
   * 30 s of failures): it was accepted, and a paced run begun meanwhile does not push it back by up to
   * `maxPlaybackMs`. Once the server stops, it is left to the next start (`Storage.unfinished`). A client that
   * came back for it before its next try, and that storage failed under too, leaves the tries as they were: its
   * next try when it was due, its pause and its room as they were. The pauses measure how long storage has failed
   * under the run, not how often its client came back: a client coming back every 50 ms would otherwise have it give
   * its room up in under half a second, and put its next try 30 s off.
   */
  function again(scenario: Scenario, record: RunRecord, room?: Reservation): void {
    if (stopped) {
      room?.release();
      return;
    }
    const before = retries.get(record.runId);
    const waited = before?.waiting ? before : undefined;
    const failures = waited ? waited.failures : (before?.failures ?? 0) + 1;
    before?.cancel();
    const pause = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** (failures - 1));
    const delay = waited ? Math.max(0, waited.due - performance.now()) : pause;
    // One that storage has failed under through every shorter pause (a key of its own damaged, a long outage) gives
    // its room back: kept for good, the room would refuse every other run for as long. It waits its turn at each try.
    if (pause >= MAX_RETRY_MS) room?.release();
    let held = pause < MAX_RETRY_MS ? room : undefined;
    const cancel = () => {
      clearTimeout(timer);
      starts.delete(token);
      held?.release();
      held = undefined;
      if (retries.get(record.runId)?.cancel === cancel) retries.delete(record.runId);
    };
    const token = {};
    const timer = setTimeout(() => {
      starts.delete(token);
      retry.waiting = false;
      // The room goes with the try: a try that fails hands it on to the next.
      const turn = held;
      held = undefined;
      if (!stopped) void finish(scenario, record, turn);
      else turn?.release();
    }, delay);
    timer.unref();
    starts.set(token, record.startedAt);
    // A client that comes back for the run meanwhile produces it with the room it kept (`reserve`).
    const take = () => {
      const taken = held;
      held = undefined;
      return taken;
    };
    const retry: Retry = { failures, waiting: true, cancel, take, held: () => held, due: performance.now() + delay };
    retries.set(record.runId, retry);
  }

  /** `room`: the room the run holds already (tried again after storage failed under it); else it waits its turn. */
  function finish(scenario: Scenario, record: RunRecord, room?: Reservation): Promise<void> {
    if (live.has(record.runId)) {
      room?.release();
      return Promise.resolve();
    }
    // It holds its input as a request's run holds its body.
    const taken = room ? Promise.resolve(room) : reserve.queue(Buffer.byteLength(JSON.stringify(record.input)));
    const turn = taken.then((reservation) => {
      // A client that came back for it meanwhile had it produced; a server that stopped leaves it to the next start.
      if (stopped || live.has(record.runId)) return reservation.release();
      return track(scenario, record, 0, () => produce(undefined, scenario, record, 0, 0, { readFrom: 0 }), reservation);
    });
    // Waiting its turn, it is being produced as far as closing and pruning go.
    const waiting = turn
      .catch(() => {})
      .finally(() => {
        queued.delete(waiting);
        starts.delete(waiting);
      });
    queued.add(waiting);
    starts.set(waiting, record.startedAt);
    return turn;
  }

  /**
   * A run produced here already is not produced twice: a stream of it reads what its producer stores. One produced
   * to its end ahead of its pace is read at its pace (a stream that would make what its log lacks produces it).
   */
  function produces(runId: string, extra: StreamStart): boolean {
    return !(live.has(runId) || (extra.fresh === undefined && extra.readFrom === undefined && producers.paceOf(runId)));
  }

  return {
    produces,
    stream(request, reply, scenario, record, from, speed, extra = {}) {
      if (!produces(record.runId, extra)) return follow(request, reply, scenario, record, from).finally(() => extra.reservation?.release());
      return track(scenario, record, speed, () => produce({ request, reply }, scenario, record, from, speed, extra), extra.reservation);
    },
    finish,
    reserve: (bytes, kind = 'run', runId) => (kind === 'run' && runId !== undefined && retries.get(runId)?.take()) || reserve(bytes, kind),
    endStreams() {
      stopped = true;
      for (const retry of [...retries.values()]) retry.cancel();
      producers.stop();
      for (const end of [...open.values()]) end();
    },
    async settled() {
      while (producing.size > 0 || queued.size > 0) await Promise.all([...producing, ...queued]);
    },
    oldestProducing() {
      let oldest: number | undefined;
      for (const at of starts.values()) if (oldest === undefined || at < oldest) oldest = at;
      return oldest;
    },
    health() {
      let bufferedBytes = 0;
      for (const res of open.keys()) bufferedBytes += res.writableLength;
      let retrying = 0;
      for (const retry of retries.values()) if (retry.waiting) retrying++;
      return { streams: open.size, bufferedBytes, runs: producing.size, retrying };
    },
    roomHeldForStorage(bytes, kind) {
      let due: number | undefined;
      let runs = 0;
      let heldBytes = 0;
      for (const retry of retries.values()) {
        const room = retry.waiting ? retry.held() : undefined;
        if (!room) continue;
        if (room.run) runs++;
        heldBytes += room.bytes;
        if (due === undefined || retry.due < due) due = retry.due;
      }
      if (due === undefined) return undefined;
      const refuses = (kind === 'run' && runs >= options.maxRuns) || heldBytes + bytes > options.maxRunInputBytes;
      return refuses ? Math.max(0, due - performance.now()) : undefined;
    },
    nextTry(runId) {
      const retry = retries.get(runId);
      return retry?.waiting ? Math.max(0, retry.due - performance.now()) : undefined;
    },
  };
}
