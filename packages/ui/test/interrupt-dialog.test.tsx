import type { AgentSource, RunAgentInput } from '@aguikit/core';
import { AgentProvider, type AgentStore, createAgentStore } from '@aguikit/react';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as React from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Interrupt, InterruptDialog } from '../src/InterruptDialog.js';
import { answerShape, reasonKind } from '../src/interruptForm.js';
import { preloadInterruptForm } from '../src/lazyChunks.js';
import { type AgentLocale, AgentLocaleProvider, en, localeValue, zhCN } from '../src/locale.js';
import { MessageList } from '../src/Messages.js';
import { RunStatus } from '../src/RunStatus.js';
import { httpError } from '../src/storybook/failures.js';
import { call, runOf, type ScriptEvent, STORY_THREAD, say, scriptedSource } from '../src/storybook/scripted.js';

type Raised = Record<string, unknown> & { id: string; reason: string };

/**
 * A store whose first run ended in `interrupts`, through the real pipeline;
 * its source records every request after that, and answers a resume with a
 * short run.
 */
async function interrupted(
  interrupts: Raised[],
  { before = [] as ScriptEvent[], now = () => Date.now(), firstResumeFails = undefined as unknown } = {},
) {
  const inner = scriptedSource([runOf(before, { outcome: { type: 'interrupt', interrupts } }), runOf(say('done', 'Done'))]);
  const requests: RunAgentInput[] = [];
  const source: AgentSource = {
    run(input, options) {
      requests.push(input);
      if (firstResumeFails !== undefined && input.resume && requests.length === 1)
        return (async function* () {
          yield* [];
          throw firstResumeFails;
        })();
      return inner.run(input, options);
    },
  };
  const store = createAgentStore({
    threadId: STORY_THREAD,
    source,
    now,
    scheduler: (flush) => {
      let live = true;
      queueMicrotask(() => live && flush());
      return () => {
        live = false;
      };
    },
  });
  await store.getState().run('Refund order A-1001');
  requests.length = 0;
  // The UI's own calls, before the store's dedupe: what the double-click tests count.
  const resume = vi.fn(store.getState().resume);
  store.setState({ resume });
  return { store, requests, resume };
}

function show(store: AgentStore, now?: () => number) {
  return render(
    <AgentProvider store={store}>
      <InterruptDialog {...(now ? { now } : {})} />
    </AgentProvider>,
  );
}

/**
 * Renders the dialog and waits for its forms: their code (rjsf, ajv) loads on demand, the first time in this file
 * from the chunk, later from the cache.
 */
async function showForms(store: AgentStore, now?: () => number) {
  const view = show(store, now);
  await waitFor(() => expect(view.container.querySelector('.agk-interrupt__form-placeholder')).toBeNull(), { timeout: 10_000 });
  // The effects of the form's arrival (its buttons enabled, focus moved to its first field) run before the test goes on.
  await act(async () => undefined);
  return view;
}

/** Lets the resume's promise and its stream settle. */
const settle = () => act(async () => new Promise<void>((resolve) => setTimeout(resolve, 0)));

