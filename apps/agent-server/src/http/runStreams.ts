import type { ServerResponse } from 'node:http';
import { setImmediate } from 'node:timers/promises';
import type { BaseEvent } from '@ag-ui/core';
import { EventEncoder } from '@ag-ui/encoder';
import type { RunAgentInput } from '@aguikit/core';
import { type EventPlan, eventPlan, type Scenario, type TimedEvent } from '@aguikit/scenarios';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { effectIdempotencyKey } from '../storage/idempotency.js';
import { type EffectRecord, type RunRecord, type Storage, StorageUnavailable } from '../storage/types.js';
import type { Delivery } from './delivery.js';
import { MIN_PAUSE_MS, type Pace, pacer } from './pace.js';
import { ABSENT, openSseClient, type SseClient } from './sseClient.js';

/** Room held among the runs being produced (see `RunStreams.reserve`). */
export interface Reservation {
  /** The request-body bytes it holds room for. */
  readonly bytes: number;
  release(): void;
}

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
    extra?: { fresh?: EventPlan; readFrom?: number; reservation?: Reservation },
  ): Promise<void>;
  /**
   * Room for one more run holding `bytes` of input among the runs being
   * produced (`maxRuns`, `maxRunInputBytes`), held until the run given it
   * (`stream`'s `reservation`) is produced or it is released; undefined when
   * there is none. `'stream'`: room for a stream of a run begun already (a
   * retry, a reconnect), which holds its request's body as long as it lasts:
   * it counts against the bytes, not the runs, and is held until that stream
   * ends (or, when it produces the run, until the run is produced).
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

/** Frames read from storage at a time when a stream replays a run's log. */
const PAGE = 256;

/** The longest a run produced without pauses holds the event loop before it lets other work run. */
const YIELD_EVERY_MS = 10;

/** A run this server is producing. */
interface Producer {
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
}

/** Runs produced ahead of their pace whose last event is not yet due, remembered at most (the oldest forgotten first). */
const MAX_PACES = 1024;

/**
 * The events of a run, recomputed from its record (scenarios are pure
 * functions of input, clock and nonce), as a plan: each event is made as it
 * is sent, so a long run is not held in memory while it streams.
 */
export function eventsOf(scenario: Scenario, input: RunAgentInput, now: number, nonce: string): EventPlan {
  return eventPlan(scenario, input, { now, nonce });
}

