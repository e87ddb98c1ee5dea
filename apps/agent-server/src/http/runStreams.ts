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

/** Room held among the runs being produced (see `RunStreams.reserve`). */
export interface Reservation {
  release(): void;
}

export interface RunStreamOptions {
  storage: Storage;
  maxRuns: number;
  maxRunInputBytes: number;
  heartbeatMs: number;
  /** A client whose stream has not drained for this long is disconnected. */
  drainTimeoutMs: number;
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
   * reads it (its own, or one following it); once none does, what is left is
   * produced at once, so a run left by its clients soon frees its room among
   * the runs being produced. A run this server is
   * producing already is not produced again: the stream reads its log and
   * follows it as the producer stores each event. Resolves once the run is
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
}

const SSE_HEADERS = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache',
  'X-Accel-Buffering': 'no',
};

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

  /** The client of a run produced with none (`finish`): gone from the start. */
  const ABSENT = {
    closed: true,
    sent: 0,
    async send(_frame: string) {},
    sentEnd() {},
    end: () => true,
  };

  /** Opens a run's SSE response: its heartbeat, its end when the client goes, and a send that waits for a slow reader. */
  function respond(request: FastifyRequest, reply: FastifyReply, runId: string) {
    const res = reply.raw;
    reply.hijack();
    res.writeHead(200, { ...(reply.getHeaders() as Record<string, string>), ...SSE_HEADERS });
    res.flushHeaders();
    let closed = false;
    /** The run's end was sent to this client while it was there. */
    let sentEnd = false;
    let counted = false;
    options.delivery.opened(runId);
    const producer = live.get(runId);
    if (producer) producer.readers++;
    let wakeDrain: (() => void) | undefined;
    /** What wakes a stream that waits for its run's next event, once its client goes. */
    let wakeWait: (() => void) | undefined;
    const heartbeat = setInterval(() => closed || res.write(': ping\n\n'), options.heartbeatMs);
    const onClose = () => {
      closed = true;
      if (!counted) {
        counted = true;
        options.delivery.closed(runId, sentEnd);
        // The last client reading the run went: its producer stops pacing it.
        if (producer && --producer.readers === 0) producer.idle?.();
      }
      open.delete(res);
      clearInterval(heartbeat);
      wakeDrain?.();
      wakeWait?.();
    };
    open.set(res, () => {
      onClose();
      res.end();
    });
    request.raw.on('close', onClose);
    res.on('close', onClose);
    // A client that went while the request waited on storage closed before these listeners were there to hear it.
    const socket = request.raw.socket;
    if (!socket || socket.destroyed) onClose();

    /** Waits for the client to take what was written; false (and the client dropped) when it has not after the drain timeout. */
    const drained = () =>
      new Promise<boolean>((resolve) => {
        const finish = (ok: boolean) => {
          clearTimeout(timer);
          res.off('drain', onDrain);
          wakeDrain = undefined;
          resolve(ok && !closed);
        };
        const onDrain = () => finish(true);
        const timer = setTimeout(() => {
          request.log.warn({ runId, drainTimeoutMs: options.drainTimeoutMs }, 'client stopped reading: disconnected');
          finish(false);
          res.destroy();
        }, options.drainTimeoutMs);
        res.on('drain', onDrain);
        wakeDrain = () => finish(false);
      });
    let sent = 0;
    return {
      get closed() {
        return closed;
      },
      get sent() {
        return sent;
      },
      // A client that reads slower than the run streams holds the run back rather than filling the server's memory.
      async send(frame: string) {
        if (closed) return;
        if (res.write(frame) || (await drained())) sent++;
        else onClose();
      },
      /** Says the run's last event was sent, when the client is still there to have read it. */
      sentEnd() {
        if (!closed) sentEnd = true;
      },
      /** Resolves once `wait` wakes it, or the client goes. */
      until(wait: (wake: () => void) => void) {
        return new Promise<void>((resolve) => {
          if (closed) return resolve();
          wakeWait = resolve;
          wait(resolve);
        });
      },
      end() {
        const gone = closed;
        onClose();
        if (!gone) res.end();
        return gone;
      },
    };
  }

  /**
   * Streams a run that this server is producing already (a retry, a
   * reconnect): its stored frames from `from`, then each one its producer
   * stores, until the producer is done and the log is read to its end.
   */
  async function follow(request: FastifyRequest, reply: FastifyReply, runId: string, from: number): Promise<void> {
    const first = await storage.events(runId, from, PAGE);
    const client = respond(request, reply, runId);
    let index = from;
    try {
      let page = first;
      // Once the producer is done, the log is read once more: it may have stored its last frames after the read before.
      for (let last = false; !client.closed; ) {
        for (const frame of page) await client.send(frame);
        index += page.length;
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
      request.log.error({ err: e, runId, index }, e instanceof StorageUnavailable ? 'storage unavailable mid-stream' : 'stream failed');
    } finally {
      const gone = client.end();
      request.log.info({ runId, from, to: index, sent: client.sent, closedByClient: gone, followed: true }, 'stream ended');
    }
  }

  /** Produces a run from its record (see `stream`), sending what its client (none: `finish`) asked for. */
  async function produce(
    to: { request: FastifyRequest; reply: FastifyReply } | undefined,
    scenario: Scenario,
    run: RunRecord,
    from: number,
    speed: number,
    extra: { fresh?: EventPlan; readFrom?: number } = {},
  ): Promise<void> {
    const { fresh } = extra;
    const log = to?.request.log ?? options.log();
    const producer = live.get(run.runId) as Producer;
    const readFrom = Math.min(from, extra.readFrom ?? from);
    let page = fresh ? [] : await storage.events(run.runId, readFrom, PAGE);
    const client = to ? respond(to.request, to.reply, run.runId) : ABSENT;
    const send = client.send;

    let index = readFrom;
    try {
      for (;;) {
        for (const frame of page) {
          if (index >= from) await send(frame);
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
        if (i >= from && producer.readers > 0) {
          due += speed > 0 ? item.delayMs / speed : 0;
          const wait = due - (performance.now() - start);
          if (wait >= 4) await pause(wait, producer);
        } else if (i >= from) {
          // No client reads the run (each went, or none came): the rest is produced at once, its room among the
          // runs freed as soon as it can be. A client that comes back is paced from here.
          due = performance.now() - start;
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
        if (!client.closed && i >= from) await send(stored ? frame : ((await storage.events(run.runId, i, 1))[0] ?? frame));
        index = i + 1;
      }
      if (index >= events.length) {
        client.sentEnd();
        // Produced to its end: a server that starts has nothing of it to finish (a failure here only means it would).
        await storage
          .produced(run.runId)
          .catch((e: unknown) => log.warn({ err: e, runId: run.runId }, 'could not note that a run was produced'));
      }
    } catch (e) {
      // Headers are out: the stream ends short, and the client reconnects for the rest once storage is back.
      log.error({ err: e, runId: run.runId, index }, e instanceof StorageUnavailable ? 'storage unavailable mid-stream' : 'stream failed');
    } finally {
      const gone = client.end();
      log.info(
        { runId: run.runId, from, to: index, sent: client.sent, closedByClient: gone, ...(to ? {} : { finished: true }) },
        'stream ended',
      );
    }
  }

  /** Produces `record` (`run`), tracked until it is done: followed by any stream of it meanwhile, never pruned. */
  function track(record: RunRecord, run: () => Promise<void>, reservation: Reservation | undefined): Promise<void> {
    live.set(record.runId, { stored: 0, waiting: new Set(), readers: 0 });
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
      });
    producing.add(tracked);
    starts.set(tracked, record.startedAt);
    return produced;
  }

  return {
    stream(request, reply, scenario, record, from, speed, extra = {}) {
      // A run produced here already is not produced twice: this stream reads what its producer stores.
      if (live.has(record.runId)) return follow(request, reply, record.runId, from).finally(() => extra.reservation?.release());
      return track(record, () => produce({ request, reply }, scenario, record, from, speed, extra), extra.reservation);
    },
    finish(scenario, record) {
      if (live.has(record.runId)) return Promise.resolve();
      return track(record, () => produce(undefined, scenario, record, 0, 0, { readFrom: 0 }), undefined);
    },
    reserve(bytes, kind = 'run') {
      const run = kind === 'run' ? 1 : 0;
      if (reservedRuns + run > options.maxRuns || (reservations > 0 && reservedBytes + bytes > options.maxRunInputBytes)) return undefined;
      reservedRuns += run;
      reservations++;
      reservedBytes += bytes;
      let held = true;
      return {
        release() {
          if (!held) return;
          held = false;
          reservedRuns -= run;
          reservations--;
          reservedBytes -= bytes;
        },
      };
    },
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
