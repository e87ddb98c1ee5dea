import { newId } from '../ids.js';
import type { ThreadState } from '../model.js';
import type { RunAgentInput } from '../protocol.js';
import { loadedEngine } from './engineLoader.js';
import { createJournal } from './journal.js';
import { createLane, type Lane } from './lane.js';
import { createThreadMachine, replayWith } from './machine.js';
import { interruptsOpen, refusals } from './refusals.js';
import { resumeAction } from './resumeAction.js';
import { runInput, userMessage } from './runInput.js';
import type { SessionEntryBody } from './sessionLog.js';
import { sharedStateActions } from './sharedStateEdit.js';
import { openStream, type Stream } from './stream.js';
import { frontendTools } from './tools.js';
import type { ActionResult, Refusal, RunController, RunControllerOptions, RunRequest } from './types.js';

/**
 * Creates the headless controller of one thread: the engine (validate ->
 * expand -> verify -> reduce, loaded on demand) behind actions that keep the
 * rules a UI must not break, a snapshot any binding can read (`subscribe` /
 * `getSnapshot`, as `useSyncExternalStore` wants them), a session log of
 * every change that replays exactly, and a lifecycle (`destroy`). Events are
 * applied one batch per animation frame (terminal events at once).
 *
 * @example
 * const controller = createRunController({ source: httpSseSource({ url: '/api/agent' }) });
 * const off = controller.subscribe(() => render(controller.getSnapshot()));
 * await controller.run('Refund order A-1001');
 * controller.destroy();
 */
