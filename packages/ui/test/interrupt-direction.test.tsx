/**
 * The agent's words in an interrupt (its question, and the titles and
 * descriptions of its form) take the direction of their own first letter
 * (`dir="auto"`): an Arabic title holding digits or Latin words keeps its
 * punctuation on the right side on an English page.
 */
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { playedStore, runOf } from '../src/storybook/scripted.js';
import { showForms } from './support/showForms.js';

const QUESTION = 'هل تريد استرداد 42 دولارًا عبر PayPal؟';
const FORM_TITLE = 'تفاصيل الاسترداد (الطلب A-1001)';
const FORM_HELP = 'املأ الحقول، ثم اضغط Submit.';
const FIELD_TITLE = 'المبلغ بالـ USD:';
const FIELD_HELP = 'أدخل 10 أو أكثر.';
const LIST_TITLE = 'العناصر (SKU):';

/** The direction `el` takes its text in: its own `dir`, or the nearest one around it. */
const dirOf = (el: Element) => el.closest('[dir]')?.getAttribute('dir');

async function arabicForm() {
  const store = await playedStore([
    {
      say: 'Refund order A-1001',
      events: runOf([], {
        outcome: {
          type: 'interrupt',
          interrupts: [
            {
              id: 'int-ar',
              reason: 'input_required',
              message: QUESTION,
              responseSchema: {
                type: 'object',
                title: FORM_TITLE,
                description: FORM_HELP,
                properties: {
                  amount: { type: 'number', title: FIELD_TITLE, description: FIELD_HELP },
                  items: { type: 'array', title: LIST_TITLE, items: { type: 'string' } },
                },
              },
            },
          ],
        },
      }),
    },
  ]);
  return showForms(store);
}

describe('an interrupt in Arabic on an English page', () => {
  it('shows the question in the direction of its own text', async () => {
    await arabicForm();
    expect(dirOf(screen.getByText(QUESTION))).toBe('auto');
  });

  it("shows the form's legends, labels and descriptions in the direction of their own text", async () => {
    await arabicForm();
    for (const text of [FORM_TITLE, FORM_HELP, FIELD_TITLE, FIELD_HELP, LIST_TITLE]) {
      expect({ text, dir: dirOf(screen.getByText(text)) }).toEqual({ text, dir: 'auto' });
    }
  });

  it('keeps the page direction for the interface words around them', async () => {
    await arabicForm();
    expect(dirOf(screen.getByRole('button', { name: 'Submit' }))).toBeUndefined();
  });
});
