/**
 * What reads an agent's answer, once its response has arrived: its status and
 * content type, its SSE frames, and the pull form of the push stream. Loaded
 * on demand by httpSse.ts (with eventsource-parser, which only this module
 * imports), while the request is on its way.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { MAX_TEXT_DEPTH, manyBrackets, tooDeep } from '../jsonCheck.js';
import { textHead } from '../textHead.js';
import { validateEvent } from '../validate.js';
import { AgentTransportError, abortReason, redirectNote, type SourceRunOptions } from './source.js';

const MAX_ERROR_BODY = 64 * 1024;
/** How much of an error answer's body its error's message quotes, in characters. */
const MAX_QUOTED = 200;

/**
 * A clock that only goes forward, in ms, for the grace after a run's end: the
 * wall clock (Date.now) goes back when the system's time is set, which would
 * hold a stream open for as long as it was set back.
 */
const elapsed: () => number =
  typeof performance === 'object' && typeof performance?.now === 'function' ? () => performance.now() : () => Date.now();

/**
 * Whether the thread takes `event` as an AG-UI event (validateEvent's
 * verdict): a run's end it refuses (a RUN_ERROR without its message) ends
 * nothing, so the stream is not let go after it, and a start it refuses (a
 * RUN_STARTED without its thread) starts nothing, so the grace after the run
 * before goes on.
 */
export const isAgUiEvent = (event: unknown): boolean => validateEvent(event).ok;

/** Throws the error an answer that is not an event stream makes, quoting its body as far as it came within `idleTimeoutMs`. */
export async function checkResponse(response: Response, idleTimeoutMs?: number, signal?: AbortSignal): Promise<void> {
  if (!response.ok) {
    const body = await readCapped(response, idleTimeoutMs, signal);
    // The message quotes the body's start (an error page may be megabytes; the first 64 KiB are kept as `body`).
    const quoted = body.length > MAX_QUOTED ? `${textHead(body, MAX_QUOTED)}…` : body;
    const error = new AgentTransportError(
      'HTTP_STATUS',
      `The agent answered HTTP ${response.status}${quoted ? `: ${quoted}` : ''}${redirectNote(redirected(response))}`,
      response.status,
      body,
      redirected(response),
    );
    const retryAfterMs = retryAfter(response.headers);
    throw retryAfterMs === undefined ? error : Object.assign(error, { retryAfterMs });
  }
  const type = response.headers.get('content-type') ?? '';
  // The media type itself, its parameters (`; charset=utf-8`) aside: `text/event-streamer` is another type. A header
  // sent twice (a proxy adding its own) arrives joined with ", ": as fetch reads it, the last type counts, where a
  // piece that is no type (`*/*`, nothing, the end of a quoted parameter holding a comma) is none.
  const essence = type
    .split(',')
    .map((piece) => piece.split(';', 1)[0]?.trim().toLowerCase())
    .filter((piece) => piece !== '*/*' && /^[^\s/"]+\/[^\s/"]+$/.test(piece ?? ''))
    .pop();
  if (essence !== 'text/event-stream') {
    const body = await readCapped(response, idleTimeoutMs, signal);
    throw new AgentTransportError(
      'NOT_EVENT_STREAM',
      // Its status is said (a 204, a 202 of a queue, a 200 of a proxy's sign-in page): it is what a person looks for first.
      `The agent answered HTTP ${response.status} ${type || 'without a content type'}, not text/event-stream${redirectNote(redirected(response))}`,
      response.status,
      body,
      redirected(response),
    );
  }
  if (!response.body) throw new AgentTransportError('NO_BODY', 'The agent answered without a body.', response.status);
}

/** The longest wait a Retry-After is taken for: one that asks for more is taken for a mistake, and ignored. */
const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;

/**
 * How long an answer asks to be left before the request is sent again, in ms,
 * from its `Retry-After`: whole seconds, or an HTTP date (read against the
 * answer's own `Date` when it has one, so a client clock that is off does not
 * count). Undefined when there is none, or it is no such value, in the past,
 * or over a day away.
 */
