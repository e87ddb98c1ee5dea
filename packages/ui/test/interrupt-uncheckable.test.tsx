/**
 * A `responseSchema` that compiles but whose answers the resume's check
 * cannot take: an asynchronous one (`$async`), or one whose `$id` is a
 * meta-schema's. The form says at once that the question can only be
 * closed, rather than take an answer and refuse it at Submit.
 */
import { AgentProvider, createAgentStore } from '@aguikit/react';
import { act, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { InterruptDialog } from '../src/InterruptDialog.js';
import { runOf, STORY_THREAD, scriptedSource } from '../src/storybook/scripted.js';

async function asking(responseSchema: Record<string, unknown>) {
  const store = createAgentStore({
    threadId: STORY_THREAD,
    source: scriptedSource([
      runOf([], { outcome: { type: 'interrupt', interrupts: [{ id: 'int-7d2e', reason: 'input_required', responseSchema }] } }),
    ]),
    scheduler: (flush) => {
      queueMicrotask(flush);
      return () => undefined;
    },
  });
  await store.getState().run('Register the voucher code');
  const view = render(
    <AgentProvider store={store}>
      <InterruptDialog />
    </AgentProvider>,
  );
  await waitFor(() => expect(view.container.querySelector('.agk-interrupt__form-placeholder')).toBeNull(), { timeout: 10_000 });
  await act(async () => undefined);
  return view;
}

describe('a schema the resume cannot check an answer against', () => {
  it.each([
    ['asynchronous ($async)', { $async: true, type: 'object', properties: { note: { type: 'string' } } }],
    [
      "with a meta-schema's $id",
      { $id: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { note: { type: 'string' } } },
    ],
  ])('%s leaves Close without answering only', async (_name, schema) => {
    await asking(schema);
    expect(screen.queryByRole('button', { name: 'Submit' })).toBeNull();
    expect(screen.getByText(/You can only close it without answering/)).toBeInTheDocument();
  });
});
