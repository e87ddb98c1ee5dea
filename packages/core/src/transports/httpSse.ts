import type { EventSourceMessage } from 'eventsource-parser';
import type { AgentCapabilities, RunAgentInput } from '../protocol.js';
import { thrownText } from '../thrownText.js';
import { type AgentSource, AgentTransportError, type SourceRunOptions, untilAborted } from './source.js';
import type * as Reader from './sseRequest.js';

export interface HttpSseSourceOptions {
  /** The agent's endpoint: the `RunAgentInput` is POSTed here. */
  url: string | URL;
  /** Extra request headers, or a function returning them (for tokens that expire). */
  headers?: Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>);
  /** The fetch to use; the global one by default. */
  fetch?: typeof fetch;
  /**
   * The largest SSE frame accepted, in characters; a larger one stops the
   * stream with a clear error. Default 8 Mi (NaN too); Infinity is no limit;
   * under 1 is a RangeError as the source is made.
   */
  maxFrameBytes?: number;
  /**
   * Opt-in: when the connection drops inside a run and the server sent SSE
   * `id:` fields, POST the same input again with `Last-Event-ID` so the server
   * can send what was missed. An event whose id was already seen is never
   * yielded twice (unless ids came twice on a connection: then they identify
   * no event, and nothing is skipped by them), nor is one without an id that
   * followed the last id, which the server sends again (known by its data, or the JSON value of it; other
   * data in its place stops the stream with `CONNECTION_LOST`). A drop after an id
   * given to several events is `CONNECTION_LOST`: which of them the server would
   * resume after is unknown. A request that fails before its first event is sent again
   * as it was (same run id), which a server can recognise as a retry; one whose answer ended inside an event,
   * with no id before it, is not (the agent ran it, and ended none of its events). Off by
   * default: the protocol defines no resumption.
   */
  reconnect?: { attempts?: number; delayMs?: number };
  /**
   * Opt-in: a stream from which nothing arrives for this long (no event, no
   * `: ping` comment), or a request whose answer has not begun by then (or
   * an error answer whose body stops), is taken as lost, as a dropped connection is (and
   * reconnected when `reconnect` says so). A dead agent behind a proxy may
   * leave the browser's connection open, saying nothing, for ever. Set it
   * above the agent's heartbeat (aguikit's reference server pings every
   * 15 s): an agent that says nothing while it thinks would be cut off.
   */
  idleTimeoutMs?: number;
  /**
   * How long a stream may stay open after its run's end (`RUN_FINISHED` or
   * `RUN_ERROR`) before it is let go and the run settles. A server that
   * keeps the connection open with heartbeats after the end would otherwise
   * hold the run in flight, and every next message refused, for as long as it
   * likes. A stream that carries several runs goes on when the next
   * `RUN_STARTED` comes within it. At most 256 events after the end are handed
   * over: the stream is let go at the next. Default 1,000 ms.
   */
  runEndGraceMs?: number;
  /**
   * What the agent supports (AG-UI's `AgentCapabilities`): the object itself,
   * or the URL of an endpoint that answers a GET with it as JSON (sent with
   * the same headers). Read by `source.capabilities()`; an answer over 1 MiB
   * gives none, and is let go there.
   */
  capabilities?: AgentCapabilities | string | URL;
}

const DEFAULT_MAX_FRAME = 8 * 1024 * 1024;

/** The longest wait a timer takes (2^31 - 1 ms, about 24.8 days): one asked for longer fires after 1 ms. */
const LONGEST_TIMER_MS = 2_147_483_647;

/** The timeout an option asks for, or none: not a positive number (0, negative, NaN), or past what a timer can wait (Infinity). */
const timeoutOf = (ms: number | undefined): number | undefined => (ms !== undefined && ms > 0 && ms <= LONGEST_TIMER_MS ? ms : undefined);

let bodyReader: Promise<typeof Reader> | undefined;

/** A character of an SSE id that no header value may hold: a control character but a tab (sseRequest.ts `HEADER_VALUE`). */
const UNSENDABLE_ID = /[^\t\u0020-\u007e\u{80}-\u{10ffff}]/u;

/**
 * What reads an answer (its status and content type, then its SSE frames:
 * sseBody.ts and eventsource-parser) and builds each request
 * (sseRequest.ts), loaded on demand: asked for as a source
 * is made, awaited before a request is sent, and kept out of an
 * application's first load. Loading twice loads once.
 */
