/**
 * readFrames hands over the frames eventsource-parser finds in a body, however
 * the network cut it: a reference built on the parser alone (each chunk
 * decoded, its CR and CRLF line ends written as LF, fed to the parser) says
 * which frames, with which SSE id and event name, and how the body ends (its
 * end, FRAME_TOO_LARGE, or an event it ended inside). Bodies of data, id,
 * event, retry, comment and junk lines, any line end, cut anywhere (whole
 * frames among them, the shape of a server that flushes each token).
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readFrames } from '../src/transports/sseBody.js';

type Reader = typeof readFrames;

interface Frame {
  keys: string[];
  id: string | undefined;
  event: string | undefined;
  data: string;
  value: unknown;
  /** Error.stackTraceLimit as the consumer's code saw it. */
  stackLimit: unknown;
}

interface Outcome {
  frames: Frame[];
  end: string;
  /** Error.stackTraceLimit once the body was read. */
  stackLimit: unknown;
}

/** What stops the consumer at the nth frame (from 1): it throws, or aborts the read. */
type Stop = { at: number; by: 'throw' | 'abort' } | undefined;

const parse = (data: string): unknown => {
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return data;
  }
};

const endOf = (error: unknown): string =>
  error instanceof Error ? `${error.name}:${(error as { code?: string }).code ?? ''}:${error.message}` : `thrown:${String(error)}`;

function bodyOf(chunks: readonly Uint8Array[]): Response {
  let next = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[next++];
      if (chunk === undefined) controller.close();
      else controller.enqueue(chunk);
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}

/** What `read` hands over of a body of these chunks. */
async function outcomeOf(read: Reader, chunks: readonly Uint8Array[], maxFrame: number, stop: Stop): Promise<Outcome> {
  const frames: Frame[] = [];
  const abort = new AbortController();
  const onFrame = (frame: EventSourceMessage, value: unknown) => {
    frames.push({ keys: Object.keys(frame), id: frame.id, event: frame.event, data: frame.data, value, stackLimit: Error.stackTraceLimit });
    if (stop?.at === frames.length) {
      if (stop.by === 'throw') throw new Error('consumer');
      abort.abort(new Error('aborted'));
    }
  };
  let end = 'end';
  try {
    await read(bodyOf(chunks), maxFrame, abort.signal, onFrame, undefined);
  } catch (error) {
    end = endOf(error);
  }
  return { frames, end, stackLimit: Error.stackTraceLimit };
}

/** The reference: eventsource-parser fed each chunk, decoded, its line ends written as LF. */
function referenceOf(chunks: readonly Uint8Array[], maxFrame: number, stop: Stop): Outcome {
  const limit = Error.stackTraceLimit;
  const frames: Frame[] = [];
  let tooLarge = false;
  let atEnd = false;
  let unfinished: EventSourceMessage | undefined;
  let stopped: string | undefined;
  const parser = createParser({
    maxBufferSize: maxFrame + 1024,
    onEvent: (frame) => {
      if (frame.data.length > maxFrame) tooLarge = true;
      if (tooLarge || stopped) return;
      if (atEnd) {
        unfinished = frame;
        return;
      }
      frames.push({
        keys: Object.keys(frame),
        id: frame.id,
        event: frame.event,
        data: frame.data,
        value: parse(frame.data),
        stackLimit: limit,
      });
      if (stop?.at === frames.length) stopped = endOf(new Error(stop.by === 'throw' ? 'consumer' : 'aborted'));
    },
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') tooLarge = true;
    },
  });
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let first = true;
  let afterCr = false;
  const finish = (end: string): Outcome => ({ frames, end, stackLimit: limit });
  for (let i = 0; i <= chunks.length; i++) {
    const chunk = chunks[i];
    let text = chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode();
    if (text) {
      // The body's first character, when it is a byte order mark, is none of its text.
      if (first && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      first = false;
      // A CR that ended the chunk before was a line end: an LF after it is the rest of that CRLF.
      if (afterCr && text.startsWith('\n')) text = text.slice(1);
      afterCr = text.endsWith('\r');
      if (text) parser.feed(text.replace(/\r\n?/g, '\n'));
    }
    if (stopped) return finish(stopped);
    if (tooLarge)
      return finish(`AgentTransportError:FRAME_TOO_LARGE:An SSE frame exceeded ${maxFrame} characters; the stream was stopped.`);
  }
  atEnd = true;
  parser.feed('\n\n');
  return finish(unfinished ? 'AgentTransportError:UNFINISHED_EVENT:' : 'end');
}

