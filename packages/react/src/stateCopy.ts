import type { ThreadState } from '@aguikit/core';
import type { AgentStoreState } from './types.js';

/**
 * How the store replaces its state on a flush: a literal of its fields rather
 * than zustand's merge, as long as the state holds exactly those fields.
 */

const STATE_FIELDS = [
  'thread',
  'connection',
  'error',
  'refusal',
  'inFlight',
  'eventCount',
  'decisions',
  'run',
  'stop',
  'resume',
  'cancelInterrupts',
  'setState',
  'reconnect',
  'reset',
] as const satisfies readonly (keyof AgentStoreState)[];
// Fails to compile when AgentStoreState gains a field that withThread does not copy.
const everyFieldCopied: Exclude<keyof AgentStoreState, (typeof STATE_FIELDS)[number]> extends never ? true : false = true;
void everyFieldCopied;
const KNOWN_FIELDS: ReadonlySet<string> = new Set(STATE_FIELDS);

/** Whether the state holds every field of AgentStoreState (the optional ones too, as the first stream sets them) and nothing else. */
export function hasExactFields(state: AgentStoreState): boolean {
  let count = 0;
  for (const key in state) {
    if (!Object.hasOwn(state, key) || !KNOWN_FIELDS.has(key)) return false;
    count++;
  }
  return count === STATE_FIELDS.length;
}

/**
 * The store's state with a new thread and event count, as a literal of its
 * fields: a flush may run on every event, and zustand's merge
 * (`Object.assign({}, state, partial)`) costs several times as much as
 * building the literal. Only for a state checked by `hasExactFields`.
 */
export function withThread(s: AgentStoreState, thread: ThreadState, eventCount: number): AgentStoreState {
  return {
    thread,
    connection: s.connection,
    error: s.error,
    refusal: s.refusal,
    inFlight: s.inFlight,
    eventCount,
    decisions: s.decisions,
    run: s.run,
    stop: s.stop,
    resume: s.resume,
    cancelInterrupts: s.cancelInterrupts,
    setState: s.setState,
    reconnect: s.reconnect,
    reset: s.reset,
  };
}
