import type { ResumeResponse } from '@aguikit/core';
import { type ActionResult, AgentProvider, type AgentStore, useAgentSelector, useInterrupts } from '@aguikit/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { Interrupt, InterruptDialog } from './InterruptDialog.js';
import { FormPlaceholder } from './InterruptFormLoader.js';
import { answerShape, formLines } from './interruptForm.js';
import { preloadInterruptForm } from './lazyChunks.js';
import { call, playedStore, runOf, type ScriptEvent, say } from './storybook/scripted.js';
import { LONG_WAIT } from './storybook/waits.js';

type Resume = (responses: ResumeResponse[]) => Promise<ActionResult>;
type Loaded = { store: AgentStore; resume: Resume & ReturnType<typeof fn> };

/** What the store recorded as sent: each decision of the last resume, as the agent receives it. */
function Sent() {
  const decisions = useAgentSelector((s) => s.decisions);
  if (decisions.length === 0) return null;
  const sent = decisions.map(({ interruptId, status, payload }) => ({
    interruptId,
    status,
    ...(payload === undefined ? {} : { payload }),
  }));
  return (
    <section aria-label="Sent to the agent" style={{ marginTop: 16 }}>
      <p className="agk-label">Sent to the agent</p>
      <pre className="agk-code">{JSON.stringify(sent, null, 2)}</pre>
    </section>
  );
}

const meta = {
  title: 'Components/InterruptDialog',
  component: InterruptDialog,
  // The form's code loads on demand: these stories show the dialog once it is there (FormLoading, before).
  loaders: [async () => preloadInterruptForm().then(() => ({}))],
  render: (args, { loaded }) => (
    <AgentProvider store={(loaded as Loaded).store}>
      <InterruptDialog {...args} />
      <Sent />
    </AgentProvider>
  ),
} satisfies Meta<typeof InterruptDialog>;

export default meta;
type Story = StoryObj<typeof meta>;

const refundArgs = { orderId: 'A-1001', amount: 42, currency: 'USD', reason: 'Arrived broken' };
const approvalSchema = {
  type: 'object',
  required: ['approved'],
  properties: {
    approved: { type: 'boolean' },
    comment: { type: 'string', title: 'Comment', description: 'Sent to the agent with your decision.' },
  },
};
const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

/**
 * A thread whose run ended in `interrupts` (played through the real pipeline
 * and store, with the wall clock so the countdown and the store agree), a
 * short run to answer the resume with, and a spy on the store's `resume`.
 */
function interrupted(interrupts: Record<string, unknown>[], before: ScriptEvent[] = []) {
  return async (): Promise<Loaded> => {
    const store = await playedStore(
      [{ say: 'Refund order A-1001, it arrived broken', events: runOf([...before], { outcome: { type: 'interrupt', interrupts } }) }],
      { now: () => Date.now(), pending: [runOf(say('after', 'Thanks, done.'))] },
    );
    const resume = fn(store.getState().resume);
    store.setState({ resume });
    return { store, resume };
  };
}

const refund = (extra: Record<string, unknown> = {}) =>
  interrupted(
    [
      {
        id: 'int-refund',
        reason: 'tool_call',
        toolCallId: 'call-refund',
        message: 'Refund $42.00 to the customer for order A-1001?',
        responseSchema: approvalSchema,
        expiresAt: inMinutes(10),
        ...extra,
      },
    ],
    call('call-refund', 'refund_order', refundArgs),
  );

const loadedOf = (context: { loaded: unknown }) => context.loaded as Loaded;

