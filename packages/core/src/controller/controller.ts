import { newId } from '../ids.js';
import type { Diagnostic } from '../model.js';
import { stoppable } from '../reducer/local.js';
import { ownJson } from '../reducer/ownJson.js';
import { createAgentClock } from './agentClock.js';
import { loadedEngine } from './engineLoader.js';
import { createJournal } from './journal.js';
import { refusals, sameRefusal } from './refusals.js';
import { appClock, copyOf, tellApp } from './report.js';
import { resumeAction } from './resumeAction.js';
import { checkedOptions, runInput, runRefusal, threadStart, userMessage } from './runInput.js';
import { runJoin } from './runJoin.js';
import type { SessionEntryBody } from './sessionLog.js';
import { sharedStateActions } from './sharedStateEdit.js';
import { startFrom } from './startFrom.js';
import { createStreams } from './streams.js';
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
  let options = checkedOptions(initialOptions);
  /** The thread's start: its id, initial messages and document (a saved log's latest). A reset starts the next one. */
  let start = threadStart(initialOptions);
  let threadId = start.threadId;
  // The app's clock when it gave one; else the agent's, as far as its stamped events tell it.
  const agentTime = createAgentClock();
  const clock = appClock(() => options.now ?? agentTime.now);
  let destroyed = false;
  /** Applying a saved log as the controller is made, or destroyed: the app's onEvent and onDiagnostic hear only what happens live. */
  let quiet = true;
  /** Bumped by stop, reset and destroy: a run waiting to start (for edits to apply) that sees it changed does not start. */
  let epoch = 0;
  /** Bumped by reset: one that sees it changed while its streams ended (a listener reset) does no more. */
  let resets = 0;

  const { machine, saved, applied, timeTravel } = startFrom(options.log, {
    engine: loadedEngine,
    // A saved log applies (here or in the machine a recording makes) before any stream, and quietly. The app's
    // listener gets a copy: what it changes is its own, never the thread's or the log's.
    onEvent: (event, index) => {
      if (quiet) return;
      if (options.onEvent) tellApp(options.onEvent, copyOf(event), index);
      if (event.type === 'RUN_FINISHED' && streams.current) runFinished(streams.current, String(event.runId));
    },
    // The listener in force when the diagnostic is found: one configured mid-stream hears the rest of it, one taken away no more.
    onDiagnostic: (diagnostic: Diagnostic) => {
      if (options.onDiagnostic && !quiet) tellApp(options.onDiagnostic, diagnostic);
    },
  });
  const journal = createJournal(machine, clock);
  const { log, record, flush, publish } = journal;
  const client = (entry: SessionEntryBody, still?: () => boolean) => journal.client(entry, streams.current, still);

  // The same refusal again publishes nothing: a listener that acts on each change is not told of it over and over.
  const refuse = (refusal: Refusal): ActionResult => {
    if (!sameRefusal(journal.snapshot.refusal, refusal)) publish({ refusal });
    return { ok: false, ...refusal };
  };
  const refused = (refusal: Refusal) => Promise.resolve(refuse(refusal));
  const runs = runJoin();
  const runFinished = frontendTools({ thread: () => machine.thread, tools: () => options.tools, client, publish });

  const streams = createStreams({
    source: initialOptions.source,
    machine,
    journal,
    getOptions: () => options as RunControllerOptions,
    agentClock: agentTime,
    continueRun: () => startRun({}),
  });

  const open = (request: RunRequest) => streams.open(runInput(threadId, machine.thread, request, options), 'run');
  /** When the shared-state edits asked for so far apply (a request waits, so it sends them); from onEvent, the event. */
  const editsApplied = () => shared.settled() ?? (journal.busy ? new Promise<void>((applied) => journal.later(applied)) : undefined);
  /** Sends a request once edits and event have applied (it sends them); in flight at once, so a stop meanwhile drops it. */
  const whenReady = (send: () => Promise<ActionResult>): Promise<ActionResult> => {
    const ready = editsApplied();
    if (!ready) return send();
    publish({ inFlight: 'run' });
    const at = epoch;
    return ready.then(() => {
      if (destroyed) return refuse(refusals.destroyed);
      if (at !== epoch) return { ok: true, status: machine.thread.run.status };
      return send();
    });
  };
  const startRun = (request: RunRequest): Promise<ActionResult> => {
    // The user's message is on screen at once, whatever the request waits for (edits, the engine); a stop meanwhile keeps it.
    if (request.message !== undefined) client({ type: 'user_message', message: ownJson(userMessage(request.message)) });
    return whenReady(() => open(request));
  };

  /** Ends every stream; false when a listener told of the events that applied meanwhile stopped, reset or destroyed. */
  const teardownAll = (why?: Refusal): boolean => {
    const at = ++epoch;
    streams.teardownAll(why);
    return at === epoch && !destroyed;
  };

  const shared = sharedStateActions<Doc>({
    later: journal.later,
    // The document an edit starts from has the events already received applied: the edit lands after them in the log too.
    thread: () => {
      if (streams.current) flush(streams.current);
      return machine.thread;
    },
    apply: (entry) => {
      client(entry);
      publish({ refusal: undefined });
    },
    refuse,
    gone: () => destroyed,
  });
  const resume = resumeAction({
    getOptions: () => options as RunControllerOptions,
    thread: () => machine.thread,
    clock,
    inFlight: () => journal.snapshot.inFlight !== undefined,
    claim: () => {
      publish({ inFlight: 'resume', refusal: undefined });
      return epoch;
    },
    still: (at) => at === epoch,
    release: (at) => at === epoch && !destroyed && publish({ inFlight: undefined }),
    destroyed: () => destroyed,
    refuse,
    gone: () => refusals.destroyed,
    record: (entry, decisions) => {
      // A decision whose answer the thread gave back (the agent never took it) gives way to the new one.
      const taken = new Set(machine.thread.answers.map((a) => `${a.runId} ${a.interruptId}`));
      const kept = journal.snapshot.decisions.filter((d) => taken.has(`${d.runId} ${d.interruptId}`));
      client(entry);
      publish({ decisions: [...kept, ...decisions] });
    },
    stream: (input) => streams.open(input, 'resume'),
    settled: () => shared.settled(),
  });

  journal.open(saved, start, options.asRecorded, applied);
  quiet = false;
  // A saved event log has no init line: its thread is the one its events name, and runs and resumes go on under it.
  if (!initialOptions.threadId && saved?.length && !saved.some((e) => e.type === 'init')) {
    threadId = machine.thread.threadId ?? threadId;
    start = { ...start, threadId };
  }

  const askCapabilities = () => destroyed || streams.capabilities((capabilities) => destroyed || publish({ capabilities }));
  if (options.askCapabilities !== 'when-held') askCapabilities();

  const controller: RunController<Doc> = {
    getSnapshot: () => journal.snapshot,
    subscribe: journal.subscribe,
    log,
    stateAt: timeTravel(log.entries),
    configure(next) {
      options = { ...options, ...checkedOptions(next) };
    },
    now: clock,
    askCapabilities: () => void askCapabilities(),

    run(request = {}) {
      if (destroyed) return refused(refusals.destroyed);
      const asked = typeof request === 'string' ? { message: request } : request;
      if (journal.snapshot.inFlight) return runs.join(asked) ?? refused(refusals.runInProgress);
      const problem = runRefusal(machine.thread, asked);
      return problem ? refused(problem) : runs.hold(asked, startRun(asked));
    },
    stop() {
      if (destroyed || (!journal.snapshot.inFlight && !streams.any)) return;
      const wasStreaming = machine.streaming;
      if (!teardownAll()) return;
      if (wasStreaming || stoppable(machine.thread)) journal.record({ type: 'stop' });
      resume.forget();
      publish({ inFlight: undefined, connection: 'closed' });
    },
    resume: (responses) => resume.resume(responses),
    cancelInterrupts: () => resume.resume(machine.thread.interrupts.map((it) => ({ interruptId: it.id, status: 'cancelled' as const }))),
    updateSharedState: shared.update,
    setState: shared.set,
    reconnect() {
      if (destroyed) return refused(refusals.destroyed);
      if (journal.snapshot.inFlight) return refused(refusals.stillConnected);
      // A request that failed before its first event is sent again; a run cut off in a saved log has no stream to go on from.
      if (!streams.reconnectFrom && streams.retryable) return controller.retry();
      const from = streams.reconnectFrom;
      if (!from || !machine.reconnectable) return refused(machine.reconnectable ? refusals.savedCutOff : refusals.nothingToReconnect);
      if (from.lastEventId === undefined) return refused(refusals.noResumePoint);
      return streams.open(from.input, from.kind, from);
    },
    retry() {
      if (destroyed) return refused(refusals.destroyed);
      if (journal.snapshot.inFlight) return refused(refusals.requestInFlight);
      if (!streams.retryable) return refused(refusals.nothingToRetry);
      return whenReady(() => {
        const again = streams.retry(clock());
        if (again !== undefined && !('code' in again)) return again;
        // Nothing to send after all: what the wait claimed goes with the refusal.
        publish({ inFlight: undefined });
        return refused(again ?? refusals.nothingToRetry);
      });
    },
    reset() {
      if (destroyed) return;
      const at = ++resets;
      teardownAll();
      if (destroyed || at !== resets) return;
      resume.forget();
      shared.forget();
      record({ type: 'reset' });
      // A new id unless the app named the thread (the agent may keep the old); a start is logged for it, or for a log with none.
      const named = options.threadId !== undefined;
      if (!named) threadId = newId('thread');
      if (!named || !machine.started) {
        const { at: _at, ...rest } = start as typeof start & { at?: number };
        start = { ...rest, threadId };
        record(start);
      }
      publish({ connection: 'idle', failure: undefined, refusal: undefined, inFlight: undefined, decisions: [] });
    },
    destroy() {
      if (destroyed) return;
      destroyed = true;
      quiet = true;
      // What was in flight answers DESTROYED, never as a run that finished; a run already over (a listener told of its end) as it ended.
      teardownAll(journal.snapshot.inFlight && refusals.destroyed);
      resume.forget();
      // After the event that prompted it: the log says how what was in flight ended (for a remount), the snapshot shows it.
      journal.later(() => {
        journal.endLeftOpen(machine.thread.run.status === 'running');
        publish({ inFlight: undefined, connection: 'closed', destroyed: true });
        journal.close();
      });
    },
  };
  return controller;
}
