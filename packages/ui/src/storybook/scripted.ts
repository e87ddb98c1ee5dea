/**
 * Story and test support: a scripted agent whose runs play prepared events
 * through the real pipeline and store. Not part of the package's API.
 */
import type { AgentSource, ResumeResponse } from '@aguikit/core';
import { type AgentStore, type AgentStoreOptions, createAgentStore } from '@aguikit/react';

export type ScriptEvent = Record<string, unknown>;

/** One turn of a conversation: what the user does, and the events the agent answers with. */
export type Step = { say?: string; resume?: ResumeResponse[]; events: ScriptEvent[] };

export const STORY_THREAD = 'story-thread';

/** A source that answers its n-th run with the n-th list of events, `delayMs` apart. */
export function scriptedSource(turns: ScriptEvent[][], { delayMs = 0 }: { delayMs?: number } = {}): AgentSource {
  let next = 0;
  return {
    async *run(_input, options = {}) {
      const events = turns[next++] ?? [];
      options.onConnection?.('open');
      for (const event of events) {
        if (options.signal?.aborted) throw new DOMException('Aborted', 'AbortError');
        if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
        yield event;
      }
      options.onConnection?.('closed');
    },
  };
}

/**
 * A store that has played `steps` already (each step is a run with its
 * message, or a resume), ready to render a component in a given state.
 */
export async function playedStore(
  steps: Step[],
  options: Partial<AgentStoreOptions> & { pending?: ScriptEvent[][]; delayMs?: number } = {},
): Promise<AgentStore> {
  const { pending = [], delayMs, ...rest } = options;
  const store = createAgentStore({
    threadId: STORY_THREAD,
    now: () => Date.parse('2026-11-30T12:00:00Z'),
    scheduler: (flush) => {
      const t = setTimeout(flush, 0);
      return () => clearTimeout(t);
    },
    ...rest,
    source: scriptedSource([...steps.map((s) => s.events), ...pending], delayMs === undefined ? {} : { delayMs }),
  });
  for (const step of steps) {
    if (step.resume) await store.getState().resume(step.resume);
    else await store.getState().run(step.say === undefined ? {} : step.say);
  }
  return store;
}

let counter = 0;
/** Events of a whole run, wrapped in RUN_STARTED / RUN_FINISHED. */
export function runOf(events: ScriptEvent[], finish: Record<string, unknown> | null = {}): ScriptEvent[] {
  const runId = `story-run-${++counter}`;
  const start = { type: 'RUN_STARTED', threadId: STORY_THREAD, runId };
  return finish === null ? [start, ...events] : [start, ...events, { type: 'RUN_FINISHED', threadId: STORY_THREAD, runId, ...finish }];
}

/** A text message streamed in `parts`. */
export function say(messageId: string, text: string, parts = 1): ScriptEvent[] {
  const size = Math.ceil(text.length / parts);
  const deltas = Array.from({ length: parts }, (_, i) => text.slice(i * size, (i + 1) * size)).filter(Boolean);
  return [
    { type: 'TEXT_MESSAGE_START', messageId, role: 'assistant' },
    ...deltas.map((delta) => ({ type: 'TEXT_MESSAGE_CONTENT', messageId, delta })),
    { type: 'TEXT_MESSAGE_END', messageId },
  ];
}

/** A tool call with its arguments streamed in `parts`, and optionally its result. */
export function call(
  toolCallId: string,
  name: string,
  args: unknown,
  options: { parent?: string; result?: unknown; parts?: number; end?: boolean } = {},
): ScriptEvent[] {
  const text = JSON.stringify(args);
  const parts = options.parts ?? 2;
  const size = Math.ceil(text.length / parts);
  const out: ScriptEvent[] = [
    { type: 'TOOL_CALL_START', toolCallId, toolCallName: name, ...(options.parent ? { parentMessageId: options.parent } : {}) },
    ...Array.from({ length: parts }, (_, i) => ({
      type: 'TOOL_CALL_ARGS',
      toolCallId,
      delta: text.slice(i * size, (i + 1) * size),
    })).filter((e) => e.delta),
  ];
  if (options.end !== false) out.push({ type: 'TOOL_CALL_END', toolCallId });
  if (options.result !== undefined) {
    out.push({
      type: 'TOOL_CALL_RESULT',
      messageId: `${toolCallId}-result`,
      toolCallId,
      content: typeof options.result === 'string' ? options.result : JSON.stringify(options.result),
    });
  }
  return out;
}

/** Resolves once `predicate` holds for the store's state. */
export function waitForState(store: AgentStore, predicate: (state: ReturnType<AgentStore['getState']>) => boolean): Promise<void> {
  return new Promise((resolve) => {
    if (predicate(store.getState())) return resolve();
    const stop = store.subscribe((state) => {
      if (predicate(state)) {
        stop();
        resolve();
      }
    });
  });
}

/**
 * A store whose run is still in flight: the agent sent `events` and keeps
 * the connection open (until stopped), as during a long step.
 */
export async function liveStore(events: ScriptEvent[], options: Partial<AgentStoreOptions> = {}): Promise<AgentStore> {
  const source: AgentSource = {
    async *run(_input, runOptions = {}) {
      runOptions.onConnection?.('open');
      for (const event of events) yield event;
      await new Promise<void>((resolve) => runOptions.signal?.addEventListener('abort', () => resolve(), { once: true }));
    },
  };
  const store = createAgentStore({ threadId: STORY_THREAD, ...options, source });
  void store.getState().run('Go');
  await waitForState(store, (s) => s.eventCount >= events.length && s.thread.eventCount > 0);
  return store;
}
