/**
 * A resume the agent refused because its interrupts were answered first
 * elsewhere (409 `ALREADY_ANSWERED`, another tab or device): RunStatus says
 * so in the user's language, rather than quoting the agent's English.
 */
import type { AgentSource } from '@aguikit/core';
import { AgentProvider, createAgentStore } from '@aguikit/react';
import { render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type AgentLocale, AgentLocaleProvider, en, zhCN } from '../src/locale.js';
import { RunStatus } from '../src/RunStatus.js';
import { httpError } from '../src/storybook/failures.js';
import { runOf, STORY_THREAD, scriptedSource } from '../src/storybook/scripted.js';

const ALREADY_ANSWERED = JSON.stringify({
  error: { code: 'ALREADY_ANSWERED', message: 'The interrupt of resume[0] was already answered differently.' },
});

/** A store whose first run asks one question, and whose agent refuses the resume as answered already. */
async function answeredElsewhere() {
  const inner = scriptedSource([
    runOf([], { outcome: { type: 'interrupt', interrupts: [{ id: 'int-refund', reason: 'confirmation', message: 'Refund $42?' }] } }),
  ]);
  const source: AgentSource = {
    run(input, options) {
      if (!input.resume) return inner.run(input, options);
      return (async function* () {
        yield* [];
        throw httpError(409, ALREADY_ANSWERED);
      })();
    },
  };
  const store = createAgentStore({ threadId: STORY_THREAD, source, now: () => Date.now() });
  await store.getState().run('Refund order A-1001');
  await store.getState().resume([{ interruptId: 'int-refund', status: 'resolved', payload: { approved: true } }]);
  return store;
}

describe('RunStatus after a resume refused as already answered (409 ALREADY_ANSWERED)', () => {
  it.each([
    ['en', en, 'Already answered in another tab or window', 'HTTP 409'],
    ['zh-CN', zhCN, '已在另一个标签页或窗口中回答', 'HTTP 409'],
  ] as const)('says the questions were answered elsewhere (%s), offering no retry', async (_name, locale: AgentLocale, said, generic) => {
    const store = await answeredElsewhere();
    expect(store.getState().failure).toMatchObject({ status: 409, cause: 'ALREADY_ANSWERED' });
    render(
      <AgentLocaleProvider locale={locale}>
        <AgentProvider store={store}>
          <RunStatus />
        </AgentProvider>
      </AgentLocaleProvider>,
    );
    const status = await screen.findByRole('status');
    await waitFor(() => expect(status).toHaveTextContent(said));
    expect(status).not.toHaveTextContent(generic);
    expect(status).not.toHaveTextContent('already answered differently');
    expect(screen.queryByRole('button', { name: locale.messages.run.actions.retry })).toBeNull();
  });
});
