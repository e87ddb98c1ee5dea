import { runOf, say } from '../../src/storybook/scripted.js';

/**
 * A run that ends asking for a manual review of a refund, through a form of
 * five fields: what the tests of fields under the held actions Tab through.
 */
export function escalationRun() {
  const properties = {
    decision: { type: 'string', title: 'Decision', enum: ['approve', 'deny', 'request more information'] },
    note: { type: 'string', title: 'Note for the audit trail' },
    reviewer: { type: 'string', title: 'Reviewer' },
    ticket: { type: 'string', title: 'Ticket' },
    followUp: { type: 'string', title: 'Follow-up' },
  };
  return runOf(say('m-1', 'This refund needs a second look.'), {
    outcome: {
      type: 'interrupt',
      interrupts: [
        {
          id: '5b0f8f0e-6a1d-4c55-9a57-2f1f0d7c9e11',
          reason: 'risk:manual_review',
          message: 'Review a $1,900.00 refund to a card added today.',
          metadata: { queue: 'fraud-review', riskScore: 0.87, slaMinutes: 30, signals: ['new card', 'amount over limit'] },
          responseSchema: { type: 'object', required: ['decision'], properties },
        },
      ],
    },
  });
}

/** The fields of the interrupt's form, in the order Tab reaches them. */
export const formFields = () => [...document.querySelectorAll<HTMLElement>('.agk-interrupt__form :is(input, select, textarea)')];

/** How many px of `field` and its focus ring are under the held actions (0: none). */
export function obscured(field: HTMLElement): number {
  const box = field.getBoundingClientRect();
  const style = getComputedStyle(field);
  const ring = Number.parseFloat(style.outlineWidth) + Number.parseFloat(style.outlineOffset);
  const actions = document.querySelector('.agk-interrupt__actions')?.getBoundingClientRect();
  if (!actions) throw new Error('no actions');
  return Math.max(0, box.bottom + ring - actions.top);
}
