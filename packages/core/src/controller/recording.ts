/**
 * Time travel over a session log. A replay of the log up to entry i costs
 * O(i): a viewer that shows a long recording at any point (a scrubber over
 * 200,000 entries) would replay it all at every step. A recording keeps a
 * checkpoint every `every` entries, built the first time a read passes it:
 * a copy of the machine there (the thread, and the open stream's pipeline
 * with its expander and verifier), to which nothing applies an entry again.
 * Reading entry i forks the checkpoint before it and applies at most `every`
 * entries: the thread is the one the replay gives, by the same code.
 */
import type { ThreadState } from '../model.js';
import { type Engine, loadedEngine } from './engineLoader.js';
import { createThreadMachine, type MachineCallbacks, type ThreadMachine } from './machine.js';
import { EventEntry, type SessionEntry } from './sessionLog.js';

export interface RecordingOptions {
  /**
   * Entries between two checkpoints (default 1,024): a read applies at most
   * this many. Each checkpoint holds the thread then (sharing what it did
   * not change with the others) and a copy of the open stream's bookkeeping.
   */
  every?: number;
}

/**
 * A session log read at any entry. `entries` are read as they are when a
 * read first passes them: a log that grows (a live controller's) is read as
 * far as it has grown; a change to an entry already read is not seen. A
 * view's `entries` (`until(i)`) list a saved agent event as a controller's
 * log does (an object of its own, with `receivedAt`), made once for every
 * view and every controller made from one.
 */
export interface Recording {
  readonly entries: readonly SessionEntry[];
  /** The thread after entry `index`, as `controller.stateAt` reads it (the same rules for odd numbers). */
  stateAt(index: number): ThreadState;
  /**
   * The recording up to entry `index` (from -1, none, to past the last, all),
   * sharing this one's checkpoints: `createRunController({ log })` takes it
   * and starts there without a replay.
   */
  until(index: number): Recording;
  /**
   * Reads the recording through ahead of its reads, in slices of a few
   * milliseconds with the page free between them (a first read otherwise
   * does it in one task: half a second for 200,000 entries). Loads the
   * engine first. `onProgress` hears the entries read so far, of all;
   * `signal` stops it between slices (the promise rejects with its reason;
   * what was read stays read).
   */
  prepare(options?: PrepareOptions): Promise<void>;
}

export interface PrepareOptions {
  signal?: AbortSignal;
  onProgress?: (read: number, of: number) => void;
}

const EVERY = 1024;

/** The count of entries up to and including entry `index`, within `length`: what a read at `index` applies. */
function countThrough(index: number, length: number, what: string): number {
  if (typeof index !== 'number')
    throw new RangeError(
      `${what}(index): the index is ${index === null ? 'null' : `a ${typeof index}`}, not a number of an entry of the log.`,
    );
  if (Number.isNaN(index)) throw new RangeError(`${what}(index): the index is NaN, which names no entry of the log.`);
  return Math.min(length, Math.max(0, Math.floor(index) + 1));
}

/** Machines after the first k * every entries of a log, made as reads pass them. */
function checkpoints(entries: readonly SessionEntry[], every: number, engine: () => Engine | undefined) {
  const kept: ThreadMachine[] = [createThreadMachine({ engine })];
  // The entries as a controller's log lists them, made once as reads pass them: the controllers a scrubber makes at
  // each step share them (a copy of 200,000 events per step was a collection of 45-85 ms for the young generation).
  const logged: SessionEntry[] = [];
  const log = (count: number) => {
    for (let i = logged.length; i < count; i++) {
      const entry = entries[i] as SessionEntry;
      logged.push(entry.type === 'event' && !(entry instanceof EventEntry) ? new EventEntry(entry.event, entry.index, entry.at) : entry);
    }
  };
  const applyTo = (machine: ThreadMachine, from: number, to: number, seen = true) =>
    machine.batch(() => {
      for (let i = from; i < to; i++) machine.apply(entries[i] as SessionEntry);
    }, seen);
  /** Makes the next checkpoint. */
  const extend = () => {
    const last = kept.length - 1;
    const next = (kept[last] as ThreadMachine).fork({ engine });
    // Left as the batch has it: only the forks made from it are read, each at the end of a batch of its own.
    applyTo(next, last * every, (last + 1) * every, false);
    log((last + 1) * every);
    kept.push(next);
  };
  return {
    /** A new machine after the first `count` entries, heard by `callbacks`. */
    after(count: number, callbacks: MachineCallbacks): ThreadMachine {
      const k = Math.floor(count / every);
      while (kept.length <= k) extend();
      const machine = (kept[k] as ThreadMachine).fork(callbacks);
      applyTo(machine, k * every, count);
      return machine;
    },
    /** Makes the next checkpoint. */
    extend,
    /** The first `count` entries, as a log lists them. */
    logged(count: number): SessionEntry[] {
      log(count);
      return logged.slice(0, count);
    },
    /** The entries the checkpoints made so far cover: the next one covers `every` more. */
    get covered(): number {
      return (kept.length - 1) * every;
    },
    every,
  };
}

export type Checkpoints = ReturnType<typeof checkpoints>;

/** A recording's view of its log's first `end` entries (all, as they grow, when `end` is undefined). */
export class SessionRecording implements Recording {
  readonly #all: readonly SessionEntry[];
  readonly #end: number | undefined;
  readonly #checkpoints: Checkpoints;
  #entries: readonly SessionEntry[] | undefined;
  constructor(all: readonly SessionEntry[], end: number | undefined, checkpoints: Checkpoints) {
    this.#all = all;
    this.#end = end;
    this.#checkpoints = checkpoints;
  }
  get #length(): number {
    return this.#end ?? this.#all.length;
  }
  get entries(): readonly SessionEntry[] {
    if (this.#end === undefined) return this.#all;
    this.#entries ??= this.#checkpoints.logged(this.#end);
    return this.#entries;
  }
  stateAt(index: number): ThreadState {
    return this.#checkpoints.after(countThrough(index, this.#length, 'stateAt'), { engine: loadedEngine }).thread;
  }
  until(index: number): Recording {
    return new SessionRecording(this.#all, countThrough(index, this.#length, 'until'), this.#checkpoints);
  }
  prepare(options: PrepareOptions = {}): Promise<void> {
    // Loaded when first asked for: only a viewer of long recordings needs it.
    return import('./readAhead.js').then(({ readAhead }) => readAhead(this.#checkpoints, this.#length, options));
  }
  /** A new machine after every entry of this view, heard by `callbacks`: where a controller made from it starts. */
  machine(callbacks: MachineCallbacks): ThreadMachine {
    return this.#checkpoints.after(this.#length, callbacks);
  }
}

/** A recording of `entries` (the public `createRecording`, loaded with the engine). */
export function createRecording(entries: readonly SessionEntry[], options: RecordingOptions = {}): Recording {
  const every = options.every ?? EVERY;
  if (!Number.isSafeInteger(every) || every < 1)
    throw new RangeError(`createRecording: every is ${String(every)}; it must be a whole number of entries, 1 or more.`);
  return new SessionRecording(entries, undefined, checkpoints(entries, every, loadedEngine));
}
