/**
 * A `responseSchema` that compiles but whose answers the resume's check
 * cannot take: an asynchronous one (`$async`), or one whose `$id` is a
 * meta-schema's. The form says at once that the question can only be
 * closed, rather than take an answer and refuse it at Submit.
 */
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { askedFor } from './support/showForms.js';

describe('a schema the resume cannot check an answer against', () => {
  it.each([
    ['asynchronous ($async)', { $async: true, type: 'object', properties: { note: { type: 'string' } } }],
    [
      "with a meta-schema's $id",
      { $id: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { note: { type: 'string' } } },
    ],
  ])('%s leaves Close without answering only', async (_name, schema) => {
    await askedFor(schema);
    expect(screen.queryByRole('button', { name: 'Submit' })).toBeNull();
    expect(screen.getByText(/You can only close it without answering/)).toBeInTheDocument();
  });
});

describe('an enumeration the resume checks as its draft says', () => {
  it('of 2020-12, a value given twice (its meta-schema allows it), is a form to answer', async () => {
    await askedFor({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { size: { type: 'string', title: 'Size', enum: ['S', 'M', 'S'] } },
    });
    expect(screen.queryByText(/You can only close it without answering/)).toBeNull();
    expect(screen.getByRole('combobox', { name: 'Size' })).toBeInTheDocument();
  });

  it('of draft-07, objects the meta-schema check cannot compare (a "valueOf" key), leaves Close without answering only', async () => {
    await askedFor(JSON.parse('{"type":"object","properties":{"bin":{"title":"Bin","enum":[{"shelf":1},{"valueOf":2}]}}}'));
    expect(screen.queryByRole('button', { name: 'Submit' })).toBeNull();
    expect(screen.getByText(/You can only close it without answering/)).toBeInTheDocument();
  });
});