export function createRunController<Doc = unknown>(initialOptions: RunControllerOptions<Doc>): RunController<Doc> {
  let options = initialOptions;
  const source = initialOptions.source;
  const saved = initialOptions.log?.find((e) => e.type === 'init');
  const threadId = saved?.type === 'init' ? saved.threadId : (initialOptions.threadId ?? newId('thread'));
  const clock = () => (options.now ?? Date.now)();
  const streams = new Set<Stream>();
  let current: Stream | undefined;
  /** Where the last dropped stream can be resumed from (its SSE id), or the request that can be sent again. */
  let reconnectFrom: Stream | undefined;
  let retryable: Stream | undefined;
  let destroyed = false;
  /** Bumped by stop, reset and destroy: a run waiting to start (for edits to apply) that sees it changed does not start. */
  let epoch = 0;

  const machine = createThreadMachine({
    engine: loadedEngine,
    onEvent: (event, index) => {
      options.onEvent?.(event, index);
      if (event.type === 'TOOL_CALL_END' && current) {
        const stream = current;
        const id = String(event.toolCallId);
        queueMicrotask(() => startTool(stream, id));
      }
    },
    // Read as each stream opens: without a listener the pipeline collects no per-event list of new diagnostics.
    get onDiagnostic() {
      return options.onDiagnostic;
    },
  });

  const journal = createJournal(machine, clock);
  const { log, record, flush, publish } = journal;
  const client = (entry: SessionEntryBody) => journal.client(entry, current);

  const refuse = (refusal: Refusal): ActionResult => {
    publish({ refusal });
    return { ok: false, ...refusal };
  };
  const refused = (refusal: Refusal) => Promise.resolve(refuse(refusal));
  const gone = (): Refusal => refusals.destroyed;

  const startTool = frontendTools({ thread: () => machine.thread, tools: () => options.tools, client, publish });

  const lane: Lane = createLane({
    source,
    machine,
    record,
    flush,
    publish,
    isCurrent: (s) => current === s,
    getOptions: () => options as RunControllerOptions,
  });

  const stream = async (input: RunAgentInput, kind: 'run' | 'resume', from?: Stream): Promise<ActionResult> => {
    const s = openStream(input, kind, from?.lastEventId);
    streams.add(s);
    current = s;
    reconnectFrom = retryable = undefined;
    record({ type: 'stream_start', kind, runId: input.runId, ...(from ? { reconnect: true } : {}) });
    publish({ inFlight: kind, connection: 'connecting', failure: undefined, refusal: undefined });
    const ended = await lane.deliver(s);
    if (current === s && s.live) {
      if (ended.reconnectable) reconnectFrom = s;
      if (ended.failure?.retryable) retryable = s;
      // `failed`: the transport broke or the request was refused; a stream that merely ended (even inside its run) is `closed`.
      const failed = ended.threw || (ended.failure !== undefined && ended.failure.eventsReceived === 0);
      publish({ inFlight: undefined, connection: failed ? 'failed' : 'closed', failure: ended.failure });
    }
    return afterRun(s);
  };

  /** After a run: wait for its frontend tools, then continue the conversation with their results. */
  const afterRun = async (s: Stream): Promise<ActionResult> => {
    const runs = [...s.tools.values()].map((t) => t.done);
    // A stream torn down (stop, reset, destroy) waits for none of its tools: their results are dropped anyway.
    if (runs.length) await Promise.race([Promise.all(runs), s.tornDown]);
    if (s.live) streams.delete(s);
    const thread = machine.thread;
    if (
      !runs.length ||
      !s.live ||
      current !== s ||
      thread.run.status !== 'success' ||
      thread.interrupts.length ||
      options.autoContinue === false
    ) {
      return { ok: true, status: thread.run.status };
    }
    return startRun({});
  };

  /** Starts a run once the shared-state edits asked for before it have applied, so it sends them. */
  const startRun = (request: RunRequest): Promise<ActionResult> => {
    const edits = shared.settled();
    if (!edits) return beginRun(request);
    // Claimed now: a second run is refused while the edits apply.
    publish({ inFlight: 'run' });
    const at = epoch;
    return edits.then(() => {
      if (destroyed) return refuse(gone());
      if (at !== epoch) return { ok: true, status: machine.thread.run.status };
      return beginRun(request);
    });
  };

  const beginRun = (request: RunRequest): Promise<ActionResult> => {
    if (request.message !== undefined) client({ type: 'user_message', message: userMessage(request.message) });
    return stream(runInput(threadId, machine.thread, request, options), 'run');
  };

  const teardownAll = () => {
    epoch++;
    for (const s of streams) {
      flush(s);
      s.teardown();
    }
    streams.clear();
    current = reconnectFrom = retryable = undefined;
  };

  const shared = sharedStateActions<Doc>({
    thread: () => machine.thread,
    apply: (entry) => {
      client(entry);
      publish();
    },
    gone: () => destroyed,
  });
  const resume = resumeAction({
    getOptions: () => options as RunControllerOptions,
    thread: () => machine.thread,
    clock,
    inFlight: () => journal.snapshot.inFlight !== undefined,
    destroyed: () => destroyed,
    refuse,
    gone,
    record: (entry, decisions) => {
      client(entry);
      publish({ decisions: [...journal.snapshot.decisions, ...decisions] });
    },
    stream: (input) => stream(input, 'resume'),
    settled: () => shared.settled(),
  });

  journal.open(options.log, {
    type: 'init',
    threadId,
    ...(options.initialMessages?.length ? { messages: options.initialMessages } : {}),
    ...(options.initialState !== undefined ? { state: options.initialState } : {}),
  });

  // Asked once: what the agent supports does not change under a thread.
  lane.capabilities((capabilities) => destroyed || publish({ capabilities }));

  const controller: RunController<Doc> = {
    getSnapshot: () => journal.snapshot,
    subscribe: journal.subscribe,
    log,
    stateAt: (index: number): ThreadState => replayWith(log.entries.slice(0, Math.max(0, index + 1)), loadedEngine),
    configure(next) {
      options = { ...options, ...next };
    },
    now: clock,

    run(request = {}) {
      if (destroyed) return refused(gone());
      if (journal.snapshot.inFlight) return refused(refusals.runInProgress);
      const open = machine.thread.interrupts.length;
      if (open) return refused(interruptsOpen(open));
      return startRun(typeof request === 'string' ? { message: request } : request);
    },
    stop() {
      if (destroyed || (!journal.snapshot.inFlight && streams.size === 0)) return;
      const wasStreaming = machine.streaming;
      teardownAll();
      if (wasStreaming || machine.thread.run.status === 'running') record({ type: 'stop' });
      resume.forget();
      publish({ inFlight: undefined, connection: 'closed' });
    },
    resume: (responses) => resume.resume(responses),
    cancelInterrupts: () => resume.resume(machine.thread.interrupts.map((it) => ({ interruptId: it.id, status: 'cancelled' as const }))),
    updateSharedState: shared.update,
    setState: shared.set,
    reconnect() {
      if (destroyed) return refused(gone());
      if (journal.snapshot.inFlight) return refused(refusals.stillConnected);
      // A request that failed before its first event (and may be sent again) reconnects by being sent again.
      if (!reconnectFrom && retryable) return controller.retry();
      const from = reconnectFrom;
      if (!from || !machine.reconnectable) return refused(refusals.nothingToReconnect);
      if (from.lastEventId === undefined) return refused(refusals.noResumePoint);
      return stream(from.input, from.kind, from);
    },
    retry() {
      if (destroyed) return refused(gone());
      if (journal.snapshot.inFlight) return refused(refusals.requestInFlight);
      const from = retryable;
      if (!from) return refused(refusals.nothingToRetry);
      // The same input, run id included: a server that did start the run behind a failed gateway can tell.
      return stream(from.input, from.kind);
    },
    reset() {
      if (destroyed) return;
      teardownAll();
      resume.forget();
      record({ type: 'reset' });
      publish({ connection: 'idle', failure: undefined, refusal: undefined, inFlight: undefined, decisions: [] });
    },
    destroy() {
      if (destroyed) return;
      destroyed = true;
      teardownAll();
      resume.forget();
      publish({ inFlight: undefined, connection: 'closed', destroyed: true });
      journal.close();
    },
  };
  return controller;
}
