import {
  addToolResult,
  appendMessages,
  cancelRun,
  createEventLog,
  createEventPipeline,
  createThreadState,
  type EventLog,
  type EventPipeline,
  loadResumeBuilder,
  markToolCallExecuting,
  newId,
  type ResumeResponse,
  type RunAgentInput,
  recordResume,
  type SourceRunOptions,
  setSharedDocument,
  type ThreadState,
  type UserMessage,
} from '@aguikit/core';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { resumePreloader } from './preload.js';
import { runInput, toolsInput } from './runInput.js';
import { frameScheduler } from './scheduler.js';
import { hasExactFields, withThread } from './stateCopy.js';
import type { ActionResult, AgentStoreOptions, AgentStoreState, Refusal, RunRequest } from './types.js';

/** A thread's store: zustand's `getState`/`subscribe`, plus the raw event log and late option updates. */
export interface AgentStore extends StoreApi<AgentStoreState> {
  /** The raw events received, in arrival order (append-only; `state.eventCount` says how many). */
  readonly log: EventLog;
  /** Replaces callbacks, tools, context and the like without recreating the store (the source stays). */
  configure(options: Partial<Omit<AgentStoreOptions, 'source'>>): void;
  /** The store's clock (its `now` option, or `Date.now`): what interrupt expiry is measured with. */
  now(): number;
}

/** The validator of answers none of which has a schema to meet. */
const noSchema = (): string[] => [];

/**
 * Creates the store that owns one thread. Events from the source go through
 * core's validate -> expand -> verify -> reduce and are applied one batch per
 * animation frame (terminal events at once), so a token costs one store
 * update per frame, not one per event. The actions enforce the rules a UI
 * must not break: one run at a time, no new message while interrupts are
 * open, exactly one resume request for the same interrupts, and a run that a
 * newer one replaced never touches the newer run's state.
 *
 * @example
 * const store = createAgentStore({ source: httpSseSource({ url: '/api/agent' }) });
 * await store.getState().run('Refund order A-1001');
 */
