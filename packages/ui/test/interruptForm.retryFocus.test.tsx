/**
 * Try again on an interrupt's form that could not be fetched: focus held on
 * the form's place while it loads goes to the first field as the form comes,
 * whether or not the interrupt was waiting to take focus; a reader who moved
 * on meanwhile (typing in the composer) keeps their place.
 */
import { AgentProvider, type AgentStore, createAgentStore } from '@aguikit/react';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import * as React from 'react';
import { beforeEach, expect, it, vi } from 'vitest';
import { lazyModule } from '../src/lazyModule.js';
import { call, runOf, STORY_THREAD, say, scriptedSource } from '../src/storybook/scripted.js';

/** The form's chunk, new for each test: its next load fails while `fail` is above zero, after `release` when set. */
const chunk = vi.hoisted(() => ({
  fail: 0,
  release: undefined as Promise<void> | undefined,
  module: undefined as unknown,
}));
vi.mock('../src/lazyChunks.js', async (original) => {
  const real = await original<typeof import('../src/lazyChunks.js')>();
  return {
    ...real,
    get interruptFormChunk() {
      return chunk.module;
    },
  };
});

// Each test starts with the form's code not fetched yet.
beforeEach(() => {
  chunk.module = lazyModule(async () => {
    await chunk.release;
    return chunk.fail-- > 0
      ? Promise.reject(new TypeError('Failed to fetch dynamically imported module'))
      : import('../src/ResponseForm.js');
  });
});

const approvalSchema = {
  type: 'object',
  required: ['approved'],
  properties: { approved: { type: 'boolean' }, comment: { type: 'string', title: 'Comment' } },
};

async function interruptedStore(): Promise<AgentStore> {
  const store = createAgentStore({
    threadId: STORY_THREAD,
    source: scriptedSource([
      runOf([...say('a1', 'Checking A-1001'), ...call('call-refund', 'refund_order', { orderId: 'A-1001', amount: 42 })], {
        outcome: {
          type: 'interrupt',
          interrupts: [
            { id: 'int-refund', reason: 'tool_call', toolCallId: 'call-refund', message: 'Refund $42?', responseSchema: approvalSchema },
          ],
        },
      }),
    ]),
    scheduler: (flush) => {
      queueMicrotask(flush);
      return () => undefined;
    },
  });
  await store.getState().run('Refund order A-1001');
  return store;
}

/** The chat over `store`, its form failed once; `remount` draws the chat anew (a new key). */
async function failedForm(store: AgentStore) {
  chunk.fail = 1;
  const { AgentChat } = await import('../src/index.js');
  let setKey!: (key: number) => void;
  function App() {
    const [key, set] = React.useState(0);
    setKey = set;
    return (
      <AgentProvider store={store}>
        <AgentChat key={key} />
      </AgentProvider>
    );
  }
  const view = render(<App />);
  const card = () => screen.getByRole('article', { name: 'Approval needed' });
  await within(card()).findByRole('button', { name: 'Try again' });
  return { ...view, card, remount: () => act(() => setKey(1)) };
}

/** Try again pressed with the form's code held back until the returned function is called. */
async function retryHeld(card: HTMLElement): Promise<() => Promise<void>> {
  let open!: () => void;
  chunk.release = new Promise((resolve) => (open = resolve));
  const retry = within(card).getByRole('button', { name: 'Try again' });
  retry.focus();
  await act(async () => retry.click());
  expect(within(card).getByRole('status')).toHaveFocus();
  return async () => {
    chunk.release = undefined;
    await act(async () => open());
  };
}

const FORM_LOADS = { timeout: 20_000 };

it('focus held on the loading form goes to its first field as it comes, though the reader reached the interrupt with Alt+Shift+D', {
  timeout: 30_000,
}, async () => {
  const store = await interruptedStore();
  const { card } = await failedForm(store);
  // Alt+Shift+D: the interrupt itself takes focus; it no longer waits for its fields.
  fireEvent.keyDown(document, { key: 'D', code: 'KeyD', altKey: true, shiftKey: true });
  expect(card()).toHaveFocus();
  const load = await retryHeld(card());
  await load();
  const comment = await within(card()).findByRole('textbox', { name: 'Comment' }, FORM_LOADS);
  await vi.waitFor(() => expect(comment).toHaveFocus());
  store.destroy();
});

it('a reader who moved to the composer while the form loads again keeps typing there as it comes, or fails again', {
  timeout: 30_000,
}, async () => {
  const store = await interruptedStore();
  const { card, container } = await failedForm(store);
  const composer = container.querySelector<HTMLTextAreaElement>('.agk-composer__input') as HTMLTextAreaElement;
  // Fails again: the new Try again does not take focus from the composer.
  chunk.fail = 1;
  let load = await retryHeld(card());
  composer.focus();
  fireEvent.change(composer, { target: { value: 'Actually' } });
  await load();
  await within(card()).findByRole('button', { name: 'Try again' });
  expect(composer).toHaveFocus();
  // The alert is no focus stop of its own once focus has left it.
  expect(within(card()).getByRole('alert')).not.toHaveAttribute('tabindex');
  // Loads: the first field does not either.
  load = await retryHeld(card());
  composer.focus();
  fireEvent.change(composer, { target: { value: 'Actually, wait' } });
  await load();
  await within(card()).findByRole('textbox', { name: 'Comment' }, FORM_LOADS);
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(composer).toHaveFocus();
  store.destroy();
});

it('the chat drawn anew while the form loads again: focus goes to the first field as it comes', { timeout: 30_000 }, async () => {
  const store = await interruptedStore();
  const { card, remount } = await failedForm(store);
  const load = await retryHeld(card());
  remount();
  await load();
  const comment = await within(card()).findByRole('textbox', { name: 'Comment' }, FORM_LOADS);
  await vi.waitFor(() => expect(comment).toHaveFocus());
  store.destroy();
});
