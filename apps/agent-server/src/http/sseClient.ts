import type { ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Delivery } from './delivery.js';

/** One client's SSE response to a run. */
export interface SseClient {
  /** The client went (or its response was ended). */
  readonly closed: boolean;
  /** Frames it took. */
  readonly sent: number;
  /**
   * Writes a frame; resolves true once the client took it, false when it went
   * (or was dropped after the drain timeout).
   */
  send(frame: string): Promise<boolean>;
  /**
   * Writes a frame, as `send`, but resolves `'stalled'` once the client has
   * taken nothing for the stall timeout: `pending` then says when it takes it
   * (or goes).
   */
  offer(frame: string): Promise<'taken' | 'gone' | 'stalled'>;
  /** What the last `offer` that stalled waits for: true once the client takes what was written, false when it goes. */
  readonly pending: Promise<boolean>;
  /** Says the run's last event was sent, when the client is still there to have read it. */
  sentEnd(): void;
  /** Resolves once `wait` wakes it, or the client goes. */
  until(wait: (wake: () => void) => void): Promise<void>;
  /** Resolves after `ms`, or once the client goes. */
  sleep(ms: number): Promise<void>;
  /** Ends the response; answers whether the client had gone first. */
  end(): boolean;
}

export interface SseClientOptions {
  heartbeatMs: number;
  /** A client whose stream has not drained for this long is disconnected. */
  drainTimeoutMs: number;
  /** A client whose stream has not drained for this long no longer counts as reading its run (`reading`). */
  stallTimeoutMs: number;
  delivery: Delivery;
  /**
   * Told whether the client reads the run: true as it opens, false once it
   * goes, or has taken nothing for the stall timeout (true again once it
   * takes what was written). Told only when that changes.
   */
  reading: (now: boolean) => void;
  /** The responses streaming now, each with what ends it. */
  open: Map<ServerResponse, () => void>;
}

const SSE_HEADERS = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache',
  'X-Accel-Buffering': 'no',
};

const TAKEN = Promise.resolve('taken' as const);
const GONE = Promise.resolve('gone' as const);

/** The client of a run produced with none (`RunStreams.finish`): gone from the start. */
export const ABSENT: SseClient = {
  closed: true,
  sent: 0,
  send: async () => false,
  offer: async () => 'gone',
  pending: Promise.resolve(false),
  sentEnd() {},
  until: async () => {},
  sleep: async () => {},
  end: () => true,
};

/** Opens a run's SSE response: its heartbeat, its end when the client goes, and a send that waits for a slow reader. */
export function openSseClient(request: FastifyRequest, reply: FastifyReply, runId: string, options: SseClientOptions): SseClient {
  const res = reply.raw;
  reply.hijack();
  res.writeHead(200, { ...(reply.getHeaders() as Record<string, string>), ...SSE_HEADERS });
  res.flushHeaders();
  let closed = false;
  /** The run's end was sent to this client while it was there. */
  let sentEnd = false;
  let counted = false;
  options.delivery.opened(runId);
  let reading = false;
  const read = (now: boolean) => {
    if (reading === now) return;
    reading = now;
    options.reading(now);
  };
  read(true);
  let wakeDrain: (() => void) | undefined;
  /** What wakes a stream that waits (for its run's next event, or until one is due), once its client goes. */
  let wakeWait: (() => void) | undefined;
  const heartbeat = setInterval(() => closed || res.write(': ping\n\n'), options.heartbeatMs);
  const onClose = () => {
    closed = true;
    read(false);
    if (!counted) {
      counted = true;
      options.delivery.closed(runId, sentEnd);
    }
    options.open.delete(res);
    clearInterval(heartbeat);
    wakeDrain?.();
    wakeWait?.();
  };
  options.open.set(res, () => {
    onClose();
    res.end();
  });
  request.raw.on('close', onClose);
  res.on('close', onClose);
  // A client that went while the request waited on storage closed before these listeners were there to hear it.
  const socket = request.raw.socket;
  if (!socket || socket.destroyed) onClose();

  /**
   * Waits for the client to take what was written: true once it has; false (and the client dropped) when it has not
   * after the drain timeout. After the stall timeout it no longer counts as reading the run (`onStall` is told),
   * until it takes what was written: a slow reader is kept, and holds nothing back meanwhile.
   */
  const drained = (onStall?: () => void) =>
    new Promise<boolean>((resolve) => {
      const finish = (ok: boolean) => {
        clearTimeout(timer);
        clearTimeout(stall);
        res.off('drain', onDrain);
        wakeDrain = undefined;
        if (ok && !closed) read(true);
        resolve(ok && !closed);
      };
      const onDrain = () => finish(true);
      const stall =
        options.stallTimeoutMs < options.drainTimeoutMs
          ? setTimeout(() => {
              request.log.info({ runId, stallTimeoutMs: options.stallTimeoutMs }, 'client stopped reading: its run no longer waits for it');
              read(false);
              onStall?.();
            }, options.stallTimeoutMs)
          : undefined;
      const timer = setTimeout(() => {
        request.log.warn({ runId, drainTimeoutMs: options.drainTimeoutMs }, 'client stopped reading: disconnected');
        finish(false);
        res.destroy();
      }, options.drainTimeoutMs);
      res.on('drain', onDrain);
      wakeDrain = () => finish(false);
    });
  /** A wait that `wakeWait` ends early (the client goes). */
  const wait = (start: (wake: () => void) => void) =>
    new Promise<void>((resolve) => {
      if (closed) return resolve();
      const wake = () => {
        if (wakeWait === wake) wakeWait = undefined;
        resolve();
      };
      wakeWait = wake;
      start(wake);
    });
  let sent = 0;
  let pending = Promise.resolve(true);
  return {
    get closed() {
      return closed;
    },
    get sent() {
      return sent;
    },
    get pending() {
      return pending;
    },
    // A client that reads slower than the run streams holds the stream back rather than filling the server's memory.
    async send(frame) {
      if (closed) return false;
      if (res.write(frame) || (await drained())) {
        sent++;
        return true;
      }
      onClose();
      return false;
    },
    offer(frame) {
      if (closed) return GONE;
      if (res.write(frame)) {
        sent++;
        return TAKEN;
      }
      return new Promise((resolve) => {
        pending = drained(() => resolve('stalled')).then((ok) => {
          if (ok) sent++;
          else onClose();
          resolve(ok ? 'taken' : 'gone');
          return ok;
        });
      });
    },
    sentEnd() {
      if (!closed) sentEnd = true;
    },
    until: wait,
    sleep(ms) {
      let timer: NodeJS.Timeout | undefined;
      return wait((wake) => {
        timer = setTimeout(wake, ms);
      }).finally(() => clearTimeout(timer));
    },
    end() {
      const gone = closed;
      onClose();
      if (!gone) res.end();
      return gone;
    },
  };
}
