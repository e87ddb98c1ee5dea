/**
 * Lines that are no SSE field (`foo bar`, `x: 1`, a `retry:` that is no
 * number) are ignored, as the SSE standard says: a server or a proxy that
 * sends a megabyte of them holds the page's thread for a small multiple of
 * what a megabyte of frames takes, not for seconds.
 */
import { describe, expect, it } from 'vitest';
import { httpSseSource } from '../src/index.js';
import { readBody, runInput } from './support/sseBodies.js';

const started = { type: 'RUN_STARTED', threadId: 't1', runId: 'r1' };
const finished = { type: 'RUN_FINISHED', threadId: 't1', runId: 'r1' };
const frame = (event: unknown) => `data: ${JSON.stringify(event)}\n\n`;

const MB = 2 ** 20;
const CHUNK = 16 * 1024;

/** `text` repeated to a megabyte, cut into network chunks of 16 KiB. */
function megabyteOf(text: string): string[] {
  const body = text.repeat(Math.ceil(MB / text.length));
  const chunks: string[] = [];
  for (let at = 0; at < body.length; at += CHUNK) chunks.push(body.slice(at, at + CHUNK));
  return chunks;
}

const delta = (i: number) => frame({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: `token ${i % 10}` });

describe('httpSseSource: lines that are no field', () => {
  it.each([
    ['unknown fields without a colon', 'foo bar\n'],
    ['unknown fields with a value', 'x: 1\n'],
    ['retry fields that are no number', 'retry: soon\n'],
  ])(
    'a megabyte of %s is read in a small multiple of the time a megabyte of frames takes',
    async (_name, line) => {
      const frames = megabyteOf(delta(0));
      const junk = megabyteOf(line);
      const body = (middle: string[]) => [frame(started), ...middle, '\n', frame(finished)];
      // Fastest of five each, interleaved: another process slows one read, not all.
      let framesMs = Number.POSITIVE_INFINITY;
      let junkMs = Number.POSITIVE_INFINITY;
      for (let round = 0; round < 5; round++) {
        framesMs = Math.min(framesMs, (await readBody(body(frames))).ms);
        const read = await readBody(body(junk));
        expect(read.events).toEqual([started, finished]);
        junkMs = Math.min(junkMs, read.ms);
      }
      // A megabyte of such lines (a quarter of a million of them) takes 4-8 times as long as a megabyte of frames (ten
      // thousand), each line ignored in a fraction of a microsecond; an Error with its stack made for each took 35-130 times.
      expect(junkMs / framesMs).toBeLessThan(16);
    },
    60_000,
  );
});

describe("httpSseSource: the consumer's errors", () => {
  it('keep their stacks while frames are read among lines that are no field, and the stack trace limit is as it was', async () => {
    const limit = Error.stackTraceLimit;
    const body = new TextEncoder().encode(`foo bar\n${frame(started)}x: 1\n\n`);
    const source = httpSseSource({
      url: 'http://agent.invalid/run',
      fetch: async () => new Response(body, { headers: { 'content-type': 'text/event-stream' } }),
    });
    if (!source.deliver) throw new Error('httpSseSource has a push form');
    const failure = await source
      .deliver(runInput, {}, () => {
        throw new Error('the consumer failed');
      })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).stack).toMatch(/the consumer failed\n\s+at /);
    expect(Error.stackTraceLimit).toBe(limit);
  });

  it('a body that ends inside a line that is no field leaves the stack trace limit as it was', async () => {
    const limit = Error.stackTraceLimit;
    const { events } = await readBody([frame(started), `x: 1\n${frame(finished)}`, 'foo bar']);
    expect(events).toEqual([started, finished]);
    expect(Error.stackTraceLimit).toBe(limit);
  });
});