function loadBodyReader(): Promise<typeof Reader> {
  bodyReader ??= import('./sseRequest.js');
  const loading = bodyReader;
  // A chunk that failed to load is loaded again by the next request; this one fails as a dropped connection does.
  loading.catch(() => {
    if (bodyReader === loading) bodyReader = undefined;
  });
  return loading;
}

/**
 * An `AgentSource` over AG-UI's mandatory transport, HTTP + Server-Sent
 * Events: POST the input as JSON with `Accept: text/event-stream`, then yield
 * each `data:` frame parsed as JSON. SSE is parsed by `eventsource-parser`
 * (CRLF, CR, comments/heartbeats, multi-line `data:`), and bytes are decoded
 * as a stream so a character split across network chunks arrives whole. A
 * frame that is not JSON, or nests deeper than 100,000 levels (which
 * JSON.parse would take seconds over), is yielded as its text, for
 * validation to report.
 *
 * @example
 * const source = httpSseSource({ url: '/api/agent', headers: () => ({ Authorization: `Bearer ${token()}` }) });
 */
export function httpSseSource(options: HttpSseSourceOptions): AgentSource {
  // Asked for as the source is made, so it is there by the first request (which waits for it).
  loadBodyReader().catch(() => undefined);
  const maxFrame = frameLimitOf(options.maxFrameBytes);
  const attempts = options.reconnect?.attempts ?? (options.reconnect ? 3 : 0);
  const delayMs = options.reconnect?.delayMs ?? 500;

  /**
   * Streams one run, handing each event (and its SSE id) to `emit` as soon as
   * its frame is parsed. `drained`, when given, is awaited after each network
   * chunk before the next is read: the pull form waits there for its consumer.
   */
  const capabilities = options.capabilities;
  // What the agent supports, read from its endpoint by the body reader's chunk; anything that fails gives none.
  const readCapabilities = async (from: AgentCapabilities | string | URL): Promise<AgentCapabilities | undefined> => {
    if (typeof from === 'object' && !(from instanceof URL)) return from;
    try {
      const reader = await loadBodyReader();
      const headers = await headersOrFail(options.headers);
      const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
      return await reader.fetchCapabilities(from, headers, doFetch, timeoutOf(options.idleTimeoutMs));
    } catch {
      return undefined;
    }
  };

  async function deliverRun(
    input: RunAgentInput,
    runOptions: SourceRunOptions,
    emit: (event: unknown, id: string | undefined) => void,
    drained?: () => Promise<void> | undefined,
  ): Promise<void> {
    const { signal, onConnection, onReconnecting } = runOptions;
    const url = requestUrl(options.url);
    const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    const idle = timeoutOf(options.idleTimeoutMs);
    // Ids are compared only once the stream was resumed (a reconnect, or a lastEventId given): a server may give
    // several events one id, which on a first connection drops nothing, and then its ids identify no event to skip.
    let resumed = runOptions.lastEventId !== undefined;
    // Where the stream can be resumed: made with the body reader, before any frame is read.
    let points: Reader.ResumePoint | undefined;
    // Resuming after an id means the run it belongs to is open.
    let runOpen = resumed;
    // A terminal event arrived (and no run started since): a drop after it lost nothing.
    let runEnded = false;
    // Which end it was (a count): the stream is let go a grace after it (see runEndGraceMs).
    let ends = 0;
    // The events handed over since the run's end.
    let afterEnd = 0;
    // The run the stream is in, and its thread, as its RUN_STARTED named them: a RUN_FINISHED of another run, or of
    // this run under another thread, does not end it, as the thread does not take it as this run's end; nor does a
    // start or terminal event the thread refuses (`isAgUiEvent`, from the body reader, which is loaded before any frame comes).
    let openRunId: unknown;
    let openThreadId: unknown;
    let isAgUiEvent: (event: unknown) => boolean = () => true;
    const runEnd = { since: () => (runEnded ? ends : undefined), graceMs: graceOf(options.runEndGraceMs) };
    /**
     * Whether a RUN_FINISHED ends the stream's run as the thread takes it: true when it does; false when it may not
     * (the stream is no longer taken to be inside a run, but is read on to its end, with no grace); undefined when it
     * does not. A stream resumed after the run's RUN_STARTED knows the run only by the input it answers: a close of
     * the input's run under another thread than the input's may be an agent naming a thread of its own, or a close
     * the thread refuses.
     */
    const finishes = (runId: unknown, threadId: unknown): boolean | undefined => {
      if (openRunId !== undefined) return runId === openRunId && threadId === openThreadId ? true : undefined;
      return !resumed || runId !== input.runId || threadId === input.threadId;
    };
    // Events handed over so far: with none, sending the same request again cannot apply anything twice.
    let delivered = 0;
    const onFrame = (frame: EventSourceMessage, event: unknown) => {
      // An id no Last-Event-ID header can carry (a control character) could never be sent back: no resume point, it
      // resets the last event ID as an empty one does.
      const id = frame.id && UNSENDABLE_ID.test(frame.id) ? '' : frame.id;
      const { type, runId, threadId } = (typeof event === 'object' && event !== null ? event : {}) as {
        type?: unknown;
        runId?: unknown;
        threadId?: unknown;
      };
      // A heartbeat the server names (sse-starlette's `event: ping` with a timestamp) is no event: an AG-UI consumer
      // ignores the name, so a named event is still an event, and any other frame that is none is diagnosed (an
      // `event: error` a server sends says something).
      const heartbeat = frame.event !== undefined && HEARTBEATS.has(frame.event.toLowerCase()) && typeof type !== 'string';
      // The id the consumer is told, or null for an event a resumed stream sends again.
      const told = (points as Reader.ResumePoint).take(id, frame.data, heartbeat, event);
      if (told === null || heartbeat) return;
      // What a server sends after its run's end, before another run starts, is no event of a run: a few are handed
      // over (for the thread to diagnose), and a stream that goes on sending them is let go, as the grace would.
      if (runEnded && !(type === 'RUN_STARTED' && isAgUiEvent(event)) && ++afterEnd > AFTER_END_EVENTS) throw new LetGo();
      if (type === 'RUN_STARTED') {
        // A start the thread refuses opens no run: the run before it stays ended, and its grace goes on.
        if (isAgUiEvent(event)) {
          runOpen = true;
          runEnded = false;
          afterEnd = 0;
          openRunId = runId;
          openThreadId = threadId;
        }
      } else if (type === 'RUN_ERROR' || type === 'RUN_FINISHED') {
        const end = type === 'RUN_ERROR' ? true : finishes(runId, threadId);
        if (end !== undefined && isAgUiEvent(event)) {
          runOpen = false;
          if (end) {
            if (!runEnded) ends++;
            runEnded = true;
          }
        }
      }
      delivered++;
      try {
        // An empty id goes on to `onEventId`: the agent reset its last event id, and a resume point with it.
        emit(event, told);
      } catch (e) {
        throw new ConsumerFailure(e);
      }
    };
    // The agent answered one of the attempts: it took the request, whatever the later attempts meet.
    let answered = false;
    // The first attempt whose event stream opened.
    let took = Number.POSITIVE_INFINITY;
    let stop = false;
    for (let attempt = 0; ; attempt++) {
      if (attempt === 0) onConnection?.('connecting');
      // The reader first: a request whose answer could not be read would leave a run going on the server. Neither it (a
      // chunk on a slow network) nor the app's headers hold a stopped run.
      let reader: typeof Reader;
      let headers: Record<string, string>;
      try {
        reader = await untilAborted(bodyReaderOrFail(), signal);
        isAgUiEvent = reader.isAgUiEvent;
        points ??= reader.resumePoint(runOptions.lastEventId, !(attempts <= 0), runOptions.streamState);
        headers = await untilAborted(headersOrFail(options.headers), signal);
      } catch (e) {
        onConnection?.(signal?.aborted ? 'closed' : 'failed');
        throw e;
      }
      let resumeFrom: string | undefined;
      try {
        resumeFrom = reader.resumeHeader(points.point());
      } catch (e) {
        onConnection?.('closed');
        throw e;
      }
      const request = reader.buildRequest(input, {
        'Content-Type': 'application/json',
        Accept: 'text/event-stream',
        ...headers,
        ...(resumeFrom !== undefined ? { 'Last-Event-ID': resumeFrom } : {}),
      });
      let lost: unknown;
      const answer = reader.awaitAnswer(signal, idle);
      try {
        const response = await answer.race(
          doFetch(url, { method: 'POST', ...request, ...(answer.signal ? { signal: answer.signal } : {}) }),
        );
        answer.arrived();
        answered = true;
        const { checkResponse, readFrames } = reader;
        await checkResponse(response, idle, signal);
        // What time the server says it is (a cross-origin page reads Date only where the server exposes it).
        const date = Date.parse(response.headers.get('date') ?? '');
        if (Number.isFinite(date)) runOptions.onServerTime?.(date);
        onConnection?.('open');
        took = Math.min(took, attempt);
        await readFrames(response, maxFrame, signal, onFrame, drained, idle, runEnd);
        if (!runOpen && delivered > 0) {
          onConnection?.('closed');
          return;
        }
        lost = new AgentTransportError('CONNECTION_LOST', 'The stream ended inside a run, without RUN_FINISHED or RUN_ERROR.');
      } catch (caught) {
        // No answer within idleTimeoutMs: the request is taken as lost, as a stream gone silent is.
        const e = signal?.aborted ? caught : (answer.silence() ?? caught);
        // The consumer failed on an event: its error ends the stream, not a reconnect.
        if (e instanceof ConsumerFailure) throw e.error;
        if (signal?.aborted) {
          onConnection?.('closed');
          throw e;
        }
        // The run is over and every event of it was handed over: what broke after it (the connection, a frame too
        // large) lost nothing of it.
        if (runEnded) {
          onConnection?.('closed');
          return;
        }
        // A body that ended inside an event was cut there (a proxy closing cleanly mid-chunk) as a dropped connection
        // is: it is resumed as one, and said as what it was when no attempt is left. So is what a later attempt meets
        // (a 503) once an earlier one's event stream opened and handed nothing over: the agent took the request.
        const refused = e instanceof AgentTransportError && e.code !== 'UNFINISHED_EVENT';
        if (refused && !(took < attempt && !delivered)) {
          onConnection?.('failed');
          throw e;
        }
        lost = e;
        // Sending it again would meet the same refusal.
        if (refused) stop = true;
      } finally {
        answer.done();
      }
      // The connection dropped inside a run (or before its first event): reconnect if asked to, after the
      // last id the server gave, or from the start when nothing was handed over yet. A body that ended inside an event
      // is resumed only after an id: with none, the agent ran the request and ended none of its events (a server that
      // writes one newline between frames), and sending it again would run it again to the same answer.
      const unfinished = lost instanceof AgentTransportError && lost.code === 'UNFINISHED_EVENT';
      const point = points.point();
      if (attempt < attempts && point === undefined && points.last !== undefined) {
        // An id that names no one place in the stream: sending the request again could apply twice what was handed
        // over, or skip what was not.
        onConnection?.('failed');
        throw points.lost(lost);
      }
      if (stop || attempt >= attempts || (point === undefined && (delivered > 0 || unfinished))) {
        if (unfinished) {
          onConnection?.('failed');
          throw lost;
        }
        onConnection?.('closed');
        // The agent answered, then the connection broke or ended before any event (and no later attempt reached it): it
        // took the request, which is not "unreachable", and may be acting on it (a proxy ends a quiet stream cleanly).
        // An answer that ends empty a stream resumed after an id leaves that stream where it was, which its caller knows.
        if (answered && delivered === 0 && !(lost instanceof AgentTransportError && runOptions.lastEventId !== undefined))
          throw new AgentTransportError(
            'CONNECTION_LOST',
            `The connection dropped after the agent answered, before its first event (${thrownText(lost)}).`,
          );
        if (lost instanceof AgentTransportError) return;
        throw lost;
      }
      resumed = true;
      points.resumed();
      // Reported before the delay, so the wait shows as reconnecting rather than as a stream still open.
      onReconnecting?.(attempt + 1, attempts);
      onConnection?.('reconnecting');
      // An abort made before the wait (by the callbacks above) ends it as one made during it does.
      let timer: ReturnType<typeof setTimeout> | undefined;
      try {
        await untilAborted(
          new Promise((resolve) => {
            timer = setTimeout(resolve, Math.min(LONGEST_TIMER_MS, delayMs * 2 ** attempt));
          }),
          signal,
        );
      } catch (e) {
        clearTimeout(timer);
        onConnection?.('closed');
        throw e;
      }
    }
  }

  return {
    run(input: RunAgentInput, runOptions: SourceRunOptions = {}) {
      return pulled((emit, drained, pullOptions) => deliverRun(input, pullOptions, emit, drained), runOptions);
    },
    deliver(input: RunAgentInput, runOptions: SourceRunOptions, onEvent: (event: unknown) => void) {
      const { onEventId } = runOptions;
      return deliverRun(input, runOptions, (event, id) => {
        if (id !== undefined) onEventId?.(id);
        onEvent(event);
      });
    },
    ...(capabilities !== undefined ? { capabilities: () => readCapabilities(capabilities) } : {}),
  };
}

