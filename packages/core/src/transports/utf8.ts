/**
 * UTF-8 decoding of a byte stream that arrives in chunks, as TextDecoder's
 * stream mode does it, with the same output for any split of the bytes.
 *
 * The bytes of a character that a chunk leaves incomplete wait for the next
 * chunk; the complete characters are decoded in one call without the stream
 * option, which Node decodes several times faster (its streaming decoder
 * goes through ICU, its one-shot decoder does not). A byte order mark at the
 * start of the stream is dropped, as TextDecoder drops it.
 */
export class Utf8Stream {
  private readonly decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  /** The first bytes of a character the last chunk ended inside. */
  private carry: Uint8Array | undefined;
  private started = false;

  /** The text of the complete characters received so far and not yet returned. */
  decode(chunk: ArrayBufferView | ArrayBuffer): string {
    let bytes = asBytes(chunk);
    if (this.carry) {
      const joined = new Uint8Array(this.carry.length + bytes.length);
      joined.set(this.carry);
      joined.set(bytes, this.carry.length);
      bytes = joined;
      this.carry = undefined;
    }
    const complete = completeLength(bytes);
    if (complete < bytes.length) {
      this.carry = bytes.slice(complete);
      bytes = bytes.subarray(0, complete);
    }
    return this.text(bytes);
  }

  /** The end of the stream: bytes of a character left incomplete decode as U+FFFD. */
  end(): string {
    const rest = this.carry;
    this.carry = undefined;
    return rest ? this.text(rest) : '';
  }

  private text(bytes: Uint8Array): string {
    if (bytes.length === 0) return '';
    const text = this.decoder.decode(bytes);
    if (this.started) return text;
    this.started = true;
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  }
}

function asBytes(chunk: ArrayBufferView | ArrayBuffer): Uint8Array {
  if (chunk instanceof Uint8Array) return chunk;
  if (ArrayBuffer.isView(chunk)) return new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  return new Uint8Array(chunk);
}

/**
 * How many of the bytes end on a character boundary: all of them, or all but
 * the start of a multi-byte sequence that the bytes end inside. Only the last
 * three bytes are looked at (a sequence is at most four long); bytes that
 * cannot be part of one (invalid) are left to the decoder, which writes them
 * as U+FFFD wherever the stream was split.
 */
export function completeLength(bytes: Uint8Array): number {
  const n = bytes.length;
  for (let i = n - 1; i >= 0 && i >= n - 3; i--) {
    const b = bytes[i] as number;
    // A continuation byte (10xxxxxx): keep looking for the byte that leads the sequence.
    if ((b & 0xc0) === 0x80) continue;
    const length = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return i + length > n ? i : n;
  }
  return n;
}
