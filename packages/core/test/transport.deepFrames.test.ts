/**
 * A frame that nests objects and arrays millions deep takes JSON.parse
 * seconds to read (where a flat frame of the same size takes a fraction of
 * one), and the thread refuses any value nested past a few hundred levels:
 * such a frame is handed over as its text, at once, as a frame that is not
 * JSON is, and the stream goes on.
 */
import { describe, expect, it } from 'vitest';
import { createEventPipeline } from '../src/engine.js';
import { MAX_TEXT_DEPTH } from '../src/jsonCheck.js';
import { fastestRead, readBody } from './support/sseBodies.js';

const started = { type: 'RUN_STARTED', threadId: 't1', runId: 'r1' };
const finished = { type: 'RUN_FINISHED', threadId: 't1', runId: 'r1' };
const frame = (data: string) => `data: ${data}\n\n`;
const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const custom = (value: string) => `{"type":"CUSTOM","name":"n","value":${value}}`;

/** Far more than a look at a frame of a few megabytes takes (milliseconds); JSON.parse took 4-6 s over this one. */
const BOUND_MS = 2000;

describe('httpSseSource: a frame nested millions deep', () => {
  it('is handed over as its text, in well under 2 s, with the events after it', async () => {
    const deep = custom(nested(3_500_000));
    const { events, ms } = await fastestRead(
      () => readBody([frame(JSON.stringify(started)), frame(deep), frame(JSON.stringify(finished))]),
      BOUND_MS,
    );
    expect(ms).toBeLessThan(BOUND_MS);
    expect(events).toEqual([started, deep, finished]);
    // The thread names it as it names any frame that is no JSON object, and the run ends as it did.
    const pipeline = createEventPipeline();
    for (const event of events) pipeline.push(event);
    expect(pipeline.state.diagnostics.map((d) => d.code)).toEqual(['NOT_AN_OBJECT']);
    expect(pipeline.state.run.status).toBe('success');
  }, 60_000);

  it(`reads a frame nested ${MAX_TEXT_DEPTH} deep (the event's object counting one) as JSON, and one holding that many brackets in its strings`, async () => {
    const atLimit = custom(nested(MAX_TEXT_DEPTH - 1));
    const inStrings = custom(JSON.stringify('['.repeat(MAX_TEXT_DEPTH + 10)));
    const { events } = await readBody([frame(atLimit), frame(inStrings)]);
    // Compared by their JSON: a deep comparison of a value nested that deep would overflow the stack.
    expect(events.map((event) => typeof event)).toEqual(['object', 'object']);
    expect(events[1]).toEqual(JSON.parse(inStrings));
    let depth = 0;
    for (let value = (events[0] as { value: unknown }).value; Array.isArray(value); value = value[0]) depth++;
    expect(depth).toBe(MAX_TEXT_DEPTH - 1);
  }, 60_000);
});