/** The body reader, or a READER_UNAVAILABLE error: nothing can be sent without it. */
async function bodyReaderOrFail(): Promise<typeof Reader> {
  try {
    return await loadBodyReader();
  } catch (e) {
    throw new AgentTransportError(
      'READER_UNAVAILABLE',
      `The code that reads the agent's answer could not be loaded, so nothing was sent (${thrownText(e)}).`,
    );
  }
}

/** `pullEvents` (sseBody.ts), loaded with the body reader when the iteration starts. */
async function* pulled(start: Parameters<typeof Reader.pullEvents>[0], runOptions: SourceRunOptions): AsyncGenerator<unknown> {
  const { signal, onConnection } = runOptions;
  let reader: typeof Reader;
  try {
    reader = await untilAborted(bodyReaderOrFail(), signal);
  } catch (e) {
    // Said as `deliver` says a run that never reached the network.
    onConnection?.('connecting');
    onConnection?.(signal?.aborted ? 'closed' : 'failed');
    throw e;
  }
  yield* reader.pullEvents(start, runOptions);
}

/** How many events a stream hands over after its run's end, before another run starts within it. */
const AFTER_END_EVENTS = 256;

/** Thrown on an event past AFTER_END_EVENTS: the run is over, and the stream is let go. */
class LetGo {}

