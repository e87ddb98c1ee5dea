import { setImmediate } from 'node:timers/promises';
import type { BaseEvent } from '@ag-ui/core';
import { EventEncoder } from '@ag-ui/encoder';
import type { EventPlan, Scenario, TimedEvent } from '@aguikit/scenarios';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { effectIdempotencyKey } from '../storage/idempotency.js';
import { type EffectRecord, type RunRecord, type Storage, StorageUnavailable } from '../storage/types.js';
import { type LogFollower, PAGE, type Respond } from './followLog.js';
import { MIN_PAUSE_MS, pacer } from './pace.js';
import type { Producer, Producers } from './producers.js';
import type { Reservation } from './reservations.js';
import { eventsOf } from './runEvents.js';
import { ABSENT } from './sseClient.js';

/** What a stream of a run starts from, besides its first event (see `RunStreams.stream`). */
export interface StreamStart {
  /** The plan of a run just begun (nothing stored yet). */
  fresh?: EventPlan;
  /** Read and produce from this earlier index, sending only from the stream's first event. */
  readFrom?: number;
  /** The room the run (or this stream of it) holds, held until the run is produced. */
  reservation?: Reservation;
}

export interface RunProducerOptions {
  storage: Storage;
  now: () => number;
  onEffect: (record: EffectRecord) => void;
  /** Where a run produced without a request logs. */
  log: () => FastifyBaseLogger;
  producers: Producers;
  respond: Respond;
  deliver: LogFollower['deliver'];
}

/**
 * Produces a run from its record (see `RunStreams.stream`), sending what its client (none: `finish`) asked for.
 * Resolves false when storage failed before the run's end (`StorageUnavailable`): what is left of it is to be
 * produced again once storage is back.
 */
export type ProduceRun = (
  to: { request: FastifyRequest; reply: FastifyReply } | undefined,
  scenario: Scenario,
  run: RunRecord,
  from: number,
  speed: number,
  extra?: StreamStart,
) => Promise<boolean>;

/** The longest a run produced without pauses holds the event loop before it lets other work run. */
const YIELD_EVERY_MS = 10;

export function runProducer(options: RunProducerOptions): ProduceRun {
  const { storage, producers, respond, deliver } = options;
  const encoder = new EventEncoder();

  return async function produce(to, scenario, run, from, speed, extra = {}) {
    const { fresh } = extra;
    const log = to?.request.log ?? options.log();
    const producer = producers.live.get(run.runId) as Producer;
    const { pace } = producer;
    const readFrom = Math.min(from, extra.readFrom ?? from);
    let page = fresh ? [] : await storage.events(run.runId, readFrom, PAGE);
    const client = to ? respond(to.request, to.reply, run.runId) : ABSENT;
    /** The client, once it fell behind (see `offer`): reading the rest from the log. */
    let behind: Promise<void> | undefined;
    /** It fell behind: once it takes what it was sent (`taken`), it reads the rest from the log, as a reconnect does. */
    const catchUp = async (taken: Promise<boolean>, next: number) => {
      // Meanwhile it holds its request's body, as the stream of a reconnect does: the bytes the run holds for it
      // already, held on past the run's end, not room taken for them a second time.
      const hold = extra.reservation?.share();
      try {
        await taken;
        await deliver(
          client,
          run.runId,
          next,
          log,
          pacer(pace, () => eventsOf(scenario, run.input, run.startedAt, run.nonce)),
          undefined,
          producer,
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
          if (producer.readers > 0 && at - performance.now() >= MIN_PAUSE_MS) await producers.pause(at - performance.now(), producer);
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
        producers.wakeFollowers(run.runId);
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
      // Headers are out: the stream ends short. The rest is produced again once storage is back (`RunStreams`), and
      // the client reconnects for it.
      log.error({ err: e, runId: run.runId, index }, e instanceof StorageUnavailable ? 'storage unavailable mid-stream' : 'stream failed');
      if (e instanceof StorageUnavailable) return false;
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
    return true;
  };
}
