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