/** A body's text: lines of each kind, each with a line end of its own. */
const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
  fc.constantFrom('', ' ', 'é漢😀', '\u2028\u2029', '\ud800', 'x\udc00y', '\0', ':', '\uFEFF', 'ping'),
);
const token = fc.record({
  type: fc.constantFrom('TEXT_MESSAGE_CONTENT', 'TOOL_CALL_ARGS', 'CUSTOM'),
  messageId: fc.constantFrom('m1', 'm2', 'é'),
  toolCallId: fc.constantFrom('t1', 't2'),
  delta: text,
});
const data = fc.oneof(
  token.map((event) => JSON.stringify(event)),
  text,
  fc.constant('{"type":"RUN_STARTED","threadId":"t","runId":"r"}'),
);
const line = fc.oneof(
  { weight: 6, arbitrary: data.map((value) => `data: ${value}`) },
  { weight: 2, arbitrary: data.map((value) => `data:${value}`) },
  { weight: 1, arbitrary: fc.constantFrom('data:', 'data: ', 'data:  x', ' data: x', 'data', 'Data: x') },
  { weight: 2, arbitrary: text.map((value) => `id: ${value}`) },
  { weight: 1, arbitrary: fc.constantFrom('id:', 'id', 'id: 7', 'id:8') },
  { weight: 2, arbitrary: text.map((value) => `event: ${value}`) },
  { weight: 1, arbitrary: fc.constantFrom('event:', 'event: ping', 'retry: 100', 'retry:5', 'retry: x', 'retry') },
  { weight: 1, arbitrary: text.map((value) => `:${value}`) },
  { weight: 1, arbitrary: fc.constantFrom('x', 'foo bar', 'x: 1') },
  { weight: 4, arbitrary: fc.constant('') },
);
const lineEnd = fc.oneof({ weight: 4, arbitrary: fc.constant('\n') }, fc.constant('\r\n'), fc.constant('\r'));
/** A piece the server writes at once: a whole frame of one data line (with its blank line), or some lines. */
const piece = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.tuple(data, fc.boolean(), lineEnd, lineEnd).map(([value, space, a, b]) => `data:${space ? ' ' : ''}${value}${a}${b}`),
  },
  fc.array(fc.tuple(line, lineEnd), { minLength: 1, maxLength: 4 }).map((lines) => lines.map(([l, e]) => l + e).join('')),
  fc
    .array(fc.tuple(line, lineEnd), { maxLength: 3 })
    .map((lines) => lines.map(([l, e]) => l + e).join('') + (lines.length ? 'data: tail' : '')),
);
/** The body's chunks: each piece a chunk, some of them cut again anywhere (inside a character's bytes too). */
const body = fc
  .tuple(
    fc.boolean(),
    fc.array(fc.tuple(piece, fc.oneof({ weight: 3, arbitrary: fc.constant([]) }, fc.array(fc.nat(), { maxLength: 2 }))), { maxLength: 12 }),
  )
  .map(([bom, pieces]) => {
    const encoder = new TextEncoder();
    const chunks: Uint8Array[] = [];
    pieces.forEach(([text, cuts], i) => {
      const bytes = encoder.encode(i === 0 && bom ? `\uFEFF${text}` : text);
      const at = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
      [0, ...at].forEach((from, j) => {
        chunks.push(bytes.subarray(from, at[j] ?? bytes.length));
      });
    });
    return chunks;
  });
const stop: fc.Arbitrary<Stop> = fc.option(
  fc.record({ at: fc.integer({ min: 1, max: 6 }), by: fc.constantFrom('throw' as const, 'abort' as const) }),
  {
    nil: undefined,
  },
);

/** The reference's end names the unfinished event's kind only: the reader's message also quotes it. */
const comparable = (outcome: Outcome): Outcome => ({
  ...outcome,
  end: outcome.end.startsWith('AgentTransportError:UNFINISHED_EVENT:') ? 'AgentTransportError:UNFINISHED_EVENT:' : outcome.end,
});

describe('readFrames: the frames eventsource-parser finds, however the body is cut', () => {
  it('hands over the frames, ids, event names and end the parser gives (with fields, junk lines, any line end)', async () => {
    await fc.assert(
      fc.asyncProperty(body, fc.integer({ min: 4, max: 400 }), stop, async (chunks, maxFrame, stopAt) => {
        const got = await outcomeOf(readFrames, chunks, maxFrame, stopAt);
        expect(comparable(got)).toEqual(referenceOf(chunks, maxFrame, stopAt));
      }),
      { numRuns: 2000 },
    );
  }, 120_000);

  it('a consumer that aborts on a frame ends the read as aborted, though a frame too large follows it in the chunk', async () => {
    const chunk = new TextEncoder().encode('data: a\n\ndata: {"type":"TEXT_MESSAGE_CONTENT","delta":"far too long"}\n\n');
    const got = await outcomeOf(readFrames, [chunk], 4, { at: 1, by: 'abort' });
    expect(got.frames.map((f) => f.data)).toEqual(['a']);
    expect(got.end).toBe('Error::aborted');
  });
});
