/**
 * A resume the agent answers with an error (HTTP 500) gives its interrupts
 * back, open again: each form shows the answer that was sent, so the
 * reviewer sends it again without typing it anew.
 */
import type { AgentSource, RunAgentInput } from '@aguikit/core';
import { AgentProvider, createAgentStore } from '@aguikit/react';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type * as React from 'react';
import { describe, expect, it } from 'vitest';
import { AgentChat } from '../src/AgentChat.js';
import { InterruptDialog } from '../src/InterruptDialog.js';
import { type AgentLocale, AgentLocaleProvider, en, zhCN } from '../src/locale.js';
import { RunStatus } from '../src/RunStatus.js';
import { httpError } from '../src/storybook/failures.js';
import { runOf, STORY_THREAD, say, scriptedSource } from '../src/storybook/scripted.js';
import { showForms } from './support/showForms.js';

type Raised = Record<string, unknown> & { id: string; reason: string };

/** A store whose first run ended in `interrupts`; the agent answers the first resume with HTTP 500, a later one with a short run. */
async function failingFirstResume(interrupts: Raised[], thrown: unknown = httpError(500, 'Internal Server Error')) {
  const inner = scriptedSource([runOf([], { outcome: { type: 'interrupt', interrupts } }), runOf(say('done', 'Done'))]);
  const resumes: RunAgentInput[] = [];
  const source: AgentSource = {
    run(input, options) {
      if (!input.resume) return inner.run(input, options);
      resumes.push(input);
      if (resumes.length > 1) return inner.run(input, options);
      return (async function* () {
        yield* [];
        throw thrown;
      })();
    },
  };
  const store = createAgentStore({ threadId: STORY_THREAD, source, now: () => Date.now() });
  await store.getState().run('Refund order A-1001');
  return { store, resumes };
}

const refund: Raised = {
  id: 'int-refund',
  reason: 'tool_call',
  message: 'Refund $42 to the customer?',
  responseSchema: {
    type: 'object',
    required: ['approved', 'comment'],
    properties: { approved: { type: 'boolean' }, comment: { type: 'string', title: 'Comment', minLength: 5 } },
  },
};
const COMMENT = 'The customer already got a replacement; refunding would pay twice.';

describe('a resume the agent answered with HTTP 500', () => {
  it('opens the approval again with the comment that was sent, and Reject sends the same answer again', async () => {
    const user = userEvent.setup();
    const { store, resumes } = await failingFirstResume([refund]);
    await showForms(store);
    await user.type(screen.getByRole('textbox', { name: 'Comment' }), COMMENT);
    await user.click(screen.getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(resumes).toHaveLength(1));
    await waitFor(() => expect(store.getState().failure?.status).toBe(500));
    const card = await screen.findByRole('article', { name: 'Approval needed' });
    await waitFor(() => expect(within(card).getByRole('button', { name: 'Reject' })).toBeEnabled());
    expect(within(card).getByRole('textbox', { name: 'Comment' })).toHaveValue(COMMENT);

    await user.click(within(card).getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(resumes).toHaveLength(2));
    expect(resumes[1]?.resume).toEqual(resumes[0]?.resume);
    expect(resumes[1]?.resume).toEqual([{ interruptId: 'int-refund', status: 'resolved', payload: { approved: false, comment: COMMENT } }]);
  });

  it('opens a form again with every field as it was sent', async () => {
    const user = userEvent.setup();
    const { store, resumes } = await failingFirstResume([
      {
        id: 'int-address',
        reason: 'input_required',
        message: 'Where should the replacement go?',
        responseSchema: {
          type: 'object',
          required: ['street', 'speed'],
          properties: {
            street: { type: 'string', title: 'Street' },
            speed: { type: 'string', title: 'Speed', enum: ['standard', 'express'] },
            gift: { type: 'boolean', title: 'Gift wrap' },
          },
        },
      },
    ]);
    await showForms(store);
    await user.type(screen.getByRole('textbox', { name: 'Street' }), '1 Main St');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Speed' }), 'express');
    await user.click(screen.getByRole('checkbox', { name: 'Gift wrap' }));
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(store.getState().failure?.status).toBe(500));
    const card = await screen.findByRole('article', { name: 'Input needed' });
    await waitFor(() => expect(within(card).getByRole('button', { name: 'Submit' })).toBeEnabled());
    expect(within(card).getByRole('textbox', { name: 'Street' })).toHaveValue('1 Main St');
    expect(within(card).getByRole('combobox', { name: 'Speed' })).toHaveDisplayValue('express');
    expect(within(card).getByRole('checkbox', { name: 'Gift wrap' })).toBeChecked();
    await user.click(within(card).getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(resumes).toHaveLength(2));
    expect(resumes[1]?.resume).toEqual(resumes[0]?.resume);
  });

  it('keeps a form empty when the agent took the answer and asks again under the same id', async () => {
    const user = userEvent.setup();
    const asked = runOf([], { outcome: { type: 'interrupt', interrupts: [refund] } });
    const source = scriptedSource([asked, runOf([], { outcome: { type: 'interrupt', interrupts: [refund] } })]);
    const store = createAgentStore({ threadId: STORY_THREAD, source, now: () => Date.now() });
    await store.getState().run('Refund order A-1001');
    await showForms(store);
    await user.type(screen.getByRole('textbox', { name: 'Comment' }), COMMENT);
    await user.click(screen.getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(store.getState().decisions).toHaveLength(1));
    await waitFor(() => expect(store.getState().thread.interrupts).toHaveLength(1));
    const card = await screen.findByRole('article', { name: 'Approval needed' });
    await waitFor(() => expect(within(card).getByRole('button', { name: 'Reject' })).toBeEnabled());
    expect(within(card).getByRole('textbox', { name: 'Comment' })).toHaveValue('');
  });
});

