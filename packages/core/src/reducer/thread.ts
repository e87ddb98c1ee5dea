/** A thread before any event. Apart from the reducer: the controller makes one before it loads the engine. */
import { idMap } from '../idMap.js';
import type { ThreadState } from '../model.js';
import { ownJson } from './ownJson.js';

export interface ThreadStateInit {
  threadId?: string;
  /** The shared state document the thread starts from (copied: the state owns its document). */
  state?: unknown;
}

/**
 * The state of a thread before any event: run `idle`, no messages, the
 * shared state `in-sync`.
 *
 * @example
 * let state = createThreadState({ threadId: 't1', state: { cart: [] } });
 */
export function createThreadState(init: ThreadStateInit = {}): ThreadState {
  return {
    ...(init.threadId !== undefined ? { threadId: init.threadId } : {}),
    run: { status: 'idle', steps: [] },
    runs: {},
    messages: { ids: [], byId: idMap() },
    toolCalls: idMap(),
    sharedState: { document: ownJson(init.state) ?? {}, sync: 'in-sync', version: 0 },
    interrupts: [],
    answers: [],
    subagents: {},
    reasoning: {},
    custom: [],
    raw: [],
    unknownEvents: [],
    diagnostics: [],
    droppedDiagnostics: 0,
    eventCount: 0,
  };
}