const refund = { orderId: 'A-1001', amount: 42, currency: 'USD' };
const approvalSchema = {
  type: 'object',
  required: ['approved'],
  properties: { approved: { type: 'boolean' }, comment: { type: 'string', title: 'Comment' } },
};
const refundInterrupt: Raised = {
  id: 'int-refund',
  reason: 'tool_call',
  toolCallId: 'call-refund',
  message: 'Refund $42 to the customer?',
  responseSchema: approvalSchema,
};

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('InterruptDialog: a form from the responseSchema', () => {
  const schema = {
    type: 'object',
    required: ['name', 'count'],
    properties: {
      name: { type: 'string', title: 'Name', description: 'Who receives it' },
      count: { type: 'integer', title: 'Count', minimum: 1 },
    },
  };

  it('fails validation once without sending, then sends exactly one resume with the payload', async () => {
    const user = userEvent.setup();
    const { store, requests, resume } = await interrupted([
      { id: 'int-1', reason: 'input_required', message: 'Who?', responseSchema: schema },
    ]);
    await showForms(store);
    const dialog = screen.getByRole('dialog', { name: 'The agent is waiting for your answer' });

    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(within(dialog).getAllByText('This field is required.')).toHaveLength(2);
    expect(resume).not.toHaveBeenCalled();
    expect(requests).toHaveLength(0);
    expect(within(dialog).getByLabelText(/Name/)).toHaveFocus();

    await user.type(within(dialog).getByLabelText(/Name/), 'Ann');
    // Live validation after the first attempt: the fixed field's error goes as you type.
    expect(within(dialog).getAllByText('This field is required.')).toHaveLength(1);
    await user.type(within(dialog).getByLabelText(/Count/), '2');
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    // The answer has a schema: the resume loads the validator (a dynamic import) before it sends.
    await vi.waitFor(() => expect(requests).toHaveLength(1));
    await settle();

    expect(resume).toHaveBeenCalledTimes(1);
    expect(requests[0]?.resume).toEqual([{ interruptId: 'int-1', status: 'resolved', payload: { name: 'Ann', count: 2 } }]);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows the enumeration as a labelled choice and sends the chosen value', async () => {
    const user = userEvent.setup();
    const { store, requests } = await interrupted([
      {
        id: 'int-which',
        reason: 'input_required',
        message: 'Which order?',
        responseSchema: { type: 'string', enum: ['A-1001', 'A-1002'] },
      },
    ]);
    await showForms(store);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Your answer' }), 'A-1002');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await settle();
    expect(requests[0]?.resume).toEqual([{ interruptId: 'int-which', status: 'resolved', payload: 'A-1002' }]);
  });

  it('shows a default that is none of its choices as no choice made, never as the first option, and sends only a choice', async () => {
    const user = userEvent.setup();
    const { store, requests, resume } = await interrupted([
      {
        id: 'int-priority',
        reason: 'input_required',
        responseSchema: {
          type: 'object',
          properties: { priority: { type: 'string', title: 'Priority', enum: ['low', 'high'], default: 'urgent' } },
        },
      },
    ]);
    await showForms(store);
    const select = screen.getByRole('combobox', { name: 'Priority' });
    expect(select).toHaveDisplayValue('Choose…');
    expect(resume).not.toHaveBeenCalled();
    await user.selectOptions(select, 'high');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await settle();
    expect(requests[0]?.resume).toEqual([{ interruptId: 'int-priority', status: 'resolved', payload: { priority: 'high' } }]);
  });

  it('tells apart choices whose values read the same (1 and "1", null and "null"), shows an object as JSON, and sends the one chosen', async () => {
    const user = userEvent.setup();
    const { store, requests } = await interrupted([
      {
        id: 'int-same',
        reason: 'input_required',
        message: 'Which?',
        responseSchema: { type: 'object', properties: { pick: { enum: [1, '1', null, 'null', '退款', { plan: '基础' }] } } },
      },
    ]);
    await showForms(store);
    const select = screen.getByRole('combobox', { name: /pick/ });
    const labels = within(select)
      .getAllByRole('option')
      .map((o) => o.textContent);
    // Values that read alike are written as JSON, and so is an object; a value no other reads like keeps its plain text.
    expect(labels.slice(1)).toEqual(['1', '"1"', 'null', '"null"', '退款', '{"plan":"基础"}']);
    await user.selectOptions(select, '"1"');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await settle();
    expect(requests[0]?.resume).toEqual([{ interruptId: 'int-same', status: 'resolved', payload: { pick: '1' } }]);
  });

  it('gives an unknown reason the generic form and shows its metadata', async () => {
    const user = userEvent.setup();
    const { store, requests } = await interrupted([
      {
        id: 'int-budget',
        reason: 'acme:budget_check',
        message: 'This exceeds the Q4 budget.',
        metadata: { owner: 'finance', limit: { amount: 5000, currency: 'USD' } },
        responseSchema: { type: 'object', properties: { note: { type: 'string', title: 'Note' } } },
      },
    ]);
    await showForms(store);
    const card = screen.getByRole('article', { name: 'Action needed' });
    expect(card).toHaveAttribute('data-reason', 'custom');
    expect(card).toHaveAttribute('data-shape', 'form');
    expect(within(card).getByText('acme:budget_check')).toBeInTheDocument();
    // Metadata as labelled fields: keys made readable, a nested object as a list of its own, no JSON.
    expect(within(card).getByText('Owner').nextElementSibling).toHaveTextContent('finance');
    expect(within(card).getByText('Amount').nextElementSibling).toHaveTextContent('5,000');
    expect(within(card).getByText('Currency').nextElementSibling).toHaveTextContent('USD');
    expect(within(card).queryByRole('button', { name: 'Approve' })).toBeNull();

    await user.type(within(card).getByLabelText('Note'), 'ok for now');
    await user.click(within(card).getByRole('button', { name: 'Submit' }));
    await settle();
    expect(requests[0]?.resume).toEqual([{ interruptId: 'int-budget', status: 'resolved', payload: { note: 'ok for now' } }]);
  });

  it('answers an interrupt without responseSchema Yes with no payload, and No as cancelled', async () => {
    const user = userEvent.setup();
    const first = await interrupted([{ id: 'int-c', reason: 'confirmation', message: 'Send the email?' }]);
    await showForms(first.store);
    await user.click(screen.getByRole('button', { name: 'Yes' }));
    await settle();
    expect(first.requests[0]?.resume).toEqual([{ interruptId: 'int-c', status: 'resolved' }]);

    const second = await interrupted([{ id: 'int-c', reason: 'confirmation', message: 'Send the email?' }]);
    await showForms(second.store);
    await user.click(screen.getByRole('button', { name: 'No' }));
    await settle();
    expect(second.requests[0]?.resume).toEqual([{ interruptId: 'int-c', status: 'cancelled' }]);
  });

  it('renders a schema it cannot build as Close without answering only, without breaking the page', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { store } = await interrupted([
      { id: 'int-bad', reason: 'input_required', responseSchema: { type: 'object', properties: { a: { $ref: '#/definitions/nope' } } } },
    ]);
    await showForms(store);
    expect(screen.getByText(/cannot show/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Submit' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Close without answering' })).toBeEnabled();
  });
});

