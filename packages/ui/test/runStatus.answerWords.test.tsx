/**
 * RunStatus on an answer that is no event stream quotes what the server said
 * (a proxy's sign-in page by its title), and on a 429 whose Retry-After the
 * agent gave says when to try again.
 */
import { type AgentSource, AgentTransportError } from '@aguikit/core';
import { AgentProvider, createAgentStore } from '@aguikit/react';
import { render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type AgentLocale, AgentLocaleProvider, en, zhCN } from '../src/locale.js';
import { RunStatus } from '../src/RunStatus.js';
import { STORY_THREAD } from '../src/storybook/scripted.js';

/** A store whose run fails with `error` before any event. */
async function failedWith(error: Error) {
  const source: AgentSource = {
    run() {
      return (async function* () {
        yield* [];
        throw error;
      })();
    },
  };
  const store = createAgentStore({ threadId: STORY_THREAD, source, now: () => Date.now() });
  await store.getState().run('Refund order A-1001');
  return store;
}

async function shown(error: Error, locale: AgentLocale = en) {
  const store = await failedWith(error);
  render(
    <AgentLocaleProvider locale={locale}>
      <AgentProvider store={store}>
        <RunStatus />
      </AgentProvider>
    </AgentLocaleProvider>,
  );
  return { store, status: await screen.findByRole('status') };
}

describe('RunStatus quotes what an answer that is no event stream said', () => {
  it("a 200 of a sign-in page: the page's title, not its markup", async () => {
    const page = '<!doctype html><html><head><title>Sign in – Acme SSO</title></head><body><form>…</form></body></html>';
    const { status } = await shown(
      new AgentTransportError('NOT_EVENT_STREAM', 'The agent answered HTTP 200 text/html, not text/event-stream', 200, page),
    );
    await waitFor(() => expect(status).toHaveTextContent('Sign in – Acme SSO'));
    expect(status).not.toHaveTextContent('<title>');
  });
});

describe('RunStatus on a 429 with Retry-After', () => {
  it.each([
    ['en', en, 'try again in 30 s'],
    ['zh-CN', zhCN, '30 秒'],
  ] as const)('says when to try again (%s)', async (_name, locale: AgentLocale, said) => {
    const error = Object.assign(new AgentTransportError('HTTP_STATUS', 'The agent answered HTTP 429', 429, ''), { retryAfterMs: 30_000 });
    const { store, status } = await shown(error, locale);
    expect(store.getState().failure).toMatchObject({ status: 429, retryAfterMs: 30_000, retryable: true });
    await waitFor(() => expect(status).toHaveTextContent(said));
  });
});
