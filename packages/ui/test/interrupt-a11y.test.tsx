import type { AgentSource, RunAgentInput } from '@aguikit/core';
import { AgentProvider, type AgentStore, createAgentStore, useAgentSelector } from '@aguikit/react';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as React from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Interrupt, InterruptDialog } from '../src/InterruptDialog.js';
import { ANNOUNCEMENT_CLEAR_MS } from '../src/InterruptGroup.js';
import { preloadInterruptForm } from '../src/lazyChunks.js';
import { AgentLocaleProvider, defineLocale, zhCN } from '../src/locale.js';
import { call, runOf, type ScriptEvent, STORY_THREAD, say, scriptedSource } from '../src/storybook/scripted.js';

type Raised = Record<string, unknown> & { id: string; reason: string };

/** A store whose first run ended in `interrupts`; its source records every request after that. */
async function interrupted(interrupts: Raised[], { before = [] as ScriptEvent[], now = () => Date.now() } = {}) {
  const inner = scriptedSource([runOf(before, { outcome: { type: 'interrupt', interrupts } }), runOf(say('done', 'Done'))]);
  const requests: RunAgentInput[] = [];
  const source: AgentSource = {
    run(input, options) {
      requests.push(input);
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
  return { store, requests };
}

/** What the message list renders for each decision: the line focus goes to when there is no composer. */
function DecisionLines() {
  const decisions = useAgentSelector((s) => s.decisions);
  return (
    <>
      {decisions.map((d) => (
        <p key={d.interruptId} data-agk-decision={d.interruptId} tabIndex={-1}>
          Decided {d.status}
        </p>
      ))}
    </>
  );
}

/** A chat page around the dialog: the chat region, optionally the decision lines and a composer. */
function Page({ store, composer = true, lines = false }: { store: AgentStore; composer?: boolean; lines?: boolean }) {
  return (
    <AgentProvider store={store}>
      <section className="agk-chat" tabIndex={-1} aria-label="Agent chat">
        {lines ? <DecisionLines /> : null}
        <InterruptDialog />
        {composer ? (
          <form className="agk-composer">
            <textarea className="agk-composer__input" aria-label="Message" />
          </form>
        ) : null}
      </section>
    </AgentProvider>
  );
}

async function formsLoaded(container: HTMLElement) {
  await waitFor(() => expect(container.querySelector('.agk-interrupt__form-placeholder')).toBeNull(), { timeout: 10_000 });
  await act(async () => undefined);
}

const settle = () => act(async () => new Promise<void>((resolve) => setTimeout(resolve, 0)));

/** Everything the polite and assertive live regions of the page say, as it is said. */
function recordAnnouncements() {
  const said: string[] = [];
  const read = () => {
    for (const region of document.querySelectorAll('[aria-live], [role="status"], [role="alert"]')) {
      const text = region.textContent?.trim() ?? '';
      if (text && said.at(-1) !== text && !said.includes(text)) said.push(text);
    }
  };
  const observer = new MutationObserver(read);
  observer.observe(document.body, { subtree: true, childList: true, characterData: true });
  return { said, stop: () => observer.disconnect(), read };
}

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
const escalation: Raised = {
  id: 'int-review',
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
};
const two: Raised[] = [
  { id: 'int-confirm', reason: 'confirmation', message: 'Cancel the Pro subscription at the end of this month?' },
  {
    id: 'int-reason',
    reason: 'input_required',
    message: 'Why are you leaving? (optional)',
    responseSchema: { type: 'object', properties: { reason: { type: 'string', title: 'Reason', enum: ['too expensive', 'other'] } } },
  },
];

afterEach(() => {
  vi.useRealTimers();
  document.body.innerHTML = '';
});

describe('interrupt words', () => {
  it('answers a yes/no question with Yes and No, never Confirm and Cancel', async () => {
    const { store, requests } = await interrupted([two[0] as Raised]);
    const { container } = render(<Page store={store} />);
    await formsLoaded(container);
    const card = screen.getByRole('article', { name: 'Confirmation needed' });
    expect(
      within(card)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Yes', 'No']);
    fireEvent.click(within(card).getByRole('button', { name: 'Yes' }));
    await settle();
    expect(requests[0]?.resume).toEqual([{ interruptId: 'int-confirm', status: 'resolved' }]);
  });

  it('names the dismiss action so it cannot be read as the answer', async () => {
    const { store } = await interrupted([refundInterrupt], { before: call('call-refund', 'refund_order', refund) });
    const { container } = render(<Page store={store} />);
    await formsLoaded(container);
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Close without answering' })).toBeEnabled();
  });

  it('saves (not submits) each answer when several go together, and says what each answer was', async () => {
    const user = userEvent.setup();
    const { store } = await interrupted(two);
    const { container } = render(<Page store={store} />);
    await formsLoaded(container);
    expect(screen.queryByRole('button', { name: 'Submit' })).toBeNull();
    const reason = screen.getByRole('article', { name: 'Input needed' });
    await user.selectOptions(within(reason).getByRole('combobox', { name: 'Reason' }), 'other');
    await user.click(within(reason).getByRole('button', { name: 'Save answer' }));
    expect(reason).toHaveAttribute('data-state', 'answered');
    expect(within(reason).getByText(/^Your answer:/)).toHaveTextContent('Your answer: Reason: other.');
    const confirm = screen.getByRole('article', { name: 'Confirmation needed' });
    await user.click(within(confirm).getByRole('button', { name: 'Yes' }));
    expect(within(confirm).getByText(/^Your answer:/)).toHaveTextContent('Your answer: Yes.');
  });

  it('shows metadata as labelled fields, not JSON', async () => {
    const { store } = await interrupted([escalation]);
    const { container } = render(<Page store={store} />);
    await formsLoaded(container);
    const card = screen.getByRole('article', { name: 'Action needed' });
    expect(within(card).getByText('Risk score').nextElementSibling).toHaveTextContent('0.87');
    expect(within(card).getByText('Signals').nextElementSibling).toHaveTextContent('new card and amount over limit');
    expect(within(card).getByText('Sla minutes').nextElementSibling).toHaveTextContent('30');
    expect(card.textContent).not.toMatch(/[[{]"/);
  });

  it("counts answers in the locale's digits: the heading, the progress line, what is announced, the error summary", async () => {
    const user = userEvent.setup();
    // English words with Arabic-Indic digits: every count goes through the locale's number format, or shows 0-9.
    const arEG = defineLocale('ar-EG', {});
    const { store } = await interrupted([
      { id: 'int-a', reason: 'confirmation', message: 'First?' },
      {
        id: 'int-b',
        reason: 'input_required',
        message: 'Second?',
        responseSchema: { type: 'object', required: ['note'], properties: { note: { type: 'string', title: 'Note' } } },
      },
    ]);
    const announced = recordAnnouncements();
    const { container } = render(
      <AgentLocaleProvider locale={arEG}>
        <Page store={store} />
      </AgentLocaleProvider>,
    );
    await formsLoaded(container);
    expect(screen.getByRole('dialog')).toHaveAccessibleName('The agent is waiting for ٢ answers');
    expect(container.querySelector('.agk-interrupts__progress')).toHaveTextContent('٠ of ٢ answered.');
    const second = screen.getByRole('article', { name: 'Input needed' });
    await user.click(within(second).getByRole('button', { name: 'Save answer' }));
    expect(screen.getByRole('alert')).toHaveTextContent('١ field needs attention: Note.');
    await user.click(within(screen.getByRole('article', { name: 'Confirmation needed' })).getByRole('button', { name: 'Yes' }));
    announced.read();
    expect(container.querySelector('.agk-interrupts__progress')).toHaveTextContent('١ of ٢ answered.');
    expect(announced.said.join('\n')).toMatch(/Saved: Yes\. ١ of ٢ answered\./);
    await user.type(within(second).getByRole('textbox', { name: 'Note' }), 'ok');
    await user.click(within(second).getByRole('button', { name: 'Save answer' }));
    await user.click(screen.getByRole('button', { name: 'Send answers' }));
    await settle();
    announced.read();
    announced.stop();
    expect(announced.said.join('\n')).toMatch(/٢ answers sent\./);
    expect(announced.said.join('\n')).not.toMatch(/[0-9]/);
  });

  it("gives a form's text fields the direction of what is typed: Arabic right to left, an empty field the page's", async () => {
    const user = userEvent.setup();
    const { store, requests } = await interrupted([
      {
        id: 'int-ar',
        reason: 'input_required',
        message: 'Why?',
        responseSchema: {
          type: 'object',
          properties: {
            name: { type: 'string', title: 'Name' },
            reason: { type: 'string', title: 'Reason' },
            count: { type: 'integer', title: 'Count' },
          },
        },
      },
    ]);
    const { container } = render(<Page store={store} />);
    await formsLoaded(container);
    const name = screen.getByRole('textbox', { name: 'Name' });
    const reason = screen.getByRole('textbox', { name: 'Reason' });
    expect(reason.tagName).toBe('TEXTAREA');
    // Empty, they keep the page's direction (no `dir="auto"`, which would read left to right whatever the page).
    expect(name).not.toHaveAttribute('dir');
    expect(reason).not.toHaveAttribute('dir');
    await user.type(name, 'أحمد');
    await user.type(reason, 'وصل الإبريق مكسورًا');
    expect(name).toHaveAttribute('dir', 'auto');
    expect(reason).toHaveAttribute('dir', 'auto');
    // A number reads in the page's direction.
    await user.type(screen.getByRole('spinbutton', { name: 'Count' }), '3');
    expect(screen.getByRole('spinbutton', { name: 'Count' })).not.toHaveAttribute('dir');
    // The answer is what was typed.
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await settle();
    expect(requests.at(-1)?.resume?.[0]?.payload).toEqual({ name: 'أحمد', reason: 'وصل الإبريق مكسورًا', count: 3 });
  });

  it('speaks Simplified Chinese under the zh-CN locale', async () => {
    const { store } = await interrupted([refundInterrupt], { before: call('call-refund', 'refund_order', refund) });
    const { container } = render(
      <AgentLocaleProvider locale={zhCN}>
        <Page store={store} />
      </AgentLocaleProvider>,
    );
    await formsLoaded(container);
    expect(screen.getByRole('dialog', { name: '智能体正在等待你的回答' })).toBeInTheDocument();
    const card = screen.getByRole('article', { name: '需要批准' });
    for (const name of ['批准', '拒绝', '不回答并关闭']) expect(within(card).getByRole('button', { name })).toBeInTheDocument();
  });
});

describe('interrupt focus', () => {
  it('moves focus to the first enabled field once the form has loaded, never to the card while it loads', async () => {
    const { store } = await interrupted([refundInterrupt], { before: call('call-refund', 'refund_order', refund) });
    const { container } = render(<Page store={store} composer={false} />);
    expect(document.activeElement?.classList.contains('agk-interrupt')).toBe(false);
    await formsLoaded(container);
    expect(screen.getByRole('textbox', { name: 'Comment' })).toHaveFocus();
  });

  it('waits for the fields disabled while the run is still in flight, then focuses the first one', async () => {
    const { store } = await interrupted([refundInterrupt], { before: call('call-refund', 'refund_order', refund) });
    act(() => store.setState({ inFlight: 'run' }));
    const { container } = render(<Page store={store} composer={false} />);
    await formsLoaded(container);
    expect(screen.getByRole('textbox', { name: 'Comment' })).toBeDisabled();
    expect(document.activeElement?.classList.contains('agk-interrupt')).toBe(false);
    act(() => store.setState({ inFlight: undefined }));
    expect(screen.getByRole('textbox', { name: 'Comment' })).toHaveFocus();
  });

  it('leaves focus where the user is typing, announces the interrupt, and Alt+Shift+D goes to it', async () => {
    const typing = document.createElement('textarea');
    typing.setAttribute('aria-label', 'Draft');
    document.body.append(typing);
    typing.focus();
    const log = recordAnnouncements();
    const { store } = await interrupted([refundInterrupt], { before: call('call-refund', 'refund_order', refund) });
    const { container } = render(<Page store={store} />);
    await formsLoaded(container);
    expect(typing).toHaveFocus();
    log.read();
    expect(log.said).toContain('The agent needs your decision. Press Alt+Shift+D to go to it.');
    fireEvent.keyDown(typing, { key: 'D', code: 'KeyD', altKey: true, shiftKey: true });
    expect(screen.getByRole('textbox', { name: 'Comment' })).toHaveFocus();
    log.stop();
  });

  /** The refund interrupt in the page, approved: the dialog is gone. */
  async function approvedRefund() {
    const { store } = await interrupted([refundInterrupt], { before: call('call-refund', 'refund_order', refund) });
    const { container } = render(<Page store={store} />);
    await formsLoaded(container);
    fireEvent.click(screen.getByRole('button', { name: 'Approve' }));
    await settle();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    return { container, store };
  }

  it('after Approve, focus goes to the composer and the outcome is announced', async () => {
    const log = recordAnnouncements();
    await approvedRefund();
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveFocus();
    log.read();
    expect(log.said).toContain('Answer sent: Approved.');
    log.stop();
  });

  it('clears what it announced once it had time to be said: the region holds no stale outcome for a later run', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const { container } = await approvedRefund();
      const region = container.querySelector('[data-agk-interrupt-announcer]');
      expect(region).toHaveTextContent('Answer sent: Approved.');
      act(() => {
        vi.advanceTimersByTime(ANNOUNCEMENT_CLEAR_MS);
      });
      expect(region).toBeEmptyDOMElement();
    } finally {
      vi.useRealTimers();
    }
  });

  it('clears what it announced when the reader starts a new thread, before the time it waits otherwise', async () => {
    const { container, store } = await approvedRefund();
    const region = container.querySelector('[data-agk-interrupt-announcer]');
    expect(region).toHaveTextContent('Answer sent: Approved.');
    await act(async () => {
      store.getState().reset();
    });
    expect(region).toBeEmptyDOMElement();
  });

  it('without a composer, focus goes to the decision line once it is rendered', async () => {
    const { store } = await interrupted([refundInterrupt], { before: call('call-refund', 'refund_order', refund) });
    const { container } = render(<Page store={store} composer={false} lines />);
    await formsLoaded(container);
    fireEvent.click(screen.getByRole('button', { name: 'Reject' }));
    await settle();
    await waitFor(() => expect(container.querySelector('[data-agk-decision="int-refund"]')).toHaveFocus());
  });

  it('without a composer or a decision line, focus goes to the chat region, never the body', async () => {
    const { store } = await interrupted([refundInterrupt], { before: call('call-refund', 'refund_order', refund) });
    const { container } = render(<Page store={store} composer={false} />);
    await formsLoaded(container);
    fireEvent.click(screen.getByRole('button', { name: 'Approve' }));
    await settle();
    expect(document.activeElement).toBe(container.querySelector('section.agk-chat'));
  });

  it('Escape on the region returns focus to where it was, without answering', async () => {
    const user = userEvent.setup();
    const { store, requests } = await interrupted([refundInterrupt], { before: call('call-refund', 'refund_order', refund) });
    const { container } = render(<Page store={store} />);
    await formsLoaded(container);
    expect(screen.getByRole('textbox', { name: 'Comment' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveFocus();
    expect(requests).toHaveLength(0);
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('at expiry, focus on Approve moves to the action that remains', async () => {
    const start = Date.parse('2026-11-30T12:00:00Z');
    const { store } = await interrupted([{ ...refundInterrupt, expiresAt: new Date(start + 3000).toISOString() }], {
      before: call('call-refund', 'refund_order', refund),
    });
    await preloadInterruptForm();
    vi.useFakeTimers({ now: start });
    render(<Page store={store} />);
    await act(async () => vi.advanceTimersByTimeAsync(0));
    screen.getByRole('button', { name: 'Approve' }).focus();
    act(() => vi.advanceTimersByTime(3000));
    expect(screen.getByRole('button', { name: 'Close without answering' })).toHaveFocus();
  });
});

describe('interrupt forms', () => {
  it('is not invalid before input, explains the required marker, and names the field without the asterisk', async () => {
    const { store } = await interrupted([escalation]);
    const { container } = render(<Page store={store} />);
    await formsLoaded(container);
    const decision = screen.getByRole('combobox', { name: 'Decision' });
    expect(decision).not.toHaveAttribute('aria-invalid', 'true');
    expect(decision).not.toBeInvalid();
    expect(decision).toHaveAttribute('aria-required', 'true');
    expect(screen.getByText('Fields marked * are required.')).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Action needed' })).toBeInTheDocument();
  });

  it('on an empty submit, focuses the first invalid field and announces the error summary', async () => {
    const user = userEvent.setup();
    const { store, requests } = await interrupted([escalation]);
    const { container } = render(<Page store={store} />);
    await formsLoaded(container);
    await user.click(screen.getByRole('textbox', { name: 'Note for the audit trail' }));
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    const decision = screen.getByRole('combobox', { name: 'Decision' });
    expect(decision).toHaveFocus();
    expect(decision).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('alert')).toHaveTextContent('1 field needs attention: Decision.');
    expect(requests).toHaveLength(0);
  });
});

describe('interrupt form descriptions', () => {
  /** Each id a field's `aria-describedby` names that is not in the document. */
  const missingDescriptions = (root: HTMLElement) =>
    [...root.querySelectorAll('input, select, textarea')].flatMap((field) =>
      (field.getAttribute('aria-describedby') ?? '')
        .split(/\s+/)
        .filter((id) => id && !root.ownerDocument.getElementById(id))
        .map((id) => `${field.id} -> ${id}`),
    );

  it('describes each field only by what is rendered: its description, then its errors once there are any', async () => {
    const user = userEvent.setup();
    const { store } = await interrupted([
      {
        id: 'int-form',
        reason: 'input_required',
        message: 'Where should the refund go?',
        responseSchema: {
          type: 'object',
          required: ['channel', 'note'],
          properties: {
            channel: { type: 'string', title: 'Channel', enum: ['card', 'bank'] },
            note: { type: 'string', title: 'Note', description: 'Shown to the customer.' },
            urgent: { type: 'boolean', title: 'Urgent' },
            how: { type: 'string', title: 'How', enum: ['a', 'b'] },
          },
        },
      },
    ]);
    const { container } = render(<Page store={store} />);
    await formsLoaded(container);
    expect(missingDescriptions(container)).toEqual([]);
    const note = screen.getByRole('textbox', { name: 'Note' });
    expect(note).toHaveAccessibleDescription('Shown to the customer.');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(missingDescriptions(container)).toEqual([]);
    const channel = screen.getByRole('combobox', { name: 'Channel' });
    expect(channel).toHaveAttribute('aria-invalid', 'true');
    expect(channel).toHaveAccessibleDescription('This field is required.');
    expect(note).toHaveAccessibleDescription('This field is required. Shown to the customer.');
    // Fixed as typed (the form checks again on each change): the error goes, and so does the reference to it.
    await user.type(note, 'Thanks');
    expect(missingDescriptions(container)).toEqual([]);
    expect(note).toHaveAccessibleDescription('Shown to the customer.');
  });
});

describe('interrupt time limits', () => {
  it('announces at 2 minutes, 1 minute, 30 seconds and at expiry, not every second', async () => {
    const start = Date.parse('2026-11-30T12:00:00Z');
    const { store } = await interrupted([{ ...refundInterrupt, expiresAt: new Date(start + 150_000).toISOString() }], {
      before: call('call-refund', 'refund_order', refund),
    });
    await preloadInterruptForm();
    vi.useFakeTimers({ now: start });
    const log = recordAnnouncements();
    render(<Page store={store} />);
    const timer = screen.getByRole('timer');
    expect(timer).toHaveTextContent('Expires in 2:30');
    expect(timer).not.toHaveAttribute('aria-live', 'polite');
    // Each second its own task, so the observer hears every change as a screen reader would.
    for (let s = 0; s < 150; s += 1) await act(async () => vi.advanceTimersByTimeAsync(1000));
    log.read();
    const timeLeft = log.said.filter((t) => / left to answer/.test(t));
    expect(timeLeft.map((t) => t.split('.')[0])).toEqual([
      '2 minutes left to answer',
      '1 minute left to answer',
      '30 seconds left to answer',
    ]);
    expect(log.said.some((t) => /^This request expired at/.test(t))).toBe(true);
    log.stop();
  });
});

describe('interrupt parts', () => {
  it('forward refs and pass className, style and DOM props', async () => {
    const { store } = await interrupted([refundInterrupt], { before: call('call-refund', 'refund_order', refund) });
    const group = React.createRef<HTMLElement>();
    const root = React.createRef<HTMLElement>();
    const actions = React.createRef<HTMLDivElement>();
    function Custom() {
      const it = store.getState().thread.interrupts[0];
      if (!it) return null;
      return (
        <Interrupt.Group ref={group} className="mine" data-testid="group">
          <Interrupt.Root ref={root} interrupt={it} className="card" style={{ color: 'red' }} data-x="1">
            <Interrupt.Header className="h" />
            <Interrupt.Actions ref={actions} className="a" />
          </Interrupt.Root>
        </Interrupt.Group>
      );
    }
    render(
      <AgentProvider store={store}>
        <Custom />
      </AgentProvider>,
    );
    expect(group.current).toHaveClass('agk-interrupts', 'mine');
    expect(group.current).toHaveAttribute('data-state', 'open');
    expect(root.current).toHaveClass('agk-interrupt', 'card');
    expect(root.current).toHaveAttribute('data-x', '1');
    expect(root.current).toHaveStyle({ color: 'rgb(255, 0, 0)' });
    expect(actions.current).toHaveClass('agk-interrupt__actions', 'a');
    expect(screen.getByText('Approval needed').closest('header')).toHaveClass('h');
  });
});
