import { isExpired } from '../expiry.js';
import type { RunAgentInput } from '../protocol.js';
import type { AgentSource } from '../transports/source.js';
import type { AgentClock } from './agentClock.js';
import type { Journal } from './journal.js';
import { createLane } from './lane.js';
import type { ThreadMachine } from './machine.js';
import { expiredSince, followUpsExhausted } from './refusals.js';
import { openStream, type Stream } from './stream.js';
import type { ActionResult, Refusal, RunControllerOptions } from './types.js';

export interface StreamsDeps {
  source: AgentSource;
  machine: ThreadMachine;
  journal: Journal;
  getOptions(): RunControllerOptions;
  /** Reads the stamps of the events received, and the time the answers give. */
  agentClock: AgentClock;
  /** Goes on with the conversation once a run's frontend tools have returned (a new run that sends their results). */
  continueRun(): Promise<ActionResult>;
}

/**
 * The streams of one controller: the current one (whose events and tools are
 * the thread's), the one a reconnect goes on with, the request a retry sends
 * again, and every stream still waiting on its frontend tools, all torn down
 * as one by `teardownAll`.
 */
export interface Streams {
  readonly current: Stream | undefined;
  /** The last stream cut off inside its run (its SSE id says where to go on). */
  readonly reconnectFrom: Stream | undefined;
  /** The last request that failed in a way sending it again could fix. */
  readonly retryable: Stream | undefined;
  /** Whether any stream is open or waits on its frontend tools. */
  readonly any: boolean;
  /**
   * Streams `input` to its end, waits for the frontend tools it started, and
   * goes on with the conversation when they returned results to a run that
   * succeeded. `from`: the stream a reconnect goes on with.
   */
  open(input: RunAgentInput, kind: 'run' | 'resume', from?: Stream): Promise<ActionResult>;
  /**
   * Sends the request that failed again (see `retryable`), run id included:
   * a server that did start the run behind a failed gateway can tell. A
   * resume's answers are recorded again first (the thread gave their
   * interrupts back when it failed), unless one of them has expired since
   * (it can only be cancelled now). Undefined when there is nothing to send.
   */
  retry(now: number): Promise<ActionResult> | Refusal | undefined;
  /** Tears every stream down (its waiting events applied first): nothing of them writes afterwards; `why`: what their actions answer. */
  teardownAll(why?: Refusal): void;
  /** Asks the source what the agent supports (see Lane). */
  capabilities: ReturnType<typeof createLane>['capabilities'];
}

export function createStreams(deps: StreamsDeps): Streams {
  const { machine, journal } = deps;
  const { record, flush, publish } = journal;
  const all = new Set<Stream>();
  let current: Stream | undefined;
  let reconnectFrom: Stream | undefined;
  let retryable: Stream | undefined;

  const lane = createLane({
    source: deps.source,
    machine,
    record,
    flush,
    publish,
    isCurrent: (s) => current === s,
    getOptions: deps.getOptions,
    agentClock: deps.agentClock,
  });

  /** Runs started by the controller itself in a row (to send tool results) since one the user asked for. */
  let followUps = 0;
  /** The next stream opened is such a run. */
  let continuing = false;

  /** After a run: wait for its frontend tools, then continue the conversation with their results (`maxFollowUps` times in a row). */
  const afterRun = async (s: Stream): Promise<ActionResult> => {
    const runs = [...s.tools.values()].map((t) => t.done);
    // A stream torn down (stop, reset, destroy) waits for none of its tools: their results are dropped anyway.
    if (runs.length) await Promise.race([Promise.all(runs), s.tornDown]);
    if (s.endedBy) return { ok: false, ...s.endedBy };
    if (s.live) all.delete(s);
    const thread = machine.thread;
    const mine = s.live && current === s;
    const options = deps.getOptions();
    if (runs.length && mine && thread.run.status === 'success' && !thread.interrupts.length && options.autoContinue !== false) {
      const max = options.maxFollowUps ?? 10;
      if (followUps < max) {
        followUps++;
        continuing = true;
        return deps.continueRun();
      }
      publish({ inFlight: undefined, refusal: followUpsExhausted(max) });
      return { ok: true, status: thread.run.status };
    }
    if (runs.length && mine && journal.snapshot.inFlight === s.kind) publish({ inFlight: undefined });
    return { ok: true, status: thread.run.status };
  };

  const streams: Streams = {
    get current() {
      return current;
    },
    get reconnectFrom() {
      return reconnectFrom;
    },
    get retryable() {
      return retryable;
    },
    get any() {
      return all.size > 0;
    },
    capabilities: lane.capabilities,
    async open(input, kind, from) {
      const s = openStream(input, kind, from);
      // A stream the user asked for (a run, a resume, a retry, a reconnect) starts the count of follow-ups again.
      if (!continuing) followUps = 0;
      continuing = false;
      // A reconnect goes on with the run it resumes: the frontend tools that run started are its own.
      if (from) for (const [id, tool] of from.tools) s.tools.set(id, tool);
      all.add(s);
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
        // While its frontend tools run, the turn is not over (their results go back to the agent): nothing else may start,
        // unless the stream was cut off, which reconnect() goes on with.
        const held = s.tools.size > 0 && !ended.reconnectable;
        publish({ inFlight: held ? kind : undefined, connection: failed ? 'failed' : 'closed', failure: ended.failure });
      }
      return afterRun(s);
    },
    retry(now) {
      const from = retryable;
      if (!from) return undefined;
      if (from.kind === 'resume') {
        const answers = from.input.resume ?? [];
        const open = new Map(machine.thread.interrupts.map((it) => [it.id, it]));
        if (!answers.every((a) => open.has(a.interruptId))) return undefined;
        const expired = answers.find((a) => a.status === 'resolved' && isExpired(open.get(a.interruptId) ?? {}, now));
        if (expired) return expiredSince(expired.interruptId);
        journal.client({ type: 'resume', runId: from.input.runId, resume: answers }, current);
      }
      // The same request, with the document as it is now: an edit made since the failure is sent, not undone by the run.
      return streams.open({ ...from.input, state: machine.thread.sharedState.document }, from.kind);
    },
    teardownAll(why) {
      for (const s of all) {
        flush(s);
        s.teardown(why);
      }
      all.clear();
      current = reconnectFrom = retryable = undefined;
      followUps = 0;
      continuing = false;
    },
  };
  return streams;
}
