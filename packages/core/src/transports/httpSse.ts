import type { EventSourceMessage } from 'eventsource-parser';
import type { AgentCapabilities, RunAgentInput } from '../protocol.js';
import { type AgentSource, AgentTransportError, type SourceRunOptions } from './source.js';
import { abortReason, readFrames } from './sseBody.js';

export interface HttpSseSourceOptions {
  /** The agent's endpoint: the `RunAgentInput` is POSTed here. */
  url: string | URL;
  /** Extra request headers, or a function returning them (for tokens that expire). */
  headers?: Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>);
  /** The fetch to use; the global one by default. */
  fetch?: typeof fetch;
  /** The largest SSE frame accepted, in characters; a larger one stops the stream with a clear error. Default 8 MiB. */
  maxFrameBytes?: number;
  /**
   * Opt-in: when the connection drops inside a run and the server sent SSE
   * `id:` fields, POST the same input again with `Last-Event-ID` so the server
   * can send what was missed. An event whose id was already seen is never
   * yielded twice. A request that fails before its first event is sent again
   * as it was (same run id), which a server can recognise as a retry. Off by
   * default: the protocol defines no resumption.
   */
  reconnect?: { attempts?: number; delayMs?: number };
  /**
   * What the agent supports (AG-UI's `AgentCapabilities`): the object itself,
   * or the URL of an endpoint that answers a GET with it as JSON (sent with
   * the same headers). Read by `source.capabilities()`.
   */
  capabilities?: AgentCapabilities | string | URL;
}

const DEFAULT_MAX_FRAME = 8 * 1024 * 1024;
const MAX_ERROR_BODY = 64 * 1024;

/**
 * An `AgentSource` over AG-UI's mandatory transport, HTTP + Server-Sent
 * Events: POST the input as JSON with `Accept: text/event-stream`, then yield
 * each `data:` frame parsed as JSON. SSE is parsed by `eventsource-parser`
 * (CRLF, CR, comments/heartbeats, multi-line `data:`), and bytes are decoded
 * as a stream so a character split across network chunks arrives whole. A
 * frame that is not JSON is yielded as its text, for validation to report.
 *
 * @example
 * const source = httpSseSource({ url: '/api/agent', headers: () => ({ Authorization: `Bearer ${token()}` }) });
 */
