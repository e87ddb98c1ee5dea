// @vitest-environment node
/**
 * A server render (Next.js prerendering with cacheComponents, any SSR) of a
 * component that creates its store: it must give the same HTML every time,
 * so it draws no id and reads no clock of its own, and it sends nothing.
 */
import { renderToString } from 'react-dom/server';
import { afterEach, expect, it, vi } from 'vitest';
import { AgentProvider, useAgentRun, useMessageIds } from '../src/index.js';

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
