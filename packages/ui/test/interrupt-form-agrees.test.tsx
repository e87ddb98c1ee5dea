/**
 * What the interrupt form takes, the resume check in core takes too: an
 * answer the form lets through is never refused after it was sent, which
 * would leave the user nothing to do but close the question unanswered.
 */
import type { AgentSource, RunAgentInput } from '@aguikit/core';
import { AgentProvider, type AgentStore, createAgentStore } from '@aguikit/react';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { InterruptDialog } from '../src/InterruptDialog.js';
import { runOf, STORY_THREAD, say, scriptedSource } from '../src/storybook/scripted.js';

type Raised = Record<string, unknown> & { id: string; reason: string };

async function interrupted(interrupts: Raised[]) {
  const inner = scriptedSource([runOf([], { outcome: { type: 'interrupt', interrupts } }), runOf(say('done', 'Done'))]);
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
    scheduler: (flush) => {
      let live = true;
      queueMicrotask(() => live && flush());
      return () => {
        live = false;
      };
    },
  });
  await store.getState().run('Go');
  requests.length = 0;
  return { store, requests };
}

async function showForms(store: AgentStore) {
  const view = render(
    <AgentProvider store={store}>
      <InterruptDialog />
    </AgentProvider>,
  );
  await waitFor(() => expect(view.container.querySelector('.agk-interrupt__form-placeholder')).toBeNull(), { timeout: 10_000 });
  await act(async () => undefined);
  return view;
}

const settle = () => act(async () => new Promise<void>((resolve) => setTimeout(resolve, 50)));

afterEach(() => cleanup());

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
