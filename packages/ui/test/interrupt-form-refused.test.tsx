import { AgentProvider, createAgentStore } from '@aguikit/react';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import * as React from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FORM_COMBINATIONS_LIMIT, FORM_ENTRIES_LIMIT } from '../src/formSchema.js';
import { InterruptDialog } from '../src/InterruptDialog.js';
import { AgentLocaleProvider, zhCN } from '../src/locale.js';
import { runOf, STORY_THREAD, scriptedSource } from '../src/storybook/scripted.js';

/**
 * A question whose `responseSchema` gets no form says why, in the locale's words: the person can tell an agent's
 * list too long to draw from a schema that is broken. The technical reason (which keyword, where) goes to the console.
 */

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

async function asked(responseSchema: Record<string, unknown>, locale?: typeof zhCN, strict = false) {
  const store = createAgentStore({
    threadId: STORY_THREAD,
    source: scriptedSource([
      runOf([], {
        outcome: {
          type: 'interrupt',
          interrupts: [{ id: '3c9a1e52-7b4d-4f0e-9a61-2d8c5b7e4f13', reason: 'input_required', message: 'Which rows?', responseSchema }],
        },
      }),
    ]),
    scheduler: (flush) => {
      queueMicrotask(flush);
      return () => undefined;
    },
  });
  await store.getState().run('Import the rows');
  const dialog = (
    <AgentProvider store={store}>
      <InterruptDialog />
    </AgentProvider>
  );
  const shown = locale ? <AgentLocaleProvider locale={locale}>{dialog}</AgentLocaleProvider> : dialog;
  const view = render(strict ? <React.StrictMode>{shown}</React.StrictMode> : shown);
  await waitFor(() => expect(view.container.querySelector('.agk-interrupt__form-placeholder')).toBeNull(), { timeout: 10_000 });
  return view;
}

const rows = (minItems: number) => ({
  type: 'object',
  properties: { rows: { type: 'array', minItems, items: { type: 'string' } } },
});
const combined = (members: number) => ({
  type: 'object',
  allOf: Array.from({ length: members }, (_, i) => ({
    oneOf: [{ properties: { [`a${i}`]: { type: 'string' } } }, { properties: { [`b${i}`]: { type: 'number' } } }],
  })),
});

describe('a question given no form says why', () => {
  it('a list of more entries than a form draws: how many it may have, and the console says where', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await asked(rows(2_000));
    expect(screen.getByText(/cannot show/)).toBeInTheDocument();
    expect(screen.getByText(`The agent asked for a list of over ${FORM_ENTRIES_LIMIT} entries.`)).toBeInTheDocument();
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/minItems.*\/properties\/rows.*2000.*500/));
  });

  it('choices combined past what a form can check as you type', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await asked(combined(8));
    expect(screen.getByText(`The agent's choices combine in over ${FORM_COMBINATIONS_LIMIT} ways.`)).toBeInTheDocument();
  });

  it('a schema that is not valid JSON Schema', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await asked({ type: 'object', properties: { count: { type: 'integr' } } });
    expect(screen.getByText("The agent's description of the answer cannot be checked.")).toBeInTheDocument();
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/JSON Schema/));
  });

  it('a required field described nowhere', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await asked({ type: 'object', required: ['name'], properties: { id: { type: 'string' } }, additionalProperties: false });
    expect(screen.getByText('The agent requires a field it never describes.')).toBeInTheDocument();
  });

  it('an allOf that refers back to itself: too large to check, not choices combining past the limit', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await asked({
      type: 'object',
      allOf: [{ $ref: '#/$defs/base' }, { oneOf: [{ required: ['email'] }, { required: ['phone'] }] }],
      properties: { email: { type: 'string' }, phone: { type: 'string' } },
      $defs: { base: { allOf: [{ $ref: '#/$defs/base' }] } },
    });
    expect(screen.getByText("The agent's description of the answer is too large to check.")).toBeInTheDocument();
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/refers back to itself/));
  });

  it('in Chinese', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await asked(rows(2_000), zhCN);
    expect(screen.getByText(`智能体要求的列表超过 ${FORM_ENTRIES_LIMIT} 项。`)).toBeInTheDocument();
  });
});

describe("a schema's fault in the console", () => {
  it('is told once, under StrictMode too (its effects run twice)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await asked({ type: 'object', properties: { when: { type: 'string', pattern: '(a+)+\\1' } } }, undefined, true);
    expect(screen.getByText("The agent's description of the answer cannot be checked.")).toBeInTheDocument();
    expect(warn.mock.calls.filter(([text]) => String(text).includes('shown without a form'))).toHaveLength(1);
  });
});