describe('a resume sent while the network is down', () => {
  it('takes back that the answer was sent, and gives focus back to the question, its comment kept', async () => {
    const user = userEvent.setup();
    const { store, resumes } = await failingFirstResume([refund], new TypeError('Failed to fetch'));
    await showForms(store);
    await user.type(screen.getByRole('textbox', { name: 'Comment' }), COMMENT);
    await user.click(screen.getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(resumes).toHaveLength(1));
    await waitFor(() => expect(store.getState().failure?.code).toBe('NETWORK'));
    const card = await screen.findByRole('article', { name: 'Approval needed' });
    await waitFor(() => expect(within(card).getByRole('button', { name: 'Reject' })).toBeEnabled());
    await waitFor(() => expect(card.contains(document.activeElement)).toBe(true));
    expect(within(card).getByRole('textbox', { name: 'Comment' })).toHaveValue(COMMENT);
    const live = document.querySelector('[data-agk-interrupt-announcer]');
    // "Sent" (said once the answer was on its way) is not what the region is left saying.
    expect(live).not.toHaveTextContent(/sent/i);
    // No run status on the page: the dialog says why focus came back.
    await waitFor(() => expect(live).toHaveTextContent('Your answer did not reach the agent'));
  });
});

describe('a resume that fails while the reviewer is elsewhere on the page', () => {
  /** A store whose first resume fails (HTTP 500) once `release` is called. */
  async function heldFailure() {
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const inner = scriptedSource([runOf([], { outcome: { type: 'interrupt', interrupts: [refund] } })]);
    const source: AgentSource = {
      run(input, options) {
        if (!input.resume) return inner.run(input, options);
        return (async function* () {
          yield* [];
          await released;
          throw httpError(500, 'Internal Server Error');
        })();
      },
    };
    const store = createAgentStore({ threadId: STORY_THREAD, source, now: () => Date.now() });
    await store.getState().run('Refund order A-1001');
    return { store, release };
  }

  /** Renders the dialog (and `extra` beside it), rejects the refund, moves focus to Search, then lets the resume fail. */
  async function rejectThenLookAway(locale: AgentLocale, extra: React.ReactNode = null) {
    const user = userEvent.setup();
    const { store, release } = await heldFailure();
    const view = render(
      <AgentLocaleProvider locale={locale}>
        <input aria-label="Search" />
        <AgentProvider store={store}>
          {extra}
          <InterruptDialog />
        </AgentProvider>
      </AgentLocaleProvider>,
    );
    await waitFor(() => expect(view.container.querySelector('.agk-interrupt__form-placeholder')).toBeNull(), { timeout: 10_000 });
    const t = locale.messages.interrupt;
    await user.type(screen.getByRole('textbox', { name: 'Comment' }), COMMENT);
    await user.click(screen.getByRole('button', { name: t.reject }));
    await waitFor(() => expect(store.getState().inFlight).toBeTruthy());
    const search = screen.getByRole('textbox', { name: 'Search' });
    search.focus();
    release();
    await waitFor(() => expect(store.getState().failure?.status).toBe(500));
    await waitFor(() => expect(screen.getByRole('button', { name: t.reject })).toBeEnabled());
    return { search, live: document.querySelector('[data-agk-interrupt-announcer]') };
  }

  it('says nothing of its own where RunStatus on the page says the run failed', async () => {
    const { search, live } = await rejectThenLookAway(en, <RunStatus />);
    expect(document.activeElement).toBe(search);
    await act(async () => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(live).toHaveTextContent('');
  });

  it.each([
    ['en', en, 'Your answer did not reach the agent'],
    ['zh-CN', zhCN, '你的回答未能送达智能体'],
  ] as const)('says politely that the answer did not reach the agent (%s)', async (_name, locale, said) => {
    const { search, live } = await rejectThenLookAway(locale);
    // Focus stays where the reviewer put it: the failure is said instead.
    expect(document.activeElement).toBe(search);
    expect(live).toHaveAttribute('aria-live', 'polite');
    await waitFor(() => expect(live).toHaveTextContent(said));
  });
  it('leaves text the reviewer selected on the page selected, focus where it was, and says the answer did not reach the agent', async () => {
    const user = userEvent.setup();
    const { store, release } = await heldFailure();
    const view = render(
      <>
        <p>Order A-1001: a replacement was shipped on Monday.</p>
        <AgentProvider store={store}>
          <InterruptDialog />
        </AgentProvider>
      </>,
    );
    await waitFor(() => expect(view.container.querySelector('.agk-interrupt__form-placeholder')).toBeNull(), { timeout: 10_000 });
    await user.type(screen.getByRole('textbox', { name: 'Comment' }), COMMENT);
    await user.click(screen.getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(store.getState().inFlight).toBeTruthy());
    // The reviewer selects a line of the page to copy it: focus goes to the page, the text is selected.
    const line = screen.getByText(/replacement was shipped/);
    await user.pointer([{ keys: '[MouseLeft>]', target: line, offset: 0 }, { offset: 20 }, { keys: '[/MouseLeft]' }]);
    expect(document.activeElement).toBe(document.body);
    expect(document.getSelection()?.toString()).toBe('Order A-1001: a repl');
    release();
    await waitFor(() => expect(store.getState().failure?.status).toBe(500));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Reject' })).toBeEnabled());
    await act(async () => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(document.activeElement).toBe(document.body);
    expect(document.getSelection()?.toString()).toBe('Order A-1001: a repl');
    await waitFor(() =>
      expect(document.querySelector('[data-agk-interrupt-announcer]')).toHaveTextContent('Your answer did not reach the agent'),
    );
  });
  it('gives focus the page lost back to the question, though text selected before the answer is still selected', async () => {
    const user = userEvent.setup();
    const { store, release } = await heldFailure();
    const view = render(
      <>
        <p>Order A-1001: a replacement was shipped on Monday.</p>
        <AgentProvider store={store}>
          <InterruptDialog />
        </AgentProvider>
      </>,
    );
    await waitFor(() => expect(view.container.querySelector('.agk-interrupt__form-placeholder')).toBeNull(), { timeout: 10_000 });
    await user.type(screen.getByRole('textbox', { name: 'Comment' }), COMMENT);
    // Text selected on the page, then Reject clicked: a click on a button leaves the page's selection as it was.
    const reject = screen.getByRole('button', { name: 'Reject' });
    reject.focus();
    const text = screen.getByText(/replacement was shipped/).firstChild as Text;
    document.getSelection()?.setBaseAndExtent(text, 0, text, 20);
    fireEvent.click(reject);
    await waitFor(() => expect(store.getState().inFlight).toBeTruthy());
    expect(document.getSelection()?.toString()).toBe('Order A-1001: a repl');
    // The button that had focus is gone or disabled: the page has it.
    (document.activeElement as HTMLElement | null)?.blur();
    release();
    await waitFor(() => expect(store.getState().failure?.status).toBe(500));
    const card = await screen.findByRole('article', { name: 'Approval needed' });
    await waitFor(() => expect(within(card).getByRole('textbox', { name: 'Comment' })).toHaveFocus());
  });
});

describe('a resume sent while the network is down, from a chat with a composer', () => {
  /** The chat of a store whose first resume fails as offline once `release` is called: the answer was put on its way. */
  async function rejectOffline() {
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const inner = scriptedSource([runOf([], { outcome: { type: 'interrupt', interrupts: [refund] } })]);
    const source: AgentSource = {
      run(input, options) {
        if (!input.resume) return inner.run(input, options);
        return (async function* () {
          yield* [];
          await released;
          throw new TypeError('Failed to fetch');
        })();
      },
    };
    const store = createAgentStore({ threadId: STORY_THREAD, source, now: () => Date.now() });
    await store.getState().run('Refund order A-1001');
    const user = userEvent.setup();
    const view = render(
      <AgentProvider store={store}>
        <AgentChat />
      </AgentProvider>,
    );
    await waitFor(() => expect(view.container.querySelector('.agk-interrupt__form-placeholder')).toBeNull(), { timeout: 10_000 });
    await user.type(screen.getByRole('textbox', { name: 'Comment' }), COMMENT);
    await user.click(screen.getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(store.getState().inFlight).toBeTruthy());
    const composer = view.container.querySelector<HTMLTextAreaElement>('.agk-composer__input');
    if (!composer) throw new Error('no composer');
    // The answer is on its way: focus went to the composer.
    expect(composer).toHaveFocus();
    return { store, user, release, composer, live: document.querySelector('[data-agk-interrupt-announcer]') };
  }

  it('gives focus back to the question from the composer, where sending put it, the failure said once, by the run status', async () => {
    const { store, release, live } = await rejectOffline();
    release();
    await waitFor(() => expect(store.getState().failure?.code).toBe('NETWORK'));
    const card = await screen.findByRole('article', { name: 'Approval needed' });
    await waitFor(() => expect(within(card).getByRole('button', { name: 'Reject' })).toBeEnabled());
    await waitFor(() => expect(within(card).getByRole('textbox', { name: 'Comment' })).toHaveFocus());
    await act(async () => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(document.querySelector('.agk-runstatus [role="status"]')).toHaveTextContent('The agent could not be reached');
    // The run status says it: the dialog's own region says nothing more.
    expect(live).toHaveTextContent('');
    expect(
      [...document.querySelectorAll('[aria-live], [role="status"], [role="alert"]')].filter((region) =>
        /could not be reached|did not reach the agent/.test(region.textContent ?? ''),
      ),
    ).toHaveLength(1);
  });

  it('leaves focus in the composer once the reviewer has typed there, the failure said by the run status', async () => {
    const { store, user, release, composer } = await rejectOffline();
    await user.type(composer, 'Also check');
    release();
    await waitFor(() => expect(store.getState().failure?.code).toBe('NETWORK'));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Reject' })).toBeEnabled());
    await act(async () => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(document.querySelector('.agk-runstatus [role="status"]')).toHaveTextContent('The agent could not be reached');
    expect(composer).toHaveFocus();
    expect(composer).toHaveValue('Also check');
  });

  it('leaves focus where the reviewer moved it meanwhile', async () => {
    const { store, release } = await rejectOffline();
    const chat = screen.getByRole('region', { name: /./ });
    chat.focus();
    release();
    await waitFor(() => expect(store.getState().failure?.code).toBe('NETWORK'));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Reject' })).toBeEnabled());
    await act(async () => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(chat).toHaveFocus();
  });
});
