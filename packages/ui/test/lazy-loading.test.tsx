import type { RunAgentInput } from '@aguikit/core';
import { AgentProvider, type AgentStore, createAgentStore } from '@aguikit/react';
import { act, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { call, runOf, STORY_THREAD, say, scriptedSource } from '../src/storybook/scripted.js';

/**
 * What a page loads up front: the interrupt form (rjsf, its ajv validator)
 * and the Markdown renderer (react-markdown, remark-gfm) are dynamic imports,
 * evaluated the first time they are needed and never again. Each mocked
 * module below counts its evaluations and is otherwise the real one. The
 * tests run in order: the module cache is the file's.
 */
const evaluated = vi.hoisted(() => new Map<string, number>());
const count = (id: string) => evaluated.set(id, (evaluated.get(id) ?? 0) + 1);
const loads = (id: string) => evaluated.get(id) ?? 0;

vi.mock('@rjsf/core', async (original) => {
  count('@rjsf/core');
  return original();
});
vi.mock('@rjsf/validator-ajv8', async (original) => {
  count('@rjsf/validator-ajv8');
  return original();
});
vi.mock('react-markdown', async (original) => {
  count('react-markdown');
  return original();
});
vi.mock('remark-gfm', async (original) => {
  count('remark-gfm');
  return original();
});
vi.mock('@aguikit/core/schema', async (original) => {
  count('@aguikit/core/schema');
  return original();
});

const HEAVY = ['@rjsf/core', '@rjsf/validator-ajv8', 'react-markdown', 'remark-gfm'];

/** A store whose first run ended in `interrupts` (after `before`), through the real pipeline. */
async function interrupted(interrupts: Record<string, unknown>[], before: Record<string, unknown>[] = []) {
  const requests: RunAgentInput[] = [];
  const inner = scriptedSource([runOf(before, { outcome: { type: 'interrupt', interrupts } }), runOf(say('done', 'Done'))]);
  const store = createAgentStore({
    threadId: STORY_THREAD,
    source: {
      run(input, options) {
        requests.push(input);
        return inner.run(input, options);
      },
    },
    scheduler: (flush) => {
      queueMicrotask(flush);
      return () => undefined;
    },
  });
  await store.getState().run('Refund order A-1001');
  requests.length = 0;
  return { store, requests };
}

async function chat(store: AgentStore) {
  const { AgentChat } = await import('../src/index.js');
  return render(
    <AgentProvider store={store}>
      <AgentChat />
    </AgentProvider>,
  );
}

const approvalSchema = {
  type: 'object',
  required: ['approved'],
  properties: { approved: { type: 'boolean' }, comment: { type: 'string', title: 'Comment' } },
};

describe('the first load', () => {
  it('imports @aguikit/ui without evaluating rjsf, ajv, react-markdown or @aguikit/core/schema', async () => {
    const ui = await import('../src/index.js');
    // A component: a function, or the object React.forwardRef makes.
    expect(['function', 'object']).toContain(typeof ui.AgentChat);
    for (const id of [...HEAVY, '@aguikit/core/schema']) expect(loads(id), id).toBe(0);
  });

  it('shows agent text as plain, whitespace-preserving text until the Markdown renderer has loaded, then as Markdown', async () => {
    const text = 'Refund **issued**.\n\n  - line one\n  - see [the order](https://shop.example/orders/A-1001)';
    const store = createAgentStore({
      threadId: 't',
      source: scriptedSource([]),
      initialMessages: [{ id: 'a1', role: 'assistant', content: text }],
    });
    const { container } = await chat(store);
    const plain = container.querySelector('.agk-markdown[data-markdown="loading"] .agk-markdown__plain');
    expect(plain?.textContent).toBe(text);
    expect(container.querySelector('a, strong')).toBeNull();
    expect(loads('react-markdown')).toBe(0);

    const link = await screen.findByRole('link', { name: /the order/ });
    expect(link).toHaveAttribute('href', 'https://shop.example/orders/A-1001');
    expect(container.querySelector('strong')?.textContent).toBe('issued');
    expect(container.querySelector('.agk-markdown')).toHaveAttribute('data-markdown', 'ready');
    expect(loads('react-markdown')).toBe(1);
    expect(loads('remark-gfm')).toBe(1);
  });

  it('loads the Markdown renderer once: preloadMarkdown resolves from the cache, and new text renders as Markdown at once', async () => {
    const { preloadMarkdown } = await import('../src/index.js');
    await preloadMarkdown();
    await preloadMarkdown();
    expect(loads('react-markdown')).toBe(1);
    const store = createAgentStore({
      threadId: 't2',
      source: scriptedSource([]),
      initialMessages: [{ id: 'a2', role: 'assistant', content: 'Now **bold** from the first render.' }],
    });
    const { container } = await chat(store);
    expect(container.querySelector('.agk-markdown')).toHaveAttribute('data-markdown', 'ready');
    expect(container.querySelector('strong')?.textContent).toBe('bold');
  });

  it('renders plain text on the server, and hydrates it without a mismatch in a browser that has the renderer', async () => {
    const { renderToString } = await import('react-dom/server');
    const { hydrateRoot } = await import('react-dom/client');
    const { SafeMarkdown, preloadMarkdown } = await import('../src/index.js');
    await preloadMarkdown();
    const text = 'Now **bold** after hydration.';
    const html = renderToString(<SafeMarkdown>{text}</SafeMarkdown>);
    expect(html).toContain('data-markdown="loading"');
    expect(html).not.toContain('<strong>');
    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.append(container);
    const recoverable = vi.fn();
    const root = await act(async () => hydrateRoot(container, <SafeMarkdown>{text}</SafeMarkdown>, { onRecoverableError: recoverable }));
    expect(recoverable).not.toHaveBeenCalled();
    expect(container.querySelector('strong')?.textContent).toBe('bold');
    act(() => root.unmount());
    container.remove();
  });

  it('loads no form code for an interrupt without a responseSchema', async () => {
    const { store } = await interrupted([{ id: 'int-c', reason: 'confirmation', message: 'Send the email?' }]);
    await chat(store);
    expect(screen.getByRole('button', { name: 'Yes' })).toBeEnabled();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(loads('@rjsf/core')).toBe(0);
    expect(loads('@rjsf/validator-ajv8')).toBe(0);
    // ajv comes through core's own lazy path (loadResumeBuilder), and only for an answer with a schema.
    expect(loads('@aguikit/core/schema')).toBe(0);
  });

  it('shows the reason, message, tool and arguments at once, "Loading the form…" in the form\'s place, then the form', async () => {
    const { store, requests } = await interrupted(
      [{ id: 'int-refund', reason: 'tool_call', toolCallId: 'call-refund', message: 'Refund $42?', responseSchema: approvalSchema }],
      call('call-refund', 'refund_order', { orderId: 'A-1001', amount: 42 }),
    );
    expect(loads('@rjsf/core')).toBe(0);
    await chat(store);
    const card = screen.getByRole('article', { name: 'Approval needed' });
    expect(card).toHaveAccessibleDescription('Refund $42?');
    expect(within(card).getByText('refund_order')).toBeInTheDocument();
    expect(within(card).getByText(/"amount": 42/)).toBeInTheDocument();
    expect(within(card).getByText('Loading the form…')).toHaveAttribute('role', 'status');
    // The buttons that act through the form wait for it; Close without answering does not.
    expect(within(card).getByRole('button', { name: 'Approve' })).toBeDisabled();
    expect(within(card).getByRole('button', { name: 'Reject' })).toBeDisabled();
    expect(within(card).getByRole('button', { name: 'Close without answering' })).toBeEnabled();
    // Focus does not land on the interrupt while its fields are not there: it goes to the first field when it comes.
    expect(card).not.toHaveFocus();

    const comment = await within(card).findByRole('textbox', { name: 'Comment' });
    await vi.waitFor(() => expect(comment).toHaveFocus());
    expect(within(card).queryByText('Loading the form…')).toBeNull();
    expect(within(card).getByRole('button', { name: 'Approve' })).toBeEnabled();
    expect(loads('@rjsf/core')).toBe(1);
    expect(loads('@rjsf/validator-ajv8')).toBe(1);

    within(card).getByRole('button', { name: 'Approve' }).click();
    await vi.waitFor(() => expect(requests).toHaveLength(1));
    expect(requests[0]?.resume).toEqual([{ interruptId: 'int-refund', status: 'resolved', payload: { approved: true } }]);
  });

  it('loads the form code once: preloadInterruptForm resolves from the cache, and the next form renders with its dialog', async () => {
    const { preloadInterruptForm } = await import('../src/index.js');
    await preloadInterruptForm();
    const { store } = await interrupted([{ id: 'int-2', reason: 'tool_call', message: 'Again?', responseSchema: approvalSchema }]);
    await chat(store);
    expect(screen.queryByText('Loading the form…')).toBeNull();
    expect(screen.getByRole('textbox', { name: 'Comment' })).toHaveFocus();
    expect(loads('@rjsf/core')).toBe(1);
  });
});
