/** A thread before any event. Apart from the reducer: the controller makes one before it loads the engine. */
import { type IdMap, idMap } from '../idMap.js';
import type { MessageRecord, ThreadState, ToolCallRecord } from '../model.js';
import { ownJson } from './ownJson.js';

export interface ThreadStateInit {
  threadId?: string;
  /** The shared state document the thread starts from (copied: the state owns its document). */
  state?: unknown;
}

/**
 * The thread's maps keep the ids of what is still open (`IdMap.watched`):
 * the messages streaming and the calls whose arguments are not complete,
 * which a run's or a stream's end closes without reading every record.
 */
export const noMessages = (): IdMap<MessageRecord> => idMap<MessageRecord>(undefined, streaming);
const noToolCalls = (): IdMap<ToolCallRecord> => idMap<ToolCallRecord>(undefined, argsOpen);
const streaming = (m: MessageRecord) => m.streaming;
const argsOpen = (c: ToolCallRecord) => c.status === 'declared' || c.status === 'args_streaming';

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
    messages: { ids: [], byId: noMessages() },
    toolCalls: noToolCalls(),
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