export const Confirmation: Story = {
  loaders: [
    interrupted([
      {
        id: 'int-delete',
        reason: 'confirmation',
        message: 'Delete the 3 draft invoices of November? This cannot be undone.',
        responseSchema: { type: 'object', required: ['approved'], properties: { approved: { type: 'boolean' } } },
      },
    ]),
  ],
  play: async ({ canvasElement }) => {
    const card = within(canvasElement).getByRole('article', { name: 'Confirmation needed' });
    await expect(card).toHaveAttribute('data-reason', 'confirmation');
    // The buttons act once the form is in the page, a moment after the card (the form's code loads on demand).
    await waitFor(() => expect(within(card).getByRole('button', { name: 'Approve' })).toBeEnabled(), LONG_WAIT);
    await expect(within(card).getByRole('button', { name: 'Reject' })).toBeEnabled();
  },
};

const clarification = interrupted([
  {
    id: 'int-which',
    reason: 'input_required',
    message: 'You have two recent orders. Which one arrived broken?',
    responseSchema: {
      type: 'object',
      required: ['orderId'],
      properties: {
        orderId: { type: 'string', title: 'Order', enum: ['A-1001', 'A-1002'] },
        details: { type: 'string', title: 'Anything else the agent should know?' },
      },
    },
  },
]);

export const Clarification: Story = {
  loaders: [clarification],
  play: async ({ canvasElement }) => {
    const dialog = within(canvasElement).getByRole('dialog', { name: 'The agent is waiting for your answer' });
    await waitFor(() => expect(within(dialog).getByRole('combobox', { name: /Order/ })).toHaveFocus(), LONG_WAIT);
  },
};

export const ClarificationValidatedBeforeSending: Story = {
  loaders: [clarification],
  play: async (context) => {
    const { resume, store } = loadedOf(context);
    const dialog = within(context.canvasElement).getByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Submit' }));
    await expect(within(dialog).getByText('This field is required.')).toBeInTheDocument();
    await expect(resume).not.toHaveBeenCalled();

    await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: /Order/ }), 'A-1002');
    await waitFor(() => expect(within(dialog).queryByText('This field is required.')).toBeNull(), LONG_WAIT);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(resume).toHaveBeenCalledTimes(1), LONG_WAIT);
    // The answer has a schema: the store loads its validator on demand before it records and sends the answer.
    await waitFor(
      () =>
        expect(store.getState().decisions).toMatchObject([
          { interruptId: 'int-which', status: 'resolved', payload: { orderId: 'A-1002' } },
        ]),
      LONG_WAIT,
    );
  },
};

export const RefundApproval: Story = {
  loaders: [refund()],
  play: async ({ canvasElement }) => {
    const card = within(canvasElement).getByRole('article', { name: 'Approval needed' });
    await expect(card).toHaveAttribute('data-state', 'open');
    await expect(within(card).getByText('refund_order')).toBeInTheDocument();
    await expect(within(card).getByText(/"amount": 42/)).toBeInTheDocument();
    await expect(within(card).getByRole('timer')).toHaveTextContent(/^Expires in (10:00|\d:\d\d)$/);
  },
};

export const ApproveSendsOneResume: Story = {
  loaders: [refund()],
  play: async (context) => {
    const { resume, store } = loadedOf(context);
    const canvas = within(context.canvasElement);
    await userEvent.dblClick(canvas.getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(canvas.queryByRole('dialog')).toBeNull(), LONG_WAIT);
    await expect(resume).toHaveBeenCalledTimes(1);
    await expect(resume).toHaveBeenCalledWith([{ interruptId: 'int-refund', status: 'resolved', payload: { approved: true } }]);
    await expect(store.getState().decisions).toMatchObject([{ interruptId: 'int-refund', toolName: 'refund_order', status: 'resolved' }]);
    await waitFor(() => expect(store.getState().thread.run.status).toBe('success'), LONG_WAIT);
  },
};

