import type { AgentSource, ConnectionStatus } from '@aguikit/core';
import { AgentProvider, createAgentStore } from '@aguikit/react';
import { act, render, screen, waitFor } from '@testing-library/react';
import * as React from 'react';
import { afterEach, expect, it } from 'vitest';
import { AgentLocaleProvider, zhCN } from '../src/locale.js';
import { RunStatus } from '../src/RunStatus.js';

/**
 * While a connection has failed and its failure is not in yet, RunStatus
 * keeps what it showed. That hold is for the moment between the two: what
 * it keeps is what was last on the page, and anything else that moves in
 * the thread meanwhile is shown.
 */

/** A source the test drives: each step waits for the test to let it go on. */
function drivenSource() {
  const steps: (() => void)[] = [];
  let connection: ((status: ConnectionStatus) => void) | undefined;
  const next = () => new Promise<void>((resolve) => steps.push(resolve));
  const source: AgentSource = {
    async *run(input, options = {}) {
      connection = options.onConnection;
      options.onConnection?.('connecting');
      options.onConnection?.('open');
      options.onEventId?.('e1');
      yield { type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId };
      yield { type: 'STEP_STARTED', stepName: 'Plan' };
      await next();
      // An app's source that says its connection failed, then goes on (it reconnected on its own, as it may).
      options.onConnection?.('failed');
      await next();
      yield { type: 'STEP_FINISHED', stepName: 'Plan' };
      yield { type: 'STEP_STARTED', stepName: 'Write' };
      await next();
    },
  };
  return {
    source,
    /** Lets the source go on to its next step. */
    go: async () => {
      await act(async () => {
        steps.shift()?.();
        await new Promise((r) => setTimeout(r, 20));
      });
    },
    waitForStep: () => waitFor(() => expect(steps.length).toBe(1)),
    connection: (status: ConnectionStatus) => connection?.(status),
  };
}

const stores: ReturnType<typeof createAgentStore>[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.destroy();
});

it('shows the steps a run goes on to after its source said the connection failed, not the step it showed then', async () => {
  const driven = drivenSource();
  const store = createAgentStore({ source: driven.source });
  stores.push(store);
  render(
    <AgentProvider store={store}>
      <RunStatus />
    </AgentProvider>,
  );
  await act(async () => {
    void store.getState().run('hi');
    await driven.waitForStep();
  });
  const region = screen.getByRole('status');
  await waitFor(() => expect(region).toHaveTextContent('Plan'));
  await driven.go();
  expect(store.getState().connection).toBe('failed');
  await driven.go();
  expect(store.getState().thread.run.steps.at(-1)).toBe('Write');
  await waitFor(() => expect(region).toHaveTextContent('Write'), { timeout: 3_000 });
  await driven.go();
});

it('holds what was on the page, not what a render that never reached it worked out', async () => {
  const driven = drivenSource();
  const store = createAgentStore({ source: driven.source });
  stores.push(store);
  // A part of the page that waits on data for as long as the other language is asked for.
  const never = new Promise<never>(() => {});
  function Loads({ locale }: { locale: 'en' | 'zh' }) {
    if (locale === 'zh') React.use(never);
    return null;
  }
  let switchLocale: (to: 'en' | 'zh') => void = () => {};
  function Page() {
    const [locale, setLocale] = React.useState<'en' | 'zh'>('en');
    switchLocale = (to) => React.startTransition(() => setLocale(to));
    return (
      <React.Suspense fallback="Loading">
        <AgentLocaleProvider {...(locale === 'zh' ? { locale: zhCN } : {})}>
          <AgentProvider store={store}>
            <RunStatus />
            <Loads locale={locale} />
          </AgentProvider>
        </AgentLocaleProvider>
      </React.Suspense>
    );
  }
  render(<Page />);
  await act(async () => {
    void store.getState().run('hi');
    await driven.waitForStep();
  });
  const region = screen.getByRole('status');
  await waitFor(() => expect(region).toHaveTextContent('Running'));
  // The switch to Chinese waits on data: the page stays in English meanwhile.
  await act(async () => {
    switchLocale('zh');
    await new Promise((r) => setTimeout(r, 20));
  });
  expect(region).toHaveTextContent('Running');
  await driven.go();
  expect(store.getState().connection).toBe('failed');
  expect(region).toHaveTextContent('Running');
  expect(region.textContent).not.toMatch(/[\u4e00-\u9fff]/);
  driven.connection('open');
  await driven.go();
  await driven.go();
});