function retryAfter(headers: Headers): number | undefined {
  const value = headers.get('retry-after')?.trim() ?? '';
  let ms = Number.NaN;
  if (/^\d{1,9}$/.test(value)) ms = Number(value) * 1000;
  // An HTTP date (IMF-fixdate, RFC 850 or asctime: a day's name, then a time), not whatever Date.parse makes of a word.
  else if (/^[a-z]{3}[a-z]*,? .*\d\d:\d\d:\d\d/i.test(value)) {
    const now = Date.parse(headers.get('date') ?? '');
    ms = Date.parse(value) - (Number.isNaN(now) ? Date.now() : now);
  }
  return ms >= 0 && ms <= MAX_RETRY_AFTER_MS ? ms : undefined;
}

/** Where fetch was redirected to before `response`, if it was. */
const redirected = (response: Response): string | undefined => (response.redirected && response.url) || undefined;

/**
 * The start of an answer's body, for the error that quotes it: read up to
 * MAX_ERROR_BODY characters, or until nothing came for `idleTimeoutMs` or
 * the request is aborted (the app's fetch may not end the body on abort),
 * then abandoned (a body may never end).
 */
async function readCapped(response: Response, idleTimeoutMs?: number, signal?: AbortSignal): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const letGo = () => void reader.cancel().catch(() => undefined);
  if (signal?.aborted) letGo();
  signal?.addEventListener('abort', letGo, { once: true });
  const read = idleTimeoutMs === undefined ? () => reader.read() : () => readWithin(reader, idleTimeoutMs);
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (text.length <= MAX_ERROR_BODY) {
      const { done, value } = await read();
      if (done) return text + decoder.decode();
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    return text;
  } finally {
    signal?.removeEventListener('abort', letGo);
    letGo();
  }
  return `${textHead(text, MAX_ERROR_BODY)}…`;
}

/**
 * Whether the run the stream carries has ended (a value that changes with
 * each end: a new run's end starts the grace again), and how long the
 * stream may then still be waited on.
 */
export interface RunEnd {
  since(): number | undefined;
  graceMs: number;
}

/**
 * Reads the SSE frames of a response body, decoded as a UTF-8 stream, and
 * hands each to `onFrame` as the parser finds it, with its data as
 * `frameData` reads it; after each chunk, waits for `drained` (when given)
 * before reading the next. Once `runEnd.since()` says
 * the run ended, the stream is let go as if it had ended once it has been
 * waited on and read for `runEnd.graceMs` (heartbeats, and lines that are no
 * field, do not hold it open however fast they come; the time the consumer
 * takes over events does not count), unless a new run starts.
 */