export const RejectWithComment: Story = {
  loaders: [refund()],
  play: async (context) => {
    const { resume } = loadedOf(context);
    const canvas = within(context.canvasElement);
    await userEvent.type(canvas.getByRole('textbox', { name: 'Comment' }), 'Outside the 30-day window');
    await userEvent.click(canvas.getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(resume).toHaveBeenCalledTimes(1), LONG_WAIT);
    // A reject is an answer (resolved, approved: false), not a cancellation.
    await expect(resume).toHaveBeenCalledWith([
      { interruptId: 'int-refund', status: 'resolved', payload: { approved: false, comment: 'Outside the 30-day window' } },
    ]);
  },
};

export const CloseWithoutAnswering: Story = {
  loaders: [refund()],
  play: async (context) => {
    const { resume } = loadedOf(context);
    await userEvent.click(within(context.canvasElement).getByRole('button', { name: 'Close without answering' }));
    await waitFor(() => expect(resume).toHaveBeenCalledTimes(1), LONG_WAIT);
    await expect(resume).toHaveBeenCalledWith([{ interruptId: 'int-refund', status: 'cancelled' }]);
  },
};

export const RefundApprovalExpired: Story = {
  loaders: [refund({ expiresAt: inMinutes(-2) })],
  play: async ({ canvasElement }) => {
    const card = within(canvasElement).getByRole('article', { name: 'Approval needed' });
    await expect(card).toHaveAttribute('data-state', 'expired');
    await expect(within(card).getByRole('timer')).toHaveTextContent('Expired');
    await expect(card.querySelector('.agk-interrupt__status')).toHaveTextContent(/^Expired at .+/);
    await expect(card.querySelector('.agk-interrupt__why')).toHaveTextContent(/no longer be answered, only closed/);
    await expect(
      within(card)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Close without answering']);
    await expect(within(card).getByRole('textbox', { name: 'Comment' })).toBeDisabled();
  },
};

export const ExpiredCanOnlyBeCancelled: Story = {
  loaders: [refund({ expiresAt: inMinutes(-2) })],
  play: async (context) => {
    const { resume } = loadedOf(context);
    const card = within(context.canvasElement).getByRole('article', { name: 'Approval needed' });
    await userEvent.click(within(card).getByRole('button', { name: 'Close without answering' }));
    await waitFor(() => expect(resume).toHaveBeenCalledTimes(1), LONG_WAIT);
    await expect(resume).toHaveBeenCalledWith([{ interruptId: 'int-refund', status: 'cancelled' }]);
  },
};

export const ManualReviewEscalation: Story = {
  loaders: [
    interrupted([
      {
        id: 'int-review',
        reason: 'risk:manual_review',
        message: 'This refund matches a fraud pattern and needs a second look before it is paid.',
        metadata: { queue: 'fraud-review', riskScore: 0.87, sla: '4 hours' },
        responseSchema: {
          type: 'object',
          required: ['decision'],
          properties: {
            decision: { type: 'string', title: 'Decision', enum: ['pay', 'hold', 'deny'] },
            note: { type: 'string', title: 'Note for the review queue' },
          },
        },
      },
    ]),
  ],
  play: async ({ canvasElement }) => {
    const card = within(canvasElement).getByRole('article', { name: 'Action needed' });
    await expect(card).toHaveAttribute('data-reason', 'custom');
    await expect(within(card).getByText('risk:manual_review')).toBeInTheDocument();
    await expect(within(card).getByText('Queue').nextElementSibling).toHaveTextContent('fraud-review');
    await expect(within(card).getByText('Risk score').nextElementSibling).toHaveTextContent('0.87');
  },
};

/** Submitting the escalation empty: focus goes to the first invalid field, and the summary is announced. */
export const EscalationSubmittedEmpty: Story = {
  loaders: [
    interrupted([
      {
        id: '5b0f8f0e-6a1d-4c55-9a57-2f1f0d7c9e11',
        reason: 'risk:manual_review',
        message: 'Review a $1,900.00 refund to a card added today.',
        metadata: { queue: 'fraud-review', riskScore: 0.87, slaMinutes: 30, signals: ['new card', 'amount over limit'] },
        responseSchema: {
          type: 'object',
          required: ['decision'],
          properties: {
            decision: { type: 'string', title: 'Decision', enum: ['approve', 'deny', 'request more information'] },
            note: { type: 'string', title: 'Note for the audit trail' },
          },
        },
      },
    ]),
  ],
  play: async (context) => {
    const { resume } = loadedOf(context);
    const card = within(within(context.canvasElement).getByRole('article', { name: 'Action needed' }));
    const decision = card.getByRole('combobox', { name: 'Decision' });
    await expect(decision).not.toHaveAttribute('aria-invalid', 'true');
    await userEvent.click(card.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(decision).toHaveFocus(), LONG_WAIT);
    await expect(decision).toHaveAttribute('aria-invalid', 'true');
    await expect(card.getByRole('alert')).toHaveTextContent('1 field needs attention: Decision.');
    await expect(resume).not.toHaveBeenCalled();
  },
};

const two = interrupted(
  [
    {
      id: 'int-refund',
      reason: 'tool_call',
      toolCallId: 'call-refund',
      message: 'Refund $42.00 for order A-1001?',
      responseSchema: approvalSchema,
    },
    {
      id: 'int-notify',
      reason: 'input_required',
      message: 'How should the customer hear about it?',
      responseSchema: {
        type: 'object',
        required: ['channel'],
        properties: { channel: { type: 'string', title: 'Channel', enum: ['email', 'sms', 'none'] } },
      },
    },
  ],
  call('call-refund', 'refund_order', refundArgs),
);

export const TwoInterrupts: Story = {
  loaders: [two],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('dialog', { name: 'The agent is waiting for 2 answers' })).toBeInTheDocument();
    await expect(canvas.getByRole('button', { name: 'Send answers' })).toBeDisabled();
  },
};

