/**
 * Where a controller made with `log` starts. The recordings that time travel
 * reads (`recording.ts`) load with the engine: a controller made without a
 * saved recording needs none of that code before its first read.
 */
import type { ThreadState } from '../model.js';
import { loadEngine, loadedEngine, needed } from './engineLoader.js';
import { createThreadMachine, type MachineCallbacks } from './machine.js';
import type { Recording, RecordingOptions, SessionRecording } from './recording.js';
import type { SessionEntry } from './sessionLog.js';

/**
 * The thread after the first `count` of `entries` (clamped to them), replayed
 * from the start: how a log is read before the engine, and the recordings
 * that come with it, have loaded. Client entries need no engine; an agent
 * event throws `ENGINE_NOT_LOADED`.
 */
function replayed(entries: readonly SessionEntry[], index: number): ThreadState {
  const machine = createThreadMachine({ engine: loadedEngine });
  const count = Math.min(entries.length, Math.max(0, Math.floor(index) + 1));
  machine.batch(() => {
    for (let i = 0; i < count; i++) machine.apply(entries[i] as SessionEntry);
  });
  return machine.thread;
}

/** The entries of a controller's `log` option, an array or a recording. */
export const entriesOf = (log: readonly SessionEntry[] | Recording | undefined): readonly SessionEntry[] | undefined =>
  log && (Array.isArray(log) ? log : (log as Recording).entries);

/**
 * A recording of `entries` (a saved session, `parseSession(text).entries`, or
 * a controller's `log.entries`). Its code loads with the engine, as do its
 * agent events: before `loadEngine()` has resolved, its client entries read
 * as a replay does and an agent event throws `ENGINE_NOT_LOADED`;
 * `prepare()` loads the engine first.
 *
 * @example
 * await loadEngine();
 * const recording = createRecording(parseSession(text).entries);
 * recording.stateAt(150_000);                       // a few milliseconds, once read that far
 * createRunController({ source, log: recording.until(150_000), asRecorded: true });
 */
export function createRecording(entries: readonly SessionEntry[], options?: RecordingOptions): Recording {
  const engine = loadedEngine();
  if (engine) return engine.createRecording(entries, options);
  const every = options?.every;
  if (every !== undefined && (!Number.isSafeInteger(every) || every < 1))
    throw new RangeError(`createRecording: every is ${String(every)}; it must be a whole number of entries, 1 or more.`);
  let made: SessionRecording | undefined;
  const real = () => (made ??= needed(loadedEngine()).createRecording(entries, options) as SessionRecording);
  return {
    entries,
    // Before the engine, its client entries read as a replay does.
    stateAt: (index) => (loadedEngine() ? real().stateAt(index) : replayed(entries, index)),
    until: (index) =>
      loadedEngine() ? real().until(index) : createRecording(entries.slice(0, Math.max(0, Math.floor(index) + 1)), options),
    prepare: (prepared) => loadEngine().then(() => real().prepare(prepared)),
    // A controller made from it starts at its checkpoint, as from the engine's own.
    machine: (callbacks: MachineCallbacks) => real().machine(callbacks),
  } as Recording;
}

/**
 * A recording's view at its last entry, from its checkpoint (`applied`: the
 * journal only keeps the entries); else an empty machine, to which the
 * journal applies the saved entries. Its time travel reads that recording,
 * then the controller's own log as far as it has grown (a recording of it
 * made at the first read, with the engine, which the controller loads as it
 * is made).
 */
export function startFrom(log: readonly SessionEntry[] | Recording | undefined, callbacks: MachineCallbacks) {
  // createRecording's starts at its checkpoint once the engine is there; any other log, or one before, is replayed from its entries.
  const recording =
    loadedEngine() && typeof (log as SessionRecording | undefined)?.machine === 'function' ? (log as SessionRecording) : undefined;
  return {
    machine: recording ? recording.machine(callbacks) : createThreadMachine(callbacks),
    saved: entriesOf(log),
    applied: recording !== undefined,
    timeTravel(own: readonly SessionEntry[]): (index: number) => ThreadState {
      let ownLog: Recording | undefined;
      return (index) => {
        if (recording && index < recording.entries.length) return recording.stateAt(index);
        const engine = loadedEngine();
        if (!engine) return replayed(own, index);
        ownLog ??= engine.createRecording(own);
        return ownLog.stateAt(index);
      };
    },
  };
}
