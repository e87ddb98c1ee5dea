/**
 * rjsf merges an `allOf` into one schema whose `oneOf` / `anyOf` is every
 * combination of its members' options, and weighs each of them against the
 * answer at every keystroke: twelve members of two options each (4,096
 * combinations, a 1 KB schema) held the page for many seconds a keystroke.
 * Such a question can only be closed.
 */
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { askedFor } from './support/showForms.js';

describe('an allOf whose options combine without bound', () => {
  it('leaves Close without answering only, at once', async () => {
    const began = performance.now();
    await askedFor({
      type: 'object',
      properties: { name: { type: 'string', title: 'Name' } },
      allOf: Array.from({ length: 12 }, (_, i) => ({
        oneOf: [{ properties: { [`a${i}`]: { type: 'string' } } }, { properties: { [`b${i}`]: { type: 'number' } } }],
      })),
    });
    expect(performance.now() - began).toBeLessThan(5_000);
    expect(screen.queryByRole('button', { name: 'Submit' })).toBeNull();
    expect(screen.getByText(/You can only close it without answering/)).toBeInTheDocument();
  }, 60_000);
});

describe('an allOf whose members name their options by reference', () => {
  it('leaves Close without answering only, at once, as if they were written in place', async () => {
    const $defs = Object.fromEntries(
      Array.from({ length: 12 }, (_, i) => [
        `choice${i}`,
        { oneOf: [{ properties: { [`a${i}`]: { type: 'string' } } }, { properties: { [`b${i}`]: { type: 'number' } } }] },
      ]),
    );
    const began = performance.now();
    await askedFor({
      type: 'object',
      $defs,
      properties: { name: { type: 'string', title: 'Name' } },
      allOf: Object.keys($defs).map((name) => ({ $ref: `#/$defs/${name}` })),
    });
    expect(performance.now() - began).toBeLessThan(5_000);
    expect(screen.queryByRole('button', { name: 'Submit' })).toBeNull();
    expect(screen.getByText(/You can only close it without answering/)).toBeInTheDocument();
  }, 120_000);
});
