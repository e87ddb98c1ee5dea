import { type AgentSource, AgentTransportError } from '@aguikit/core';
import { AgentProvider, createAgentStore } from '@aguikit/react';
import { act, render, screen } from '@testing-library/react';
import * as React from 'react';
import { expect, it } from 'vitest';
import { RunStatus } from '../src/RunStatus.js';

/**
 * An agent server that dies inside a run: the stream is cut after events
 * with ids, the transport reconnects once, and the agent's proxy answers
 * 502. The transport says the connection failed just before it throws, so
 * for a moment the connection has failed while the run is still running.
 */
function deadAgent(): AgentSource {
  return {
    async *run(input, options = {}) {
      options.onConnection?.('connecting');
      options.onConnection?.('open');
      options.onEventId?.('e1');
      yield { type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId };
      options.onEventId?.('e2');
      yield { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' };
      // The reply streams a while (its events applied) before the cut.
      await new Promise((r) => setTimeout(r, 200));
      options.onReconnecting?.(1, 3);
      options.onConnection?.('reconnecting');
      await new Promise((r) => setTimeout(r, 10));
      options.onConnection?.('failed');
      await new Promise((r) => setTimeout(r, 10));
      throw new AgentTransportError('HTTP_STATUS', 'The agent answered 502 Bad Gateway.', 502);
    },
  };
}

it.each([
  ['', React.Fragment],
  [' (StrictMode)', React.StrictMode],
])(
  'goes from Reconnecting straight to Connection lost when the reconnect fails, never back to Running in between%s',
  async (_name, Mode) => {
    const store = createAgentStore({ source: deadAgent() });
    render(
      <Mode>
        <AgentProvider store={store}>
          <RunStatus />
        </AgentProvider>
      </Mode>,
    );
    const region = screen.getByRole('status');
    // What a screen reader may hear: the polite, atomic region each time anything in it changes.
    const said: string[] = [];
    let last = '';
    const observer = new MutationObserver(() => {
      if (region.innerHTML === last) return;
      last = region.innerHTML;
      said.push(region.textContent?.trim() ?? '');
    });
    observer.observe(region, { subtree: true, childList: true, characterData: true, attributes: true });
    await act(async () => {
      await store.getState().run('hi');
    });
    observer.disconnect();
    expect(region).toHaveTextContent('Connection lost');
    const reconnecting = said.findIndex((s) => s.startsWith('Reconnecting'));
    expect(reconnecting, `said: ${JSON.stringify(said)}`).toBeGreaterThanOrEqual(0);
    // Nothing in between: not "Running", not the same words redrawn (an atomic region is read again whole).
    expect(said.slice(reconnecting + 1, reconnecting + 2), `said: ${JSON.stringify(said)}`).toEqual([
      expect.stringMatching(/^Connection lost/),
    ]);
    store.destroy();
  },
);
