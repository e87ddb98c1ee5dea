/**
 * An agent's enumeration may be long: its options are labelled in one pass
 * over its values, not one pass per value (100,000 choices took about 20 s
 * to label, and they are labelled as the form's placeholder draws and again
 * as the form does).
 */

import { enumCopy } from '@aguikit/core/internal';
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { formAnswerText, formUiSchema } from '../src/interruptForm.js';
import { en } from '../src/locales/interrupt.js';

const words = { yes: 'Yes', no: 'No', number: String, list: (items: readonly string[]) => items.join(', ') };

describe('an enumeration of 100,000 choices', () => {
  const values = Array.from({ length: 100_000 }, (_, i) => `v${i}`);

  it('is labelled in well under a second, and its labels still tell alike values apart', () => {
    const started = performance.now();
    const ui = formUiSchema({ type: 'object', properties: { pick: { enum: [...values, 1, '1'] } } }, 'form');
    const answer = formAnswerText({ pick: '1' }, { properties: { pick: { enum: [...values, 1, '1'] } } }, words, en.answer);
    const took = performance.now() - started;
    expect((ui.pick as { 'ui:enumNames': string[] })['ui:enumNames'].slice(-3)).toEqual(['v99999', '1', '"1"']);
    expect(answer).toBe('Pick: "1"');
    expect(took).toBeLessThan(1_000);
  });
});

describe('enumCopy: the schema its meta-schema is checked against', () => {
  it('keeps the first value of each enum once its values are told apart, wherever a schema may be', () => {
    const schema = {
      properties: { size: { enum: ['S', 'M', 'L'] }, enum: { type: 'string' } },
      $defs: { Bin: { enum: [1, '1', { a: 1, b: 2 }] } },
      items: [{ enum: [true, false] }],
    };
    expect(enumCopy(schema)).toEqual({
      properties: { size: { enum: ['S'] }, enum: { type: 'string' } },
      $defs: { Bin: { enum: [1] } },
      items: [{ enum: [true] }],
    });
  });

  it('finds a value given twice as JSON Schema compares them: object keys in any order, 0 and -0', () => {
    // The value given twice stands for the enum, twice: the meta-schema refuses it where it asks for unique values.
    expect(
      enumCopy({
        enum: [{ a: 1, b: [2] }, 'c', { b: [2], a: 1 }],
      }),
    ).toEqual({
      enum: [
        { a: 1, b: [2] },
        { b: [2], a: 1 },
      ],
    });
    expect(enumCopy({ properties: { n: { enum: [1, 0, -0] } } })).toEqual({ properties: { n: { enum: [0, -0] } } });
    expect(
      enumCopy({
        enum: [
          [1, 2],
          [2, 1],
        ],
      }),
    ).toEqual({ enum: [[1, 2]] });
    expect(enumCopy({ enum: [[1], { 0: 1 }, '[1]', '{"0":1}'] })).toEqual({ enum: [[1]] });
  });

  it('leaves data as it is: a default or an example holding "enum" is no enum', () => {
    const schema = { default: { enum: [1, 1] }, examples: [{ enum: [2, 2] }], const: { enum: [3, 3] } };
    expect(enumCopy(schema)).toEqual(schema);
  });

  it('keeps a property named __proto__ a property of the copy', () => {
    const schema = JSON.parse('{"properties":{"__proto__":{"enum":["a","b"]}}}');
    const copy = enumCopy(schema) as { properties: object };
    expect(Object.keys(copy.properties)).toEqual(['__proto__']);
  });
});

/**
 * The resume's check compiles a schema only once its draft's meta-schema
 * takes it, so the form is drawn for exactly those schemas: the meta-schema's
 * verdict on what `enumCopy` returns is its verdict on the schema.
 */
describe('enumCopy: the meta-schema says of the copy what it says of the schema', () => {
  /** What ajv's check of a schema against its meta-schema says: false where it refuses it, or throws. */
  function taken(AjvClass: typeof Ajv | typeof Ajv2020, schema: unknown): boolean {
    if (schema === undefined) return false;
    try {
      return new AjvClass({ strict: false, logger: false }).validateSchema(schema as object) === true;
    } catch {
      return false;
    }
  }
  const draft2020 = 'https://json-schema.org/draft/2020-12/schema';
  const sameObject = JSON.parse('{"constructor":{"of":"bins"}}');

  it.each([
    ['draft-07, a value given twice', Ajv, { properties: { size: { enum: ['S', 'M', 'S'] } } }, false],
    [
      '2020-12, whose meta-schema lets a value be given twice',
      Ajv2020,
      { $schema: draft2020, properties: { size: { enum: ['S', 'M', 'S'] } } },
      true,
    ],
    ['draft-07, a value given twice in $defs, which its meta-schema does not look into', Ajv, { $defs: { Size: { enum: [1, 1] } } }, true],
    ["draft-07, a value given twice under a keyword of the agent's own", Ajv, { type: 'string', 'x-ui': { enum: ['a', 'a'] } }, true],
    ['draft-07, an object with a "valueOf" key after another object', Ajv, JSON.parse('{"enum":[{"a":1},{"valueOf":1}]}'), false],
    ['draft-07, an object with a "toString" key after another object', Ajv, JSON.parse('{"enum":[{"a":1},{"toString":"x"}]}'), false],
    ['draft-07, an object with a "valueOf" key first', Ajv, JSON.parse('{"enum":[{"valueOf":1},"x"]}'), true],
    [
      'draft-07, two objects whose "constructor" keys hold objects',
      Ajv,
      JSON.parse('{"enum":[{"constructor":{}},{"constructor":{}}]}'),
      true,
    ],
    [
      'draft-07, two objects alike whose "constructor" keys hold the same number',
      Ajv,
      JSON.parse('{"enum":[{"constructor":1,"a":1},{"a":1,"constructor":1}]}'),
      false,
    ],
    ['draft-07, one object given twice, its "constructor" key holding an object', Ajv, { enum: [sameObject, 'x', sameObject] }, false],
    [
      'draft-07, two objects alike whose "__proto__" keys hold the same',
      Ajv,
      JSON.parse('{"enum":[{"__proto__":1},{"__proto__":1}]}'),
      false,
    ],
  ] as const)('%s', (_name, AjvClass, schema, verdict) => {
    expect(taken(AjvClass, schema)).toBe(verdict);
    expect(taken(AjvClass, enumCopy(schema))).toBe(verdict);
  });
});