describe('InterruptDialog: approve, reject, cancel', () => {
  it('shows the tool and its arguments before anything is done, and Approve sends one resolved answer', async () => {
    const user = userEvent.setup();
    const { store, requests, resume } = await interrupted([refundInterrupt], { before: call('call-refund', 'refund_order', refund) });
    await showForms(store);
    const card = screen.getByRole('article', { name: 'Approval needed' });
    expect(card).toHaveAttribute('data-reason', 'tool_call');
    expect(card).toHaveAttribute('data-state', 'open');
    expect(card).toHaveAccessibleDescription('Refund $42 to the customer?');
    expect(within(card).getByText('refund_order')).toBeInTheDocument();
    expect(within(card).getByText(/"amount": 42/)).toBeInTheDocument();

    await user.click(within(card).getByRole('button', { name: 'Approve' }));
    await settle();
    expect(resume).toHaveBeenCalledTimes(1);
    expect(requests).toHaveLength(1);
    expect(requests[0]?.resume).toEqual([{ interruptId: 'int-refund', status: 'resolved', payload: { approved: true } }]);
    expect(store.getState().decisions).toMatchObject([{ interruptId: 'int-refund', toolName: 'refund_order', status: 'resolved' }]);
  });

  it('an approval the agent could not take (HTTP 503) asks again, and Retry sends it once more: one decision in the transcript', async () => {
    const user = userEvent.setup();
    const { store, requests } = await interrupted([refundInterrupt], {
      before: call('call-refund', 'refund_order', refund),
      firstResumeFails: httpError(503, 'busy'),
    });
    const view = render(
      <AgentProvider store={store}>
        <MessageList />
        <RunStatus />
        <InterruptDialog />
      </AgentProvider>,
    );
    await waitFor(() => expect(view.container.querySelector('.agk-interrupt__form-placeholder')).toBeNull(), { timeout: 10_000 });
    await act(async () => undefined);
    await user.click(within(screen.getByRole('article', { name: 'Approval needed' })).getByRole('button', { name: 'Approve' }));
    await settle();
    expect(requests).toHaveLength(1);
    // The agent never got the answer: the question is asked again, with why, and no decision is shown as made.
    await waitFor(() => expect(screen.getByRole('article', { name: 'Approval needed' })).toHaveAttribute('data-state', 'open'));
    const live = () => view.container.querySelector('.agk-runstatus__live') as HTMLElement;
    expect(live()).toHaveTextContent(/could not take the request \(HTTP 503\)/);
    expect(view.container.querySelector('[data-agk-decision]')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    await settle();
    await waitFor(() => expect(live()).toHaveTextContent('Done'));
    expect(requests).toHaveLength(2);
    expect(requests[1]?.resume).toEqual(requests[0]?.resume);
    expect(screen.queryByRole('article', { name: 'Approval needed' })).toBeNull();
    expect(view.container.querySelectorAll('[data-agk-decision="int-refund"]')).toHaveLength(1);
    expect(store.getState().decisions).toHaveLength(1);
  });

  it('sends a reject as a resolved answer with approved false and the comment, not as cancelled', async () => {
    const user = userEvent.setup();
    const { store, requests } = await interrupted([refundInterrupt], { before: call('call-refund', 'refund_order', refund) });
    await showForms(store);
    await user.type(screen.getByRole('textbox', { name: 'Comment' }), 'Outside the return window');
    await user.click(screen.getByRole('button', { name: 'Reject' }));
    await settle();
    expect(requests[0]?.resume).toEqual([
      { interruptId: 'int-refund', status: 'resolved', payload: { approved: false, comment: 'Outside the return window' } },
    ]);
  });

  it('asks for the reason when the schema requires one on a reject, and sends nothing until it is given', async () => {
    const user = userEvent.setup();
    const schema = {
      ...approvalSchema,
      if: { properties: { approved: { const: false } } },
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then, not a thenable
      then: { required: ['comment'] },
    };
    const { store, requests, resume } = await interrupted([{ ...refundInterrupt, responseSchema: schema }], {
      before: call('call-refund', 'refund_order', refund),
    });
    await showForms(store);
    await user.click(screen.getByRole('button', { name: 'Reject' }));
    await settle();
    expect(screen.getByText('This field is required.')).toBeInTheDocument();
    expect(resume).not.toHaveBeenCalled();

    await user.type(screen.getByRole('textbox', { name: /Comment/ }), 'Fraud suspected');
    await user.click(screen.getByRole('button', { name: 'Reject' }));
    await settle();
    expect(requests).toHaveLength(1);
    expect(requests[0]?.resume).toEqual([
      { interruptId: 'int-refund', status: 'resolved', payload: { approved: false, comment: 'Fraud suspected' } },
    ]);
  });

  it('never approves from Enter in a text field: only the buttons decide', async () => {
    const user = userEvent.setup();
    const { store, resume } = await interrupted([refundInterrupt], { before: call('call-refund', 'refund_order', refund) });
    await showForms(store);
    await user.type(screen.getByRole('textbox', { name: 'Comment' }), 'looks fine{Enter}');
    await settle();
    expect(resume).not.toHaveBeenCalled();
  });

  it('sends Close without answering as cancelled with no payload', async () => {
    const user = userEvent.setup();
    const { store, requests } = await interrupted([refundInterrupt], { before: call('call-refund', 'refund_order', refund) });
    await showForms(store);
    await user.type(screen.getByRole('textbox', { name: 'Comment' }), 'never mind');
    await user.click(screen.getByRole('button', { name: 'Close without answering' }));
    await settle();
    expect(requests[0]?.resume).toEqual([{ interruptId: 'int-refund', status: 'cancelled' }]);
  });
});

describe('InterruptDialog: sending once', () => {
  it('sends one resume for a double click on Approve, before the store could dedupe', async () => {
    const { store, requests, resume } = await interrupted([refundInterrupt], { before: call('call-refund', 'refund_order', refund) });
    await showForms(store);
    const approve = screen.getByRole('button', { name: 'Approve' });
    // Both clicks land before React re-renders: only the dialog's own guard stands between them.
    act(() => {
      approve.click();
      approve.click();
    });
    await settle();
    expect(resume).toHaveBeenCalledTimes(1);
    expect(requests).toHaveLength(1);
  });

  it('sends one resume for a double click on Submit', async () => {
    const { store, requests, resume } = await interrupted([
      { id: 'int-1', reason: 'input_required', responseSchema: { type: 'object', properties: { n: { type: 'string', title: 'N' } } } },
    ]);
    await showForms(store);
    const submit = screen.getByRole('button', { name: 'Submit' });
    act(() => {
      submit.click();
      submit.click();
    });
    await settle();
    expect(resume).toHaveBeenCalledTimes(1);
    expect(requests).toHaveLength(1);
  });

  it('disables every answer while a request is in flight', async () => {
    const { store } = await interrupted([refundInterrupt], { before: call('call-refund', 'refund_order', refund) });
    await showForms(store);
    act(() => store.setState({ inFlight: 'run' }));
    const card = screen.getByRole('article', { name: 'Approval needed' });
    expect(card).toHaveAttribute('data-state', 'submitting');
    for (const name of ['Approve', 'Reject', 'Close without answering']) expect(within(card).getByRole('button', { name })).toBeDisabled();
  });
});

describe('InterruptDialog: several interrupts, one resume', () => {
  const two: Raised[] = [
    { id: 'int-email', reason: 'confirmation', message: 'Email the customer?' },
    {
      id: 'int-reason',
      reason: 'input_required',
      message: 'Why is it refunded?',
      responseSchema: { type: 'object', required: ['why'], properties: { why: { type: 'string', enum: ['broken', 'late', 'other'] } } },
    },
  ];

  it('keeps each answer until all are given, then sends them together in one resume', async () => {
    const user = userEvent.setup();
    const { store, requests, resume } = await interrupted(two);
    await showForms(store);
    expect(screen.getByRole('dialog', { name: 'The agent is waiting for 2 answers' })).toBeInTheDocument();
    const send = screen.getByRole('button', { name: 'Send answers' });
    expect(send).toBeDisabled();

    const email = screen.getByRole('article', { name: 'Confirmation needed' });
    await user.click(within(email).getByRole('button', { name: 'Yes' }));
    expect(resume).not.toHaveBeenCalled();
    expect(email).toHaveAttribute('data-answer', 'resolved');
    expect(email).toHaveAttribute('data-state', 'answered');
    expect(email.querySelector('.agk-interrupt__status')).toHaveTextContent('Your answer: Yes.');
    expect(screen.getByText(/^1 of 2 answered/)).toBeInTheDocument();
    expect(send).toBeDisabled();

    const why = screen.getByRole('article', { name: 'Input needed' });
    // Focus moved on to the next interrupt that has no answer.
    expect(within(why).getByRole('combobox', { name: /why/ })).toHaveFocus();
    await user.selectOptions(within(why).getByRole('combobox', { name: /why/ }), 'late');
    await user.click(within(why).getByRole('button', { name: 'Save answer' }));
    expect(resume).not.toHaveBeenCalled();
    expect(send).toBeEnabled();
    expect(send).toHaveFocus();

    await user.dblClick(send);
    await settle();
    expect(resume).toHaveBeenCalledTimes(1);
    expect(requests).toHaveLength(1);
    expect(requests[0]?.resume).toEqual([
      { interruptId: 'int-email', status: 'resolved' },
      { interruptId: 'int-reason', status: 'resolved', payload: { why: 'late' } },
    ]);
  });

  it('lets an answer be changed before sending, and sends a cancel among resolved answers', async () => {
    const user = userEvent.setup();
    const { store, requests } = await interrupted(two);
    await showForms(store);
    const email = screen.getByRole('article', { name: 'Confirmation needed' });
    await user.click(within(email).getByRole('button', { name: 'Yes' }));
    await user.click(within(email).getByRole('button', { name: 'Change answer' }));
    expect(email).toHaveAttribute('data-answer', 'none');
    await user.click(within(email).getByRole('button', { name: 'No' }));
    const why = screen.getByRole('article', { name: 'Input needed' });
    await user.selectOptions(within(why).getByRole('combobox', { name: /why/ }), 'broken');
    await user.click(within(why).getByRole('button', { name: 'Save answer' }));
    await user.click(screen.getByRole('button', { name: 'Send answers' }));
    await settle();
    expect(requests[0]?.resume).toEqual([
      { interruptId: 'int-email', status: 'cancelled' },
      { interruptId: 'int-reason', status: 'resolved', payload: { why: 'broken' } },
    ]);
  });
});

describe('InterruptDialog: expiry', () => {
  const start = Date.parse('2026-11-30T12:00:00Z');

  async function expiring(seconds: number, interrupts: Raised[] = [refundInterrupt]) {
    const expiresAt = new Date(start + seconds * 1000).toISOString();
    const made = await interrupted(
      interrupts.map((it) => ({ ...it, expiresAt })),
      { before: call('call-refund', 'refund_order', refund) },
    );
    // The form's code is there before the clock is faked: the dialog renders with its form at once (see showForms).
    await preloadInterruptForm();
    vi.useFakeTimers({ now: start });
    return made;
  }

  it('counts down to an expiresAt written without an offset as a UTC time, in a browser in another time zone', async () => {
    const zone = process.env.TZ;
    process.env.TZ = 'Asia/Shanghai';
    try {
      const made = await interrupted([{ ...refundInterrupt, expiresAt: new Date(start + 90_000).toISOString().replace('Z', '') }], {
        before: call('call-refund', 'refund_order', refund),
      });
      await preloadInterruptForm();
      vi.useFakeTimers({ now: start });
      show(made.store);
      const card = screen.getByRole('article', { name: 'Approval needed' });
      expect(within(card).getByRole('timer')).toHaveTextContent('Expires in 1:30');
      expect(card).not.toHaveAttribute('data-state', 'expired');
    } finally {
      process.env.TZ = zone;
    }
  });

  it('counts down every second and turns into Close without answering only at expiry; a resolved answer cannot be sent', async () => {
    const { store, requests, resume } = await expiring(3);
    const { container } = show(store);
    const card = screen.getByRole('article', { name: 'Approval needed' });
    expect(within(card).getByRole('timer')).toHaveTextContent('Expires in 0:03');
    act(() => vi.advanceTimersByTime(1000));
    expect(within(card).getByRole('timer')).toHaveTextContent('Expires in 0:02');
    act(() => vi.advanceTimersByTime(2000));

    expect(card).toHaveAttribute('data-state', 'expired');
    expect(within(card).getByRole('timer')).toHaveTextContent('Expired');
    expect(card.querySelector('.agk-interrupt__status')).toHaveTextContent(/^Expired at .+/);
    expect(card.querySelector('.agk-interrupt__why')).toHaveTextContent(/no longer be answered, only closed/);
    expect(within(card).queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(within(card).queryByRole('button', { name: 'Reject' })).toBeNull();
    expect(
      within(card)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Close without answering']);
    expect(within(card).getByRole('textbox', { name: 'Comment' })).toBeDisabled();

    // A submit of the form by other means sends no resolved answer either.
    const form = container.querySelector('form');
    if (!form) throw new Error('no form');
    fireEvent.submit(form);
    await act(async () => vi.advanceTimersByTimeAsync(10));
    expect(resume).not.toHaveBeenCalled();

    fireEvent.click(within(card).getByRole('button', { name: 'Close without answering' }));
    await act(async () => vi.advanceTimersByTimeAsync(10));
    expect(resume).toHaveBeenCalledTimes(1);
    expect(requests[0]?.resume).toEqual([{ interruptId: 'int-refund', status: 'cancelled' }]);
  });

  it('drops a kept resolved answer when its interrupt expires before the answers are sent', async () => {
    const second: Raised = { id: 'int-note', reason: 'confirmation', message: 'Notify the customer?' };
    const { store, resume } = await expiring(5, [refundInterrupt, second]);
    show(store);
    const card = screen.getByRole('article', { name: 'Approval needed' });
    fireEvent.click(within(card).getByRole('button', { name: 'Approve' }));
    await act(async () => vi.advanceTimersByTimeAsync(0));
    expect(card).toHaveAttribute('data-answer', 'resolved');
    fireEvent.click(screen.getByRole('button', { name: 'Yes' }));
    expect(screen.getByRole('button', { name: 'Send answers' })).toBeEnabled();

    act(() => vi.advanceTimersByTime(5000));
    expect(card).toHaveAttribute('data-state', 'expired');
    expect(card).toHaveAttribute('data-answer', 'none');
    expect(screen.getByRole('button', { name: 'Send answers' })).toBeDisabled();
    expect(resume).not.toHaveBeenCalled();
  });

  it.each([
    ['en', en, 'Expires in 30 days 00:00:00', 'Expires in 29 days 23:59:59'],
    ['zh-CN', zhCN, '剩余 30天 00:00:00', '剩余 29天 23:59:59'],
  ])('counts a deadline days away in days, in %s, not in hundreds of hours', async (_lang, locale, first, next) => {
    const { store } = await expiring(30 * 86_400);
    render(
      <AgentLocaleProvider locale={locale}>
        <AgentProvider store={store}>
          <InterruptDialog />
        </AgentProvider>
      </AgentLocaleProvider>,
    );
    expect(screen.getByRole('timer')).toHaveTextContent(first);
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.getByRole('timer')).toHaveTextContent(next);
  });

  it.each([
    ['three days before it was shown', -3 * 86_400, 0, 'dateTime'],
    ['while it was shown', 3, 3000, 'time'],
  ] as const)('says when a request that expired %s expired: with its date when that was not today', async (_when, seconds, wait, form) => {
    const { store } = await expiring(seconds);
    show(store);
    act(() => vi.advanceTimersByTime(wait));
    const card = screen.getByRole('article', { name: 'Approval needed' });
    const time = localeValue(en).format[form](start + seconds * 1000);
    // Held with Close, in short; the countdown's announcement says the whole of it, at the same time.
    expect(card.querySelector('.agk-interrupt__status')?.textContent).toBe(en.messages.interrupt.expiredHeldAt(time));
    const said = en.messages.interrupt.expiredAt(time);
    const where = within(card)
      .getAllByText(said)
      .map((el) => el.getAttribute('aria-live') ?? 'status line');
    expect(where).toEqual(['polite']);
  });

  it('clears its timer on unmount', async () => {
    const { store } = await expiring(60);
    const view = show(store);
    act(() => vi.advanceTimersByTime(2500));
    expect(screen.getByRole('timer')).toHaveTextContent('Expires in 0:58');
    view.unmount();
    // A countdown still ticking would be an interval that runs again and again.
    act(() => vi.runOnlyPendingTimers());
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('InterruptDialog: schemas built to mislead the form', () => {
  it("a type JSON Schema does not know makes the question unanswerable, said in the locale's words, never rendering the schema's text as Markdown", async () => {
    const { store } = await interrupted([
      {
        id: 'int-odd',
        reason: 'input_required',
        responseSchema: {
          type: 'object',
          properties: {
            f: { type: '![t](https://attacker.example/pixel.png?leak=1) [Verify your account](https://evil.example/login)' },
            'x` ![p](https://attacker.example/p2.png) `': { type: 'nonsense' },
          },
        },
      },
    ]);
    const { container } = await showForms(store);
    expect(container.querySelector('img, a')).toBeNull();
    // The schema's `type` is not shown at all; a property's name is a label, as text.
    expect(container.textContent).not.toMatch(/pixel\.png|evil\.example/);
    // No answer to it would pass the resume's check (its schema does not compile): the form asks for none.
    expect(container.textContent).toContain(
      'The agent asked for an answer in a shape this form cannot show. You can only close it without answering.',
    );
    expect(screen.queryByRole('button', { name: 'Submit' })).toBeNull();
  });

  it('a choice whose value reads "__proto__" is only text: the form is shown', async () => {
    const { store } = await interrupted([
      {
        id: 'int-enum',
        reason: 'input_required',
        responseSchema: { type: 'object', properties: { key: { type: 'string', enum: ['__proto__', 'a'] } } },
      },
    ]);
    await showForms(store);
    expect(screen.getByRole('button', { name: 'Submit' })).toBeEnabled();
  });

  it('a property named __proto__ (no form can hold it) leaves Close without answering only', async () => {
    const { store } = await interrupted([
      {
        id: 'int-proto',
        reason: 'input_required',
        responseSchema: JSON.parse('{"type":"object","required":["__proto__"],"properties":{"__proto__":{"type":"string"}}}') as Record<
          string,
          unknown
        >,
      },
    ]);
    await showForms(store);
    expect(screen.getByText(/cannot show/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Submit' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Close without answering' })).toBeEnabled();
  });

  it.each([
    ['at the top', { type: 'object', required: ['name', 'ticket'], properties: { name: { type: 'string', title: 'Name' } } }],
    [
      'in a nested object',
      {
        type: 'object',
        properties: { contact: { type: 'object', required: ['email'], properties: { phone: { type: 'string' } } } },
      },
    ],
    [
      'in every option of a oneOf',
      { type: 'object', oneOf: [{ required: ['email'] }, { required: ['phone'] }], properties: { name: { type: 'string' } } },
    ],
  ])(
    'a required key the schema never defines (%s: no field can give it) leaves Close without answering only',
    async (_where, responseSchema) => {
      const { store } = await interrupted([{ id: 'int-undefined', reason: 'input_required', responseSchema }]);
      await showForms(store);
      expect(screen.getByText(/cannot show/)).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Submit' })).toBeNull();
      expect(screen.getByRole('button', { name: 'Close without answering' })).toBeEnabled();
    },
  );

  it.each([
    ['by the object', { type: 'object', required: ['email'], properties: { email: { type: 'string' } } }],
    [
      'by the object around options that require it',
      {
        type: 'object',
        properties: { email: { type: 'string' }, phone: { type: 'string' } },
        anyOf: [{ required: ['email'] }, { required: ['phone'] }],
      },
    ],
    [
      'by one option of a oneOf',
      { type: 'object', oneOf: [{ required: ['email'] }, { required: ['phone'], properties: { phone: { type: 'string' } } }] },
    ],
    ['by a member of allOf', { type: 'object', allOf: [{ properties: { email: { type: 'string' } } }, { required: ['email'] }] }],
    [
      'by a $ref',
      {
        type: 'object',
        $defs: { C: { type: 'object', properties: { email: { type: 'string' } } } },
        allOf: [{ $ref: '#/$defs/C' }],
        required: ['email'],
      },
    ],
  ])('a required key defined %s is asked for', async (_where, responseSchema) => {
    const { store } = await interrupted([{ id: 'int-defined', reason: 'input_required', responseSchema }]);
    await showForms(store);
    expect(screen.queryByText(/cannot show/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Submit' })).toBeEnabled();
  });

  /** A field of the form by its label: a text box, or a number's spin button. */
  const fieldNamed = (name: string) => screen.queryByRole('textbox', { name }) ?? screen.getByRole('spinbutton', { name });

  it.each<[string, Record<string, unknown>, [string, string][], Record<string, unknown>]>([
    [
      'a definition that only adds `required`, mixed in through allOf with the field beside it',
      {
        type: 'object',
        $defs: { HasId: { required: ['id'] } },
        allOf: [{ $ref: '#/$defs/HasId' }, { properties: { id: { type: 'string', title: 'ID' } } }],
      },
      [['ID', 'A-7']],
      { id: 'A-7' },
    ],
    [
      'a definition nothing uses, which requires a key it does not define',
      {
        type: 'object',
        definitions: { Unused: { type: 'object', required: ['ticket'] } },
        required: ['name'],
        properties: { name: { type: 'string', title: 'Name' } },
      },
      [['Name', 'Ann']],
      { name: 'Ann' },
    ],
    [
      'a key required at the top and defined in then and else',
      {
        type: 'object',
        required: ['kind', 'detail'],
        properties: { kind: { type: 'string', title: 'Kind', enum: ['refund', 'replace'] } },
        if: { properties: { kind: { const: 'refund' } } },
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then, not a thenable
        then: { properties: { detail: { type: 'number', title: 'Amount' } } },
        else: { properties: { detail: { type: 'string', title: 'Item' } } },
      },
      [
        ['Kind', 'replace'],
        ['Item', 'Blue mug'],
      ],
      { kind: 'replace', detail: 'Blue mug' },
    ],
    [
      'a key required at the top and defined by dependencies',
      {
        type: 'object',
        required: ['name', 'email'],
        properties: { name: { type: 'string', title: 'Name' } },
        dependencies: { name: { properties: { email: { type: 'string', title: 'Email' } } } },
      },
      [
        ['Name', 'Ann'],
        ['Email', 'ann@example.com'],
      ],
      { name: 'Ann', email: 'ann@example.com' },
    ],
  ])('%s: the form is shown and its answer is sent', async (_case, responseSchema, fill, payload) => {
    const user = userEvent.setup();
    const { store, requests } = await interrupted([{ id: 'int-given', reason: 'input_required', responseSchema }]);
    await showForms(store);
    expect(screen.queryByText(/cannot show/)).toBeNull();
    for (const [label, value] of fill) {
      const choice = screen.queryByRole('combobox', { name: label });
      if (choice) await user.selectOptions(choice, value);
      else await user.type(fieldNamed(label), value);
    }
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await settle();
    expect(requests[0]?.resume).toEqual([{ interruptId: 'int-given', status: 'resolved', payload }]);
  });

  it('a key required at the top and defined by dependentSchemas (2020-12) is not taken for one defined nowhere: the form is shown', async () => {
    // rjsf 6 draws no field of a dependentSchemas branch (only of `dependencies`), but the check is only sure of a key defined nowhere.
    const { store } = await interrupted([
      {
        id: 'int-dependent',
        reason: 'input_required',
        responseSchema: {
          $schema: 'https://json-schema.org/draft/2020-12/schema',
          type: 'object',
          required: ['name', 'email'],
          properties: { name: { type: 'string', title: 'Name' } },
          dependentSchemas: { name: { properties: { email: { type: 'string', title: 'Email' } } } },
        },
      },
    ]);
    await showForms(store);
    expect(screen.queryByText(/cannot show/)).toBeNull();
    expect(screen.getByRole('textbox', { name: 'Name' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Submit' })).toBeEnabled();
  });

  it.each([
    [
      'beside definitions of its own',
      {
        type: 'object',
        $defs: { Name: { type: 'string' } },
        required: ['name', 'ticket'],
        properties: { name: { $ref: '#/$defs/Name', title: 'Name' } },
      },
    ],
    [
      'in a nested object beside a condition on another field',
      {
        type: 'object',
        properties: {
          kind: { type: 'string' },
          contact: { type: 'object', required: ['email'], properties: { phone: { type: 'string' } } },
        },
        if: { properties: { kind: { const: 'a' } } },
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then, not a thenable
        then: { required: ['kind'] },
      },
    ],
  ])('a required key defined nowhere at all (%s) still leaves Close without answering only', async (_where, responseSchema) => {
    const { store } = await interrupted([{ id: 'int-nowhere', reason: 'input_required', responseSchema }]);
    await showForms(store);
    expect(screen.getByText(/cannot show/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Submit' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Close without answering' })).toBeEnabled();
  });

  it('a small schema whose $refs expand without bound (a schema bomb) is not drawn: Close without answering only', async () => {
    const definitions: Record<string, unknown> = { d0: { type: 'string' } };
    for (let i = 1; i <= 10; i++) {
      const before = { $ref: `#/definitions/d${i - 1}` };
      definitions[`d${i}`] = { anyOf: [before, { allOf: [before, before] }] };
    }
    const { store } = await interrupted([
      {
        id: 'int-bomb',
        reason: 'input_required',
        responseSchema: { type: 'object', definitions, properties: { note: { $ref: '#/definitions/d10' } }, required: ['note'] },
      },
    ]);
    await showForms(store);
    expect(screen.getByText(/cannot show/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Submit' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Close without answering' })).toBeEnabled();
  });

  it.each([
    ['2020-12', 'https://json-schema.org/draft/2020-12/schema'],
    ['2019-09', 'https://json-schema.org/draft/2019-09/schema'],
  ])('a responseSchema of JSON Schema %s (what zod 4 writes) can be answered', async (_draft, $schema) => {
    const user = userEvent.setup();
    const { store, requests } = await interrupted([
      {
        id: 'int-2020',
        reason: 'input_required',
        responseSchema: {
          $schema,
          type: 'object',
          properties: { name: { type: 'string', title: 'Name' } },
          required: ['name'],
          additionalProperties: false,
        },
      },
    ]);
    await showForms(store);
    await user.type(screen.getByLabelText(/Name/), 'Ann');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await settle();
    expect(screen.queryByText(/needs attention/)).toBeNull();
    expect(requests.map((r) => r.resume)).toEqual([[{ interruptId: 'int-2020', status: 'resolved', payload: { name: 'Ann' } }]]);
  });

  it('a required field named after a member every object inherits (toString, constructor) is required all the same', async () => {
    const user = userEvent.setup();
    const { store, resume } = await interrupted([
      {
        id: 'int-inherited',
        reason: 'input_required',
        responseSchema: {
          type: 'object',
          required: ['toString', 'constructor'],
          properties: { toString: { type: 'string', title: 'Label' }, constructor: { type: 'string', title: 'Maker' } },
        },
      },
    ]);
    await showForms(store);
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await settle();
    expect(resume).not.toHaveBeenCalled();
    expect(screen.getAllByText('This field is required.')).toHaveLength(2);
  });

  it('a language switched after a failed submit re-words the errors and their summary, focus left where it is', async () => {
    const user = userEvent.setup();
    const { store } = await interrupted([
      {
        id: 'int-lang',
        reason: 'input_required',
        responseSchema: {
          type: 'object',
          required: ['name'],
          properties: { name: { type: 'string', title: 'Name' }, note: { type: 'string' } },
        },
      },
    ]);
    let setLocale: (locale: AgentLocale) => void = () => {};
    function App() {
      const [locale, set] = React.useState(en);
      setLocale = set;
      return (
        <AgentLocaleProvider locale={locale}>
          <AgentProvider store={store}>
            <InterruptDialog />
          </AgentProvider>
        </AgentLocaleProvider>
      );
    }
    const view = render(<App />);
    await waitFor(() => expect(view.container.querySelector('.agk-interrupt__form-placeholder')).toBeNull(), { timeout: 10_000 });
    await act(async () => undefined);
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('This field is required.')).toBeInTheDocument();
    const note = view.container.querySelector<HTMLElement>('textarea, input[id$="note"]');
    note?.focus();
    await act(async () => setLocale(zhCN));
    await settle();
    expect(screen.getByRole('button', { name: '提交' })).toBeInTheDocument();
    expect(view.container.textContent).not.toContain('This field is required.');
    expect(view.container.textContent).not.toContain('needs attention');
    expect(view.container.textContent).toContain(zhCN.messages.interrupt.errors.required);
    expect(document.activeElement).toBe(note);
  });

  it('an error of the whole answer, not of one field, gets a summary that reads as a sentence, in the locale', async () => {
    const user = userEvent.setup();
    const { store, resume } = await interrupted([
      {
        id: 'int-any',
        reason: 'input_required',
        responseSchema: { type: 'object', minProperties: 1, properties: { email: { type: 'string' }, phone: { type: 'string' } } },
      },
    ]);
    await showForms(store);
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    const summary = await screen.findByRole('alert');
    expect(summary.textContent).not.toMatch(/: \.$/);
    expect(summary).toHaveTextContent('The answer needs attention: Fill in at least one field.');
    expect(resume).not.toHaveBeenCalled();
  });
});

describe('InterruptDialog: refusals from the store', () => {
  it('shows a PAYLOAD_INVALID refusal next to the interrupt it concerns', async () => {
    const { store } = await interrupted([refundInterrupt, { id: 'int-note', reason: 'confirmation', message: 'Notify the customer?' }], {
      before: call('call-refund', 'refund_order', refund),
    });
    await showForms(store);
    await act(async () => {
      await store.getState().resume([
        { interruptId: 'int-refund', status: 'resolved', payload: { approved: 'yes' } },
        { interruptId: 'int-note', status: 'cancelled' },
      ]);
    });
    const card = screen.getByRole('article', { name: 'Approval needed' });
    const alert = within(card).getByRole('alert');
    // In the locale's words, then what the store found exactly (which field, what the schema wanted).
    expect(alert).toHaveTextContent('The answer does not match what the agent asked for.');
    expect(alert.querySelector('[lang="en"]')).toHaveTextContent(/approved must be boolean/);
    expect(alert.querySelector('[data-code="PAYLOAD_INVALID"]')).not.toBeNull();
    expect(within(screen.getByRole('article', { name: 'Confirmation needed' })).queryByRole('alert')).toBeNull();
  });

  it('shows a refusal no open interrupt holds in the footer, in the locale, with no English detail', async () => {
    const { store } = await interrupted([refundInterrupt], { before: call('call-refund', 'refund_order', refund) });
    await showForms(store);
    await act(async () => {
      await store.getState().resume([
        { interruptId: 'int-refund', status: 'cancelled' },
        { interruptId: 'int-gone', status: 'resolved', payload: {} },
      ]);
    });
    const footer = screen.getByRole('alert', { name: '' }).closest('footer');
    expect(footer).not.toBeNull();
    const item = (footer as HTMLElement).querySelector('li[data-code="UNKNOWN_INTERRUPT"]');
    expect(item).toHaveTextContent('This question is no longer open.');
    expect(item?.querySelector('[lang="en"]')).toBeNull();
    expect(within(screen.getByRole('article', { name: 'Approval needed' })).queryByRole('alert')).toBeNull();
  });

  it('turns an interrupt the store found expired into Close without answering only', async () => {
    const user = userEvent.setup();
    const later = Date.now() + 10 * 60_000;
    // The store's clock is ahead of the one the dialog was given: the store has the last word.
    const { store } = await interrupted([{ ...refundInterrupt, expiresAt: new Date(Date.now() + 60_000).toISOString() }], {
      before: call('call-refund', 'refund_order', refund),
      now: () => later,
    });
    await showForms(store, Date.now);
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    await settle();
    const card = screen.getByRole('article', { name: 'Approval needed' });
    expect(within(card).getByRole('alert').querySelector('[data-code="EXPIRED"]')).not.toBeNull();
    expect(card).toHaveAttribute('data-state', 'expired');
    expect(
      within(card)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Close without answering']);
  });
});

describe('InterruptDialog: agent text is text', () => {
  it('renders hostile strings in the message, schema and tool arguments as text only', async () => {
    const hostile = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script>';
    const { store } = await interrupted(
      [
        {
          ...refundInterrupt,
          message: hostile,
          metadata: { note: '<b onmouseover="window.__pwned=1">x</b>' },
          responseSchema: {
            type: 'object',
            title: '<script>window.__pwned=1</script>',
            description: '**bold** [click](javascript:window.__pwned=1) <img src=x onerror="window.__pwned=1">',
            properties: {
              approved: { type: 'boolean' },
              comment: { type: 'string', title: '<img src=x onerror=alert(1)>', description: '[x](javascript:alert(1))' },
            },
          },
        },
      ],
      { before: call('call-refund', '<svg onload=alert(1)>', { html: '<script>alert(1)</script>', href: 'javascript:alert(1)' }) },
    );
    const { container } = await showForms(store);
    expect(container.querySelector('script, img, svg, a, b, strong')).toBeNull();
    expect((window as { __pwned?: number }).__pwned).toBeUndefined();
    expect(screen.getByText(hostile)).toBeInTheDocument();
    expect(screen.getByText(/\*\*bold\*\* \[click\]\(javascript:/)).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: '<img src=x onerror=alert(1)>' })).toBeInTheDocument();
    expect(screen.getByText('<svg onload=alert(1)>')).toBeInTheDocument();
  });
});

describe('InterruptDialog: focus and composition', () => {
  it('moves focus to the first field of an interrupt when it appears', async () => {
    const { store } = await interrupted([refundInterrupt], { before: call('call-refund', 'refund_order', refund) });
    await showForms(store);
    expect(screen.getByRole('textbox', { name: 'Comment' })).toHaveFocus();
  });

  it('focuses the interrupt itself, not a button, when it has no field', async () => {
    const { store } = await interrupted([{ id: 'int-c', reason: 'confirmation', message: 'Send it?' }]);
    await showForms(store);
    expect(screen.getByRole('article', { name: 'Confirmation needed' })).toHaveFocus();
  });

  it('renders no region while no interrupt is open, only its empty live region', () => {
    const store = createAgentStore({ source: scriptedSource([]) });
    const { container } = show(store);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(container).toHaveTextContent('');
    expect(container.querySelectorAll('[aria-live]')).toHaveLength(1);
  });

  it('says which part is used outside its parent', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { store } = await interrupted([refundInterrupt]);
    expect(() =>
      render(
        <AgentProvider store={store}>
          <Interrupt.Root interrupt={{ id: 'x', reason: 'confirmation' }} />
        </AgentProvider>,
      ),
    ).toThrow('Interrupt.Root must be used within <Interrupt.Group>.');
  });
});

describe('interrupt form helpers', () => {
  it('offers Approve / Reject only for a boolean approved property', () => {
    expect(answerShape(undefined)).toBe('confirm');
    expect(answerShape(approvalSchema)).toBe('approval');
    expect(answerShape({ type: 'object', properties: { approved: { type: 'string' } } })).toBe('form');
    expect(reasonKind('risk:manual_review')).toBe('custom');
    expect(reasonKind('tool_call')).toBe('tool_call');
  });
});

describe('InterruptDialog: the clock', () => {
  it("measures expiry with the store's clock by default", async () => {
    const later = Date.now() + 10 * 60_000;
    const { store } = await interrupted([{ ...refundInterrupt, expiresAt: new Date(Date.now() + 60_000).toISOString() }], {
      before: call('call-refund', 'refund_order', refund),
      now: () => later,
    });
    await showForms(store);
    const card = screen.getByRole('article', { name: 'Approval needed' });
    expect(card).toHaveAttribute('data-state', 'expired');
    expect(within(card).queryByRole('button', { name: 'Approve' })).toBeNull();
  });
});

// What the form takes, the resume check in core takes too: an answer the form lets through is never refused after it
// was sent, which would leave the user nothing to do but close the question unanswered.
describe('the form and the resume check agree', () => {
  it('a price with multipleOf 0.01 (19.99) that the form accepts is sent', async () => {
    const user = userEvent.setup();
    const { store, requests } = await interrupted([
      {
        id: 'int-price',
        reason: 'input_required',
        message: 'Price?',
        responseSchema: {
          type: 'object',
          required: ['price'],
          properties: { price: { type: 'number', title: 'Price', multipleOf: 0.01 } },
        },
      },
    ]);
    const view = await showForms(store);
    await user.type(screen.getByLabelText(/Price/), '19.99');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await settle();
    await settle();
    // The form shows no error of its own:
    expect(view.container.querySelector('.agk-field__errors')).toBeNull();
    expect(requests[0]?.resume).toEqual([{ interruptId: 'int-price', status: 'resolved', payload: { price: 19.99 } }]);
  });

  it('a second interrupt reusing the same $id with a different enum accepts its own choices', async () => {
    const user = userEvent.setup();
    const schemaFor = (orders: string[]) => ({
      $id: 'https://agent.example/answer.json',
      type: 'object',
      required: ['order'],
      properties: { order: { type: 'string', title: 'Order', enum: orders } },
    });
    const first = await interrupted([
      { id: 'int-a', reason: 'input_required', message: 'Which?', responseSchema: schemaFor(['A-1', 'A-2']) },
    ]);
    await showForms(first.store);
    await user.selectOptions(screen.getByRole('combobox', { name: /Order/ }), 'A-2');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await settle();
    await settle();
    expect(first.requests[0]?.resume).toEqual([{ interruptId: 'int-a', status: 'resolved', payload: { order: 'A-2' } }]);
    cleanup();

    const second = await interrupted([
      { id: 'int-b', reason: 'input_required', message: 'Which?', responseSchema: schemaFor(['B-7', 'B-8']) },
    ]);
    const view = await showForms(second.store);
    await user.selectOptions(screen.getByRole('combobox', { name: /Order/ }), 'B-8');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await settle();
    await settle();
    expect(view.container.querySelector('.agk-field__errors')?.textContent ?? '').toBe('');
    expect(second.requests[0]?.resume).toEqual([{ interruptId: 'int-b', status: 'resolved', payload: { order: 'B-8' } }]);
  });
});

describe('a schema the resume check cannot compile', () => {
  it.each([
    [
      'a draft-04 $schema',
      { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object', properties: { name: { type: 'string', title: 'Name' } } },
    ],
    ['a misspelt type', { type: 'object', properties: { name: { type: 'string', title: 'Name' }, n: { type: 'numbr', title: 'N' } } }],
  ])('(%s) is said to be unanswerable, asks for nothing, and closing it still answers the agent', async (_what, responseSchema) => {
    const user = userEvent.setup();
    const { store, requests } = await interrupted([{ id: 'int-x', reason: 'input_required', message: 'Q?', responseSchema }]);
    const view = await showForms(store);
    expect(view.container.textContent).toContain('You can only close it without answering');
    expect(screen.queryByLabelText(/Name/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Submit' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Close without answering' }));
    await settle();
    expect(requests[0]?.resume).toEqual([{ interruptId: 'int-x', status: 'cancelled' }]);
  });
});
