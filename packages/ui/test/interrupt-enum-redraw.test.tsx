/**
 * A question whose form holds a choice of thousands of values (a product
 * catalogue): typing in another field of the form must not draw each of
 * those options again, or every keystroke costs a pass over all of them.
 */
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { askedFor } from './support/showForms.js';

const SKUS = Array.from({ length: 5000 }, (_, i) => `SKU-${String(i).padStart(5, '0')}`);

/** The props React last drew `element` with (the object it keeps on the DOM node): a new object each time it is drawn. */
function drawnProps(element: Element): unknown {
  const key = Object.keys(element).find((k) => k.startsWith('__reactProps$'));
  if (key === undefined) throw new Error('not drawn by React');
  return (element as unknown as Record<string, unknown>)[key];
}

/**
 * rjsf draws a field again only when its own props change (SchemaField compares them deeply): a note typed next to
 * the choice leaves each of its options as it was drawn.
 */
describe('a form with a choice of 5,000 values', () => {
  // Drawing 5,000 options takes seconds in jsdom (its <select> does more per option than a browser's), several times
  // that on a busy machine: the form is waited for as long as the test may take, not the usual 10 seconds.
  it('does not draw its options again as another field changes', { timeout: 60_000 }, async () => {
    await askedFor(
      {
        type: 'object',
        required: ['sku'],
        properties: { sku: { type: 'string', title: 'Product', enum: SKUS }, note: { type: 'string', title: 'Note' } },
      },
      50_000,
    );
    const select = screen.getByRole('combobox', { name: 'Product' });
    const options = [...select.querySelectorAll('option')];
    expect(options).toHaveLength(SKUS.length + 1);
    const before = options.map(drawnProps);
    const note = screen.getByRole('textbox', { name: 'Note' });
    const noteBefore = drawnProps(note);

    fireEvent.change(note, { target: { value: 'Gift wrap' } });
    expect(note).toHaveValue('Gift wrap');
    // The form was drawn again (the note's own field was), so options drawn again would show.
    expect(drawnProps(note)).not.toBe(noteBefore);

    const redrawn = options.filter((option, i) => drawnProps(option) !== before[i]).length;
    expect(redrawn).toBe(0);
  });
});
