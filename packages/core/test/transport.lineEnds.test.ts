/**
 * An SSE body's lines may end with LF, CRLF or CR alone, mixed as a server
 * likes: however they are mixed, a chunk is read in time that grows as its
 * length does, so a server cannot hold the page's thread for seconds with a
 * chunk of empty lines and one CR at its end.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fastestRead, readBody } from './support/sseBodies.js';

const started = { type: 'RUN_STARTED', threadId: 't1', runId: 'r1' };
const finished = { type: 'RUN_FINISHED', threadId: 't1', runId: 'r1' };
const data = (event: unknown) => `data: ${JSON.stringify(event)}`;

const readOneChunk = (text: string) => readBody([text]);

/** A megabyte of empty lines: nothing but line ends, which is not a frame too large. */
const LINES = 2 ** 20;
/** Far more than a linear read of a megabyte takes (milliseconds); a read that scans the rest of the chunk at each line took 5-10 s. */
const BOUND_MS = 2000;

describe('httpSseSource: line ends mixed in one chunk', () => {
  it.each([
    ['LF lines, then one CRLF', `${'\n'.repeat(LINES)}\r\n`],
    ['CR lines, then one LF', `${'\r'.repeat(LINES)}\n`],
    ['comments ending in LF, then one CR', `${':\n'.repeat(LINES / 2)}\r`],
  ])(
    '%s: read in linear time, each event kept',
    async (_name, filler) => {
      const { events, ms } = await fastestRead(() => readOneChunk(`${data(started)}\n\n${filler}${data(finished)}\r\n\r\n`), BOUND_MS);
      expect(events).toEqual([started, finished]);
      expect(ms).toBeLessThan(BOUND_MS);
    },
    60_000,
  );

  it('reads a CR, an LF and a CRLF as one line end each, wherever they fall', async () => {
    const { events } = await readOneChunk(
      `${data(started)}\r\n\r${data({ type: 'CUSTOM', name: 'n', value: 1 })}\n\r\n\r${data(finished)}\r\r`,
    );
    expect(events).toEqual([started, { type: 'CUSTOM', name: 'n', value: 1 }, finished]);
  });

  it('yields the same events however a body of CR, LF and CRLF line ends is cut, a byte order mark and characters of several bytes among them', async () => {
    const value = { type: 'CUSTOM', name: 'n', value: 'é漢😀' };
    const events = [started, value, finished];
    const body = new TextEncoder().encode(`\uFEFF: hi\r\n${data(started)}\r\n\r${data(value)}\r\r: x\n${data(finished)}\n\r\n`);
    // Every cut into two chunks, then cuts into many.
    for (let at = 0; at <= body.length; at++)
      expect((await readBody([body.subarray(0, at), body.subarray(at)])).events, `cut at ${at}`).toEqual(events);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(body.length), { maxLength: 30 }), async (cuts) => {
        const at = [...cuts].sort((a, b) => a - b);
        const chunks = [0, ...at].map((from, i) => body.subarray(from, at[i] ?? body.length));
        expect((await readBody(chunks)).events).toEqual(events);
      }),
      { numRuns: 200 },
    );
  });
});
