import { describe, expect, it, vi } from 'vitest';
import { replayEvents } from '../src/engine.js';
import { expiryTime, isExpired, type PayloadValidator, type ResumeResponse } from '../src/index.js';
import { buildResumeWith } from '../src/resume.js';
import { buildResume, schemaSize, validateResponsePayload } from '../src/schema.js';
import { text, toolCall } from './support/examples.js';

const schema = {
  type: 'object',
  properties: { approved: { type: 'boolean' }, comment: { type: 'string', maxLength: 20 } },
  required: ['approved'],
  additionalProperties: false,
};
const interrupted = replayEvents([
  { type: 'RUN_STARTED', threadId: 't1', runId: 'r1' },
  ...text('m', 'I will refund order A-1.'),
  ...toolCall('c', 'refund', ['{"order":"A-1","amount":42}'], 'm'),
  { type: 'STATE_SNAPSHOT', snapshot: { refund: 'pending' } },
  {
    type: 'RUN_FINISHED',
    threadId: 't1',
    runId: 'r1',
    outcome: {
      type: 'interrupt',
      interrupts: [
        { id: 'approve', reason: 'tool_call', toolCallId: 'c', responseSchema: schema, expiresAt: '2026-12-01T00:00:00Z' },
        { id: 'note', reason: 'input_required', responseSchema: { type: 'string', enum: ['email', 'sms'] } },
      ],
    },
  },
]);
const now = Date.parse('2026-11-30T12:00:00Z');
const noteAnswer: ResumeResponse = { interruptId: 'note', status: 'resolved', payload: 'email' };
const both: ResumeResponse[] = [{ interruptId: 'approve', status: 'resolved', payload: { approved: true } }, noteAnswer];

