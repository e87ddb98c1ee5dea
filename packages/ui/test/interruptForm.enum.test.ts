/**
 * An agent's enumeration may be long: its options are labelled in one pass
 * over its values, not one pass per value (100,000 choices took about 20 s
 * to label, and they are labelled as the form's placeholder draws and again
 * as the form does).
 */
import { describe, expect, it } from 'vitest';
import { distinctChoices, formAnswerText, formUiSchema } from '../src/interruptForm.js';
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

describe('distinctChoices: the schema its meta-schema is checked against', () => {
  it('keeps the first value of each enum once its values are told apart, wherever a schema may be', () => {
    const schema = {
      properties: { size: { enum: ['S', 'M', 'L'] }, enum: { type: 'string' } },
      $defs: { Bin: { enum: [1, '1', { a: 1, b: 2 }] } },
      items: [{ enum: [true, false] }],
    };
    expect(distinctChoices(schema)).toEqual({
      properties: { size: { enum: ['S'] }, enum: { type: 'string' } },
      $defs: { Bin: { enum: [1] } },
      items: [{ enum: [true] }],
    });
  });

  it('finds a value given twice as JSON Schema compares them: object keys in any order, 0 and -0', () => {
    expect(
      distinctChoices({
        enum: [
          { a: 1, b: [2] },
          { b: [2], a: 1 },
        ],
      }),
    ).toBeUndefined();
    expect(distinctChoices({ properties: { n: { enum: [0, -0] } } })).toBeUndefined();
    expect(
      distinctChoices({
        enum: [
          [1, 2],
          [2, 1],
        ],
      }),
    ).toEqual({ enum: [[1, 2]] });
  });

  it('leaves data as it is: a default or an example holding "enum" is no enum', () => {
    const schema = { default: { enum: [1, 1] }, examples: [{ enum: [2, 2] }], const: { enum: [3, 3] } };
    expect(distinctChoices(schema)).toEqual(schema);
  });

  it('keeps a property named __proto__ a property of the copy', () => {
    const schema = JSON.parse('{"properties":{"__proto__":{"enum":["a","b"]}}}');
    const copy = distinctChoices(schema) as { properties: object };
    expect(Object.keys(copy.properties)).toEqual(['__proto__']);
  });
});
