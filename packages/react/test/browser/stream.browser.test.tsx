import { httpSseSource } from '@aguikit/core';
import { describe, expect, inject, it } from 'vitest';
import { render } from 'vitest-browser-react';
import { AgentProvider, useAgentRun, useMessage, useMessageIds } from '../../src/index.js';
import { ANSWER } from './answer.js';

function Message({ id }: { id: string }) {
  const message = useMessage(id);
  return (
    <p data-role={message?.role} data-streaming={String(message?.streaming)}>
      {typeof message?.content === 'string' ? message.content : ''}
    </p>
  );
}

function Chat() {
  const agent = useAgentRun();
  const ids = useMessageIds();
  return (
    <div>
      <output data-testid="status">{agent.status}</output>
      <button type="button" onClick={() => void agent.run('Where is my refund?')}>
        Send
      </button>
      {ids.map((id) => (
        <Message key={id} id={id} />
      ))}
    </div>
  );
}

describe('in real Chromium', () => {
  it('streams a run over HTTP + SSE from a loopback server and renders the text', async () => {
    const source = httpSseSource({ url: inject('agentUrl') });
    const screen = await render(
      <AgentProvider options={{ source, threadId: 'browser-thread' }}>
        <Chat />
      </AgentProvider>,
    );
    await screen.getByRole('button', { name: 'Send' }).click();
    await expect.element(screen.getByTestId('status'), { timeout: 10_000 }).toHaveTextContent('success');
    await expect.element(screen.getByText('Where is my refund?')).toBeVisible();
    const answer = screen.getByText(ANSWER);
    await expect.element(answer).toBeVisible();
    await expect.element(answer).toHaveAttribute('data-streaming', 'false');
    await expect.element(answer).toHaveAttribute('data-role', 'assistant');
  });
});
