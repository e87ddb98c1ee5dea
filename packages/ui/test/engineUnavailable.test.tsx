/**
 * The engine chunk could not load (offline, or the application was updated
 * and the chunk is gone): the status says so in the user's words, and Retry
 * loads it again and sends the request. A fresh module graph per test, so the
 * engine the setup loaded is not there.
 */
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

let fail = true;
afterEach(() => {
  vi.doUnmock('../../core/src/controller/engineParts.ts');
  fail = true;
});

async function freshChat(locale?: 'zh-CN') {
  vi.resetModules();
  vi.doMock('../../core/src/controller/engineParts.ts', async (original) => {
    if (fail) throw new TypeError('Failed to fetch dynamically imported module: https://shop.example/assets/engineParts-3f9a.js');
    return original();
  });
  const { AgentProvider } = await import('@aguikit/react');
  const { RunStatus } = await import('../src/RunStatus.js');
  const { AgentLocaleProvider, zhCN } = await import('../src/locale.js');
  const { turnsStore } = await import('../src/storybook/failures.js');
  const { runOf, say } = await import('../src/storybook/scripted.js');
  const store = turnsStore([{ events: runOf(say('a-1', 'It shipped yesterday.')) }]);
  await store.getState().run('Where is my order A-1001?');
  const status = <RunStatus />;
  render(
    <AgentProvider store={store}>{locale ? <AgentLocaleProvider locale={zhCN}>{status}</AgentLocaleProvider> : status}</AgentProvider>,
  );
  return store;
}

describe('RunStatus: the engine could not load', () => {
  it('says nothing was sent and what to do, and Retry loads the engine and sends', async () => {
    const store = await freshChat();
    expect(store.getState().failure?.code).toBe('ENGINE_UNAVAILABLE');
    expect(screen.getByRole('status')).toHaveTextContent(/could not load the code that reads the agent's answers, so nothing was sent/);
    fail = false;
    await act(async () => {
      await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    });
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Done'));
  });

  it('says it in Chinese under zh-CN', async () => {
    await freshChat('zh-CN');
    expect(screen.getByRole('status')).toHaveTextContent('无法加载读取智能体回答的代码');
  });
});