/** An error thrown by the consumer of the events, carried through the transport's own error handling untouched. */
class ConsumerFailure {
  constructor(readonly error: unknown) {}
}

/**
 * The URL to POST to, or an INVALID_URL error before anything is sent: an
 * empty URL (in a page it would POST to the page itself), or one that does not
 * parse (relative ones against the page's address where there is a page).
 */
function requestUrl(url: string | URL): string | URL {
  if (typeof url === 'string' && url.trim() === '') throw new AgentTransportError('INVALID_URL', "The agent's URL is empty.");
  const base = (globalThis as { location?: { href?: string } }).location?.href;
  let parsed: URL;
  try {
    parsed = typeof url === 'string' ? new URL(url, base) : url;
  } catch {
    throw new AgentTransportError('INVALID_URL', `The agent's URL cannot be requested: ${JSON.stringify(url)} is not a URL.`);
  }
  // What fetch refuses before sending anything, said as what it is rather than as a network failure.
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new AgentTransportError('INVALID_URL', `The agent's URL must be http: or https:, not ${parsed.protocol}`);
  if (parsed.username !== '' || parsed.password !== '')
    throw new AgentTransportError(
      'INVALID_URL',
      "The agent's URL carries a user name or password, which fetch refuses: send credentials in a header (the `headers` option).",
    );
  return url;
}

