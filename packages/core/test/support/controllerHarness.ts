/**
 * What the controller tests share: a scripted push-form source, a scheduler
 * that flushes in a microtask, promises the test settles, the events a run
 * begins and ends with, and the thread as a person sees it.
 */
import { expect } from 'vitest';
import { replaySession } from '../../src/engine.js';
import {
  type AgentSource,
  createRunController,
  type FrameScheduler,
  type RunAgentInput,
  type RunController,
  type ThreadState,
} from '../../src/index.js';

export type Emit = (event: Record<string, unknown>, id?: string) => void;

/** A push-form source: `script` plays request n (0-based) of the test; every input is kept. */
export function scripted(script: (n: number, input: RunAgentInput, emit: Emit, signal: AbortSignal) => Promise<void> | void) {
  const inputs: RunAgentInput[] = [];
  const source: AgentSource = {
    async deliver(input, options, onEvent) {
      const n = inputs.push(input) - 1;
      await script(
        n,
        input,
        (event, id) => {
          if (id !== undefined) options.onEventId?.(id);
          onEvent(event);
        },
        options.signal as AbortSignal,
      );
    },
    run() {
      throw new Error('the push form is used');
    },
  };
  return { source, inputs };
}

export const microScheduler: FrameScheduler = (flush) => {
  let live = true;
  queueMicrotask(() => live && flush());
  return () => {
    live = false;
  };
};

/** A promise the test settles. */
export function held<T = string>() {
  let settle!: (value: T) => void;
  const promise = new Promise<T>((resolve) => {
    settle = resolve;
  });
  return { promise, settle };
}

export const tick = () => new Promise((r) => setTimeout(r, 0));

/** Keeps the stream open until the request is aborted. */
export const open = (signal: AbortSignal) =>
  new Promise<void>((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));

export const started = (input: RunAgentInput) => ({ type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId });
export const finished = (input: RunAgentInput, extra: Record<string, unknown> = {}) => ({
  type: 'RUN_FINISHED',
  threadId: input.threadId,
  runId: input.runId,
  ...extra,
});
export const toolCall = (id: string, name: string, parentMessageId = `a-${id}`) => [
  { type: 'TOOL_CALL_START', toolCallId: id, toolCallName: name, parentMessageId },
  { type: 'TOOL_CALL_ARGS', toolCallId: id, delta: '{"orderId":"A-1001"}' },
  { type: 'TOOL_CALL_END', toolCallId: id },
];

/** A script whose first run calls the frontend tool `pick` (`c1`) and finishes; later runs finish. */
export const picksOnce: Parameters<typeof scripted>[0] = (n, input, emit) => {
  emit(started(input));
  if (n === 0) for (const e of toolCall('c1', 'pick')) emit(e);
  emit(finished(input));
};

/** A controller over `script` whose frontend tool `pick` answers when the test calls `release.settle`. */
export function heldPick(script: Parameters<typeof scripted>[0]) {
  const release = held();
  const { source, inputs } = scripted(script);
  const controller = createRunController({
    source,
    scheduler: microScheduler,
    tools: { pick: { description: 'asks the user to pick', handler: () => release.promise } },
  });
  return { controller, release, inputs };
}

/** The thread as a person sees it. */
export function view(t: ThreadState) {
  return {
    run: t.run,
    messages: t.messages.ids.map((id) => t.messages.byId.get(id)),
    toolCalls: [...t.toolCalls],
    document: t.sharedState.document,
    interrupts: t.interrupts,
  };
}

export function expectReplayed(controller: RunController) {
  expect(view(replaySession(controller.log.entries))).toEqual(view(controller.getSnapshot().thread));
}
