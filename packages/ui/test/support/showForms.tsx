import { AgentProvider, type AgentStore, createAgentStore } from '@aguikit/react';
import { act, type RenderResult, render, waitFor } from '@testing-library/react';
import { expect } from 'vitest';
import { InterruptDialog } from '../../src/InterruptDialog.js';
import { runOf, STORY_THREAD, scriptedSource } from '../../src/storybook/scripted.js';

/**
 * Renders the interrupt dialog of `store` and waits for its forms: their
 * code (rjsf, ajv) loads on demand, and the effects of a form's arrival (its
 * buttons enabled, focus on its first field) run before the test goes on.
 */
export async function showForms(store: AgentStore, timeout = 10_000): Promise<RenderResult> {
  const view = render(
    <AgentProvider store={store}>
      <InterruptDialog />
    </AgentProvider>,
  );
  await waitFor(() => expect(view.container.querySelector('.agk-interrupt__form-placeholder')).toBeNull(), { timeout });
  await act(async () => undefined);
  return view;
}

/**
 * The dialog of a thread whose run ended asking one input_required question for `responseSchema`, its form loaded
 * (within `timeout` ms).
 */
export async function askedFor(responseSchema: Record<string, unknown>, timeout?: number): Promise<RenderResult> {
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
  return showForms(store, timeout);
}