export const TwoInterruptsAnsweredInOneResume: Story = {
  loaders: [two],
  play: async (context) => {
    const { resume } = loadedOf(context);
    const canvas = within(context.canvasElement);
    const refundCard = canvas.getByRole('article', { name: 'Approval needed' });
    await userEvent.click(within(refundCard).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(refundCard).toHaveAttribute('data-answer', 'resolved'), LONG_WAIT);
    await expect(resume).not.toHaveBeenCalled();

    const notify = canvas.getByRole('article', { name: 'Input needed' });
    await userEvent.selectOptions(within(notify).getByRole('combobox', { name: /Channel/ }), 'email');
    await userEvent.click(within(notify).getByRole('button', { name: 'Save answer' }));
    await expect(notify.querySelector('.agk-interrupt__status')).toHaveTextContent('Your answer: Channel: email.');
    const send = canvas.getByRole('button', { name: 'Send answers' });
    await waitFor(() => expect(send).toBeEnabled(), LONG_WAIT);
    await userEvent.click(send);
    await waitFor(() => expect(resume).toHaveBeenCalledTimes(1), LONG_WAIT);
    await expect(resume).toHaveBeenCalledWith([
      { interruptId: 'int-refund', status: 'resolved', payload: { approved: true } },
      { interruptId: 'int-notify', status: 'resolved', payload: { channel: 'email' } },
    ]);
  },
};

/** Two payments by the same tool, open together: each card is named by its place too, so neither reads as the other. */
export const TwoPaymentsOfOneTool: Story = {
  loaders: [
    interrupted(
      [
        {
          id: 'int-pay-acme',
          reason: 'tool_call',
          toolCallId: 'call-pay-1',
          message: 'Pay $42.00 to ACME?',
          responseSchema: approvalSchema,
        },
        {
          id: 'int-pay-globex',
          reason: 'tool_call',
          toolCallId: 'call-pay-2',
          message: 'Pay $1,900.00 to Globex?',
          responseSchema: approvalSchema,
        },
      ],
      [
        ...call('call-pay-1', 'send_payment', { amount: 42, to: 'ACME' }),
        ...call('call-pay-2', 'send_payment', { amount: 1900, to: 'Globex' }),
      ],
    ),
  ],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const first = canvas.getByRole('article', { name: 'Approval needed: send_payment (1 of 2)' });
    const second = canvas.getByRole('article', { name: 'Approval needed: send_payment (2 of 2)' });
    await expect(first).toHaveAccessibleDescription('Pay $42.00 to ACME?');
    await expect(second).toHaveAccessibleDescription('Pay $1,900.00 to Globex?');
  },
};

