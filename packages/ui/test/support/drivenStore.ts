/**
 * A store whose agent the test drives: events are pushed, and each push is
 * flushed as one frame (inside React's act).
 */
import type { AgentSource, Message as AgUiMessage } from '@aguikit/core';
import { createAgentStore } from '@aguikit/react';
import { act } from '@testing-library/react';

export const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** `ids`: the thread's and the run's (a run started by `start`, ended by `end`). */
export function drivenStore(
  initialMessages: AgUiMessage[] = [],
  ids: { threadId: string; runId: string } = { threadId: 't', runId: 'r1' },
) {
  const { threadId, runId } = ids;
  const queue: unknown[] = [];
  let wake: (() => void) | undefined;
  let done = false;
  const source: AgentSource = {
    async *run() {
      for (;;) {
        while (queue.length) yield queue.shift();
        if (done) return;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
    },
  };
  let frame: (() => void) | undefined;
  const store = createAgentStore({
    source,
    threadId,
    initialMessages,
    scheduler: (flush) => {
      frame = flush;
      return () => {
        if (frame === flush) frame = undefined;
      };
    },
  });
  const push = async (...events: unknown[]) => {
    await act(async () => {
      queue.push(...events);
      wake?.();
      await tick();
      frame?.();
      frame = undefined;
    });
  };
  const start = async () => {
    await act(async () => {
      void store.getState().run();
      await tick();
    });
    await push({ type: 'RUN_STARTED', threadId, runId });
  };
  const end = async (terminal: Record<string, unknown> = { type: 'RUN_FINISHED', threadId, runId }) => {
    await push(terminal);
    await act(async () => {
      done = true;
      wake?.();
      await tick();
    });
  };
  return { store, push, start, end };
}