export function runStreams(options: RunStreamOptions): RunStreams {
  const { storage } = options;
  const encoder = new EventEncoder();
  /** The responses streaming now, each with what ends it. */
  const open = new Map<ServerResponse, () => void>();
  /** The runs being produced. */
  const producing = new Set<Promise<void>>();
  /** The start of each run being produced: retention never prunes one of them. */
  const starts = new Map<Promise<void>, number>();
  /** What wakes each paced wait early, once the server stops. */
  const wakers = new Set<() => void>();
  /** The runs this server is producing, by id. */
  const live = new Map<string, Producer>();
  /** The pace of each run produced here ahead of it whose last event is not yet due, by id (`Pace`). */
  const paces = new Map<string, Pace>();
  const wakeFollowers = (runId: string) => {
    const producer = live.get(runId);
    if (!producer) return;
    for (const wake of [...producer.waiting]) wake();
    producer.waiting.clear();
  };
  let stopping = false;
  /** The runs, the reservations of any kind, and the input bytes they hold. */
  let reservedRuns = 0;
  let reservations = 0;
  let reservedBytes = 0;

  /**
   * A pause of the run's pacing: `ms`, or less once the last client reading it
   * goes, or none once the server stops (what is left is produced at once).
   */
  const pause = (ms: number, producer: Producer) =>
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
    });

  /** The pace of a run produced here ahead of it, while an event of it is still to come due. */
  function paceOf(runId: string): Pace | undefined {
    const pace = live.get(runId)?.pace ?? paces.get(runId);
    if (pace && pace.until !== undefined && pace.until - performance.now() < MIN_PAUSE_MS) {
      paces.delete(runId);
      return undefined;
    }
    return pace;
  }

  /** Keeps the pace of a run produced to its end ahead of it, for a client that comes back before its last event is due. */
  function remember(runId: string, pace: Pace): void {
    if (!pace.early || pace.until === undefined || pace.until - performance.now() < MIN_PAUSE_MS) return;
    paces.delete(runId);
    paces.set(runId, pace);
    if (paces.size <= MAX_PACES) return;
    for (const id of paces.keys()) paceOf(id);
    for (const id of paces.keys()) {
      if (paces.size <= MAX_PACES) break;
      paces.delete(id);
    }
  }

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

  /**
   * Sends a client a run's frames from `from`: those its log holds, then each
   * one its producer stores, until the producer is done and the log is read
   * to its end; each once it is due (`ahead`: a run produced ahead of its
   * pace). Ends the response. `first`: the frames from `from` read already.
   */
  async function deliver(
    client: SseClient,
    runId: string,
    from: number,
    log: FastifyBaseLogger,
    ahead: (index: number) => number,
    first?: string[],
  ): Promise<void> {
    let index = from;
    try {
      let page = first ?? (await storage.events(runId, index, PAGE));
      // Once the producer is done, the log is read once more: it may have stored its last frames after the read before.
      for (let last = false; !client.closed; ) {
        for (const frame of page) {
          const wait = ahead(index);
          if (wait >= MIN_PAUSE_MS) await client.sleep(wait);
          if (!(await client.send(frame))) break;
          index++;
        }
        if (client.closed) break;
        if (page.length < PAGE) {
          const producer = live.get(runId);
          if (!producer && last) {
            // The log read to its end, its producer done: the run's end (or all that a failed producer stored).
            client.sentEnd();
            break;
          }
          if (!producer) last = true;
          else if (producer.stored <= index) await client.until((wake) => producer.waiting.add(wake));
        }
        page = await storage.events(runId, index, PAGE);
      }
    } catch (e) {
      log.error({ err: e, runId, index }, e instanceof StorageUnavailable ? 'storage unavailable mid-stream' : 'stream failed');
    } finally {
      const gone = client.end();
      log.info({ runId, from, to: index, sent: client.sent, closedByClient: gone, followed: true }, 'stream ended');
    }
  }

  /**
   * Streams a run that this server is producing already (a retry, a
   * reconnect), or produced ahead of its pace a moment ago: its stored frames
   * from `from`, then each one its producer stores, each once it is due.
   */
  async function follow(request: FastifyRequest, reply: FastifyReply, scenario: Scenario, run: RunRecord, from: number): Promise<void> {
    const first = await storage.events(run.runId, from, PAGE);
    const ahead = pacer(paceOf(run.runId), () => eventsOf(scenario, run.input, run.startedAt, run.nonce));
    await deliver(respond(request, reply, run.runId), run.runId, from, request.log, ahead, first);
  }

  /** Produces a run from its record (see `stream`), sending what its client (none: `finish`) asked for. */
  async function produce(
    to: { request: FastifyRequest; reply: FastifyReply } | undefined,
    scenario: Scenario,
    run: RunRecord,
    from: number,
    speed: number,
    extra: { fresh?: EventPlan; readFrom?: number; reservation?: Reservation } = {},
  ): Promise<void> {
    const { fresh } = extra;
    const log = to?.request.log ?? options.log();
    const producer = live.get(run.runId) as Producer;
    const { pace } = producer;
    const readFrom = Math.min(from, extra.readFrom ?? from);
    let page = fresh ? [] : await storage.events(run.runId, readFrom, PAGE);
    const client = to ? respond(to.request, to.reply, run.runId) : ABSENT;
    /** The client, once it fell behind (see `offer`): reading the rest from the log. */
    let behind: Promise<void> | undefined;
    /** It fell behind: once it takes what it was sent (`taken`), it reads the rest from the log, as a reconnect does. */
    const catchUp = async (taken: Promise<boolean>, next: number) => {
      // Meanwhile it holds its request's body, as the stream of a reconnect does: with no room for it, it is dropped.
      const hold = reserve(extra.reservation?.bytes ?? 0, 'stream');
      if (!hold) client.drop();
      try {
        await taken;
        await deliver(
          client,
          run.runId,
          next,
          log,
          pacer(pace, () => eventsOf(scenario, run.input, run.startedAt, run.nonce)),
        );
      } finally {
        hold?.release();
      }
    };
    /**
     * Sends the client frame `i` as the run makes it. A client that has taken nothing for `stallTimeoutMs` is no
     * longer waited for: the run goes on without it (at once, when no other client reads it), and it falls behind.
     */
    const offer = async (frame: string, i: number) => {
      if ((await client.offer(frame)) === 'stalled') behind = catchUp(client.pending, i + 1);
    };

    let index = readFrom;
    try {
      for (;;) {
        for (const frame of page) {
          if (index >= from && !behind && !client.closed) await offer(frame, index);
          index++;
        }
        if (page.length < PAGE) break;
        page = await storage.events(run.runId, index, PAGE);
      }
      page = [];
      const events = fresh ?? eventsOf(scenario, run.input, run.startedAt, run.nonce);
      let due = 0;
      const start = performance.now();
      let yielded = start;
      for (let i = index; i < events.length; i++) {
        const item = events.at(i) as TimedEvent;
        // What the client has already (made again only to be stored and performed) goes at once.
        if (i >= from && speed > 0) {
          due += item.delayMs / speed;
          const at = start + due;
          if (producer.readers > 0 && at - performance.now() >= MIN_PAUSE_MS) await pause(at - performance.now(), producer);
          // No client reads the run (each went, or none came): the rest is produced at once, its room among the runs
          // freed as soon as it can be. A client that comes back reads each event when it is due (`Pace`), and the
          // run is paced again from where it is.
          if (pace.early === undefined && at - performance.now() >= MIN_PAUSE_MS) pace.early = { index: i, at };
        }
        // Produced without pauses, a run still lets the server do other work every few milliseconds.
        if (performance.now() - yielded >= YIELD_EVERY_MS) {
          await setImmediate();
          yielded = performance.now();
        }
        if (item.effect) {
          const effect: EffectRecord = {
            ...item.effect,
            idempotencyKey: effectIdempotencyKey(run.threadId, item.effect),
            runId: run.runId,
            at: options.now(),
          };
          options.onEffect((await storage.performEffect(effect)).record);
        }
        // Stamped with the server's time as it is produced: a client whose own clock is off measures expiresAt by it.
        const event = { ...(item.event as unknown as BaseEvent), timestamp: options.now() };
        const frame = `id: ${run.runId}:${i}\n${encoder.encodeSSE(event)}`;
        // Another stream of the run (a retry, another instance) may have stored this event first: its frame is the one sent.
        const stored = await storage.appendEvent(run.runId, i, frame);
        producer.stored = i + 1;
        wakeFollowers(run.runId);
        if (i >= from && !behind && !client.closed) await offer(stored ? frame : ((await storage.events(run.runId, i, 1))[0] ?? frame), i);
        index = i + 1;
      }
      if (index >= events.length) {
        if (speed > 0) pace.until = start + due;
        if (!behind) client.sentEnd();
        // Produced to its end: a server that starts has nothing of it to finish (a failure here only means it would).
        await storage
          .produced(run.runId)
          .catch((e: unknown) => log.warn({ err: e, runId: run.runId }, 'could not note that a run was produced'));
      }
    } catch (e) {
      // Headers are out: the stream ends short, and the client reconnects for the rest once storage is back.
      log.error({ err: e, runId: run.runId, index }, e instanceof StorageUnavailable ? 'storage unavailable mid-stream' : 'stream failed');
    } finally {
      // A client fallen behind is ended as it reads the log to its end.
      if (!behind) {
        const gone = client.end();
        log.info(
          { runId: run.runId, from, to: index, sent: client.sent, closedByClient: gone, ...(to ? {} : { finished: true }) },
          'stream ended',
        );
      }
    }
  }

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
        wakeFollowers(record.runId);
        live.delete(record.runId);
        remember(record.runId, producer.pace);
      });
    producing.add(tracked);
    starts.set(tracked, record.startedAt);
    return produced;
  }

  function reserve(bytes: number, kind: 'run' | 'stream' = 'run'): Reservation | undefined {
    const run = kind === 'run' ? 1 : 0;
    if (reservedRuns + run > options.maxRuns || (reservations > 0 && reservedBytes + bytes > options.maxRunInputBytes)) return undefined;
    reservedRuns += run;
    reservations++;
    reservedBytes += bytes;
    let held = true;
    return {
      bytes,
      release() {
        if (!held) return;
        held = false;
        reservedRuns -= run;
        reservations--;
        reservedBytes -= bytes;
      },
    };
  }

  return {
    stream(request, reply, scenario, record, from, speed, extra = {}) {
      // A run produced here already is not produced twice: this stream reads what its producer stores. One produced
      // to its end ahead of its pace is read at its pace (a stream that would make what its log lacks produces it).
      if (live.has(record.runId) || (extra.fresh === undefined && extra.readFrom === undefined && paceOf(record.runId)))
        return follow(request, reply, scenario, record, from).finally(() => extra.reservation?.release());
      return track(record, speed, () => produce({ request, reply }, scenario, record, from, speed, extra), extra.reservation);
    },
    finish(scenario, record) {
      if (live.has(record.runId)) return Promise.resolve();
      return track(record, 0, () => produce(undefined, scenario, record, 0, 0, { readFrom: 0 }), undefined);
    },
    reserve,
    endStreams() {
      stopping = true;
      for (const wake of [...wakers]) wake();
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
