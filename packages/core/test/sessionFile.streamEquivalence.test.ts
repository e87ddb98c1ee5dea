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

  // Event lines whose indexes run on, jump ahead (a gap, or a run of far lines), go back, repeat or swap, among
  // client entries and resets: each line is kept or named once, the kept ones' indexes grow in each session, and the
  // text, its bytes read whole (in slices) and read line by line give the same session.
  const indexes = fc.array(
    fc.oneof(
      { weight: 6, arbitrary: fc.constant('next' as const) },
      { weight: 2, arbitrary: fc.array(fc.integer({ min: 2, max: 1e9 }), { minLength: 1, maxLength: 18 }) },
      { weight: 1, arbitrary: fc.integer({ min: -6, max: 0 }) },
      { weight: 1, arbitrary: fc.constantFrom('stop' as const, 'reset' as const) },
    ),
    { maxLength: 30 },
  );

  it('keeps each event line or names it, the kept indexes growing, however far lines run, as its bytes read', async () => {
    await fc.assert(
      fc.asyncProperty(indexes, fc.constantFrom('\n', '\r\n'), async (steps, sep) => {
        const lines: string[] = [];
        let last = -1;
        const event = (index: number) =>
          JSON.stringify({ type: 'event', at: 1, index, event: { type: 'CUSTOM', name: 'e', value: index } });
        for (const step of steps) {
          if (step === 'stop') lines.push('{"type":"stop","at":1}');
          else if (step === 'reset') {
            lines.push('{"type":"reset","at":1}');
            last = -1;
          } else if (step === 'next') lines.push(event(++last));
          else if (typeof step === 'number') lines.push(event(Math.max(0, last + step)));
          else {
            // A run of lines, each jumping ahead of the one before it.
            let at = last;
            for (const jump of step) {
              at += jump;
              lines.push(event(at));
            }
            if (step.length > 1) last = at;
          }
        }
        const text = lines.join(sep);
        const read = parseSession(text);
        const events = lines.filter((l) => l.includes('"event"')).length;
        const kept = read.entries.filter((e) => e.type === 'event');
        expect(kept.length + read.errors.length).toBe(events);
        expect(read.errors.every((e) => e.code === 'OUT_OF_ORDER')).toBe(true);
        let before = -1;
        for (const e of read.entries) {
          if (e.type === 'reset') before = -1;
          if (e.type !== 'event') continue;
          const value = (e.event as { value: number }).value;
          expect(value).toBeGreaterThan(before);
          before = value;
        }
        expect(await readSession(new Blob([text]), 0)).toEqual(read);
        expect(await parseSession(new Blob([text]))).toEqual(read);
      }),
      { numRuns: 400 },
    );
  }, 60_000);

  it('refuses a run of up to 16 lines, each far ahead of the one before it, that the lines after it go on without, and nothing else', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 40 }),
        fc.array(fc.integer({ min: 2, max: 1e12 }), { minLength: 1, maxLength: 16 }),
        (before, after, jumps) => {
          const event = (index: number) =>
            JSON.stringify({ type: 'event', at: 1, index, event: { type: 'CUSTOM', name: 'e', value: index } });
          // Each far line jumps ahead of the one before it: 1e13 and past.
          const far = jumps.map((_, i) => 1e13 + jumps.slice(0, i + 1).reduce((sum, jump) => sum + jump, 0));
          const lines = [
            ...Array.from({ length: before }, (_, i) => event(i)),
            ...far.map(event),
            ...Array.from({ length: after }, (_, i) => event(before + i)),
          ];
          const read = parseSession(lines.join('\n'));
          expect(read.entries.map((e) => (e.type === 'event' ? (e.event as { value: number }).value : -1))).toEqual(
            Array.from({ length: before + after }, (_, i) => i),
          );
          expect(read.errors.map((e) => e.line)).toEqual(jumps.map((_, i) => before + i + 1));
        },
      ),
      { numRuns: 300 },
    );
  });
});
