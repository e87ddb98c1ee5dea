import type { Message, RunAgentInput } from '@aguikit/core';
import { answerTo, forwardedNumber, type Scenario } from '../scenario.js';
import { nonceOf, Script, shortHash } from '../script.js';

const APPROVAL = '-refund-approval';

export const REFUND_SCHEMA = {
  type: 'object',
  title: 'Refund approval',
  properties: {
    approved: { type: 'boolean', title: 'Approve the refund' },
    comment: { type: 'string', title: 'Comment for the customer record', maxLength: 500 },
  },
  required: ['approved'],
  additionalProperties: false,
};

const ORDER = { id: 'A-1001', item: 'Ceramic teapot', amount: 42, currency: 'USD', status: 'delivered', deliveredOn: '2026-11-26' };

/**
 * The first run: look the order up, propose the refund, and pause for
 * approval. The refund call and its approval carry the run's nonce when a
 * server gives one: approving needs the id the run sent, not just its run id.
 */
function request(input: RunAgentInput, now: number, nonce: string | undefined) {
  const s = new Script(input, nonce).start();
  const callId = s.secretId('refund');
  const intro = 'Let me look up order A-1001 first.';
  const plan = 'The order was delivered broken and cost $42.00. I will refund it to the original card, once a reviewer approves.';
  s.step('Looking up the order', () => {
    s.text('intro', intro).tool('lookup', 'lookup_order', { orderId: ORDER.id }, { parentMessageId: 'intro' }).result('lookup', ORDER, 600);
  });
  s.state({ order: ORDER, refund: { status: 'idle' } }, 100);
  s.text('plan', plan).tool(
    'refund',
    'refund_order',
    { orderId: ORDER.id, amount: ORDER.amount, currency: ORDER.currency, reason: 'Arrived broken' },
    { parentMessageId: 'plan', chunkDelayMs: 80, secret: true },
  );
  s.delta([{ op: 'replace', path: '/refund', value: { status: 'awaiting_approval', amount: ORDER.amount } }], 100);
  const history: Message[] = [
    ...input.messages,
    {
      id: s.id('intro'),
      role: 'assistant',
      content: intro,
      toolCalls: [
        { id: s.id('lookup'), type: 'function', function: { name: 'lookup_order', arguments: JSON.stringify({ orderId: ORDER.id }) } },
      ],
    },
    { id: s.id('lookup-result'), role: 'tool', toolCallId: s.id('lookup'), content: JSON.stringify(ORDER) },
    {
      id: s.id('plan'),
      role: 'assistant',
      content: plan,
      toolCalls: [
        {
          id: callId,
          type: 'function',
          function: {
            name: 'refund_order',
            arguments: JSON.stringify({ orderId: ORDER.id, amount: ORDER.amount, currency: ORDER.currency, reason: 'Arrived broken' }),
          },
        },
      ],
    },
  ];
  // The protocol asks for snapshots before the interrupting RUN_FINISHED, so a client that reconnects can restore.
  s.state({ order: ORDER, refund: { status: 'awaiting_approval', amount: ORDER.amount } });
  s.emit({ type: 'MESSAGES_SNAPSHOT', messages: history });
  const expiresAt = new Date(now + forwardedNumber(input, 'approvalWindowMs', 120_000, 0, 86_400_000)).toISOString();
  return s
    .finish({
      outcome: {
        type: 'interrupt',
        interrupts: [
          {
            id: s.secretId(APPROVAL.slice(1)),
            reason: 'tool_call',
            toolCallId: callId,
            message: `Refund $42.00 to the customer's card for order ${ORDER.id}?`,
            responseSchema: REFUND_SCHEMA,
            expiresAt,
            metadata: { risk: 'low', policy: 'refunds over $25 need a reviewer' },
          },
        ],
      },
    })
    .events();
}

/**
 * The refund flow: a lookup tool, then the refund call paused by a
 * `tool_call` interrupt (responseSchema `approved` + `comment`, with
 * `expiresAt`). Approve runs the tool and the state goes to `refunded`;
 * reject is explained; cancel (or expiry) refunds nothing.
 */
export const refund: Scenario = {
  id: 'refund',
  title: 'Refund with approval',
  description: 'A lookup tool, then a refund paused for a reviewer: approve, reject with a reason, or let it expire.',
  prompt: 'My teapot from order A-1001 arrived broken. Can I get a refund?',
  run(input, context) {
    const answer = answerTo(input, APPROVAL);
    if (!answer) return request(input, context.now, nonceOf(context));
    const callId = `${answer.interruptId.slice(0, -APPROVAL.length)}-refund`;
    const s = new Script(input).start();
    const payload = (answer.payload ?? {}) as { approved?: unknown; comment?: unknown };
    const comment = typeof payload.comment === 'string' && payload.comment ? payload.comment : undefined;
    if (answer.status === 'resolved' && payload.approved === true) {
      const refundId = `RF-${shortHash(answer.interruptId)}`;
      s.step('Issuing the refund', () => {
        s.resultFor(callId, { refundId, status: 'refunded', amount: ORDER.amount, currency: ORDER.currency }, 700, {
          kind: 'refund',
          key: answer.interruptId,
          detail: { refundId, orderId: ORDER.id, amount: ORDER.amount, currency: ORDER.currency },
        });
        s.delta([
          { op: 'replace', path: '/refund/status', value: 'refunded' },
          { op: 'add', path: '/refund/refundId', value: refundId },
          { op: 'replace', path: '/order/status', value: 'refunded' },
        ]);
      });
      s.text('done', `Done: refund ${refundId} of $42.00 is on its way to the original card; it usually arrives within 5 business days.`);
    } else if (answer.status === 'resolved') {
      s.resultFor(callId, { status: 'rejected', reason: comment ?? 'rejected by the reviewer' });
      s.delta([{ op: 'replace', path: '/refund/status', value: 'rejected' }]);
      s.text(
        'done',
        `The reviewer did not approve the refund${quoted(comment)} Nothing was charged back. I can open a replacement order instead, if you like.`,
      );
    } else {
      s.resultFor(callId, { status: 'cancelled', reason: 'no approval was given' });
      s.delta([{ op: 'replace', path: '/refund/status', value: 'cancelled' }]);
      s.text('done', 'No approval came in time, so no refund was made. Ask again whenever you like.');
    }
    return s.finish().events();
  },
};

/** The reviewer's comment quoted to end the sentence: a comment that ends its own sentence gets no second full stop. */
function quoted(comment: string | undefined): string {
  if (!comment) return '.';
  return /[.!?。！？…]$/u.test(comment.trim()) ? `: "${comment}"` : `: "${comment}".`;
}
