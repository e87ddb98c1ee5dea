import type { RunAgentInput } from '../protocol.js';
import type { Refusal } from './types.js';

/** A frontend tool's run: its result lands later, unless the stream that started it is torn down first. */
export interface ToolRun {
  readonly done: Promise<void>;
  readonly abort: AbortController;
}

/**
 * One stream: a run or a resume, from its request to its last frontend tool.
 * It owns everything that can outlive an action (the request's abort
 * controller, the batch of events waiting for the next flush, the flush
 * scheduled, the frontend tools it started), so `stop`, `reset`, `destroy`
 * and a newer stream tear it down as one: nothing of it writes afterwards.
 */
export interface Stream {
  readonly input: RunAgentInput;
  readonly kind: 'run' | 'resume';
  readonly request: AbortController;
  /** Events received and not yet applied (the next flush applies them). */
  pending: unknown[];
  cancelFlush: (() => void) | undefined;
  readonly tools: Map<string, ToolRun>;
  lastEventId: string | undefined;
  /** The source's state of the run's stream (`SourceRunOptions.streamState`): a reconnect's is the stream's it goes on from. */
  readonly streamState: object;
  received: number;
  /** Events of its run received by the streams it goes on from (a reconnect's): the run exists if any did. */
  readonly before: number;
  /** False once torn down: its late events, results and settlements are dropped. */
  readonly live: boolean;
  /** Resolves when the stream is torn down: what waits on its tools stops waiting then. */
  readonly tornDown: Promise<void>;
  /** What the action that opened it answers, when what tore it down says (a destroy while it was in flight). */
  endedBy?: Refusal | undefined;
  /** Aborts the request (if still open) and every tool it started, and cancels its flush. */
  teardown(why?: Refusal): void;
}

export function openStream(
  input: RunAgentInput,
  kind: 'run' | 'resume',
  from?: Pick<Stream, 'lastEventId' | 'received' | 'before' | 'streamState'>,
): Stream {
  let resolveTornDown: () => void = () => undefined;
  const tornDown = new Promise<void>((resolve) => {
    resolveTornDown = resolve;
  });
  const request = new AbortController();
  const stream: Stream = {
    input,
    kind,
    request,
    pending: [],
    cancelFlush: undefined,
    tools: new Map(),
    lastEventId: from?.lastEventId,
    streamState: from?.streamState ?? {},
    received: 0,
    before: from ? from.before + from.received : 0,
    // A field, not a getter: V8 keeps an object literal with an accessor in its slow (dictionary) mode, and a
    // stream's fields are read several times per event.
    live: true,
    tornDown,
    teardown(why) {
      if (!stream.live) return;
      (stream as { live: boolean }).live = false;
      stream.endedBy = why;
      stream.cancelFlush?.();
      stream.cancelFlush = undefined;
      stream.pending = [];
      // An abort already made is not made again: Node builds its AbortError, stack trace included, before it looks.
      if (!request.signal.aborted) request.abort();
      for (const tool of stream.tools.values()) if (!tool.abort.signal.aborted) tool.abort.abort();
      resolveTornDown();
    },
  };
  return stream;
}
