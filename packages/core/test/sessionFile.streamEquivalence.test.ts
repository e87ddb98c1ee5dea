/**
 * `parseSession` of a file's bytes, read chunk by chunk (whole, or line by
 * line past a length), gives what `parseSession` of its text gives, for any
 * text: JSON lines with any line ends, blank lines, torn lines, pretty-printed
 * values, arrays, one object, a byte order mark, characters of several bytes,
 * cut into chunks anywhere, in UTF-8 or UTF-16.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readSession } from '../src/controller/sessionFile.js';
import { parseSession } from '../src/index.js';

const entry = fc.oneof(
  fc.constant({ type: 'init', at: 1, threadId: 't' }),
  fc.constant({ type: 'reset', at: 2 }),
  fc.constant({ type: 'stop', at: 3 }),
  fc.constantFrom('u1', 'u2').map((id) => ({ type: 'user_message', at: 4, message: { id, role: 'user', content: 'hé 日本 😀' } })),
  fc
    .record({ index: fc.oneof(fc.nat(6), fc.constantFrom(1e15, 70, -1, 1.5)), d: fc.constantFrom('a', 'é', '日本語', '😀') })
    .map(({ index, d }) => ({ type: 'event', at: 5, index, event: { type: 'CUSTOM', name: d, value: d } })),
  fc.constantFrom('x', '€').map((name) => ({ type: 'CUSTOM', name, value: 1 })),
  fc.nat(6).map((index) => ({ index, receivedAt: 1, event: { type: 'CUSTOM', name: 'log', value: index } })),
  fc.constant({ a: 1 }),
);
const line = fc.oneof(
  { weight: 6, arbitrary: entry.map((e) => JSON.stringify(e)) },
  { weight: 1, arbitrary: entry.map((e) => JSON.stringify(e, null, 2)) },
  { weight: 1, arbitrary: fc.array(entry, { maxLength: 3 }).map((a) => JSON.stringify(a)) },
  { weight: 1, arbitrary: fc.array(entry, { maxLength: 3 }).map((a) => JSON.stringify({ stream: a })) },
  { weight: 1, arbitrary: entry.chain((e) => fc.nat(40).map((n) => JSON.stringify(e).slice(0, n))) },
  { weight: 2, arbitrary: fc.constantFrom('', ' ', '\t', '[', ']', '{', '}', ',', 'nöt JSON', '\uFEFF', '\u00a0', '"日本"', '1') },
);
const text = fc
  .record({
    bom: fc.boolean(),
    lines: fc.array(fc.tuple(line, fc.constantFrom('\n', '\r\n', '\r', '\n\n', ' \n')), { maxLength: 12 }),
    end: fc.boolean(),
  })
  .map(({ bom, lines, end }) => {
    const body = lines.map(([l, sep]) => l + sep).join('');
    return (bom ? '\uFEFF' : '') + (end ? body : body.replace(/[\r\n ]+$/, ''));
  });

/** The text's bytes, UTF-8 or UTF-16 after a byte order mark. */
function encode(s: string, as: 'utf-8' | 'utf-16le' | 'utf-16be'): Uint8Array {
  if (as === 'utf-8') return new TextEncoder().encode(s);
  const le = new Uint8Array(Buffer.from(s.startsWith('\uFEFF') ? s : `\uFEFF${s}`, 'utf16le'));
  if (as === 'utf-16le') return le;
  const be = le.slice();
  for (let i = 0; i + 1 < be.length; i += 2) [be[i], be[i + 1]] = [le[i + 1] as number, le[i] as number];
  return be;
}

/** A stream of `bytes` cut where `cuts` say (each a fraction of what is left), some chunks empty. */
function cutStream(bytes: Uint8Array, cuts: number[]): ReadableStream<Uint8Array> {
  let at = 0;
  let k = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      // An empty chunk now and then, never twice running: the stream always ends.
      const size = Math.max(k % 2, Math.floor((cuts[k % cuts.length] as number) * (bytes.length - at + 1)));
      k++;
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
}

describe('parseSession of bytes, as of their text', () => {
  it('reads any session-like text cut into any chunks as parseSession reads the text', async () => {
    await fc.assert(
      fc.asyncProperty(
        text,
        fc.constantFrom('utf-8', 'utf-16le', 'utf-16be'),
        fc.array(fc.double({ min: 0, max: 0.6, noNaN: true }), { minLength: 1, maxLength: 8 }),
        fc.constantFrom(0, 5, 40, 1 << 24),
        async (t, as, cuts, whole) => {
          const bytes = encode(t, as);
          // The text as the file's bytes read (`Blob.text()` for UTF-8): a byte order mark opening them is none of it.
          const want = parseSession(new TextDecoder(as).decode(bytes));
          if (!t.startsWith('\uFEFF\uFEFF')) expect(want).toEqual(parseSession(t));
          expect(await readSession(cutStream(bytes, cuts), whole)).toEqual(want);
          if (as === 'utf-8') expect(await parseSession(new Blob([t]))).toEqual(want);
        },
      ),
      { numRuns: 1500 },
    );
  }, 60_000);
});
