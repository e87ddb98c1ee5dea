/**
 * A `default` its own field refuses (text for a number) is not put in the
 * form: the field starts empty, shows what it holds, and is checked as empty.
 */
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { formSchema } from '../src/formSchema.js';
import { askedFor } from './support/showForms.js';

describe('a default that does not fit its field', () => {
  it('is left out of the form: the number field starts empty and a submit says it is required, not of the wrong type', async () => {
    const user = userEvent.setup();
    await askedFor({
      type: 'object',
      required: ['count'],
      properties: { count: { type: 'integer', title: 'Count', default: 'abc' }, note: { type: 'string', title: 'Note', default: 'ok' } },
    });
    expect(screen.getByRole('spinbutton', { name: 'Count' })).toHaveValue(null);
    expect(screen.getByRole('textbox', { name: 'Note' })).toHaveValue('ok');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Count');
    expect(screen.getByText('This field is required.')).toBeInTheDocument();
    expect(screen.queryByText('This value has the wrong type.')).toBeNull();
  });

  it('keeps defaults that fit, and drops those outside an enum or of the wrong type, at any depth', () => {
    const schema = formSchema({
      type: 'object',
      default: 7,
      properties: {
        size: { type: 'string', enum: ['S', 'M'], default: 'XL' },
        ratio: { type: 'number', default: 0.5 },
        tags: { type: 'array', items: { type: 'integer', default: 'x' }, default: ['a'] },
        flag: { type: ['boolean', 'null'], default: null },
      },
    });
    const props = schema.properties as Record<string, Record<string, unknown>>;
    expect('default' in schema).toBe(false);
    expect('default' in (props.size ?? {})).toBe(false);
    expect(props.ratio?.default).toBe(0.5);
    expect('default' in (props.tags ?? {})).toBe(false);
    expect('default' in ((props.tags?.items as object) ?? {})).toBe(false);
    expect(props.flag?.default).toBeNull();
  });
});

/**
 * A form draws every entry of a default list as it opens: a default of
 * 20,000 tags (or of an object holding them) held the page for minutes.
 * A default holding more entries than a form draws is left out.
 */
describe('a default holding more list entries than a form draws', () => {
  const many = Array.from({ length: 20_000 }, (_, i) => `tag-${i}`);

  it('is left out of the form, which opens at once with its list empty', async () => {
    const began = performance.now();
    await askedFor({
      type: 'object',
      properties: {
        note: { type: 'string', title: 'Note', default: 'ok' },
        tags: { type: 'array', title: 'Tags', items: { type: 'string' }, default: many },
      },
    });
    expect(performance.now() - began).toBeLessThan(5_000);
    expect(screen.getByRole('textbox', { name: 'Note' })).toHaveValue('ok');
    expect(screen.queryByDisplayValue('tag-0')).toBeNull();
    expect(screen.getByRole('button', { name: 'Submit' })).toBeInTheDocument();
  }, 20_000);

  it('counts the entries of nested lists, in an object default too, and keeps one a form can show', () => {
    const rows = Array.from({ length: 40 }, () => Array.from({ length: 40 }, () => 'x'));
    const schema = formSchema({
      type: 'object',
      default: { tags: many },
      properties: {
        tags: { type: 'array', items: { type: 'string' } },
        grid: { type: 'array', items: { type: 'array', items: { type: 'string' } }, default: rows },
        few: { type: 'array', items: { type: 'string' }, default: ['a', 'b'] },
      },
    });
    const props = schema.properties as Record<string, Record<string, unknown>>;
    expect('default' in schema).toBe(false);
    expect('default' in (props.grid ?? {})).toBe(false);
    expect(props.few?.default).toEqual(['a', 'b']);
  });
});

/**
 * A form draws a field for every key of an object default whose schema
 * takes keys of any name (`additionalProperties`), as it draws every entry
 * of a list: a default of thousands of keys is left out too.
 */
describe('a default holding more keys than a form draws', () => {
  const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`key-${i}`, `value-${i}`]));

  it('is left out of the form, which opens at once', async () => {
    const began = performance.now();
    await askedFor({
      type: 'object',
      properties: {
        note: { type: 'string', title: 'Note', default: 'ok' },
        labels: { type: 'object', title: 'Labels', additionalProperties: { type: 'string' }, default: keys(3_000) },
      },
    });
    expect(performance.now() - began).toBeLessThan(5_000);
    expect(screen.getByRole('textbox', { name: 'Note' })).toHaveValue('ok');
    expect(screen.queryByDisplayValue('value-0')).toBeNull();
    expect(screen.getByRole('button', { name: 'Submit' })).toBeInTheDocument();
  }, 120_000);

  it('keeps an object default of a few keys', () => {
    const schema = formSchema({
      type: 'object',
      properties: { labels: { type: 'object', additionalProperties: { type: 'string' }, default: keys(3) } },
    });
    expect((schema.properties as Record<string, Record<string, unknown>>).labels?.default).toEqual(keys(3));
  });
});