export function createAgentStore(initialOptions: AgentStoreOptions): AgentStore {
  let options = initialOptions;
  const source = initialOptions.source;
  const threadId = initialOptions.threadId ?? newId('thread');
  let log = createEventLog();
  /** Bumped by every new stream, stop and reset: a stream whose number is old no longer writes. */
  let generation = 0;
  let controller: AbortController | undefined;
  let active: EventPipeline | undefined;
  let pending: unknown[] = [];
  /** An empty list for the next batch: with one flush per event, a list per flush would be an allocation per event. */
  let spare: unknown[] | undefined;
  let cancelFlush: (() => void) | undefined;
  let resumeInFlight: Promise<ActionResult> | undefined;
  /** Where a dropped stream can be resumed from. */
  let resumable:
    | { input: RunAgentInput; kind: 'run' | 'resume'; pipeline: EventPipeline; lastEventId?: string; fromStart?: boolean }
    | undefined;
  const toolRuns = new Map<string, Promise<void>>();
  /** The state the last flush set, known to hold exactly the fields of AgentStoreState. */
  let flushed: AgentStoreState | undefined;

  const preloadResume = resumePreloader();

  /**
   * Aborts the current stream's request. An abort already made is not made
   * again: Node builds its AbortError, stack trace included, before it looks
   * whether the signal was aborted.
   */
  const abortStream = () => {
    if (controller && !controller.signal.aborted) controller.abort();
  };

  const freshThread = (): ThreadState => {
    const base = createThreadState({ threadId, ...(options.initialState !== undefined ? { state: options.initialState } : {}) });
    return options.initialMessages?.length ? appendMessages(base, options.initialMessages) : base;
  };

  const store = createStore<AgentStoreState>()((set, get) => {
    const refuse = (refusal: Refusal): ActionResult => {
      set({ refusal });
      return { ok: false, ...refusal };
    };

    /** Applies a client-side transition to the thread, through the stream when one is open. */
    const mutate = (change: (s: ThreadState) => ThreadState) => {
      if (active) set({ thread: active.update(change) });
      else set({ thread: change(get().thread) });
    };

    const flush = () => {
      cancelFlush?.();
      cancelFlush = undefined;
      if (!active || pending.length === 0) return;
      const batch = pending;
      pending = spare ?? [];
      spare = undefined;
      for (let i = 0; i < batch.length; i++) active.push(batch[i]);
      // Emptied by pop, which keeps the array's storage (setting the length to 0 would drop it), for the next batch.
      while (batch.length) batch.pop();
      spare = batch;
      const state = get();
      // The state as the previous flush left it (or checked to hold exactly the fields of AgentStoreState, no
      // more, no fewer) is replaced by a literal copy; anything else is merged by zustand.
      if (state === flushed || hasExactFields(state)) {
        flushed = withThread(state, active.state, log.entries.length);
        set(flushed, true);
      } else set({ thread: active.state, eventCount: log.entries.length });
      preloadResume(active.state.interrupts);
    };

    /** The flush a scheduler runs: it has fired, so there is nothing left to cancel. */
    const scheduledFlush = () => {
      cancelFlush = undefined;
      flush();
    };

    /** Starts the handler of a frontend tool whose arguments just completed; its result is kept whenever it lands. */
    const startTool = (toolCallId: string, gen: number) => {
      const call = (active?.state ?? get().thread).toolCalls.get(toolCallId);
      const tool = call ? options.tools?.[call.name] : undefined;
      if (!call || !tool || toolRuns.has(toolCallId)) return;
      mutate((s) => markToolCallExecuting(s, toolCallId));
      const done = (async () => {
        let result: { content: string; error?: string };
        try {
          const value = await tool.handler(call.args, call);
          result = { content: typeof value === 'string' ? value : JSON.stringify(value ?? null) };
        } catch (e) {
          const message = e instanceof Error ? e.message : String(e);
          result = { content: message, error: message };
        }
        if (gen <= generation) mutate((s) => addToolResult(s, { toolCallId, ...result }));
      })();
      toolRuns.set(toolCallId, done);
    };

    const stream = async (input: RunAgentInput, kind: 'run' | 'resume', resumeFrom?: typeof resumable): Promise<ActionResult> => {
      const gen = ++generation;
      abortStream();
      const ctrl = new AbortController();
      controller = ctrl;
      const pipeline =
        resumeFrom?.pipeline ??
        createEventPipeline(get().thread, {
          // Diagnostics carry the index the event has in the store's log, across every run of the thread.
          startIndex: log.entries.length,
          onEvent: (event, index) => {
            options.onEvent?.(event, index);
            if (event.type === 'TOOL_CALL_END' && 'toolCallId' in event) queueMicrotask(() => startTool(String(event.toolCallId), gen));
          },
          ...(options.onDiagnostic ? { onDiagnostic: (d) => options.onDiagnostic?.(d) } : {}),
        });
      active = pipeline;
      resumable = undefined;
      pending = [];
      let lastEventId = resumeFrom?.lastEventId;
      let received = 0;
      set({ inFlight: kind, connection: 'connecting', error: undefined, refusal: undefined, thread: pipeline.state });
      const current = () => gen === generation;
      try {
        const runOptions: SourceRunOptions = {
          signal: ctrl.signal,
          onConnection: (connection) => current() && set({ connection }),
          onEventId: (id) => {
            lastEventId = id;
          },
          ...(lastEventId !== undefined ? { lastEventId } : {}),
        };
        const receive = (raw: unknown) => {
          // A stream a newer one replaced (or stop, or reset) was aborted with it: its last events are ignored.
          if (!current()) return;
          received++;
          log.record(raw, Date.now());
          pending.push(raw);
          const type = (raw as { type?: unknown } | null)?.type;
          if (type === 'RUN_FINISHED' || type === 'RUN_ERROR') flush();
          else cancelFlush ??= (options.scheduler ?? frameScheduler)(scheduledFlush);
        };
        // The push form, when the source has it, hands events over without an asynchronous hop per event.
        if (source.deliver) await source.deliver(input, runOptions, receive);
        else
          for await (const raw of source.run(input, runOptions)) {
            if (!current()) break;
            receive(raw);
          }
        if (!current()) return { ok: true, status: get().thread.run.status };
        flush();
        settle(pipeline, input, kind, lastEventId, received);
      } catch (e) {
        if (!current()) return { ok: true, status: get().thread.run.status };
        flush();
        const err = e as { message?: string; code?: string; status?: number };
        set({
          error: {
            message: err.message ?? String(e),
            ...(err.code ? { code: err.code } : {}),
            ...(err.status ? { status: err.status } : {}),
          },
        });
        settle(pipeline, input, kind, lastEventId, received);
      }
      return afterRun(gen);
    };

    /** The stream is over: a run still open is `unknown` (and can be resumed if the server gave ids). */
    const settle = (
      pipeline: EventPipeline,
      input: RunAgentInput,
      kind: 'run' | 'resume',
      lastEventId: string | undefined,
      received: number,
    ) => {
      active = undefined;
      const open = pipeline.state.run.status === 'running';
      if (open) resumable = { input, kind, pipeline, ...(lastEventId !== undefined ? { lastEventId } : {}) };
      // The request failed before its first event: sending it again as it was cannot apply anything twice.
      else if (received === 0 && get().error && !get().error?.status) resumable = { input, kind, pipeline, fromStart: true };
      const thread = open ? pipeline.truncated() : pipeline.end();
      // end() reports what it finds; the truncation of a run that may be resumed stays out of the pipeline, so report it here.
      if (open) for (const d of thread.diagnostics.slice(pipeline.state.diagnostics.length)) options.onDiagnostic?.(d);
      set({
        thread,
        inFlight: undefined,
        connection: get().error ? 'failed' : 'closed',
        eventCount: log.entries.length,
      });
    };

    /** After a run: wait for its frontend tools, then continue the conversation with their results. */
    const afterRun = async (gen: number): Promise<ActionResult> => {
      const runs = [...toolRuns.values()];
      toolRuns.clear();
      if (runs.length === 0) return { ok: true, status: get().thread.run.status };
      await Promise.all(runs);
      const thread = get().thread;
      if (gen !== generation || thread.run.status !== 'success' || thread.interrupts.length || options.autoContinue === false) {
        return { ok: true, status: thread.run.status };
      }
      return startRun({});
    };

    const startRun = (request: RunRequest): Promise<ActionResult> => {
      const { message } = request;
      if (message !== undefined) {
        const user: UserMessage =
          typeof message === 'object' && !Array.isArray(message) ? message : { id: newId('msg'), role: 'user', content: message };
        set({ thread: appendMessages(get().thread, [user]) });
      }
      return stream(runInput(threadId, get().thread, request, options), 'run');
    };

    return {
      thread: freshThread(),
      connection: 'idle',
      eventCount: 0,
      decisions: [],

      run(request = {}) {
        const state = get();
        if (state.inFlight)
          return Promise.resolve(
            refuse({ code: 'RUN_IN_PROGRESS', message: 'A run is already in progress: stop it or wait for it to end.' }),
          );
        if (state.thread.interrupts.length) {
          return Promise.resolve(
            refuse({
              code: 'INTERRUPTS_OPEN',
              message: `The agent is waiting for an answer to ${state.thread.interrupts.length} open interrupt(s): answer them (resume) or cancel them before sending a new message.`,
            }),
          );
        }
        return startRun(typeof request === 'string' ? { message: request } : request);
      },

      stop() {
        if (!get().inFlight && !active) return;
        generation++;
        abortStream();
        flush();
        mutate(cancelRun);
        active = undefined;
        resumable = undefined;
        resumeInFlight = undefined;
        set({ inFlight: undefined, connection: 'closed' });
      },

      resume(responses: ResumeResponse[]) {
        if (resumeInFlight) return resumeInFlight;
        if (get().inFlight) {
          return Promise.resolve(
            refuse({ code: 'RUN_IN_PROGRESS', message: 'A run is already in progress: its interrupts cannot be answered yet.' }),
          );
        }
        // The decision's time is the call's, however long the validator takes to load.
        const now = (options.now ?? Date.now)();
        const schemaFor = new Map(get().thread.interrupts.map((it) => [it.id, it.responseSchema]));
        const needsSchema = responses.some((r) => r.status === 'resolved' && schemaFor.get(r.interruptId) !== undefined);
        // Claimed at once, before any await: a second call (double click, StrictMode) joins this one.
        const promise = (async (): Promise<ActionResult> => {
          // Loaded when the interrupt opened (see preloadResume); ajv only when an answer has a schema to meet.
          const { buildResumeWith, loadPayloadValidator } = await loadResumeBuilder();
          const validate = needsSchema ? await loadPayloadValidator() : noSchema;
          const state = get();
          const built = buildResumeWith(state.thread, responses, {
            now,
            validate,
            tools: toolsInput(options.tools),
            context: options.context ?? [],
            ...(options.forwardedProps !== undefined ? { forwardedProps: options.forwardedProps } : {}),
          });
          if (!built.ok) {
            return refuse({ code: 'RESUME_REFUSED', message: built.errors.map((e) => e.message).join(' '), errors: built.errors });
          }
          for (const decision of built.decisions) options.onDecision?.(decision);
          // The answered interrupts close now, so nothing can answer them twice while the resume streams.
          set({
            decisions: [...state.decisions, ...built.decisions],
            thread: recordResume(state.thread, built.input.resume ?? [], built.input.runId),
          });
          return stream(built.input, 'resume');
        })().finally(() => {
          if (resumeInFlight === promise) resumeInFlight = undefined;
        });
        resumeInFlight = promise;
        return promise;
      },

      cancelInterrupts() {
        return get().resume(get().thread.interrupts.map((it) => ({ interruptId: it.id, status: 'cancelled' as const })));
      },

      setState(updater) {
        mutate((s) =>
          setSharedDocument(s, typeof updater === 'function' ? (updater as (d: unknown) => unknown)(s.sharedState.document) : updater),
        );
      },

      reconnect() {
        if (get().inFlight) return Promise.resolve(refuse({ code: 'RUN_IN_PROGRESS', message: 'The stream is still connected.' }));
        const from = resumable;
        if (!from)
          return Promise.resolve(
            refuse({ code: 'NOTHING_TO_RECONNECT', message: 'No run was cut off: there is nothing to reconnect to.' }),
          );
        if (from.lastEventId === undefined && !from.fromStart) {
          return Promise.resolve(
            refuse({
              code: 'NO_RESUME_POINT',
              message: 'The server sent no event ids, so the run cannot be resumed where it stopped; start a new run.',
            }),
          );
        }
        return stream(from.input, from.kind, from);
      },

      reset() {
        generation++;
        abortStream();
        cancelFlush?.();
        cancelFlush = undefined;
        active = undefined;
        resumable = undefined;
        resumeInFlight = undefined;
        pending = [];
        toolRuns.clear();
        log = createEventLog();
        set({
          thread: freshThread(),
          connection: 'idle',
          error: undefined,
          refusal: undefined,
          inFlight: undefined,
          eventCount: 0,
          decisions: [],
        });
      },
    };
  });

  const configure = (next: Partial<Omit<AgentStoreOptions, 'source'>>) => {
    options = { ...options, ...next };
  };
  // A getter, not a copied value: reset() starts a new log.
  const clock = () => (options.now ?? Date.now)();
  return Object.defineProperties(store, { log: { get: () => log }, configure: { value: configure }, now: { value: clock } }) as AgentStore;
}
