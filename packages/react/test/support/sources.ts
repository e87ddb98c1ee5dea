import type { AgentSource, RunAgentInput, SourceRunOptions } from '@aguikit/core';

/** An event the source delivers with an SSE-style id. */
export class WithId {
  constructor(
    readonly id: string,
    readonly event: unknown,
  ) {}
}

interface Channel {
  input: RunAgentInput;
  options: SourceRunOptions;
  queue: unknown[];
  done: boolean;
  failure?: unknown;
  wake?: (() => void) | undefined;
}

/**
 * A source driven by the test: each `run` opens a channel; the test pushes
 * events into the newest one, ends it or fails it, and reads what was asked.
 * With `push`, the source also offers the push form (`deliver`), handing
 * over the same events, so the store takes them that way.
 */
export function manualSource({ push = false }: { push?: boolean } = {}) {
  const channels: Channel[] = [];
  const current = () => {
    const c = channels.at(-1);
    if (!c) throw new Error('no run was started');
    return c;
  };
  const wake = (c: Channel) => {
    c.wake?.();
    c.wake = undefined;
  };
  const source: AgentSource = {
    run(input, options = {}) {
      const channel: Channel = { input, options, queue: [], done: false };
      channels.push(channel);
      return (async function* () {
        for (;;) {
          while (channel.queue.length) {
            const next = channel.queue.shift();
            if (next instanceof WithId) {
              options.onEventId?.(next.id);
              yield next.event;
            } else yield next;
          }
          if (options.signal?.aborted) throw new DOMException('Aborted', 'AbortError');
          if (channel.failure !== undefined) throw channel.failure;
          if (channel.done) return;
          await new Promise<void>((resolve) => {
            channel.wake = resolve;
            options.signal?.addEventListener('abort', () => resolve(), { once: true });
          });
        }
      })();
    },
  };
  if (push) {
    source.deliver = async (input, options, onEvent) => {
      for await (const event of source.run(input, options)) onEvent(event);
    };
  }
  return {
    source,
    /** The inputs of every run, in order. */
    get requests() {
      return channels.map((c) => c.input);
    },
    push(...events: unknown[]) {
      const c = current();
      c.queue.push(...events);
      wake(c);
    },
    end() {
      const c = current();
      c.done = true;
      wake(c);
    },
    fail(error: unknown) {
      const c = current();
      c.failure = error;
      wake(c);
    },
    channel: (i: number) => channels[i],
  };
}

/** Lets pending microtasks and a macrotask run. */
export const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** A scheduler that flushes only when the test says so, to count frames. */
export function manualFrames() {
  let pending: (() => void) | undefined;
  return {
    scheduler: (flush: () => void) => {
      pending = flush;
      return () => {
        if (pending === flush) pending = undefined;
      };
    },
    frame() {
      const f = pending;
      pending = undefined;
      f?.();
    },
    get scheduled() {
      return pending !== undefined;
    },
  };
}
