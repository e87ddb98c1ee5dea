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

/** The entries of a controller's `log` option, an array or a recording. */
export const entriesOf = (log: readonly SessionEntry[] | Recording | undefined): readonly SessionEntry[] | undefined =>
  log && (Array.isArray(log) ? log : (log as Recording).entries);

/**
 * A recording of `entries` (a saved session, `parseSession(text).entries`, or
 * a controller's `log.entries`). Its code loads with the engine: it is read
 * once `loadEngine()` has resolved (a read before throws, with the code
 * `ENGINE_NOT_LOADED`), and `prepare()` loads it first.
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
  let made: SessionRecording | undefined;
  const real = () => (made ??= needed(loadedEngine()).createRecording(entries, options) as SessionRecording);
  return {
    entries,
    stateAt: (index) => real().stateAt(index),
    until: (index) => real().until(index),
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
  // createRecording's (the engine's) starts at its checkpoint; any other log is replayed from its entries.
  const recording = typeof (log as SessionRecording | undefined)?.machine === 'function' ? (log as SessionRecording) : undefined;
  return {
    machine: recording ? recording.machine(callbacks) : createThreadMachine(callbacks),
    saved: entriesOf(log),
    applied: recording !== undefined,
    timeTravel(own: readonly SessionEntry[]): (index: number) => ThreadState {
      let ownLog: Recording | undefined;
      return (index) => {
        if (recording && index < recording.entries.length) return recording.stateAt(index);
        ownLog ??= needed(loadedEngine()).createRecording(own);
        return ownLog.stateAt(index);
      };
    },
  };
}
