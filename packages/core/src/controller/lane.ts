import type { ThreadState } from '../model.js';
import type { AgentCapabilities } from '../protocol.js';
import { type AgentSource, AgentTransportError, type SourceRunOptions } from '../transports/source.js';
import type { AgentClock } from './agentClock.js';
import { type Engine, loadEngine, loadedEngine } from './engineLoader.js';
import { engineUnavailable } from './failure.js';
import type { ThreadMachine } from './machine.js';
import { reportThrown } from './report.js';
import { frameScheduler } from './scheduler.js';
import type { SessionEntryBody } from './sessionLog.js';
import type { Stream } from './stream.js';
import type { RunControllerOptions, RunFailure, RunSnapshot } from './types.js';

export interface LaneDeps {
  source: AgentSource;
  machine: ThreadMachine;
  record(entry: SessionEntryBody): void;
  flush(stream: Stream): void;
  publish(patch?: Partial<RunSnapshot>): void;
  isCurrent(stream: Stream): boolean;
  getOptions(): RunControllerOptions;
  /** Reads the stamps of the events received, and the time the answers give. */
  agentClock: AgentClock;
}

/** How a stream ended: whether it can be resumed where it dropped, what failed, and whether the transport threw. */
export interface Ended {
  reconnectable: boolean;
  failure?: RunFailure;
  threw?: boolean;
}

export interface Lane {
  /** Runs one stream from its request to its end, and records how it ended. */
  deliver(stream: Stream): Promise<Ended>;
  /** Asks the source what the agent supports, the first time only; `known` hears an answer (a failure, or none, is no answer). */
  capabilities(known: (capabilities: AgentCapabilities) => void): void;
}

const running = (thread: ThreadState) => thread.run.status === 'running';

/** What a stream that answers a run says first: the run's start, or that it failed before it began. */
const RUN_LIFECYCLE = new Set<unknown>(['RUN_STARTED', 'RUN_ERROR']);

/**
 * The way events travel from the source to the log: received into the
 * stream's batch, applied one batch per frame (a terminal event at once),
 * and, when the stream is over, its end and any failure recorded as log
 * entries. A stream torn down on the way writes nothing more.
 */
/**
 * An event as the wire (and a saved log) has it: an in-process source may hand
 * over an object made from another (a class's instance, `Object.create`),
 * whose inherited members JSON leaves out; it is taken as JSON writes it. A
 * plain object, or one JSON cannot write (a cycle, to be diagnosed), is
 * taken as it is.
 */
function asSent(event: unknown): unknown {
  if (typeof event !== 'object' || event === null || Array.isArray(event)) return event;
  const proto = Object.getPrototypeOf(event);
  if (proto === Object.prototype || proto === null) return event;
  try {
    return JSON.parse(JSON.stringify(event));
  } catch {
    return event;
  }
}

