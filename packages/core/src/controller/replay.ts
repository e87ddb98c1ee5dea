import type { ThreadState } from '../model.js';
import * as engine from './engineParts.js';
import { replayWith } from './replayWith.js';
import type { SessionEntry, SessionEntryBody } from './sessionLog.js';

/**
 * The thread a session log leads to: the entries applied in order, as the
 * controller applied them live. A stream still open at the end of the list is
 * left open (a run still running is `running`, not truncated).
 *
 * @example
 * const { entries } = parseSession(text);
 * const thread = replaySession(entries);
 */
export function replaySession(entries: readonly (SessionEntry | SessionEntryBody)[]): ThreadState {
  return replayWith(entries, () => engine);
}