describe('buildResume', () => {
  it('builds the RunAgentInput of a resume: same thread, new run, history, state and every answer', () => {
    const r = buildResume(interrupted, both, { now, runId: 'r2', decidedBy: 'ann' });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.input).toMatchObject({
      threadId: 't1',
      runId: 'r2',
      parentRunId: 'r1',
      protocolVersion: '1.0',
      state: { refund: 'pending' },
      tools: [],
      context: [],
    });
    expect(r.input.resume).toEqual([
      { interruptId: 'approve', status: 'resolved', payload: { approved: true } },
      { interruptId: 'note', status: 'resolved', payload: 'email' },
    ]);
    expect(r.input.messages).toEqual([
      {
        id: 'm',
        role: 'assistant',
        content: 'I will refund order A-1.',
        toolCalls: [{ id: 'c', type: 'function', function: { name: 'refund', arguments: '{"order":"A-1","amount":42}' } }],
      },
    ]);
    expect(r.decisions[0]).toEqual({
      threadId: 't1',
      runId: 'r2',
      interruptId: 'approve',
      reason: 'tool_call',
      toolCallId: 'c',
      toolName: 'refund',
      toolArgs: { order: 'A-1', amount: 42 },
      status: 'resolved',
      payload: { approved: true },
      decidedBy: 'ann',
      decidedAt: '2026-11-30T12:00:00.000Z',
    });
  });

  it('generates a fresh run id when none is given', () => {
    const a = buildResume(interrupted, both, { now });
    const b = buildResume(interrupted, both, { now });
    expect(a.ok && b.ok && a.input.runId !== b.input.runId && a.input.runId !== 'r1').toBe(true);
  });

  it('treats a reject as a resolved answer, not a cancellation', () => {
    const r = buildResume(
      interrupted,
      [
        { interruptId: 'approve', status: 'resolved', payload: { approved: false, comment: 'wrong amount' } },
        { interruptId: 'note', status: 'cancelled' },
      ],
      { now },
    );
    expect(r.ok && r.input.resume).toEqual([
      { interruptId: 'approve', status: 'resolved', payload: { approved: false, comment: 'wrong amount' } },
      { interruptId: 'note', status: 'cancelled' },
    ]);
  });

  it('refuses a resume that leaves an open interrupt unanswered', () => {
    expect(buildResume(interrupted, both.slice(0, 1), { now })).toEqual({
      ok: false,
      errors: [expect.objectContaining({ interruptId: 'note', code: 'MISSING_RESPONSE' })],
    });
  });

  it('refuses answers to interrupts that are not open, and duplicate answers', () => {
    const r = buildResume(
      interrupted,
      [...both, { interruptId: 'ghost', status: 'cancelled' }, { interruptId: 'note', status: 'cancelled' }],
      { now },
    );
    expect(r.ok ? [] : r.errors.map((e) => `${e.code}:${e.interruptId}`)).toEqual(['UNKNOWN_INTERRUPT:ghost', 'DUPLICATE_RESPONSE:note']);
  });

  it('validates each payload against its responseSchema, saying what is wrong', () => {
    const r = buildResume(
      interrupted,
      [
        { interruptId: 'approve', status: 'resolved', payload: { approved: 'yes', extra: 1 } },
        { interruptId: 'note', status: 'resolved', payload: 'pigeon' },
      ],
      { now },
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.map((e) => e.code)).toEqual(['PAYLOAD_INVALID', 'PAYLOAD_INVALID']);
    expect(r.errors[0]?.message).toMatch(/\/approved must be boolean/);
    expect(r.errors[0]?.message).toMatch(/additional properties/);
    expect(r.errors[1]?.message).toMatch(/allowed values/);
  });

  it('allows only cancel once an interrupt has expired', () => {
    const later = Date.parse('2026-12-01T00:00:00Z');
    expect(isExpired(interrupted.interrupts[0] ?? {}, later)).toBe(true);
    const r = buildResume(interrupted, both, { now: later });
    expect(r.ok ? [] : r.errors.map((e) => e.code)).toEqual(['EXPIRED']);
    expect(buildResume(interrupted, [{ interruptId: 'approve', status: 'cancelled' }, noteAnswer], { now: later }).ok).toBe(true);
  });

  it("reads an expiresAt without an offset (a naive UTC time, as Python's isoformat() writes it) as UTC, whatever the local time zone", () => {
    const zone = process.env.TZ;
    try {
      for (const tz of ['UTC', 'America/Los_Angeles', 'Asia/Shanghai']) {
        process.env.TZ = tz;
        const deadline = Date.parse('2026-12-04T10:00:00Z');
        for (const expiresAt of [
          '2026-12-04T10:00:00',
          '2026-12-04T10:00:00.000',
          '2026-12-04T10:00:00.123456',
          // Python's str(datetime) and SQL write a space; RFC 3339 allows a lower-case t.
          '2026-12-04 10:00:00',
          '2026-12-04t10:00:00',
        ]) {
          expect(expiryTime(expiresAt), `${expiresAt} in ${tz}`).toBe(deadline + (expiresAt.endsWith('123456') ? 123 : 0));
          expect(isExpired({ expiresAt }, deadline - 1), `${expiresAt} in ${tz}`).toBe(false);
          expect(isExpired({ expiresAt }, deadline + 200), `${expiresAt} in ${tz}`).toBe(true);
        }
        // An offset, a Z, a date alone (UTC in JavaScript already) read as they say; what is no time never expires.
        expect(expiryTime('2026-12-04T10:00:00+08:00')).toBe(Date.parse('2026-12-04T02:00:00Z'));
        expect(expiryTime('2026-12-04')).toBe(Date.parse('2026-12-04T00:00:00Z'));
        expect(expiryTime('soon')).toBeNaN();
        expect(isExpired({ expiresAt: 'soon' }, deadline)).toBe(false);
      }
    } finally {
      process.env.TZ = zone;
    }
  });

  it('refuses an invalid status and a thread with nothing open', () => {
    const r = buildResume(interrupted, [{ interruptId: 'approve', status: 'approved' as never }, noteAnswer], { now });
    expect(r.ok ? [] : r.errors.map((e) => e.code)).toEqual(['INVALID_STATUS']);
    const idle = replayEvents([
      { type: 'RUN_STARTED', threadId: 't', runId: 'r' },
      { type: 'RUN_FINISHED', threadId: 't', runId: 'r' },
    ]);
    expect(buildResume(idle, [], { now })).toEqual({ ok: false, errors: [expect.objectContaining({ code: 'NO_OPEN_INTERRUPTS' })] });
  });

  it('refuses a payload when the responseSchema itself is broken, but lets it be cancelled', () => {
    const broken = { responseSchema: { type: 'object', properties: { a: { type: 'no-such-type' } } } };
    expect(validateResponsePayload(broken, {})).toEqual({ schemaInvalid: expect.stringMatching(/cannot be compiled/) });
    expect(validateResponsePayload({}, { anything: true })).toEqual([]);
  });

  it('checks an answer against a schema of JSON Schema 2020-12 or 2019-09 (as zod 4 writes them) by its own draft', () => {
    for (const $schema of ['https://json-schema.org/draft/2020-12/schema', 'https://json-schema.org/draft/2019-09/schema']) {
      const interrupt = {
        responseSchema: {
          $schema,
          type: 'object',
          properties: { items: { type: 'array', items: { $ref: '#/$defs/name' } } },
          required: ['items'],
          $defs: { name: { type: 'string' } },
        },
      };
      expect(validateResponsePayload(interrupt, { items: ['a'] }), $schema).toEqual([]);
      expect(validateResponsePayload(interrupt, {}), $schema).toEqual([expect.stringMatching(/items/)]);
      expect(validateResponsePayload(interrupt, { items: [1] }), $schema).toEqual([expect.stringMatching(/string/)]);
    }
    // 2020-12's prefixItems: a second item is refused.
    const tuple = {
      responseSchema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'array',
        prefixItems: [{ type: 'string' }],
        items: false,
      },
    };
    expect(validateResponsePayload(tuple, ['a', 'b'])).not.toEqual([]);
  });

  it('does not take a member every object inherits for an answer to a required field', () => {
    const interrupt = {
      responseSchema: { type: 'object', required: ['toString', 'constructor'], properties: { toString: {}, constructor: {} } },
    };
    expect(validateResponsePayload(interrupt, {})).toHaveLength(2);
    expect(validateResponsePayload(interrupt, { toString: 'a', constructor: 'b' })).toEqual([]);
  });

  it('takes a price of 19.99 for multipleOf 0.01, as the form does: a float is not a decimal', () => {
    const price = { responseSchema: { type: 'object', properties: { price: { type: 'number', multipleOf: 0.01 } } } };
    for (const value of [19.99, 0.07, 1234.56, 0.3]) expect(validateResponsePayload(price, { price: value }), String(value)).toEqual([]);
    expect(validateResponsePayload(price, { price: 19.995 })).toHaveLength(1);
  });

  it("checks each interrupt's answer against its own schema, whatever $id two schemas share", () => {
    const withId = (answer: string) => ({
      responseSchema: { $id: 'https://agent.example/approval.json', type: 'string', enum: [answer] },
    });
    expect(validateResponsePayload(withId('yes'), 'yes')).toEqual([]);
    expect(validateResponsePayload(withId('oui'), 'oui')).toEqual([]);
    expect(validateResponsePayload(withId('oui'), 'yes')).toHaveLength(1);
    // A schema that refers to itself to describe a tree is a fine one.
    const tree = { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } } };
    expect(validateResponsePayload({ responseSchema: tree }, { name: 'a', children: [{ name: 'b', children: [] }] })).toEqual([]);
    expect(validateResponsePayload({ responseSchema: tree }, { children: [{ name: 1 }] })).toHaveLength(1);
    // A schema cannot reach another interrupt's schema by its $id.
    const reach = validateResponsePayload({ responseSchema: { $ref: 'https://agent.example/approval.json' } }, 'yes');
    expect(reach).toEqual({ schemaInvalid: expect.stringMatching(/cannot be compiled/) });
  });

  it("refuses a schema whose $id is one ajv holds already (a meta-schema's): the schemas that come after it still check answers", () => {
    const ordinary = { type: 'object', required: ['approved'] };
    expect(validateResponsePayload({ responseSchema: ordinary }, { approved: true })).toEqual([]);
    for (const $id of ['http://json-schema.org/draft-07/schema', 'http://json-schema.org/draft-07/schema#']) {
      expect(validateResponsePayload({ responseSchema: { $id, type: 'string' } }, 'x')).toEqual({
        schemaInvalid: expect.stringMatching(/cannot be compiled/),
      });
    }
    expect(
      validateResponsePayload(
        {
          responseSchema: {
            $schema: 'https://json-schema.org/draft/2020-12/schema',
            $id: 'https://json-schema.org/draft/2020-12/schema',
            type: 'string',
          },
        },
        'x',
      ),
    ).toEqual({ schemaInvalid: expect.stringMatching(/cannot be compiled/) });
    expect(validateResponsePayload({ responseSchema: { ...ordinary } }, { approved: true })).toEqual([]);
    expect(validateResponsePayload({ responseSchema: { ...ordinary } }, {})).toHaveLength(1);
    const later = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'string' };
    expect(validateResponsePayload({ responseSchema: later }, 'ok')).toEqual([]);
  });

  it('refuses an asynchronous schema ($async), whose check would answer later: never takes an answer it did not check', () => {
    const responseSchema = { $async: true, type: 'object', required: ['approved'] };
    expect(validateResponsePayload({ responseSchema }, 'garbage')).toEqual({ schemaInvalid: expect.stringMatching(/\$async/) });
    expect(validateResponsePayload({ responseSchema }, { approved: true })).toEqual({ schemaInvalid: expect.stringMatching(/\$async/) });
  });

  it('refuses, never throws, an answer to a schema that refers to itself without end', () => {
    for (const responseSchema of [{ $ref: '#' }, { allOf: [{ $ref: '#' }] }, { $defs: { a: { $ref: '#/$defs/a' } }, $ref: '#/$defs/a' }]) {
      expect(validateResponsePayload({ responseSchema }, {})).toEqual({ schemaInvalid: expect.stringMatching(/refers to itself/) });
    }
    const loop = replayEvents([
      { type: 'RUN_STARTED', threadId: 't', runId: 'r' },
      {
        type: 'RUN_FINISHED',
        threadId: 't',
        runId: 'r',
        outcome: { type: 'interrupt', interrupts: [{ id: 'i', reason: 'x', responseSchema: { $ref: '#' } }] },
      },
    ]);
    const r = buildResume(loop, [{ interruptId: 'i', status: 'resolved', payload: 1 }], { now });
    expect(r.ok ? [] : r.errors.map((e) => e.code)).toEqual(['SCHEMA_INVALID']);
    expect(buildResume(loop, [{ interruptId: 'i', status: 'cancelled' }], { now }).ok).toBe(true);
  });

  it('refuses at once a small schema whose $refs expand without bound: checking an answer neither hangs nor runs out of memory', () => {
    // Each definition refers to the one before three times: 1.4 KB at 16 levels is 3^16 subschemas to apply, and every
    // failing branch leaves an error (800,000 of them at 12 levels; at 16 the tab runs out of memory).
    const chain = (
      levels: number,
      name: (i: number) => string,
      ref: (i: number) => string,
      wrap: (defs: Record<string, unknown>) => object,
    ) => {
      const defs: Record<string, unknown> = { [name(0)]: { type: 'string' } };
      for (let i = 1; i <= levels; i++)
        defs[name(i)] = { anyOf: [{ $ref: ref(i - 1) }, { allOf: [{ $ref: ref(i - 1) }, { $ref: ref(i - 1) }] }] };
      return wrap(defs);
    };
    const bombs = [
      chain(
        12,
        (i) => `d${i}`,
        (i) => `#/definitions/d${i}`,
        (definitions) => ({ definitions, $ref: '#/definitions/d12' }),
      ),
      chain(
        40,
        (i) => `d${i}`,
        (i) => `#/definitions/d${i}`,
        (definitions) => ({ definitions, $ref: '#/definitions/d40' }),
      ),
      // The same through $id and anchors, in draft 2020-12.
      chain(
        40,
        (i) => `d${i}`,
        (i) => `https://agent.example/defs.json#d${i}`,
        (defs) => ({
          $schema: 'https://json-schema.org/draft/2020-12/schema',
          $defs: {
            all: {
              $id: 'https://agent.example/defs.json',
              $defs: Object.fromEntries(Object.entries(defs).map(([k, v]) => [k, { ...(v as object), $anchor: k }])),
            },
          },
          $ref: 'https://agent.example/defs.json#d40',
        }),
      ),
      // And through a JSON pointer into a schema named by a relative $id.
      chain(
        40,
        (i) => `d${i}`,
        (i) => `defs.json#/$defs/d${i}`,
        (defs) => ({
          $id: 'https://agent.example/root.json',
          $defs: { all: { $id: 'defs.json', $defs: defs } },
          $ref: 'defs.json#/$defs/d40',
        }),
      ),
    ];
    for (const responseSchema of bombs) {
      expect(validateResponsePayload({ responseSchema }, 1)).toEqual({ schemaInvalid: expect.stringMatching(/too large to check/) });
      expect(validateResponsePayload({ responseSchema }, 'a')).toEqual({ schemaInvalid: expect.stringMatching(/too large to check/) });
    }
    // A large honest form: 300 fields, each an address of shared definitions, is checked as before.
    const address = {
      type: 'object',
      properties: { street: { type: 'string' }, city: { type: 'string' }, zip: { $ref: '#/$defs/zip' } },
      required: ['city'],
    };
    const form = {
      type: 'object',
      $defs: { zip: { type: 'string', pattern: '^[0-9]{5}$' }, address },
      properties: Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`field${i}`, { $ref: '#/$defs/address' }])),
      required: ['field0'],
    };
    expect(validateResponsePayload({ responseSchema: form }, { field0: { city: 'Lyon', zip: '69001' } })).toEqual([]);
    expect(validateResponsePayload({ responseSchema: form }, { field0: { zip: 'x' }, field1: {} })).toHaveLength(3);
  });

  it('takes a stack overflow met while resolving a $ref for what it is, past any limit: not a $ref that names nothing', () => {
    // Where the call stack runs out in a chain of refs depends on how far the engine has optimized the walk: it may be
    // inside the URL parser. Made to happen there every time.
    const RealUrl = URL;
    vi.stubGlobal(
      'URL',
      class extends RealUrl {
        constructor(url: string | URL, base?: string | URL) {
          if (String(url).startsWith('#/$defs/')) throw new RangeError('Maximum call stack size exceeded');
          super(url, base);
        }
      },
    );
    try {
      expect(schemaSize({ $defs: { a: { type: 'string' } }, $ref: '#/$defs/a' })).toBe(Number.POSITIVE_INFINITY);
    } finally {
      vi.unstubAllGlobals();
    }
    // A $ref that is no URL at all names nothing, and counts once.
    expect(schemaSize({ $ref: 'http://[' })).toBe(2);
  });

  it('sizes a schema by what it applies: each $ref as a copy of what it names, a $ref back into itself once, data never', () => {
    expect(schemaSize({ type: 'string' })).toBe(1);
    // A definition named three times counts three times; one named by nothing does not count.
    expect(
      schemaSize({
        $defs: { a: { type: 'string' }, unused: { type: 'string' } },
        allOf: [{ $ref: '#/$defs/a' }, { $ref: '#/$defs/a' }, { $ref: '#/$defs/a' }],
      }),
    ).toBe(7);
    // Draft 7 anchors ($id "#name") and 2019-09+ anchors ($anchor) are followed like pointers.
    expect(schemaSize({ definitions: { a: { $id: '#a', type: 'string' } }, allOf: [{ $ref: '#a' }, { $ref: '#a' }] })).toBe(5);
    expect(schemaSize({ $defs: { a: { $anchor: 'a', type: 'string' } }, allOf: [{ $ref: '#a' }] })).toBe(3);
    // A tree refers to itself: how often depends on the answer, so once. A $ref to nothing counts once.
    expect(schemaSize({ type: 'object', properties: { children: { type: 'array', items: { $ref: '#' } } } })).toBe(4);
    expect(schemaSize({ $ref: 'https://elsewhere.example/s.json' })).toBe(2);
    // enum, const, default and examples are data: a value shaped like a schema inside one is not counted.
    expect(schemaSize({ enum: [{ $ref: '#' }], default: { allOf: [{}, {}] }, const: { type: 'x' } })).toBe(1);
    // ...but a property that happens to be named "enum" is a schema.
    expect(schemaSize({ properties: { enum: { type: 'string' } } })).toBe(2);
    // A chain of refs deeper than the stack, or nesting deeper than it, is past any limit and never throws.
    const defs: Record<string, unknown> = { d0: { type: 'string' } };
    for (let i = 1; i <= 100_000; i++) defs[`d${i}`] = { $ref: `#/$defs/d${i - 1}` };
    expect(schemaSize({ $defs: defs, $ref: '#/$defs/d100000' }, Number.MAX_SAFE_INTEGER)).toBe(Number.POSITIVE_INFINITY);
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 100_000; i++) deep = { items: deep };
    expect(schemaSize(deep, Number.MAX_SAFE_INTEGER)).toBe(Number.POSITIVE_INFINITY);
    expect(schemaSize(deep)).toBe(Number.POSITIVE_INFINITY);
  });

  it('sizes a schema as zod 4 writes it: an `id` in a definition is an annotation since draft 6, not a base for its $refs', () => {
    const chain = (zodIds: boolean) => {
      const $defs: Record<string, unknown> = { D0: { type: 'string' } };
      for (let i = 1; i <= 16; i++) {
        const ref = { $ref: `#/$defs/D${i - 1}` };
        $defs[`D${i}`] = { ...(zodIds ? { id: `D${i}` } : {}), type: 'object', properties: { a: ref, b: ref, c: ref } };
      }
      return { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { x: { $ref: '#/$defs/D16' } }, $defs };
    };
    expect(schemaSize(chain(false))).toBe(Number.POSITIVE_INFINITY);
    expect(schemaSize(chain(true))).toBe(Number.POSITIVE_INFINITY);
  });

  it('gives the code from what the validator found, not from the words of its message', () => {
    const says = (problems: ReturnType<PayloadValidator>) =>
      buildResumeWith(
        interrupted,
        [
          { interruptId: 'approve', status: 'resolved', payload: {} },
          { interruptId: 'note', status: 'cancelled' },
        ],
        {
          now,
          validate: () => problems,
        },
      );
    const codes = (r: ReturnType<typeof says>) => (r.ok ? [] : r.errors.map((e) => e.code));
    expect(codes(says(["the interrupt's responseSchema cannot be compiled"]))).toEqual(['PAYLOAD_INVALID']);
    expect(codes(says({ schemaInvalid: 'no' }))).toEqual(['SCHEMA_INVALID']);
    const throwing = buildResumeWith(interrupted, both, {
      now,
      validate: () => {
        throw new Error('validator bug');
      },
    });
    expect(throwing.ok ? [] : throwing.errors.map((e) => `${e.code} ${e.message}`)).toEqual([
      expect.stringMatching(/^SCHEMA_INVALID .*validator bug/),
      expect.stringMatching(/^SCHEMA_INVALID .*validator bug/),
    ]);
    expect(throwing.ok ? [] : throwing.errors.map((e) => e.interruptId)).toEqual(['approve', 'note']);
  });

  it('refuses a clock that is not a time', () => {
    expect(() => buildResume(interrupted, both, { now: new Date('garbage') })).toThrow(/now.*not a time/);
    expect(() => buildResume(interrupted, both, { now: Number.NaN })).toThrow(/now.*not a time/);
  });

  it('does not let a hostile payload pollute prototypes', () => {
    const payload = JSON.parse('{"approved":true,"__proto__":{"polluted":1}}') as unknown;
    buildResume(
      interrupted,
      [
        { interruptId: 'approve', status: 'resolved', payload },
        { interruptId: 'note', status: 'cancelled' },
      ],
      { now },
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
