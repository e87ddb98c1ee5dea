import { toPlainJson } from '../plainJson.js';
import type { AgentCapabilities, RunAgentInput } from '../protocol.js';
import { textHead } from '../textHead.js';
import { type AgentSource, AgentTransportError, type SourceRunOptions } from './source.js';

/** The part of an `@ag-ui/client` `AbstractAgent` this adapter uses: `run(input)` returning an Observable of events. */
export interface AgUiAgentLike {
  run(input: RunAgentInput): {
    subscribe(observer: { next: (event: unknown) => void; error: (error: unknown) => void; complete: () => void }): { unsubscribe(): void };
  };
  /** What the agent supports, where it says (`AbstractAgent.getCapabilities`). */
  getCapabilities?(): Promise<AgentCapabilities>;
}

/**
 * Any `@ag-ui/client` agent (`HttpAgent`, or the agents of its framework
 * adapters) as an `AgentSource`. Only the agent's `run` is used, so aguikit's
 * own validation, verification and reducer apply to its events; `@ag-ui/client`
 * stays an optional peer dependency, and no rxjs is imported here.
 *
 * @example
 * import { HttpAgent } from '@ag-ui/client';
 * const source = agUiAgentSource(new HttpAgent({ url: '/api/agent' }));
 */
export function agUiAgentSource(agent: AgUiAgentLike): AgentSource {
  const source: AgentSource = {
    run(input: RunAgentInput, options: SourceRunOptions = {}) {
      return observableToIterable(agent, input, options);
    },
  };
  if (typeof agent.getCapabilities === 'function') {
    source.capabilities = async () => {
      try {
        return toPlainJson(await agent.getCapabilities?.()) as AgentCapabilities | undefined;
      } catch {
        return undefined;
      }
    };
  }
  return source;
}

/**
 * The event as JSON would carry it from an agent across the network (NaN as
 * null, an undefined member left out), and a copy of its own: an in-process
 * agent that goes on changing an object it emitted (its state, a list it
 * grows) changes neither the thread nor the session log, which then replays
 * as it was shown. An event JSON cannot write (a cycle, a BigInt) goes as it
 * is, for the thread to refuse (too deep) or keep.
 */
function asSent(event: unknown): unknown {
  try {
    return JSON.parse(JSON.stringify(event));
  } catch {
    return event;
  }
}

async function* observableToIterable(
  agent: AgUiAgentLike,
  input: RunAgentInput,
  { signal, onConnection }: SourceRunOptions,
): AsyncGenerator<unknown> {
  const queue: unknown[] = [];
  let head = 0;
  let finished = false;
  let failure: { error: unknown } | undefined;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  onConnection?.('connecting');
  // Open once the agent answers (its first event, or its end): an agent over HTTP has not answered when it is asked.
  let answered = false;
  const opened = () => {
    if (answered) return;
    answered = true;
    onConnection?.('open');
  };
  // Agents may structuredClone their input, which cannot copy the Proxy of a large shared-state object.
  const state = toPlainJson(input.state);
  const subscription = agent.run(state === input.state ? input : { ...input, state }).subscribe({
    next: (event) => {
      opened();
      queue.push(asSent(event));
      notify();
    },
    error: (error) => {
      failure = { error };
      notify();
    },
    complete: () => {
      opened();
      finished = true;
      notify();
    },
  });
  const onAbort = () => {
    subscription.unsubscribe();
    notify();
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      // An index, not shift(): a synchronous agent may emit thousands of events before the first is read.
      // The abort check is per event: what is queued is not delivered once the caller aborted.
      while (head < queue.length && !signal?.aborted) yield queue[head++];
      queue.length = 0;
      head = 0;
      if (signal?.aborted) {
        onConnection?.('closed');
        throw signal.reason ?? new DOMException('Aborted', 'AbortError');
      }
      if (failure) {
        onConnection?.('failed');
        throw statusError(failure.error);
      }
      if (finished) {
        onConnection?.('closed');
        return;
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    subscription.unsubscribe();
  }
}

/**
 * An error that carries the HTTP status the agent answered (as `HttpAgent`'s
 * do: `status`, and the body as `payload`), as the HTTP_STATUS error
 * `httpSseSource` throws for the same answer; anything else as it is.
 */
function statusError(error: unknown): unknown {
  if (error instanceof AgentTransportError || typeof error !== 'object' || error === null) return error;
  const { status, payload, message } = error as { status?: unknown; payload?: unknown; message?: unknown };
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 599) return error;
  const body = typeof payload === 'string' ? payload : payload === undefined ? undefined : JSON.stringify(payload);
  return new AgentTransportError(
    'HTTP_STATUS',
    typeof message === 'string' ? message : `HTTP ${status}`,
    status,
    body === undefined ? undefined : textHead(body, 2000),
  );
}