export function httpSseSource(options: HttpSseSourceOptions): AgentSource {
  const maxFrame = options.maxFrameBytes ?? DEFAULT_MAX_FRAME;
  const attempts = options.reconnect?.attempts ?? (options.reconnect ? 3 : 0);
  const delayMs = options.reconnect?.delayMs ?? 500;

  /**
   * Streams one run, handing each event (and its SSE id) to `emit` as soon as
   * its frame is parsed. `drained`, when given, is awaited after each network
   * chunk before the next is read: the pull form waits there for its consumer.
   */
  const capabilities = options.capabilities;
  const readCapabilities = async (): Promise<AgentCapabilities | undefined> => {
    if (capabilities === undefined) return undefined;
    if (typeof capabilities === 'object' && !(capabilities instanceof URL)) return capabilities;
    try {
      const headers = typeof options.headers === 'function' ? await options.headers() : (options.headers ?? {});
      const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
      const response = await doFetch(capabilities, { headers: { Accept: 'application/json', ...headers } });
      if (!response.ok) return undefined;
      const body = (await response.json()) as unknown;
      return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as AgentCapabilities) : undefined;
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
    const { signal, onConnection } = runOptions;
    const url = requestUrl(options.url);
    const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    const seen = new Set<string>();
    let lastId = runOptions.lastEventId;
    // A server may replay from the id it was given, inclusive: the caller already has that event.
    if (lastId !== undefined) seen.add(lastId);
    // Resuming after an id means the run it belongs to is open.
    let runOpen = lastId !== undefined;
    // A terminal event arrived (and no run started since): a drop after it lost nothing.
    let runEnded = false;
    // Events handed over so far: with none, sending the same request again cannot apply anything twice.
    let delivered = 0;
    const onFrame = (frame: EventSourceMessage) => {
      if (frame.id !== undefined) {
        if (seen.has(frame.id)) return;
        seen.add(frame.id);
        lastId = frame.id;
      }
      const event = parseData(frame.data);
      const type = (event as { type?: unknown } | null)?.type;
      if (type === 'RUN_STARTED') {
        runOpen = true;
        runEnded = false;
      } else if (type === 'RUN_FINISHED' || type === 'RUN_ERROR') {
        runOpen = false;
        runEnded = true;
      }
      delivered++;
      try {
        emit(event, frame.id);
      } catch (e) {
        throw new ConsumerFailure(e);
      }
    };
    for (let attempt = 0; ; attempt++) {
      if (attempt === 0) onConnection?.('connecting');
      const headers = typeof options.headers === 'function' ? await options.headers() : (options.headers ?? {});
      let lost: unknown;
      try {
        const response = await doFetch(url, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            Accept: 'text/event-stream',
            ...headers,
            ...(lastId !== undefined ? { 'Last-Event-ID': lastId } : {}),
          },
          body: JSON.stringify(input),
          ...(signal ? { signal } : {}),
        });
        await checkResponse(response);
        onConnection?.('open');
        await readFrames(response, maxFrame, signal, onFrame, drained);
        if (!runOpen && delivered > 0) {
          onConnection?.('closed');
          return;
        }
        lost = new AgentTransportError('CONNECTION_LOST', 'The stream ended inside a run, without RUN_FINISHED or RUN_ERROR.');
      } catch (e) {
        // The consumer failed on an event: its error ends the stream, not a reconnect.
        if (e instanceof ConsumerFailure) throw e.error;
        if (signal?.aborted || e instanceof AgentTransportError) {
          onConnection?.(signal?.aborted ? 'closed' : 'failed');
          throw e;
        }
        // The run is over and every event of it was handed over: the stream ended, nothing failed.
        if (runEnded) {
          onConnection?.('closed');
          return;
        }
        lost = e;
      }
      // The connection dropped inside a run (or before its first event): reconnect if asked to, after the
      // last id the server gave, or from the start when nothing was handed over yet.
      if (attempt >= attempts || (lastId === undefined && delivered > 0)) {
        onConnection?.('closed');
        if (lost instanceof AgentTransportError) return;
        throw lost;
      }
      // Reported before the delay, so the wait shows as reconnecting rather than as a stream still open.
      onConnection?.('reconnecting');
      try {
        await sleep(delayMs * 2 ** attempt, signal);
      } catch (e) {
        onConnection?.('closed');
        throw e;
      }
    }
  }

  return {
    run(input: RunAgentInput, runOptions: SourceRunOptions = {}) {
      return pullEvents((emit, drained, pullOptions) => deliverRun(input, pullOptions, emit, drained), runOptions);
    },
    deliver(input: RunAgentInput, runOptions: SourceRunOptions, onEvent: (event: unknown) => void) {
      const { onEventId } = runOptions;
      return deliverRun(input, runOptions, (event, id) => {
        if (id !== undefined) onEventId?.(id);
        onEvent(event);
      });
    },
    ...(capabilities !== undefined ? { capabilities: readCapabilities } : {}),
  };
}

/** An error thrown by the consumer of the events, carried through the transport's own error handling untouched. */
class ConsumerFailure {
  constructor(readonly error: unknown) {}
}

/**
 * The pull form of a push stream: `start` hands events to `emit` and, after
 * each network chunk, awaits `drained` before reading the next, which
 * resolves once the consumer has taken every event handed over (as an async
 * generator reading the body itself would). Each event's SSE id is reported
 * as the event is taken. A consumer that stops early (break, or an error in
 * its loop) aborts the stream through the options' signal, and hears nothing
 * more from it.
 */
