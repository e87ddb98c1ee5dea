import type { ThreadState } from '../model.js';
import type { Engine } from './engineLoader.js';
import { createThreadMachine } from './machine.js';
import type { SessionEntry, SessionEntryBody } from './sessionLog.js';

/** The thread `entries` lead to, applied in order by a machine with `engine`. */
export function replayWith(entries: readonly (SessionEntry | SessionEntryBody)[], engine: () => Engine | undefined): ThreadState {
  const machine = createThreadMachine({ engine });
  machine.batch(() => {
    for (const entry of entries) machine.apply(entry);
  });
  return machine.thread;
}

/**
 * The thread after entry `index` of `entries` (time travel): before the first
 * entry below 0, the last entry's past the end, a fraction taken down. NaN,
 * or what is no number (a plain-JavaScript caller's `undefined` or `'2'`),
 * names no entry: a RangeError.
 */
export function stateAfterEntry(entries: readonly SessionEntry[], index: number, engine: () => Engine | undefined): ThreadState {
  if (typeof index !== 'number')
    throw new RangeError(
      `stateAt(index): the index is ${index === null ? 'null' : `a ${typeof index}`}, not a number of an entry of the log.`,
    );
  if (Number.isNaN(index)) throw new RangeError('stateAt(index): the index is NaN, which names no entry of the log.');
  return replayWith(entries.slice(0, Math.max(0, Math.floor(index) + 1)), engine);
}