export const UnknownReason: Story = {
  loaders: [
    interrupted([
      {
        id: 'int-hold',
        reason: 'legal_hold',
        message: 'Order A-1001 is under a legal hold. Acknowledge before the agent continues.',
        metadata: { case: 'LH-2231', contact: 'legal@example.com', since: '2026-11-02' },
        responseSchema: {
          type: 'object',
          required: ['acknowledged'],
          properties: { acknowledged: { type: 'boolean', title: 'I have read the hold notice' } },
        },
      },
    ]),
  ],
  play: async ({ canvasElement }) => {
    const card = within(canvasElement).getByRole('article', { name: 'Action needed' });
    await expect(within(card).getByText('legal_hold')).toBeInTheDocument();
    await expect(within(card).getByText('LH-2231')).toBeInTheDocument();
    await waitFor(() => expect(within(card).getByRole('button', { name: 'Submit' })).toBeEnabled(), LONG_WAIT);
  },
};

const email = interrupted(
  [{ id: 'int-email', reason: 'tool_call', toolCallId: 'call-email', message: 'Send this email to the customer?' }],
  call('call-email', 'send_email', { to: 'ann@example.com', subject: 'Your refund', body: 'Your refund of $42.00 is on its way.' }),
);

export const NoResponseSchema: Story = {
  loaders: [email],
  play: async ({ canvasElement }) => {
    const card = within(canvasElement).getByRole('article', { name: 'Approval needed' });
    await expect(card).toHaveAttribute('data-shape', 'confirm');
    await expect(within(card).getByText('send_email')).toBeInTheDocument();
    await expect(
      within(card)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Yes', 'No']);
  },
};

export const YesSendsNoPayload: Story = {
  loaders: [email],
  play: async (context) => {
    const { resume } = loadedOf(context);
    await userEvent.click(within(context.canvasElement).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(resume).toHaveBeenCalledTimes(1), LONG_WAIT);
    await expect(resume).toHaveBeenCalledWith([{ interruptId: 'int-email', status: 'resolved' }]);
  },
};

/** A list longer than a form draws as it opens: no form, and why, in the locale's words; only Close is left. */
export const NoFormForAListTooLong: Story = {
  loaders: [
    interrupted([
      {
        id: '7c2b9e4a-1d3f-4a6b-9c8e-0f1a2b3c4d5e',
        reason: 'input_required',
        message: 'Which of the 2,000 order lines should be refunded?',
        responseSchema: {
          type: 'object',
          properties: { lines: { type: 'array', minItems: 2000, items: { type: 'string', title: 'Order line' } } },
        },
      },
    ]),
  ],
  play: async ({ canvasElement }) => {
    const card = within(canvasElement).getByRole('article', { name: 'Input needed' });
    await waitFor(() => expect(within(card).getByText(/cannot show/)).toBeInTheDocument(), LONG_WAIT);
    await expect(within(card).getByText('The agent asked for a list of over 500 entries.')).toBeInTheDocument();
    await expect(
      within(card)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Close without answering']);
  },
};

export const RefusedByTheStore: Story = {
  loaders: [
    async () => {
      const loaded = await refund()();
      // Another client sent a payload the schema rejects: the store's refusal names the interrupt.
      await loaded.store.getState().resume([{ interruptId: 'int-refund', status: 'resolved', payload: { approved: 'yes' } }]);
      loaded.resume.mockClear();
      return loaded;
    },
  ],
  play: async ({ canvasElement }) => {
    const card = within(canvasElement).getByRole('article', { name: 'Approval needed' });
    const alert = within(card).getByRole('alert');
    await expect(alert).toHaveTextContent('The answer does not match what the agent asked for.');
    await expect(alert.querySelector('[data-code="PAYLOAD_INVALID"]')).not.toBeNull();
  },
};

export const HostilePayloads: Story = {
  loaders: [
    interrupted(
      [
        {
          id: 'int-x',
          reason: 'tool_call',
          toolCallId: 'call-x',
          message: '<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script>',
          metadata: { note: '<a href="javascript:window.__pwned=1">click</a>' },
          responseSchema: {
            type: 'object',
            title: '<script>window.__pwned=1</script>',
            description: '**Markdown stays text** [click](javascript:window.__pwned=1) <img src=x onerror="window.__pwned=1">',
            properties: {
              approved: { type: 'boolean' },
              comment: { type: 'string', title: '<b onmouseover="window.__pwned=1">Comment</b>' },
            },
          },
        },
      ],
      call('call-x', '<svg onload="window.__pwned=1">', { html: '<script>window.__pwned=1</script>', href: 'javascript:window.__pwned=1' }),
    ),
  ],
  play: async ({ canvasElement }) => {
    const dialog = within(within(canvasElement).getByRole('dialog'));
    await expect(canvasElement.querySelector('script, img, svg, a, b, strong')).toBeNull();
    await expect((window as { __pwned?: number }).__pwned).toBeUndefined();
    await expect(dialog.getByText('<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script>')).toBeInTheDocument();
    await expect(dialog.getByText(/\*\*Markdown stays text\*\*/)).toBeInTheDocument();
    await expect(dialog.getByRole('textbox', { name: '<b onmouseover="window.__pwned=1">Comment</b>' })).toBeInTheDocument();
  },
};

/** The dialog with its parts, the form's place taken by what shows while the form's code loads (or failed to). */
function DialogWithoutForm({ failed = false, onRetry }: { failed?: boolean; onRetry?: () => void }) {
  const interrupts = useInterrupts();
  return (
    <Interrupt.Group>
      {interrupts.map((interrupt) => (
        <Interrupt.Root key={interrupt.id} interrupt={interrupt}>
          <Interrupt.Header />
          <Interrupt.Context />
          <FormPlaceholder
            lines={formLines(interrupt.responseSchema ?? {}, answerShape(interrupt.responseSchema))}
            failed={failed}
            {...(onRetry ? { onRetry } : {})}
          />
          <Interrupt.Errors />
          <Interrupt.Actions />
        </Interrupt.Root>
      ))}
      <Interrupt.Send />
    </Interrupt.Group>
  );
}

/**
 * The first interrupt with a schema of a page that did not preload the form:
 * the reason, message, tool and arguments show at once, "Loading the form…"
 * holds the form's place, Approve and Reject wait for the form; Cancel works.
 */
export const FormLoading: Story = {
  loaders: [refund()],
  render: (_args, { loaded }) => (
    <AgentProvider store={(loaded as Loaded).store}>
      <DialogWithoutForm />
    </AgentProvider>
  ),
  play: async ({ canvasElement }) => {
    const card = within(canvasElement).getByRole('article', { name: 'Approval needed' });
    await expect(within(card).getByText('refund_order')).toBeInTheDocument();
    await expect(within(card).getByText(/"amount": 42/)).toBeInTheDocument();
    await expect(within(card).getByText('Loading the form…')).toHaveAttribute('role', 'status');
    await expect(within(card).getByRole('button', { name: 'Approve' })).toBeDisabled();
    await expect(within(card).getByRole('button', { name: 'Reject' })).toBeDisabled();
    await expect(within(card).getByRole('button', { name: 'Close without answering' })).toBeEnabled();
  },
};

/** The form's code could not be fetched (offline, say): Try again fetches it again; Cancel still works. */
export const FormFailedToLoad: Story = {
  loaders: [refund()],
  render: (_args, { loaded }) => (
    <AgentProvider store={(loaded as Loaded).store}>
      <DialogWithoutForm failed onRetry={() => undefined} />
    </AgentProvider>
  ),
  play: async ({ canvasElement }) => {
    const card = within(canvasElement).getByRole('article', { name: 'Approval needed' });
    await expect(within(card).getByRole('alert')).toHaveTextContent('The form could not be loaded.');
    await expect(within(card).getByRole('button', { name: 'Try again' })).toBeEnabled();
    await expect(within(card).getByRole('button', { name: 'Close without answering' })).toBeEnabled();
  },
};

/** The refund approval in Simplified Chinese, with its deadline. */
const chineseApproval = (expiresAt: string) =>
  interrupted(
    [
      {
        id: '9d3c2f4e-1b7a-4f0e-8c61-5a2e7b9d0c34',
        reason: 'tool_call',
        toolCallId: '3f1e9a7c-2d4b-4c8e-9f06-7b1a5c3d2e80',
        message: '是否向客户退款 ¥298.00（订单 A-1001，茶壶到货时已破损）？',
        responseSchema: {
          type: 'object',
          required: ['approved'],
          properties: {
            approved: { type: 'boolean' },
            comment: { type: 'string', title: '备注', description: '会随你的决定一起发送给智能体。' },
          },
        },
        metadata: { 客服队列: '售后退款', 风险评分: 0.12, 标签: ['老客户', '有照片'] },
        expiresAt,
      },
    ],
    call('3f1e9a7c-2d4b-4c8e-9f06-7b1a5c3d2e80', 'refund_order', { orderId: 'A-1001', amount: 298, currency: 'CNY', reason: '到货破损' }),
  );

/** The refund approval in Simplified Chinese: the question, the tool's arguments and the form's field in Chinese. */
export const ChineseRefundApproval: Story = {
  globals: { locale: 'zh-CN' },
  loaders: [chineseApproval(inMinutes(10))],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('dialog', { name: '智能体正在等待你的回答' })).toBeInTheDocument();
    const card = within(canvas.getByRole('article', { name: '需要批准' }));
    await waitFor(() => expect(card.getByRole('textbox', { name: '备注' })).toHaveFocus(), LONG_WAIT);
    await expect(card.getByRole('timer')).toHaveTextContent(/^剩余 (10:00|\d:\d\d)$/);
    for (const name of ['批准', '拒绝', '不回答并关闭'])
      await waitFor(() => expect(card.getByRole('button', { name })).toBeEnabled(), LONG_WAIT);
    await expect(card.getByText('风险评分').nextElementSibling).toHaveTextContent('0.12');
  },
};

