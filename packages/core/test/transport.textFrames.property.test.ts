/**
 * Frames whose data is JSON are read as JSON, whatever JSON it is and however
 * much whitespace leads it (or follows an opening bracket); a text that is no
 * JSON (a leading byte-order mark or no-break space, which JSON.parse refuses)
 * is handed over as its text: exactly what JSON.parse makes of each, or the
 * text where it throws.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { httpSseSource, type RunAgentInput } from '../src/index.js';
import { closeServers, serve } from './support/loopbackServer.js';

afterEach(closeServers);

const input: RunAgentInput = { threadId: 't1', runId: 'r1', messages: [], tools: [], context: [], state: {}, forwardedProps: {} };
const started = `data: ${JSON.stringify({ type: 'RUN_STARTED', threadId: 't1', runId: 'r1' })}\n\n`;
const finished = `data: ${JSON.stringify({ type: 'RUN_FINISHED', threadId: 't1', runId: 'r1' })}\n\n`;

/** Whitespace JSON allows (no CR: SSE ends a line there), and characters it does not (BOM, no-break space, U+2028). */
const lead = fc
  .array(fc.constantFrom(' ', '\t', '\n', ' ', '\uFEFF', '\u00a0', '\u2028', '\u000b', '\u000c'), { maxLength: 4 })
  .map((c) => c.join(''));
/** A JSON text (of any JSON value), with whitespace or not-quite-whitespace before it and after a leading `[`. */
const text = fc
  .tuple(
    lead,
    fc.oneof(
      fc.json(),
      fc.jsonValue().map((v) => JSON.stringify(v, null, 1)),
    ),
    lead,
  )
  .map(([before, json, inner]) => (json.startsWith('[') ? `${before}[${inner}${json.slice(1)}` : `${before}${json}`));
/** What a frame's data was read as before a check went ahead of JSON.parse: its value, or its text where it throws. */
const parsedOrText = (data: string): unknown => {
  try {
    return JSON.parse(data);
  } catch {
    return data;
  }
};

/** An SSE frame whose data is `data`, a data line per line of it. */
const frame = (data: string) =>
  `${data
    .split('\n')
    .map((line) => `data: ${line}`)
    .join('\n')}\n\n`;

describe('frames whose data is JSON text', () => {
  it('each is read as JSON.parse reads it, or handed over as its text where JSON.parse throws', async () => {
    const samples = [
      ...fc.sample(text, { numRuns: 1500, seed: 20261207 }),
      ...fc.sample(fc.string({ unit: 'binary', maxLength: 12 }), { numRuns: 500, seed: 7 }),
      // The edges of the check: brackets, literals, their near misses.
      ...['[]', '[ ]', '[\n]', '[[]]', '[,]', '[ true]', '[tru]', 'tru', 'nul', 'null', '-', '-1', '-a', '"', '""', '0', '.5', '+1'],
      ...['{"a":1}', ' \t{"a":1}', '\uFEFF{"a":1}', '[\uFEFF1]', 'NaN', 'Infinity', '[DONE]', '[ DONE ]', "{'a':1}"],
    ].filter((s) => !s.includes('\r') && s.trim() !== '' && !/^\n|\n$/.test(s));
    const server = await serve((res) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.end(started + samples.map(frame).join('') + finished);
    });
    const events: unknown[] = [];
    await httpSseSource({ url: server.url }).deliver?.(input, {}, (event) => events.push(event));
    const got = events.slice(1, -1);
    expect(got).toHaveLength(samples.length);
    const wrong = samples.flatMap((s, i) => {
      try {
        expect(got[i]).toStrictEqual(parsedOrText(s));
        return [];
      } catch {
        return [{ sent: s, got: got[i] }];
      }
    });
    expect(wrong).toEqual([]);
    // Some of each: texts JSON.parse reads, and texts it refuses.
    const reads = (s: string) => {
      try {
        JSON.parse(s);
        return true;
      } catch {
        return false;
      }
    };
    expect(samples.filter(reads).length).toBeGreaterThan(300);
    expect(samples.filter((s) => !reads(s)).length).toBeGreaterThan(300);
  });
});
