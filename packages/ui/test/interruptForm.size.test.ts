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
