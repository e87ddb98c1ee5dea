import { act, render, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { expect, it, vi } from 'vitest';
import {
  AgentProvider,
  type AgentStore,
  createAgentStore,
  useAgentRun,
  useAgentSelector,
  useAgentState,
  useEventLog,
  useMessage,
  useMessageIds,
} from '../src/index.js';
import { manualFrames, manualSource, tick } from './support/sources.js';

function countSubscriptions(store: AgentStore) {
  let open = 0;
  const subscribe = store.subscribe;
  store.subscribe = (listener) => {
    open++;
    const off = subscribe(listener);
    let done = false;
    return () => {
      if (!done) open--;
      done = true;
      off();
    };
  };
  return () => open;
}

it('an AgentProvider given another store mid-stream follows it, hears the old stream no more, and shows it again when given it back', async () => {
  const errors = vi.spyOn(console, 'error');
  const m1 = manualSource();
  const f1 = manualFrames();
  const s1 = createAgentStore({ source: m1.source, threadId: 't', scheduler: f1.scheduler, initialState: { n: 1 } });
  const s2 = createAgentStore({ source: manualSource().source, threadId: 't2', initialState: { n: 2 } });
  const open1 = countSubscriptions(s1);
  let renders = 0;
  function View() {
    renders++;
    const agent = useAgentRun({ tools: { t: { description: 'x', handler: () => 'y' } } });
    const content = useMessage('live')?.content;
    const n = useAgentState((d: { n: number }) => d.n);
    const ids = useAgentSelector((s) => s.thread.messages.ids.filter(Boolean));
    const { count } = useEventLog();
    return <p data-testid="v">{`${agent.status} ${String(content ?? '')} ${n} ${ids.length} ${useMessageIds().length} ${count}`}</p>;
  }
  const ui = (s: AgentStore) => (
    <StrictMode>
      <AgentProvider store={s}>
        <View />
      </AgentProvider>
    </StrictMode>
  );
  const view = render(ui(s1));
  await act(async () => {
    void s1.getState().run('go');
    await tick();
    m1.push(
      { type: 'RUN_STARTED', threadId: 't', runId: m1.requests[0]?.runId },
      { type: 'TEXT_MESSAGE_START', messageId: 'live', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'live', delta: 'ab' },
    );
    await tick();
    f1.frame();
  });
  expect(screen.getByTestId('v').textContent).toBe('running ab 1 2 2 3');
  view.rerender(ui(s2));
  expect(screen.getByTestId('v').textContent).toBe('idle  2 0 0 0');
  expect(open1()).toBe(0);
  const before = renders;
  await act(async () => {
    m1.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'live', delta: 'c' });
    await tick();
    f1.frame();
  });
  expect(renders).toBe(before);
  expect(screen.getByTestId('v').textContent).toBe('idle  2 0 0 0');
  view.rerender(ui(s1));
  expect(screen.getByTestId('v').textContent).toBe('running abc 1 2 2 4');
  view.unmount();
  expect(open1()).toBe(0);
  expect(errors).not.toHaveBeenCalled();
});
