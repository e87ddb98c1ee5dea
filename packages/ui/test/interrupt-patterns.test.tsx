/**
 * A `pattern` in an interrupt's `responseSchema` is matched by the form in
 * time linear in the answer (RE2): `^(a+)+$` against a default of forty
 * letters and a "!" held the page as the form drew a `oneOf`, and again at
 * Submit. A pattern RE2 cannot run (a lookahead) leaves the question one
 * that can only be closed, as the resume's check could not take its answer.
 */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { askedFor } from './support/showForms.js';

const hostile = '^(a+)+$';

describe('a pattern in the form of an interrupt', () => {
  it('is matched in linear time: a oneOf drawn over a default that backtracks without end, and Submit, answer at once', async () => {
    const began = performance.now();
    await askedFor({
      type: 'object',
      required: ['code'],
      properties: {
        code: { title: 'Voucher code', default: `${'a'.repeat(40)}!`, oneOf: [{ type: 'string', pattern: hostile }, { type: 'number' }] },
      },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(/need|attention/i));
    expect(performance.now() - began).toBeLessThan(5_000);
  }, 20_000);

  it('written with ECMA-262 escapes RE2 spells otherwise (\\u4e00) is a form that can be answered', async () => {
    await askedFor({ type: 'object', properties: { name: { type: 'string', title: 'Name', pattern: '^[\\u4e00-\\u9fa5]{2,8}$' } } });
    expect(screen.getByRole('button', { name: 'Submit' })).toBeInTheDocument();
  });

  it('that RE2 cannot run leaves Close without answering only', async () => {
    await askedFor({ type: 'object', properties: { password: { type: 'string', pattern: '^(?=.*\\d).{8,}$' } } });
    expect(screen.queryByRole('button', { name: 'Submit' })).toBeNull();
    expect(screen.getByText(/You can only close it without answering/)).toBeInTheDocument();
  });
});