async function* pullEvents(
  start: (
    emit: (event: unknown, id: string | undefined) => void,
    drained: () => Promise<void> | undefined,
    options: SourceRunOptions,
  ) => Promise<void>,
  runOptions: SourceRunOptions,
): AsyncGenerator<unknown> {
  const { signal, onConnection, onEventId } = runOptions;
  const stop = new AbortController();
  const forward = () => stop.abort(signal?.reason);
  if (signal?.aborted) forward();
  else signal?.addEventListener('abort', forward, { once: true });
  const events: unknown[] = [];
  const ids: (string | undefined)[] = [];
  let wake: (() => void) | undefined;
  let readOn: (() => void) | undefined;
  let ended: { error?: unknown } | undefined;
  // The consumer stopped: what the stream reports while it winds down is not its business.
  let stopped = false;
  const notify = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const emit = (event: unknown, id: string | undefined) => {
    events.push(event);
    ids.push(id);
  };
  const drained = () =>
    events.length === 0
      ? undefined
      : new Promise<void>((resolve) => {
          readOn = resolve;
          notify();
        });
  const { lastEventId } = runOptions;
  const options: SourceRunOptions = {
    signal: stop.signal,
    onConnection: (status) => {
      if (!stopped) onConnection?.(status);
    },
    ...(lastEventId !== undefined ? { lastEventId } : {}),
  };
  start(emit, drained, options).then(
    () => {
      ended = {};
      notify();
    },
    (error: unknown) => {
      ended = { error };
      notify();
    },
  );
  try {
    for (;;) {
      for (let i = 0; i < events.length; i++) {
        // Events already parsed are not handed over once the caller aborted.
        if (signal?.aborted) {
          stopped = true;
          onConnection?.('closed');
          throw abortReason(signal);
        }
        const id = ids[i];
        if (id !== undefined) onEventId?.(id);
        yield events[i];
      }
      events.length = 0;
      ids.length = 0;
      const next = readOn;
      readOn = undefined;
      next?.();
      if (ended) {
        if ('error' in ended) throw ended.error;
        return;
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  } finally {
    signal?.removeEventListener('abort', forward);
    if (!ended) {
      stopped = true;
      stop.abort(signal?.aborted ? signal.reason : new DOMException('The consumer stopped reading', 'AbortError'));
      readOn?.();
    }
  }
}

/**
 * The URL to POST to, or an INVALID_URL error before anything is sent: an
 * empty URL (in a page it would POST to the page itself), or one that does not
 * parse (relative ones against the page's address where there is a page).
 */
function requestUrl(url: string | URL): string | URL {
  if (typeof url !== 'string') return url;
  if (url.trim() === '') throw new AgentTransportError('INVALID_URL', "The agent's URL is empty.");
  const base = (globalThis as { location?: { href?: string } }).location?.href;
  try {
    new URL(url, base);
  } catch {
    throw new AgentTransportError('INVALID_URL', `The agent's URL cannot be requested: ${JSON.stringify(url)} is not a URL.`);
  }
  return url;
}

async function checkResponse(response: Response): Promise<void> {
  if (!response.ok) {
    const body = await readCapped(response);
    throw new AgentTransportError(
      'HTTP_STATUS',
      `The agent answered HTTP ${response.status}${body ? `: ${body}` : ''}`,
      response.status,
      body,
    );
  }
  const type = response.headers.get('content-type') ?? '';
  if (!type.toLowerCase().startsWith('text/event-stream')) {
    const body = await readCapped(response);
    throw new AgentTransportError(
      'NOT_EVENT_STREAM',
      `The agent answered ${type || 'without a content type'}, not text/event-stream`,
      response.status,
      body,
    );
  }
  if (!response.body) throw new AgentTransportError('NO_BODY', 'The agent answered without a body.', response.status);
}

async function readCapped(response: Response): Promise<string> {
  try {
    const text = await response.text();
    return text.length > MAX_ERROR_BODY ? `${text.slice(0, MAX_ERROR_BODY)}…` : text;
  } catch {
    return '';
  }
}

function parseData(data: string): unknown {
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return data;
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(abortReason(signal));
      },
      { once: true },
    );
  });
}
