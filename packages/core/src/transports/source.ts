import type { ConnectionStatus } from '../model.js';
import type { AgentCapabilities, RunAgentInput } from '../protocol.js';

export interface SourceRunOptions {
  /** Aborts the request and ends the iteration. */
  signal?: AbortSignal;
  /** Told how the connection goes: connecting, open, reconnecting, closed or failed. */
  onConnection?: (status: ConnectionStatus) => void;
  /** Told, just before each `reconnecting`, which retry it is (from 1) and how many the source makes at most. */
  onReconnecting?: (attempt: number, attempts: number) => void;
  /** Resume a stream the server identified with SSE ids: only events after this id are wanted (sent as `Last-Event-ID`). */
  lastEventId?: string;
  /** Told the SSE id of each event yielded, so a later `run` can resume after it; `''` when the agent reset it (nothing to resume after). */
  onEventId?: (id: string) => void;
  /**
   * An object the caller keeps for one run's stream, and gives again to the
   * `run` that resumes it (`lastEventId`): a source may keep there where the
   * stream stands (`httpSseSource` keeps the SSE ids it handed over, to skip
   * by id what a server resuming from an earlier point sends again). The
   * controller gives each run its own, which its `reconnect()` hands on.
   */
  streamState?: object;
  /**
   * Told the server's time as a successful answer states it (ms since the
   * epoch, to the second: the HTTP `Date` header, where the page may read it).
   */
  onServerTime?: (time: number) => void;
}

/**
 * Where events come from: one call per run. It yields raw event objects as
 * they arrive (validation happens downstream, so a source never judges them),
 * ends when the stream ends, and throws when the transport fails. Each event
 * it yields is the controller's from then on: the session log keeps it as it
 * was handed over, so a source must not change it afterwards (objects parsed
 * from the wire never are; `agUiAgentSource` hands over copies).
 *
 * @example
 * for await (const raw of source.run(input, { signal })) pipeline.push(raw);
 */
export interface AgentSource {
  run(input: RunAgentInput, options?: SourceRunOptions): AsyncIterable<unknown>;
  /**
   * Optional push form of `run`: the same events, in the same order, under the
   * same options, each handed to `onEvent` synchronously as soon as it is
   * parsed, with no asynchronous hop per event. The source reads on only once
   * `onEvent` has returned, so a consumer holds the stream back as it does
   * with `run`. Resolves when the stream ends; rejects where `run` would throw
   * (and with the error `onEvent` throws, which ends the stream). The store
   * uses it when a source offers it.
   *
   * @example
   * await source.deliver?.(input, { signal }, (raw) => pipeline.push(raw));
   */
  deliver?(input: RunAgentInput, options: SourceRunOptions, onEvent: (event: unknown) => void): Promise<void>;
  /**
   * Optional: what the agent says it supports (AG-UI's `AgentCapabilities`),
   * so a UI can hide what it does not. Resolves `undefined` when the agent
   * does not say; never rejects.
   */
  capabilities?(): Promise<AgentCapabilities | undefined>;
}

/** An error of the transport itself (not of the agent: those arrive as RUN_ERROR events). */
export class AgentTransportError extends Error {
  override readonly name = 'AgentTransportError';
  /** For HTTP_STATUS: how long the agent asked to be left before the request is sent again (its `Retry-After`), in ms. */
  declare readonly retryAfterMs?: number;
  constructor(
    readonly code:
      | 'HTTP_STATUS'
      | 'NOT_EVENT_STREAM'
      | 'FRAME_TOO_LARGE'
      | 'NO_BODY'
      | 'CONNECTION_LOST'
      /** The body ended inside an event (its blank line never came): SSE drops that event. */
      | 'UNFINISHED_EVENT'
      | 'INVALID_URL'
      | 'INVALID_REQUEST'
      /** The code that reads an answer (a chunk loaded on demand) could not be loaded: nothing was sent. */
      | 'READER_UNAVAILABLE',
    message: string,
    readonly status?: number,
    readonly body?: string,
    /** Where fetch was redirected to before this answer. */
    readonly redirectedTo?: string,
  ) {
    super(message);
  }
}

/** Where an answer came from when fetch followed a redirect to it, which a person needs to know to fix the URL. */
export const redirectNote = (url: string | undefined): string =>
  url ? ` (after a redirect to ${url}, which a 301, 302 or 303 makes a GET without the run's body)` : '';

/** What an aborted signal was aborted with, or an AbortError. */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('Aborted', 'AbortError');
}

/** `promise`, or the abort's reason as soon as `signal` aborts: an app's promise that never settles does not hold a stopped run. */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) {
    // The abort is the answer, whatever `promise` does; a later failure of it is handled here.
    promise.catch(() => undefined);
    return Promise.reject(abortReason(signal));
  }
  let stop = () => {};
  const aborted = new Promise<never>((_resolve, reject) => {
    stop = () => reject(abortReason(signal));
    signal.addEventListener('abort', stop, { once: true });
  });
  return Promise.race([promise, aborted]).finally(() => signal.removeEventListener('abort', stop));
}
