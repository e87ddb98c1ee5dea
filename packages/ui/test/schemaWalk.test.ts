/**
 * The error summary's walk over an agent's schema to name a field: through
 * `$ref`s into the form's own schema, optional lists, and hostile schemas
 * whose `$ref`s lead back to where they came from.
 */
import { describe, expect, it } from 'vitest';
import { itemOf, propertyOf, walkOf } from '../src/schemaWalk.js';

const none = () => undefined;

describe('the schema walk of the error summary', () => {
  it('follows a $ref into $defs, and an optional list (anyOf a list or null) to its items', () => {
    const root = {
      $defs: { Person: { type: 'object', properties: { email: { title: 'E-mail address' } } } },
      properties: { people: { anyOf: [{ type: 'array', items: { $ref: '#/$defs/Person' } }, { type: 'null' }] } },
    };
    const people = propertyOf(root, 'people', none, walkOf(root));
    const item = itemOf(people, '1', none, walkOf(root));
    expect(propertyOf(item?.schema, 'email', none, walkOf(root))).toEqual({ title: 'E-mail address' });
    // A key with "/" or "~" in it, escaped as a JSON pointer.
    const escaped = { $defs: { 'a/b~c': { properties: { x: { title: 'X' } } } } };
    expect(propertyOf({ $ref: '#/$defs/a~1b~0c' }, 'x', none, walkOf(escaped))).toEqual({ title: 'X' });
  });

  it.each([
    ['a $ref to the whole schema inside itself', { allOf: [{ $ref: '#' }], properties: {} }, { $ref: '#' }],
    [
      'a definition whose option refers to itself',
      { $defs: { M: { anyOf: [{ $ref: '#/$defs/M' }, {}] } }, properties: {} },
      { allOf: [{ $ref: '#/$defs/M' }, { properties: { other: {} } }] },
    ],
    ['two definitions that refer to each other', { $defs: { A: { $ref: '#/$defs/B' }, B: { $ref: '#/$defs/A' } } }, { $ref: '#/$defs/A' }],
  ])('ends, naming nothing, on %s', (_name, root, node) => {
    expect(propertyOf(node, 'email', none, walkOf(root))).toBeUndefined();
    expect(itemOf(node, '0', () => 0, walkOf(root))).toBeUndefined();
  });

  it('ends at once on $refs that each lead twice to the next (no exponential walk)', () => {
    const $defs: Record<string, unknown> = { D40: {} };
    for (let i = 0; i < 40; i++) $defs[`D${i}`] = { anyOf: [{ $ref: `#/$defs/D${i + 1}` }, { $ref: `#/$defs/D${i + 1}` }] };
    const root = { $defs };
    const started = performance.now();
    expect(propertyOf({ $ref: '#/$defs/D0' }, 'email', none, walkOf(root))).toBeUndefined();
    expect(itemOf({ $ref: '#/$defs/D0' }, '0', none, walkOf(root))).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it("does not take an anchor (#x) or another document's $ref for the root", () => {
    const root = { properties: { a: { title: 'Root a' } } };
    expect(propertyOf({ $ref: '#x', properties: { a: { title: 'Own a' } } }, 'a', none, walkOf(root))).toEqual({ title: 'Own a' });
    expect(propertyOf({ $ref: 'https://example.com/s.json' }, 'a', none, walkOf(root))).toBeUndefined();
  });
});
