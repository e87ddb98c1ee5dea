// @vitest-environment node
/**
 * A server render (Next.js prerendering with cacheComponents, any SSR) of a
 * component that creates its store: it must give the same HTML every time,
 * so it draws no id and reads no clock of its own, and it sends nothing. A
 * store the app passes in renders as it is at the time.
 */
import { renderToString } from 'react-dom/server';
import { afterEach, expect, it, vi } from 'vitest';
import { AgentProvider, createAgentStore, useAgentRun, useEventLog, useMessageIds } from '../src/index.js';
import { manualSource, tick } from './support/sources.js';

afterEach(() => {
  vi.restoreAllMocks();
});

function Chat() {
  const agent = useAgentRun({ url: 'https://agent.example/api/agent', initialMessages: [{ id: 'u0', role: 'user', content: '你好' }] });
  const ids = useMessageIds();
  return (
    <p data-status={agent.status}>
      {ids.length} {agent.store.getState().thread.messages.byId.get('u0')?.content as string}
    </p>
  );
}

it('renders the thread it starts with twice alike, with no id drawn, no clock read and no request', () => {
  const drawn = vi.spyOn(globalThis.crypto, 'randomUUID');
  const clock = vi.spyOn(Date, 'now');
  const fetched = vi.spyOn(globalThis, 'fetch');
  const html = () =>
    renderToString(
      <AgentProvider options={{ source: { async *run() {} } }}>
        <Chat />
      </AgentProvider>,
    );
  const first = html();
  expect(html()).toBe(first);
  expect(first).toContain('你好');
  expect(drawn).not.toHaveBeenCalled();
  expect(clock).not.toHaveBeenCalled();
  expect(fetched).not.toHaveBeenCalled();
});

it('renders a store the app made and ran as it is now, not as it was made', async () => {
  const m = manualSource();
  const store = createAgentStore({ source: m.source, threadId: 't' });
  const done = store.getState().run('Refund order A-1001');
  await tick();
  m.push(
    { type: 'RUN_STARTED', threadId: 't', runId: 'r' },
    { type: 'TEXT_MESSAGE_START', messageId: 'a', role: 'assistant' },
    { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: 'Refunded' },
    { type: 'TEXT_MESSAGE_END', messageId: 'a' },
    { type: 'RUN_FINISHED', threadId: 't', runId: 'r' },
  );
  m.end();
  await done;
  function Transcript() {
    const agent = useAgentRun();
    const ids = useMessageIds();
    const { count } = useEventLog();
    return (
      <p data-status={agent.status}>
        {ids.length} messages, {count} events
      </p>
    );
  }
  const html = renderToString(
    <AgentProvider store={store}>
      <Transcript />
    </AgentProvider>,
  );
  expect(html).toBe('<p data-status="success">2<!-- --> messages, <!-- -->5<!-- --> events</p>');
});