/** The Chinese approval after its deadline: said expired in Chinese, only 不回答并关闭 left. */
export const ChineseRefundApprovalExpired: Story = {
  globals: { locale: 'zh-CN' },
  loaders: [chineseApproval(inMinutes(-2))],
  play: async ({ canvasElement }) => {
    const card = within(canvasElement).getByRole('article', { name: '需要批准' });
    await expect(card).toHaveAttribute('data-state', 'expired');
    await expect(within(card).getByRole('timer')).toHaveTextContent('已过期');
    await expect(
      within(card)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['不回答并关闭']);
  },
};

const longReason = Array.from(
  { length: 14 },
  (_, i) =>
    `Step ${i + 1}: the order history, the carrier's scan log and the customer's photos were checked against the return policy (section 4.${i + 1}); nothing contradicts the claim.`,
).join('\n');

/**
 * An approval with a long context (a message of many lines, large arguments,
 * a long unbroken id): Approve, Reject and Close without answering stay on
 * screen, held at the bottom edge, and nothing scrolls sideways.
 */
export const LongContext: Story = {
  loaders: [
    interrupted(
      [
        {
          id: 'e7c4a1b2-9f3d-4e6a-b8c5-0d1f2a3b4c5d',
          reason: 'tool_call',
          toolCallId: 'a0b1c2d3-e4f5-4a6b-8c7d-9e0f1a2b3c4d',
          message: `Refund $1,284.50 for order A-1001-7f3e9c2b4d6a8e0f1a2b3c4d5e6f7a8b9c0d?\n${longReason}`,
          responseSchema: approvalSchema,
          metadata: {
            correlationId: 'run-8f14e45f-ceea-467f-a0a6-ad7f1c2e9b3d-6c8349cc7260ae62e3b1396831a8398f',
            signals: ['photo evidence', 'carrier damage scan', 'loyal customer since 2019'],
          },
          expiresAt: inMinutes(30),
        },
      ],
      call('a0b1c2d3-e4f5-4a6b-8c7d-9e0f1a2b3c4d', 'refund_order', {
        ...refundArgs,
        amount: 1284.5,
        lines: Array.from({ length: 12 }, (_, i) => ({ sku: `SKU-${1000 + i}-${'x'.repeat(24)}`, quantity: i + 1, unitPrice: 9.99 + i })),
      }),
    ),
  ],
  render: (args, { loaded }) => (
    <AgentProvider store={(loaded as Loaded).store}>
      <div style={{ maxHeight: 420, overflow: 'auto' }}>
        <InterruptDialog {...args} />
      </div>
    </AgentProvider>
  ),
  play: async ({ canvasElement }) => {
    const card = within(canvasElement).getByRole('article', { name: 'Approval needed' });
    const box = card.parentElement?.parentElement as HTMLElement;
    const view = box.getBoundingClientRect();
    for (const name of ['Approve', 'Reject', 'Close without answering']) {
      const button = within(card).getByRole('button', { name }).getBoundingClientRect();
      await expect(button.bottom).toBeLessThanOrEqual(view.bottom + 1);
      await expect(button.top).toBeGreaterThanOrEqual(view.top - 1);
    }
    await expect(box.scrollWidth).toBeLessThanOrEqual(box.clientWidth);
  },
};

