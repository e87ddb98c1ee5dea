/**
 * The resume's check of an interrupt's `responseSchema` against its
 * meta-schema sees a copy of each enum (`enumCopy`), so that a long enum is
 * told apart in one pass; the form's check sees the same copy. Whatever the
 * copy, core takes a schema exactly when ajv, checking the schema itself
 * against its meta-schema, takes it: a form drawn is a form whose answer
 * core can check, and no form is refused that core would take.
 */
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { validateResponsePayload } from '../src/schema.js';

/** ajv's own verdict: the schema compiles with its meta-schema check on (the quadratic enum check is fast for these). */
function ajvTakes(schema: Record<string, unknown>): boolean {
  const uri = schema.$schema;
  const options = { strict: false, logger: false, allErrors: true, ownProperties: true } as const;
  const ajv = typeof uri === 'string' && uri.includes('2020-12') ? new Ajv2020(options) : new Ajv(options);
  try {
    ajv.compile(schema);
    return true;
  } catch {
    return false;
  }
}

/** Core's verdict: answers to the schema can be checked (no `schemaInvalid`). */
function coreTakes(schema: Record<string, unknown>): boolean {
  const check = validateResponsePayload({ responseSchema: schema }, undefined);
  return !('schemaInvalid' in check);
}

const draft2020 = 'https://json-schema.org/draft/2020-12/schema';
const sameObject = JSON.parse('{"constructor":{"of":"bins"}}');

describe("core takes an enum's schema exactly when ajv's meta-schema check does", () => {
  it.each([
    ['draft-07, a value given twice', { properties: { size: { enum: ['S', 'M', 'S'] } } }],
    ['2020-12, a value given twice', { $schema: draft2020, properties: { size: { enum: ['S', 'M', 'S'] } } }],
    ['draft-07, a value given twice in $defs', { $defs: { Size: { enum: [1, 1] } } }],
    ["draft-07, a value given twice under a keyword of the agent's own", { type: 'string', 'x-ui': { enum: ['a', 'a'] } }],
    ['draft-07, an object with a "valueOf" key after another object', JSON.parse('{"enum":[{"a":1},{"valueOf":1}]}')],
    ['draft-07, an object with a "toString" key after another object', JSON.parse('{"enum":[{"a":1},{"toString":"x"}]}')],
    ['draft-07, an object with a "valueOf" key first', JSON.parse('{"enum":[{"valueOf":1},"x"]}')],
    ['draft-07, two objects whose "constructor" keys hold objects', JSON.parse('{"enum":[{"constructor":{}},{"constructor":{}}]}')],
    [
      'draft-07, two objects alike whose "constructor" keys hold the same number',
      JSON.parse('{"enum":[{"constructor":1,"a":1},{"a":1,"constructor":1}]}'),
    ],
    ['draft-07, one object given twice, its "constructor" key holding an object', { enum: [sameObject, 'x', sameObject] }],
    ['draft-07, two objects alike whose "__proto__" keys hold the same', JSON.parse('{"enum":[{"__proto__":1},{"__proto__":1}]}')],
    [
      '2020-12, a value given twice in a typed property',
      { $schema: draft2020, type: 'object', properties: { size: { type: 'string', enum: ['S', 'M', 'S'] } } },
    ],
    [
      'draft-07, a "valueOf" key in a property\'s enum',
      JSON.parse('{"type":"object","properties":{"bin":{"enum":[{"shelf":1},{"valueOf":2}]}}}'),
    ],
    [
      'draft-07, objects alike, keys in another order',
      {
        enum: [
          { a: 1, b: 2 },
          { b: 2, a: 1 },
        ],
      },
    ],
    ['draft-07, 0 and -0', { enum: [0, -0] }],
    ['an enum under const and default is data', { const: { enum: [1, 1] }, default: { enum: [1, 1] } }],
    ['draft-07, a misspelt type beside an enum', { type: 'object', properties: { sku: { enum: ['a', 'b'] }, n: { type: 'integr' } } }],
    ['an empty enum', { enum: [] }],
    ['an enum that is no list', { enum: 'a' }],
    ['draft-07, a value given twice in definitions', { definitions: { Size: { enum: ['a', 'a'] } } }],
    ['draft-07, a value given twice in items', { items: [{ enum: ['a', 'a'] }] }],
    ['draft-07, distinct values in $defs', { $defs: { Size: { enum: [1, '1'] } } }],
  ] as const)('%s', (_name, schema) => {
    const expected = ajvTakes(schema as Record<string, unknown>);
    expect(coreTakes(schema as Record<string, unknown>)).toBe(expected);
  });
});
