import { thrownText } from '../thrownText.js';

/** Why a request to the agent failed, as a typed value (never read from a message's text). */
export type RunFailureCode =
  /** The agent answered with an HTTP error status (`status` says which). */
  | 'HTTP_STATUS'
  /** No answer at all: connection refused, DNS, offline, or a cross-origin request the browser blocked (CORS). */
  | 'NETWORK'
  /** The URL cannot be requested (empty, or not a URL). */
  | 'INVALID_URL'
  /** The request cannot be built: a header fetch refuses (a line break in a token), or an input that is not JSON. Nothing was sent. */
  | 'INVALID_REQUEST'
  /** An answer that is not an AG-UI event stream: not `text/event-stream`, no body, or a frame over the size limit. */
  | 'INVALID_STREAM'
  /** The stream dropped after events arrived, inside a run: the run is `unknown`. */
  | 'CONNECTION_LOST'
  /** The source threw something else. */
  | 'SOURCE_ERROR'
  /** aguikit's engine (a chunk loaded on demand) could not be loaded: nothing was sent. */
  | 'ENGINE_UNAVAILABLE';

/** A request that failed: what the UI shows and what the user can do about it. */
export interface RunFailure {
  code: RunFailureCode;
  /** A sentence a person can act on. */
  message: string;
  /** For HTTP_STATUS. */
  status?: number;
  /** The response body's start, for HTTP_STATUS (what the server said, as it was sent). */
  body?: string;
  /**
   * What the body says, for a person (HTTP_STATUS, and INVALID_STREAM of a body that is no event stream): the message
   * of a JSON error (with its code), a page's title or first visible text, else its text; at most 200 characters,
   * whitespace collapsed, no control characters.
   */
  said?: string;
  /**
   * For HTTP_STATUS 408, 425, 429, 502, 503 and 504: how long the agent asked to be left before trying again
   * (its `Retry-After`, whole seconds or an HTTP date), in ms; none when it said none, or a wait over a day.
   */
  retryAfterMs?: number;
  /** For HTTP_STATUS and INVALID_STREAM: where fetch was redirected to (a 301, 302 or 303 makes the POST a GET). */
  redirectedTo?: string;
  /**
   * `retry()` sends the same input again (with the document as it is now):
   * only where the agent cannot have started the run (see `isRetryable`).
   */
  retryable: boolean;
  /** Events received before the failure. */
  eventsReceived: number;
  /**
   * What more is known of a `CONNECTION_LOST`: `UNFINISHED_EVENT`, the
   * stream ended inside an event (its last frame without the blank line
   * that ends it), which SSE drops: the server must end each event with one.
   * Of an `HTTP_STATUS` 409 to a resume, before any event: `ALREADY_ANSWERED`,
   * its interrupts were answered otherwise already (another tab): they stay
   * closed, never asked again, and the thread keeps none of this answer.
   */
  cause?: 'UNFINISHED_EVENT' | 'ALREADY_ANSWERED';
  /** Cut off inside its run: whether `reconnect()` can go on from the agent's last SSE id (`false`: only a new run can). */
  reconnectable?: boolean;
}

/** The engine could not be loaded, so the request was never sent: it can be sent again (`retry()` loads the engine again). */
export function engineUnavailable(error: unknown): RunFailure {
  const detail = thrownText(error);
  return {
    code: 'ENGINE_UNAVAILABLE',
    message: `aguikit could not load its event engine, so nothing was sent to the agent (${detail}). The network may be offline, or the application was updated: try again, or reload the page.`,
    retryable: true,
    eventsReceived: 0,
  };
}

/** A failure as a session log holds it (`failed` entries): what the UI shows is text, what it counts a number. */
export function isRecordedFailure(value: unknown): value is RunFailure {
  if (typeof value !== 'object' || value === null) return false;
  const { code, message, retryable, eventsReceived, status, body, said, redirectedTo, cause, reconnectable, retryAfterMs } =
    value as Partial<Record<keyof RunFailure, unknown>>;
  const count = (n: unknown) => Number.isSafeInteger(n) && (n as number) >= 0;
  return (
    typeof code === 'string' &&
    typeof message === 'string' &&
    typeof retryable === 'boolean' &&
    count(eventsReceived) &&
    (status === undefined || count(status)) &&
    (retryAfterMs === undefined || count(retryAfterMs)) &&
    [body, said, redirectedTo].every((text) => text === undefined || typeof text === 'string') &&
    (cause === undefined || cause === 'UNFINISHED_EVENT' || cause === 'ALREADY_ANSWERED') &&
    (reconnectable === undefined || typeof reconnectable === 'boolean')
  );
}