export async function readFrames(
  response: Response,
  maxFrame: number,
  signal: AbortSignal | undefined,
  onFrame: (frame: EventSourceMessage, data: unknown) => void,
  drained: (() => Promise<void> | undefined) | undefined,
  /** httpSseSource's `idleTimeoutMs` as it reads it: a positive number a timer can wait, or none. */
  idle?: number,
  runEnd?: RunEnd,
): Promise<void> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  // The end the grace is counted from, and how long the network has been waited on, and its chunks read, since.
  let end: number | undefined;
  let waited = 0;
  // Whether the chunk being read came in the grace after a run's end, and the time the consumer took over its frames.
  let inGrace = false;
  let consumerMs = 0;
  /**
   * The next chunk; undefined once the grace after the run's end is over. The reader's own promise while the run goes
   * on, with no promise of this function's around it: a hop less per chunk.
   */
  const read = (): Promise<ReadableStreamReadResult<Uint8Array> | undefined> => {
    const since = runEnd?.since();
    inGrace = !(runEnd === undefined || since === undefined || runEnd.graceMs === Number.POSITIVE_INFINITY);
    if (!inGrace) return idle === undefined ? reader.read() : readWithin(reader, idle);
    return readInGrace((runEnd as RunEnd).graceMs, since as number);
  };
  /** The next chunk once the run ended: waited on for what is left of the grace. */
  const readInGrace = async (graceMs: number, since: number): Promise<ReadableStreamReadResult<Uint8Array> | undefined> => {
    if (since !== end) {
      end = since;
      waited = 0;
    }
    const left = graceMs - waited;
    if (left <= 0) return undefined;
    const started = elapsed();
    try {
      return await readWithin(reader, idle === undefined ? left : Math.min(idle, left), left);
    } finally {
      waited += elapsed() - started;
    }
  };
  // The decoders keep every U+FEFF as text; parserInput drops the byte order mark a body may start with.
  const decoder = new TextDecoder('utf-8', BOM_AS_TEXT);
  const text = chunkDecoder(decoder);
  const input = parserInput();
  let tooLarge = false;
  // Set once the body ended: a frame the parser then completes is one the stream ended inside (see below).
  let atEnd = false;
  let unfinished: EventSourceMessage | undefined;
  // What stopped the handing over of frames: an abort, or an error of the consumer.
  let stopped: { error: unknown } | undefined;
  // Set by the abort listener below (an abort dispatches its event synchronously): read per frame instead of the signal's getter.
  let aborted = signal?.aborted === true;
  const stacks = stacklessErrors();
  const shared: SharedStrings = { type: '', messageId: '', toolCallId: '' };
  // Whether the stream sent a line that is no field (see stacklessErrors).
  let noFields = false;
  const parser = createParser({
    // What the parser holds counts a line's field name too (`data: `, a frame's other lines): the exact limit is on the
    // data, in onEvent, so that a frame's fitting does not depend on where the network cut it.
    maxBufferSize: maxFrame + 1024,
    onEvent: (message) => onMessage(message),
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') tooLarge = true;
      else {
        // A line that is no field: the next ones (of this chunk, and of the next chunks) are made without a stack.
        noFields = true;
        stacks.drop();
      }
    },
  });
  /**
   * Whether the parser holds nothing: what it was last fed ended with a blank line, which ends any line, data, id or
   * event name it held (and its first feed, which looks for a byte order mark, is past).
   */
  let clean = false;
  function onMessage(message: EventSourceMessage): void {
    // maxBufferSize bounds only what the parser holds between chunks: a frame
    // that arrives whole in one chunk is dispatched unbuffered, so check it here.
    if (message.data.length > maxFrame) tooLarge = true;
    // The frames before an oversize one are delivered; none after it is.
    if (tooLarge || stopped) return;
    if (atEnd) {
      unfinished = message;
      return;
    }
    try {
      // Frames already parsed in this chunk are not delivered once the caller aborted.
      if (aborted) throw abortReason(signal as AbortSignal);
      const data = frameData(message.data, shared);
      if (inGrace) consumed(message, data);
      else if (!noFields) onFrame(message, data);
      else {
        // The consumer's code runs with the stacks the page asked for.
        const dropped = stacks.restore();
        try {
          onFrame(message, data);
        } finally {
          if (dropped) stacks.drop();
        }
      }
    } catch (error) {
      stopped = { error };
    }
  }
  /** A frame handed over in the grace: the time the consumer takes over it is not the grace's. */
  function consumed(message: EventSourceMessage, data: unknown): void {
    const dropped = stacks.restore();
    const started = elapsed();
    try {
      onFrame(message, data);
    } finally {
      consumerMs += elapsed() - started;
      if (dropped) stacks.drop();
    }
  }
  const onAbort = () => {
    aborted = true;
    void reader.cancel().catch(() => undefined);
  };
  // An abort made before the body is read (by a callback as the stream opened) fires no event: the body is let go now.
  if (aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  /**
   * Takes one read of the body: its frames go to `onFrame`. True once the stream is over (its end, or the grace
   * after its run's end); throws what stopped it. Apart from the loop below, which then keeps only a few values
   * across each wait for the network.
   */
  const take = (result: ReadableStreamReadResult<Uint8Array> | undefined): boolean => {
    if (aborted) throw abortReason(signal as AbortSignal);
    // The run ended a grace ago and the server holds the connection open (heartbeats): let it go.
    if (result === undefined) return true;
    const { done, value } = result;
    const chunk = done ? decoder.decode() : text(value);
    const fed = chunk ? input(chunk) : '';
    if (fed) {
      if (noFields) stacks.drop();
      try {
        // A chunk of one frame of one `data:` line (a server flushing each token), the parser holding nothing: the
        // event the parser would make of it, without its pass over the chunk.
        const end = fed.length - 2;
        if (clean && !noFields && fed.startsWith('data:') && fed.indexOf('\n') === end && fed.charCodeAt(end + 1) === 0x0a)
          onMessage({ id: undefined, event: undefined, data: fed.slice(fed.charCodeAt(5) === 0x20 ? 6 : 5, end) });
        else parser.feed(fed);
        clean = fed.endsWith('\n\n');
      } catch {
        tooLarge = true;
      } finally {
        if (noFields) stacks.restore();
      }
    }
    if (stopped) throw stopped.error;
    if (tooLarge) {
      // No frame is handed over after one too large: an abort made in this chunk was made on a frame before it.
      if (aborted) throw abortReason(signal as AbortSignal);
      throw new AgentTransportError('FRAME_TOO_LARGE', `An SSE frame exceeded ${maxFrame} characters; the stream was stopped.`);
    }
    if (!done) return false;
    // SSE drops an event the body ends inside, before the blank line that ends it. It is not delivered, but the
    // parser is given that blank line to see whether there was one, so the failure can say so: a server that
    // forgets the last blank line otherwise reads as a connection lost. A comment or an id alone is no event.
    atEnd = true;
    try {
      parser.feed('\n\n');
    } finally {
      if (noFields) stacks.restore();
    }
    if (unfinished) throw unfinishedEvent(unfinished);
    return true;
  };
  try {
    for (;;) {
      const result = await read();
      if (!inGrace) {
        if (take(result)) return;
      } else {
        // What the chunk takes to read counts to the grace: a server that floods the stream after its run's end with
        // what is read but never waited for (lines that are no field) would otherwise hold it open for as long as it likes.
        const started = elapsed();
        consumerMs = 0;
        try {
          if (take(result)) return;
        } finally {
          waited += elapsed() - started - consumerMs;
        }
      }
      const wait = drained?.();
      if (wait) await wait;
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    reader.cancel().catch(() => undefined);
  }
}

/**
 * eventsource-parser makes an Error for each line that is no field (`foo
 * bar`, `x: 1`, a `retry:` that is no number) and hands it to onError, which
 * ignores it: capturing each one's stack took seconds over a megabyte of such
 * lines. Once a stream sent one, readFrames `drop()`s the engine's stack
 * trace limit (V8's `Error.stackTraceLimit`, where there is one that can be
 * set) to 0 while the parser reads, and `restore()`s the limit it found
 * before the consumer's code runs and once the chunk is read; restore says
 * whether there was one to restore. A stream of fields costs nothing more.
 */
function stacklessErrors(): { drop(): void; restore(): boolean } {
  const errors = Error as { stackTraceLimit?: unknown };
  let found: number | undefined;
  const set = (limit: number) => {
    try {
      errors.stackTraceLimit = limit;
    } catch {
      // A frozen Error (a hardened realm) keeps its limit.
    }
  };
  return {
    drop() {
      if (found !== undefined) return;
      const limit = errors.stackTraceLimit;
      if (typeof limit !== 'number' || limit === 0) return;
      found = limit;
      set(0);
    },
    restore() {
      if (found === undefined) return false;
      set(found);
      found = undefined;
      return true;
    },
  };
}

/**
 * A frame's data parsed as JSON, or its text when it is none. A text that
 * nests deeper than MAX_TEXT_DEPTH is not parsed: JSON.parse takes seconds
 * over millions of brackets nested (a fraction of one over a flat frame of
 * that size), and the thread refuses any value nested past a few hundred.
 * An event holds the strings of the one before where it repeats them
 * (`shareStrings`).
 */
function frameData(data: string, shared: SharedStrings): unknown {
  if (!mayBeJson(data)) return data;
  if (data.length > MAX_TEXT_DEPTH && manyBrackets(data) && tooDeep(data)) return data;
  let value: unknown;
  try {
    value = JSON.parse(data) as unknown;
  } catch {
    return data;
  }
  if (typeof value === 'object' && value !== null) shareStrings(value as Record<string, unknown>, shared);
  return value;
}

/**
 * Whether `data` may be JSON, by its first characters: false for a text
 * JSON.parse is sure to refuse as it starts (nothing, `[DONE]`, a word).
 * Each refusal is a SyntaxError with a stack, some microseconds apiece: a
 * server that sends a million such frames (an empty `data:` line as its
 * heartbeat) took seconds over them.
 */
function mayBeJson(data: string): boolean {
  const first = firstToken(data, 0);
  if (first < 0) return false;
  if (data.charCodeAt(first) !== 0x5b) return valueStart(data, first);
  // [, then a value or ]
  const next = firstToken(data, first + 1);
  return next >= 0 && (data.charCodeAt(next) === 0x5d || valueStart(data, next));
}

/** Whether a JSON value may start at `at`: {, [, ", -, a digit, or a literal. */
function valueStart(data: string, at: number): boolean {
  const c = data.charCodeAt(at);
  if (c === 0x7b || c === 0x5b || c === 0x22 || c === 0x2d || (c >= 0x30 && c <= 0x39)) return true;
  return data.startsWith('true', at) || data.startsWith('false', at) || data.startsWith('null', at);
}

/** Where the first character that is no JSON whitespace is in `data`, from `from`; -1 when there is none. */
function firstToken(data: string, from: number): number {
  for (let at = from; at < data.length; at++) {
    const c = data.charCodeAt(at);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return at;
  }
  return -1;
}

/** The strings of the event before, which the next one is likely to repeat. */
interface SharedStrings {
  type: string;
  messageId: string;
  toolCallId: string;
}

/**
 * Makes an event parsed from a frame hold the same strings as the event
 * before where it repeats them (its type, the message or tool call it
 * streams into). JSON.parse makes each value a string of its own: the
 * session log keeps every event, and a token's type and id took a third of
 * the memory it kept. The event is the transport's own, just parsed: nothing
 * else holds it, and a string is the same value whichever copy it is.
 */
function shareStrings(event: Record<string, unknown>, shared: SharedStrings): void {
  const { type, messageId, toolCallId } = event;
  if (typeof type === 'string') {
    if (type === shared.type) event.type = shared.type;
    else shared.type = type;
  }
  if (typeof messageId === 'string') {
    if (messageId === shared.messageId) event.messageId = shared.messageId;
    else shared.messageId = messageId;
  }
  if (typeof toolCallId === 'string') {
    if (toolCallId === shared.toolCallId) event.toolCallId = shared.toolCallId;
    else shared.toolCallId = toolCallId;
  }
}

/** The failure of a body that ended inside an event, naming what the event held. */
function unfinishedEvent(message: EventSourceMessage): AgentTransportError {
  const head = message.data.length > 120 ? `${textHead(message.data, 120)}…` : message.data;
  return new AgentTransportError(
    'UNFINISHED_EVENT',
    `The stream ended inside an event: the server sent its last frame (data: ${head}) without the blank line that ends an SSE event, so it was not read. The server must end each event with a blank line.`,
  );
}

/** Nothing arrived for `idleTimeoutMs`: the connection is taken as lost (not an AgentTransportError, so it may be reconnected). */
export class StreamSilent extends Error {
  override readonly name = 'StreamSilent';
}

/**
 * How late a timer may fire before the time past it is taken as the page's
 * (a long task: rendering, a script) rather than the network's.
 */
const LATE_MS = 50;

/**
 * The next chunk, or a StreamSilent error when none comes within `ms`
 * (the reader is then cancelled by the caller); with `graceMs` no longer
 * than `ms`, undefined rather than the error when that grace ends first. A
 * timer that fires late, because the page was busy, waits once more for as
 * long as it was late (at most `ms`): what the server sent while the page
 * could not read is read before the wait is taken as over.
 */
function readWithin(reader: ReadableStreamDefaultReader<Uint8Array>, ms: number): Promise<ReadableStreamReadResult<Uint8Array>>;
function readWithin(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  ms: number,
  graceMs: number,
): Promise<ReadableStreamReadResult<Uint8Array> | undefined>;
function readWithin(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  ms: number,
  graceMs?: number,
): Promise<ReadableStreamReadResult<Uint8Array> | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const silent = new Promise<undefined>((resolve, reject) => {
    let due = elapsed() + ms;
    let credited = false;
    const fire = () => {
      const late = elapsed() - due;
      if (!credited && late > LATE_MS) {
        credited = true;
        const more = Math.min(late, ms);
        due = elapsed() + more;
        timer = setTimeout(fire, more);
        return;
      }
      if (graceMs !== undefined && graceMs <= ms) resolve(undefined);
      else reject(new StreamSilent(`Nothing arrived from the agent for ${ms} ms, not even a heartbeat: the connection is taken as lost.`));
    };
    timer = setTimeout(fire, ms);
  });
  return Promise.race([reader.read(), silent]).finally(() => clearTimeout(timer));
}

