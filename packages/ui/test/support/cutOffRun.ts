import type { AgentSource } from '@aguikit/core';

/**
 * An agent whose first run is cut off inside the run (after events with SSE
 * ids); the reconnect that follows sends the rest of the reply, then either
 * ends the run (`'finished'`) or holds its stream open until it is aborted
 * (`'open'`).
 */
export function cutOffRun(threadId: string, afterReconnect: 'finished' | 'open'): AgentSource {
  let runs = 0;
  return {
    async *run(_input, options = {}) {
      runs++;
      if (runs === 1) {
        options.onEventId?.('e1');
        yield { type: 'RUN_STARTED', threadId, runId: 'ra' };
        options.onEventId?.('e2');
        yield { type: 'TEXT_MESSAGE_START', messageId: 'ma', role: 'assistant' };
        return;
      }
      options.onConnection?.('open');
      options.onEventId?.('e3');
      yield { type: 'TEXT_MESSAGE_CONTENT', messageId: 'ma', delta: 'the rest' };
      if (afterReconnect === 'open') {
        await new Promise<void>((resolve) => options.signal?.addEventListener('abort', () => resolve(), { once: true }));
        return;
      }
      options.onEventId?.('e4');
      yield { type: 'TEXT_MESSAGE_END', messageId: 'ma' };
      options.onEventId?.('e5');
      yield { type: 'RUN_FINISHED', threadId, runId: 'ra' };
    },
  };
}
