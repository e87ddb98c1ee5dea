/**
 * An SSE body's lines may end with LF, CRLF or CR alone, mixed as a server
 * likes: however they are mixed, a chunk is read in time that grows as its
 * length does, so a server cannot hold the page's thread for seconds with a
 * chunk of empty lines and one CR at its end.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { httpSseSource, type RunAgentInput } from '../src/index.js';

const input: RunAgentInput = { threadId: 't1', runId: 'r1', messages: [], tools: [], context: [], state: {}, forwardedProps: {} };
const started = { type: 'RUN_STARTED', threadId: 't1', runId: 'r1' };
const finished = { type: 'RUN_FINISHED', threadId: 't1', runId: 'r1' };
const data = (event: unknown) => `data: ${JSON.stringify(event)}`;

/** The events of a body that arrives in these chunks, and how long reading it took. */
async function readChunks(chunks: readonly Uint8Array[]): Promise<{ events: unknown[]; ms: number }> {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  const response = new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  const events: unknown[] = [];
  const t0 = performance.now();
  for await (const event of httpSseSource({ url: 'http://agent.invalid/run', fetch: async () => response }).run(input)) events.push(event);
  return { events, ms: performance.now() - t0 };
}

const readOneChunk = (text: string) => readChunks([new TextEncoder().encode(text)]);

/**
 * The read of `text` as one chunk, timed. A read over the bound is made
 * again, up to three in all, the fastest kept: a machine busy with other work
 * (the other test files beside this one on two cores) slows one read, while
 * a read that scans the rest of the chunk at each line is over it every time.
 */
async function fastestRead(text: string): Promise<{ events: unknown[]; ms: number }> {
  let best = await readOneChunk(text);
  for (let tries = 1; tries < 3 && best.ms >= BOUND_MS; tries++) {
    const next = await readOneChunk(text);
    if (next.ms < best.ms) best = next;
  }
  return best;
}

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
      const { events, ms } = await fastestRead(`${data(started)}\n\n${filler}${data(finished)}\r\n\r\n`);
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
      expect((await readChunks([body.subarray(0, at), body.subarray(at)])).events, `cut at ${at}`).toEqual(events);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(body.length), { maxLength: 30 }), async (cuts) => {
        const at = [...cuts].sort((a, b) => a - b);
        const chunks = [0, ...at].map((from, i) => body.subarray(from, at[i] ?? body.length));
        expect((await readChunks(chunks)).events).toEqual(events);
      }),
      { numRuns: 200 },
    );
  });
});
