/**
 * A page whose Content Security Policy has no 'unsafe-eval' in script-src:
 * ajv, which checks answers against the interrupt's responseSchema, compiles
 * each schema to code (`new Function`), and the browser refuses with an
 * EvalError. The schema is fine; the page forbids checking it. The form says
 * that (not that the agent asked for a shape it cannot show), and leaves
 * Close without answering only.
 */
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { askedFor } from './support/showForms.js';

const refused = () => new EvalError("Refused to evaluate a string as JavaScript because 'unsafe-eval' is not an allowed source of script");

// Every ajv compiles as the browser lets it there: not at all.
vi.mock('ajv', async (importOriginal) => {
  const ajv = await importOriginal<typeof import('ajv')>();
  class Forbidden extends ajv.default {
    override compile(): never {
      throw refused();
    }
    override validateSchema(): never {
      throw refused();
    }
  }
  return { ...ajv, default: Forbidden };
});

describe('an interrupt with a responseSchema on a page that forbids compiling code', () => {
  it("says the page's Content Security Policy forbids checking answers, and leaves Close without answering only", async () => {
    await askedFor({ type: 'object', properties: { code: { type: 'string', title: 'Voucher code' } }, required: ['code'] });
    expect(screen.queryByRole('button', { name: 'Submit' })).toBeNull();
    expect(screen.getByText(/Content Security Policy/)).toBeInTheDocument();
    expect(screen.getByText(/You can only close it without answering/)).toBeInTheDocument();
    expect(screen.queryByText(/a shape this form cannot show/)).toBeNull();
    expect(screen.getByRole('button', { name: /Close without answering/ })).toBeEnabled();
  });
});
