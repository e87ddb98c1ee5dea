/**
 * A form draws every entry an array's `minItems` asks for as it opens: an
 * agent's schema of 60 bytes asking for 200,000 entries would hold the page
 * for as long as drawing them takes. Such a question can only be closed.
 */
import { describe, expect, it } from 'vitest';
import { FORM_ENTRIES_LIMIT, formCanHold } from '../src/formSchema.js';

const list = (minItems: number, items: unknown = { type: 'string' }) => ({ type: 'array', minItems, items });

describe('formCanHold: the entries a form draws as it opens', () => {
  it('refuses an array asking for more entries than a form can show', () => {
    expect(formCanHold({ type: 'object', properties: { list: list(200_000) } })).toBe(false);
    expect(formCanHold(list(FORM_ENTRIES_LIMIT + 1))).toBe(false);
  });

  it('counts nested arrays together: 40 lists of 40 entries each are 1,600', () => {
    expect(formCanHold({ type: 'object', properties: { rows: list(40, list(40)) } })).toBe(false);
    expect(formCanHold({ type: 'object', properties: { rows: list(10, list(10)) } })).toBe(true);
  });

  it('takes what a form can show, and a minItems that is no count as none', () => {
    expect(
      formCanHold({ type: 'object', properties: { lines: list(3, { type: 'object', properties: { sku: { type: 'string' } } }) } }),
    ).toBe(true);
    expect(formCanHold(list(FORM_ENTRIES_LIMIT))).toBe(true);
    expect(formCanHold(list(Number.NaN))).toBe(true);
    expect(formCanHold({ ...list(1), minItems: '200000' })).toBe(true);
  });
});

/** `allOf` members with `oneOf` / `anyOf` options, merged, are every combination of their options. */
const choices = (members: number, keyword = 'oneOf') => ({
  type: 'object',
  allOf: Array.from({ length: members }, (_, i) => ({
    [keyword]: [{ properties: { [`a${i}`]: { type: 'string' } } }, { properties: { [`b${i}`]: { type: 'number' } } }],
  })),
});

describe('formCanHold: the options a form weighs as each value is typed', () => {
  it('refuses allOf members whose options combine past what a form can weigh: 2^8 combinations took 1.3 s a keystroke', () => {
    expect(formCanHold(choices(8))).toBe(false);
    expect(formCanHold(choices(14, 'anyOf'))).toBe(false);
    expect(formCanHold({ type: 'object', properties: { deep: { allOf: [choices(4), choices(4)] } } })).toBe(false);
  });

  it('takes a few options combined, and an allOf without options', () => {
    expect(formCanHold(choices(6))).toBe(true);
    expect(formCanHold(choices(3, 'anyOf'))).toBe(true);
    expect(formCanHold({ allOf: Array.from({ length: 50 }, (_, i) => ({ properties: { [`p${i}`]: { type: 'string' } } })) })).toBe(true);
    // One list of options is not combined with anything: 500 labelled choices are weighed as they would be without the allOf.
    const labelled = { oneOf: Array.from({ length: 500 }, (_, i) => ({ const: i, title: `Choice ${i}` })) };
    expect(formCanHold({ type: 'object', properties: { pick: { allOf: [labelled, { type: 'integer' }] } } })).toBe(true);
    expect(formCanHold({ type: 'object', properties: { pick: labelled } })).toBe(true);
  });
});

describe('formCanHold: allOf members that name their options by reference', () => {
  const defs = (members: number) =>
    Object.fromEntries(
      Array.from({ length: members }, (_, i) => [
        `c${i}`,
        { oneOf: [{ properties: { [`a${i}`]: { type: 'string' } } }, { properties: { [`b${i}`]: { type: 'number' } } }] },
      ]),
    );
  const byReference = (members: number) => ({
    type: 'object',
    $defs: defs(members),
    allOf: Array.from({ length: members }, (_, i) => ({ $ref: `#/$defs/c${i}` })),
  });

  it('counts the options they refer to, as if written in place', () => {
    expect(formCanHold(byReference(8))).toBe(false);
    expect(formCanHold(byReference(6))).toBe(true);
  });

  it('weighs a schema referred to many times once: 30 levels of two references each (2^30 paths) answer at once', () => {
    const $defs: Record<string, unknown> = { l30: { type: 'string' } };
    for (let i = 0; i < 30; i++) $defs[`l${i}`] = { allOf: [{ $ref: `#/$defs/l${i + 1}` }, { $ref: `#/$defs/l${i + 1}` }] };
    const began = performance.now();
    expect(formCanHold({ type: 'object', $defs, allOf: [{ $ref: '#/$defs/l0' }, { $ref: '#/$defs/l0' }] })).toBe(true);
    expect(performance.now() - began).toBeLessThan(1_000);
  });

  it('takes a schema that refers to itself through its fields', () => {
    const tree = {
      type: 'object',
      $defs: {
        node: { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } } },
      },
      allOf: [{ $ref: '#/$defs/node' }, { oneOf: [{ required: ['name'] }, { required: ['children'] }] }],
    };
    expect(formCanHold(tree)).toBe(true);
  });
});