/** The app's headers (a function is called for each request), or an INVALID_REQUEST error when it throws: nothing was sent. */
async function headersOrFail(headers: HttpSseSourceOptions['headers']): Promise<Record<string, string>> {
  if (typeof headers !== 'function') return headers ?? {};
  try {
    return await headers();
  } catch (e) {
    throw new AgentTransportError('INVALID_REQUEST', `The app's headers() failed: ${thrownText(e)}.`);
  }
}

/** The names servers give their heartbeat frames. */
const HEARTBEATS = new Set(['ping', 'heartbeat', 'keepalive', 'keep-alive']);

/** The grace after a run's end: 1 s unless a number says otherwise; past what a timer can wait, no limit. */
/** maxFrameBytes: undefined or NaN is the default, Infinity no limit; one no frame can meet (under one character) is the app's error. */
function frameLimitOf(limit: number | undefined): number {
  if (limit === undefined || Number.isNaN(limit)) return DEFAULT_MAX_FRAME;
  if (!(limit >= 1)) throw new RangeError(`httpSseSource: maxFrameBytes must be at least 1 character (it is ${limit}).`);
  return Math.floor(limit);
}

function graceOf(ms: number | undefined): number {
  if (ms === undefined || Number.isNaN(ms)) return 1000;
  return ms > LONGEST_TIMER_MS ? Number.POSITIVE_INFINITY : Math.max(0, ms);
}
