/**
 * The chunks loaded on demand as they arrive late, or cannot be fetched
 * (offline, a deploy that removed them): what the chat shows meanwhile, and
 * that what the reader did there (focus, a text opened whole) stays.
 */
import { AgentProvider, createAgentStore } from '@aguikit/react';
import { act, render, screen, within } from '@testing-library/react';
import { expect, it, vi } from 'vitest';
import { LONG_TEXT } from '../src/LongText.js';
import { call, runOf, STORY_THREAD, say, scriptedSource } from '../src/storybook/scripted.js';

/** Each chunk's next load fails while its count is above zero, after `release` (or `markdownRelease`) when set. */
const chunks = vi.hoisted(() => ({
  form: 0,
  markdown: 0,
  release: undefined as Promise<void> | undefined,
  markdownRelease: undefined as Promise<void> | undefined,
}));
vi.mock('../src/lazyChunks.js', async (original) => {
  const real = await original<typeof import('../src/lazyChunks.js')>();
  const { lazyModule } = await import('../src/lazyModule.js');
  const offline = () => Promise.reject(new TypeError('Failed to fetch dynamically imported module'));
  return {
    ...real,
    interruptFormChunk: lazyModule(async () => {
      await chunks.release;
      return chunks.form-- > 0 ? offline() : import('../src/ResponseForm.js');
    }),
    markdownChunk: lazyModule(async () => {
      await chunks.markdownRelease;
      return chunks.markdown-- > 0 ? offline() : import('../src/MarkdownRenderer.js');
    }),
  };
});

const approvalSchema = {
  type: 'object',
  required: ['approved'],
  properties: { approved: { type: 'boolean' }, comment: { type: 'string', title: 'Comment' } },
};

async function interruptedChat() {
  const store = createAgentStore({
    threadId: STORY_THREAD,
    source: scriptedSource([
      runOf([...say('a1', 'Checking **A-1001**'), ...call('call-refund', 'refund_order', { orderId: 'A-1001', amount: 42 })], {
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
  const { AgentChat } = await import('../src/index.js');
  const view = render(
    <AgentProvider store={store}>
      <AgentChat />
    </AgentProvider>,
  );
  return { ...view, card: screen.getByRole('article', { name: 'Approval needed' }) };
}

it("keeps focus in the interrupt's form while Try again fetches it, on Try again when it fails again, and on the first field when it comes", {
  timeout: 30_000,
}, async () => {
  chunks.form = 2;
  chunks.markdown = 1;
  const { card, container } = await interruptedChat();
  // The form could not be fetched: an alert says so with a way to try again, and the chat stays (its text plain).
  const retry = await within(card).findByRole('button', { name: 'Try again' });
  expect(within(card).getByRole('alert')).toHaveTextContent('The form could not be loaded.');
  expect(container.querySelector('[data-markdown]')).toHaveAttribute('data-markdown', 'failed');
  expect(container.querySelector('[data-markdown]')).toHaveTextContent('Checking **A-1001**');

  // Fails again: focus goes from the status back to the new Try again, never to the page.
  let open!: () => void;
  chunks.release = new Promise((resolve) => (open = resolve));
  retry.focus();
  await act(async () => retry.click());
  const status = within(card).getByRole('status');
  expect(status).toHaveTextContent('Loading the form…');
  expect(status).toHaveFocus();
  await act(async () => open());
  const again = await within(card).findByRole('button', { name: 'Try again' });
  expect(again).toHaveFocus();

  // Loads: the first field takes focus.
  chunks.release = undefined;
  await act(async () => again.click());
  // The form's code (rjsf, ajv) is transformed on its first import: seconds on a busy machine.
  const comment = await within(card).findByRole('textbox', { name: 'Comment' }, { timeout: 20_000 });
  await vi.waitFor(() => expect(comment).toHaveFocus());
});

it('keeps a long reply the reader opened whole, and focus on it, when the Markdown renderer arrives', { timeout: 30_000 }, async () => {
  let open!: () => void;
  chunks.markdownRelease = new Promise((resolve) => (open = resolve));
  const { SafeMarkdown } = await import('../src/index.js');
  const text = `**Start** ${'word '.repeat(LONG_TEXT / 4)}`;
  const { container } = render(<SafeMarkdown>{text}</SafeMarkdown>);
  const showAll = screen.getByRole('button', { name: 'Show all' });
  act(() => showAll.click());
  await act(() => new Promise((resolve) => requestAnimationFrame(resolve)));
  const shown = container.querySelector('.agk-longtext__text');
  expect(shown?.textContent?.length).toBe(text.length);
  expect(shown).toHaveFocus();
  await act(async () => open());
  await vi.waitFor(() => expect(container.querySelector('[data-markdown]')).toHaveAttribute('data-markdown', 'ready'), { timeout: 20_000 });
  expect(container.querySelector('.agk-longtext__text')?.textContent?.length).toBe(text.length);
  expect(screen.queryByRole('button', { name: 'Show all' })).toBeNull();
  expect(container.querySelector('.agk-longtext__text')).toHaveFocus();
});