export function createLane(deps: LaneDeps): Lane {
  const { source, machine } = deps;
  // Asked for as the controller is made, so it is there by the first run.
  loadEngine().catch(() => undefined);
  // Asked once: what the agent supports does not change under a thread.
  let asked = false;
  return {
    capabilities(known) {
      if (asked) return;
      asked = true;
      if (!source.capabilities) return;
      // An app's source may throw at once, or give a value rather than a promise: either is taken as a promise would be.
      new Promise<AgentCapabilities | undefined>((resolve) => resolve(source.capabilities?.()))
        .then((capabilities) => capabilities !== undefined && known(capabilities))
        .catch(() => undefined);
    },
    async deliver(s) {
      let attempt: { attempt: number; of: number } | undefined;
      // The source's request is over: a callback of it that comes later (a late 'open', event or id) says nothing of the run.
      let over = false;
      const runOptions: SourceRunOptions = {
        signal: s.request.signal,
        onConnection: (connection) => {
          if (s.live && !over && deps.isCurrent(s))
            deps.publish({ connection, reconnecting: connection === 'reconnecting' ? attempt : undefined });
        },
        // Said just before `reconnecting`, which publishes it.
        onReconnecting: (n, of) => {
          attempt = { attempt: n, of };
        },
        // An empty id is the agent resetting it (the SSE standard): there is no point to resume after.
        // A source of the app's may give a number (taken as its digits) or something no header can carry (ignored).
        onEventId: (id: unknown) => {
          if (over) return;
          if (typeof id === 'number' && Number.isFinite(id)) s.lastEventId = String(id);
          else if (typeof id === 'string') s.lastEventId = id === '' ? undefined : id;
        },
        onServerTime: deps.agentClock.answered,
        streamState: s.streamState,
        ...(s.lastEventId !== undefined ? { lastEventId: s.lastEventId } : {}),
      };
      const scheduled = () => {
        s.cancelFlush = undefined;
        deps.flush(s);
      };
      const receive = (sent: unknown) => {
        // A stream that was torn down (stop, reset, destroy) was aborted with it: its last events are ignored, as are
        // those a source hands over once its request is over (its end is in the log, and another stream may be open).
        if (!s.live || over) return;
        const raw = asSent(sent);
        deps.agentClock.heard(raw);
        s.received++;
        const type = (raw as { type?: unknown } | null)?.type;
        if (!lifecycle) lifecycle = RUN_LIFECYCLE.has(type) && takes(raw);
        s.pending.push(raw);
        if (type === 'RUN_FINISHED' || type === 'RUN_ERROR') deps.flush(s);
        else if (!s.cancelFlush) {
          let ran = false;
          try {
            const cancel = (deps.getOptions().scheduler ?? frameScheduler)(() => {
              ran = true;
              scheduled();
            });
            // A scheduler that flushed at once (no batching) left nothing to cancel: the next event schedules again.
            if (!ran) s.cancelFlush = cancel;
          } catch (e) {
            // The app's scheduler threw: its bug is reported, and the batch is applied now rather than never.
            reportThrown(e);
            deps.flush(s);
          }
        }
      };
      let failure: RunFailure | undefined;
      let threw = false;
      if (!loadedEngine()) {
        // The engine applies the events: a first run made before it has loaded waits for it, and is not sent if it cannot load.
        const unavailable = await loadEngine().then(() => undefined, engineUnavailable);
        if (!s.live) return { reconnectable: false };
        if (unavailable) {
          deps.record({ type: 'failed', failure: unavailable });
          return { reconnectable: false, failure: unavailable, threw: true };
        }
      }
      // Torn down before the request went out (a listener of the stream's start stopped it): nothing is sent.
      if (!s.live) return { reconnectable: false };
      // Loaded from here on: what says why the request failed is part of it.
      const { classifyFailure, takes } = loadedEngine() as Engine;
      // Whether the agent's events said anything of a run the thread takes (its start, or a failure before it began).
      let lifecycle = false;
      try {
        // The push form, when the source has it, hands events over without an asynchronous hop per event.
        const delivered = source.deliver
          ? Promise.resolve(source.deliver(s.input, runOptions, receive))
          : (async () => {
              for await (const raw of source.run(s.input, runOptions)) {
                if (!s.live) break;
                receive(raw);
              }
            })();
        // A source that ignores its abort signal is let go once the stream is torn down: the action settles all the same.
        delivered.catch(() => undefined);
        await Promise.race([delivered, s.tornDown]);
      } catch (e) {
        if (!s.live) return { reconnectable: false };
        failure = classifyFailure(e, s.before + s.received, s.kind, attempt?.attempt);
        threw = true;
      } finally {
        over = true;
      }
      if (!s.live) return { reconnectable: false };
      deps.flush(s);
      // Events that say nothing of a run (another protocol at the URL, an agent that never says RUN_STARTED or RUN_ERROR):
      // no event of a run arrived.
      const noRun = s.before === 0 && s.received > 0 && !lifecycle;
      if (s.before + s.received === 0 || noRun) {
        // Nothing of the run arrived: the request failed, or the agent answered with an empty stream.
        const said = noRun ? `its ${s.received} events started no run (no RUN_STARTED).` : 'the stream ended before its first event.';
        failure ??= classifyFailure(new AgentTransportError('NOT_EVENT_STREAM', said), 0);
        deps.record({ type: 'failed', failure });
        return { reconnectable: false, failure, threw };
      }
      // A reconnect the agent had nothing more for ends where the run was: still cut off.
      const open = machine.streaming && running(machine.thread);
      deps.record({ type: 'stream_end', open });
      // Its diagnostic's listener stopped or reset the thread: nothing more of this stream is written.
      if (!s.live) return { reconnectable: false };
      // A stream that ends inside its run lost the rest of it, whatever the source said.
      if (open) {
        failure ??= classifyFailure(new AgentTransportError('CONNECTION_LOST', 'The stream ended inside its run.'), s.before + s.received);
        failure = { ...failure, reconnectable: s.lastEventId !== undefined };
      }
      if (failure) deps.record({ type: 'failed', failure });
      return { reconnectable: open, threw, ...(failure ? { failure } : {}) };
    },
  };
}
