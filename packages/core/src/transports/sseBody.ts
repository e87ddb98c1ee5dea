import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { AgentTransportError } from './source.js';

/**
 * Reads the SSE frames of a response body, decoded as a UTF-8 stream, and
 * hands each to `onFrame` as the parser finds it; after each chunk, waits for
 * `drained` (when given) before reading the next.
 */
export async function readFrames(
  response: Response,
  maxFrame: number,
  signal: AbortSignal | undefined,
  onFrame: (frame: EventSourceMessage) => void,
  drained: (() => Promise<void> | undefined) | undefined,
): Promise<void> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  // The parser drops the byte order mark a body may start with; the decoders keep every U+FEFF as text.
  const decoder = new TextDecoder('utf-8', BOM_AS_TEXT);
  const text = chunkDecoder(decoder);
  let tooLarge = false;
  // What stopped the handing over of frames: an abort, or an error of the consumer.
  let stopped: { error: unknown } | undefined;
  // Set by the abort listener below (an abort dispatches its event synchronously): read per frame instead of the signal's getter.
  let aborted = signal?.aborted === true;
  const parser = createParser({
    maxBufferSize: maxFrame,
    onEvent: (message) => {
      // maxBufferSize bounds only what the parser holds between chunks: a frame
      // that arrives whole in one chunk is dispatched unbuffered, so check it here.
      if (message.data.length > maxFrame) tooLarge = true;
      // The frames before an oversize one are delivered; none after it is.
      if (tooLarge || stopped) return;
      try {
        // Frames already parsed in this chunk are not delivered once the caller aborted.
        if (aborted) throw abortReason(signal as AbortSignal);
        onFrame(message);
      } catch (error) {
        stopped = { error };
      }
    },
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') tooLarge = true;
    },
  });
  const onAbort = () => {
    aborted = true;
    void reader.cancel().catch(() => undefined);
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (aborted) throw abortReason(signal as AbortSignal);
      const chunk = done ? decoder.decode() : text(value);
      if (chunk) {
        try {
          parser.feed(chunk);
        } catch {
          tooLarge = true;
        }
      }
      if (stopped) throw stopped.error;
      if (tooLarge) {
        throw new AgentTransportError('FRAME_TOO_LARGE', `An SSE frame exceeded ${maxFrame} characters; the stream was stopped.`);
      }
      if (done) return;
      const wait = drained?.();
      if (wait) await wait;
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    reader.cancel().catch(() => undefined);
  }
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

/** What an aborted signal was aborted with, or an AbortError. */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('Aborted', 'AbortError');
}

const STREAM: TextDecodeOptions = { stream: true };
const BOM_AS_TEXT: TextDecoderOptions = { ignoreBOM: true };
