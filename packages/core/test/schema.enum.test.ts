/**
 * An interrupt asking to choose one of 100,000 values: its schema is checked
 * against its meta-schema, which asks (draft-07) for an enum's values to be
 * unique. ajv checks that by comparing each value with every other, a minute
 * for 100,000; here it takes one pass, and a schema the meta-schema refuses is
 * still refused.
 */
import { describe, expect, it } from 'vitest';
import { replayEvents } from '../src/engine.js';
import type { ResumeResponse } from '../src/index.js';
import { buildResume, validateResponsePayload } from '../src/schema.js';

const now = Date.parse('2026-11-30T12:00:00Z');
const choices = (n: number) => Array.from({ length: n }, (_, i) => `sku-${i}`);

const asking = (responseSchema: Record<string, unknown>) =>
  replayEvents([
    { type: 'RUN_STARTED', threadId: 't1', runId: 'r1' },
    {
      type: 'RUN_FINISHED',
      threadId: 't1',
      runId: 'r1',
      outcome: { type: 'interrupt', interrupts: [{ id: 'pick', reason: 'input_required', responseSchema }] },
    },
  ]);

/** The refusals' codes of answering `payload`, and how long the resume took (ms). */
function timedResume(responseSchema: Record<string, unknown>, payload: unknown) {
  const state = asking(responseSchema);
  const answer: ResumeResponse = { interruptId: 'pick', status: 'resolved', payload };
  const start = performance.now();
  const r = buildResume(state, [answer], { now });
  return { ms: performance.now() - start, codes: r.ok ? [] : r.errors.map((e) => e.code) };
}

describe('an enum of 100,000 values', () => {
  it('is checked in well under a second: an answer among them is taken, one outside refused', () => {
    const taken = timedResume({ type: 'object', properties: { sku: { enum: choices(100_000) } }, required: ['sku'] }, { sku: 'sku-99999' });
    expect(taken.codes).toEqual([]);
    expect(taken.ms).toBeLessThan(1500);
    const refused = timedResume({ type: 'object', properties: { sku: { enum: choices(100_000) } } }, { sku: 'sku-100000' });
    expect(refused.codes).toEqual(['PAYLOAD_INVALID']);
    expect(refused.ms).toBeLessThan(1500);
  }, 120_000);

  it('giving a value twice is refused as draft-07 refuses it, in well under a second, and only the enum is walked', () => {
    const twice = [...choices(100_000), 'sku-5'];
    const repeated = timedResume({ type: 'string', enum: twice }, 'sku-5');
    expect(repeated.codes).toEqual(['SCHEMA_INVALID']);
    expect(repeated.ms).toBeLessThan(1500);
    // Repeated at the start, where comparing each value with every other meets it last.
    const first = timedResume({ type: 'string', enum: ['sku-0', ...choices(100_000)] }, 'sku-5');
    expect(first.codes).toEqual(['SCHEMA_INVALID']);
    expect(first.ms).toBeLessThan(1500);
    // Equal as JSON Schema compares them: keys in any order, 0 and -0.
    expect(
      validateResponsePayload(
        {
          responseSchema: {
            enum: [
              { a: 1, b: 2 },
              { b: 2, a: 1 },
            ],
          },
        },
        { a: 1, b: 2 },
      ),
    ).toMatchObject({
      schemaInvalid: expect.stringMatching(/cannot be compiled: schema is invalid/),
    });
    expect(validateResponsePayload({ responseSchema: { enum: [0, -0] } }, 0)).toMatchObject({ schemaInvalid: expect.any(String) });
    // Data is not a schema: an `enum` under `default` or `const` is a value, repeated or not.
    expect(validateResponsePayload({ responseSchema: { const: { enum: [1, 1] }, default: { enum: [1, 1] } } }, { enum: [1, 1] })).toEqual(
      [],
    );
  }, 120_000);

  it('keeps refusing what the meta-schema refuses beside a large enum', () => {
    const misspelt = timedResume(
      { type: 'object', properties: { sku: { enum: choices(100_000) }, n: { type: 'integr' } } },
      { sku: 'sku-1' },
    );
    expect(misspelt.codes).toEqual(['SCHEMA_INVALID']);
    expect(misspelt.ms).toBeLessThan(1500);
    expect(validateResponsePayload({ responseSchema: { enum: [] } }, 1)).toMatchObject({ schemaInvalid: expect.any(String) });
    expect(validateResponsePayload({ responseSchema: { enum: 'a' } }, 'a')).toMatchObject({ schemaInvalid: expect.any(String) });
  }, 120_000);

  it('may repeat a value under draft 2020-12, whose meta-schema allows it', () => {
    const schema = { $schema: 'https://json-schema.org/draft/2020-12/schema', enum: [...choices(100_000), 'sku-5'] };
    const r = timedResume(schema, 'sku-5');
    expect(r.codes).toEqual([]);
    expect(r.ms).toBeLessThan(1500);
  }, 120_000);
});