/** Every kind of field the generated form has (a choice, a check box, a number, a text area), themed, in the dark theme. */
export const ThemedControlsDark: Story = {
  globals: { theme: 'dark' },
  loaders: [
    interrupted([
      {
        id: '2c9a6f1e-8b3d-4e7a-9c05-6d1b2a3f4e5c',
        reason: 'input_required',
        message: 'How should the replacement for order A-1001 be shipped?',
        responseSchema: {
          type: 'object',
          required: ['carrier', 'boxes'],
          properties: {
            carrier: { type: 'string', title: 'Carrier', enum: ['DHL Express', 'UPS Ground', 'Local courier'] },
            boxes: { type: 'integer', title: 'Boxes', minimum: 1, default: 1 },
            giftWrap: { type: 'boolean', title: 'Gift wrap the replacement' },
            note: { type: 'string', title: 'Note for the warehouse' },
          },
        },
      },
    ]),
  ],
  play: async ({ canvasElement }) => {
    const card = within(within(canvasElement).getByRole('article', { name: 'Input needed' }));
    await waitFor(() => expect(card.getByRole('combobox', { name: 'Carrier' })).toHaveFocus(), LONG_WAIT);
    await expect(card.getByRole('spinbutton', { name: 'Boxes' })).toHaveValue(1);
    await userEvent.click(card.getByRole('checkbox', { name: 'Gift wrap the replacement' }));
    await expect(card.getByRole('checkbox', { name: 'Gift wrap the replacement' })).toBeChecked();
    await expect(card.getByText('Fields marked * are required.')).toBeInTheDocument();
  },
};
