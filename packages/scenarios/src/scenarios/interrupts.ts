import { answerTo, type Scenario } from '../scenario.js';
import { nonceOf, Script } from '../script.js';

const CHANNELS = ['email', 'sms', 'phone call'];

/** `input_required` with an enum: the agent asks how to reach the customer. */
export const clarification: Scenario = {
  id: 'clarification',
  title: 'Clarification',
  description: 'The agent needs one detail: an input_required interrupt whose schema is an enum.',
  prompt: 'Please let me know when my replacement ships.',
  run(input, context) {
    const answer = answerTo(input, '-channel');
    const s = new Script(input, nonceOf(context)).start();
    if (!answer) {
      s.text('ask', 'I can notify you when it ships. How would you like to be contacted?');
      return s
        .finish({
          outcome: {
            type: 'interrupt',
            interrupts: [
              {
                id: s.secretId('channel'),
                reason: 'input_required',
                message: 'How should we contact you about the shipment?',
                responseSchema: { type: 'string', title: 'Contact channel', enum: CHANNELS, default: 'email' },
              },
            ],
          },
        })
        .events();
    }
    const channel = answer.status === 'resolved' && typeof answer.payload === 'string' ? answer.payload : undefined;
    s.text(
      'done',
      channel ? `Great: we will contact you by ${channel} as soon as it ships.` : 'No problem, I will not send notifications.',
    );
    return s.finish().events();
  },
};

/** A namespaced escalation (`risk:manual_review`) with queue metadata. */
export const escalation: Scenario = {
  id: 'escalation',
  title: 'Escalation to manual review',
  description: 'An extension reason, risk:manual_review, with its queue and risk score in metadata.',
  prompt: 'Refund $1,900 for order B-7 to a new card, please.',
  run(input, context) {
    const answer = answerTo(input, '-review');
    const s = new Script(input, nonceOf(context)).start();
    if (!answer) {
      s.text('flag', 'This refund goes to a card that was added today and is above the automatic limit, so it needs a manual review.');
      s.state({ review: { status: 'queued', queue: 'fraud-review' } });
      return s
        .finish({
          outcome: {
            type: 'interrupt',
            interrupts: [
              {
                id: s.secretId('review'),
                reason: 'risk:manual_review',
                message: 'Review a $1,900.00 refund to a card added today.',
                responseSchema: {
                  type: 'object',
                  properties: {
                    decision: { type: 'string', title: 'Decision', enum: ['approve', 'deny', 'request more information'] },
                    note: { type: 'string', title: 'Note for the audit trail' },
                  },
                  required: ['decision'],
                },
                metadata: { queue: 'fraud-review', riskScore: 0.87, slaMinutes: 30, signals: ['new card', 'amount over limit'] },
              },
            ],
          },
        })
        .events();
    }
    const decision =
      answer.status === 'resolved' ? String((answer.payload as { decision?: unknown } | undefined)?.decision ?? 'deny') : 'no decision';
    s.delta([{ op: 'replace', path: '/review/status', value: decision }]);
    s.text('done', `The reviewer's decision is recorded: ${decision}.`);
    return s.finish().events();
  },
};

/** Two interrupts at once, answered together in one resume. */
export const twoInterrupts: Scenario = {
  id: 'two-interrupts',
  title: 'Two questions at once',
  description: 'A confirmation and an input_required in the same outcome; one resume must answer both.',
  prompt: 'Cancel my subscription and refund the last month.',
  run(input, context) {
    const confirm = answerTo(input, '-confirm');
    const reason = answerTo(input, '-reason');
    const s = new Script(input, nonceOf(context)).start();
    if (!confirm && !reason) {
      s.text('ask', 'Two things before I go ahead.');
      return s
        .finish({
          outcome: {
            type: 'interrupt',
            interrupts: [
              { id: s.secretId('confirm'), reason: 'confirmation', message: 'Cancel the Pro subscription at the end of this month?' },
              {
                id: s.secretId('reason'),
                reason: 'input_required',
                message: 'Why are you leaving? (optional)',
                responseSchema: {
                  type: 'object',
                  properties: { reason: { type: 'string', title: 'Reason', enum: ['too expensive', 'missing features', 'other'] } },
                },
              },
            ],
          },
        })
        .events();
    }
    const confirmed = confirm?.status === 'resolved';
    s.text('done', confirmed ? 'Your subscription ends on the 31st and last month is refunded.' : 'Nothing was cancelled.');
    return s.finish().events();
  },
};
