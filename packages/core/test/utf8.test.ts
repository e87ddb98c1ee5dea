import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { completeLength, Utf8Stream } from '../src/transports/utf8.js';

/** The stream's text for `bytes` cut at `cuts`, and TextDecoder's in stream mode for the same chunks. */
function both(bytes: Uint8Array, cuts: number[]) {
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let from = 0;
  for (const to of [...at, bytes.length]) {
    chunks.push(bytes.subarray(from, to));
    from = to;
  }
  const ours = new Utf8Stream();
  const reference = new TextDecoder('utf-8');
  let a = '';
  let b = '';
  for (const chunk of chunks) {
    a += ours.decode(chunk);
    b += reference.decode(chunk, { stream: true });
  }
  return { ours: a + ours.end(), reference: b + reference.decode() };
}

describe('Utf8Stream', () => {
  it('decodes like TextDecoder in stream mode, for any bytes (invalid ones included) cut anywhere', () => {
    // Bytes weighted towards lead and continuation bytes, so that characters and broken sequences straddle the cuts.
    const byte = fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(0x41, 0x80, 0xbf, 0xc3, 0xe2, 0xef, 0xbb, 0xf0, 0x9f));
    fc.assert(
      fc.property(fc.array(byte, { maxLength: 40 }), fc.array(fc.nat(), { maxLength: 8 }), (list, cuts) => {
        const r = both(Uint8Array.from(list), cuts);
        expect(r.ours).toBe(r.reference);
      }),
      { numRuns: 3000 },
    );
  });

  it('keeps a character split at every byte position whole, and drops only a leading byte order mark', () => {
    const bytes = new TextEncoder().encode('\uFEFFa é € 𝄞 \uFEFF z');
    for (let at = 0; at <= bytes.length; at++) {
      for (const step of [1, 2, 3, 5]) {
        const r = both(bytes, [at, at + step]);
        expect(r.ours).toBe('a é € 𝄞 \uFEFF z');
        expect(r.ours).toBe(r.reference);
      }
    }
  });

  it('decodes the bytes of a character left incomplete at the end as U+FFFD', () => {
    const s = new Utf8Stream();
    expect(s.decode(Uint8Array.from([0x61, 0xe2, 0x82]))).toBe('a');
    expect(s.end()).toBe('\uFFFD');
  });

  it('finds where a sequence the bytes end inside begins', () => {
    expect(completeLength(Uint8Array.from([0x61, 0xc3]))).toBe(1);
    expect(completeLength(Uint8Array.from([0x61, 0xc3, 0xa9]))).toBe(3);
    expect(completeLength(Uint8Array.from([0xf0, 0x9d, 0x84]))).toBe(0);
    expect(completeLength(Uint8Array.from([0xf0, 0x9d, 0x84, 0x9e]))).toBe(4);
    expect(completeLength(Uint8Array.from([0x80, 0x80, 0x80, 0x80]))).toBe(4);
  });

  it('takes an ArrayBuffer or any view of one', () => {
    const bytes = new TextEncoder().encode('xé');
    expect(new Utf8Stream().decode(bytes.buffer)).toBe('xé');
    expect(new Utf8Stream().decode(new DataView(bytes.buffer, 1))).toBe('é');
  });
});