/**
 * Prepares each non-empty decoded chunk for eventsource-parser 3 (the 3.x
 * line: 4.x declares Node >= 22.12), which leaves two things to its caller.
 * It strips a byte order mark only in its raw three-character form, not as
 * the U+FEFF a decoder gives: the body's first U+FEFF is dropped here, and
 * only that one. And it holds back a line that ends a chunk with CR until
 * the next chunk shows whether LF follows, so a frame ending a chunk with CR
 * would wait for the next chunk, and the last frame of the body would never
 * be delivered: such a CR is taken here as a whole line end, and an LF that
 * then starts the next chunk is dropped as the rest of that pair. Every CR
 * and CRLF is written as LF: on a chunk that holds a CR, the parser looks for
 * the next CR and the next LF from each line, which over a chunk of many
 * lines of one end and a far one of the other (a server's choice) takes time
 * that grows as the square of its length, seconds for a megabyte.
 */
function parserInput(): (chunk: string) => string {
  let first = true;
  let afterCr = false;
  return (chunk) => {
    let text = chunk;
    if (first) {
      first = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (afterCr && text.charCodeAt(0) === 0x0a) text = text.slice(1);
    afterCr = text.charCodeAt(text.length - 1) === 0x0d;
    if (!text.includes('\r')) return text;
    // Split and joined: as fast as a replace over CRLF lines, several times faster over lines of a CR alone.
    const crlf = text.split('\r\n').join('\n');
    return crlf.includes('\r') ? crlf.split('\r').join('\n') : crlf;
  };
}

/**
 * Decodes the body's chunks as one UTF-8 stream. A chunk that ends in an
 * ASCII byte (every SSE frame ends with a newline) while the stream decoder
 * holds no partial character is decoded on its own: the same text, without
 * the streaming decoder's bookkeeping, which in Node costs as much again as
 * the decoding itself.
 */
function chunkDecoder(stream: TextDecoder): (chunk: Uint8Array) => string {
  const whole = new TextDecoder('utf-8', BOM_AS_TEXT);
  // Whether the stream decoder may hold the first bytes of a character split across chunks.
  let carrying = false;
  return (chunk) => {
    if (chunk.length === 0) return '';
    const last = chunk[chunk.length - 1] as number;
    if (!carrying && last < 0x80) return whole.decode(chunk);
    carrying = last >= 0x80;
    return stream.decode(chunk, STREAM);
  };
}

const STREAM: TextDecodeOptions = { stream: true };
const BOM_AS_TEXT: TextDecoderOptions = { ignoreBOM: true };

/**
 * The pull form of a push stream: `start` hands events to `emit` and, after
 * each network chunk, awaits `drained` before reading the next, which
 * resolves once the consumer has taken every event handed over (as an async
 * generator reading the body itself would). Each event's SSE id is reported
 * as the event is taken. A consumer that stops early (break, or an error in
 * its loop) aborts the stream through the options' signal, and hears nothing
 * more from it.
 */
export async function* pullEvents(
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
  const { lastEventId, onReconnecting, onServerTime, streamState } = runOptions;
  const options: SourceRunOptions = {
    signal: stop.signal,
    onConnection: (status) => {
      if (!stopped) onConnection?.(status);
    },
    onReconnecting: (attempt, of) => {
      if (!stopped) onReconnecting?.(attempt, of);
    },
    ...(lastEventId !== undefined ? { lastEventId } : {}),
    ...(onServerTime ? { onServerTime } : {}),
    ...(streamState ? { streamState } : {}),
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
