/**
 * `@ag-ui/client@1.0.0`'s reducer, `defaultApplyEvents`, driven as the
 * client's `runAgent` drives it: an agent holding the history, the events as
 * an rxjs Observable, the mutations it emits collected (`runAgent` would also
 * hand each to the agent and its subscribers; not counted here). No
 * validation and no verification run on this side: the reducer alone.
 */
import { AbstractAgent, type BaseEvent, defaultApplyEvents, type Message, type RunAgentInput } from '@ag-ui/client';
import { EMPTY, from, type Observable } from 'rxjs';
import { THREAD_ID } from '../fixtures.js';
import { cpuNow } from '../measure.js';

class BenchAgent extends AbstractAgent {
  run(): Observable<BaseEvent> {
    return EMPTY;
  }
}

export interface OfficialOutcome {
  /** ms from subscribing to completion (the reducer's per-run copy of the history is made before: not counted). */
  readonly ms: number;
  /** ms from mutation `marks.from` to mutation `marks.to` (1-based: the reducer emits one mutation per event that changes the messages). */
  readonly span: number;
  readonly messages: readonly Message[];
  readonly state: unknown;
  readonly mutations: number;
}

export interface OfficialDriver {
  apply(events: readonly unknown[], marks?: { from: number; to: number }): Promise<OfficialOutcome>;
}

export function officialDriver(history: readonly Message[], initialState: unknown = {}): OfficialDriver {
  const agent = new BenchAgent({ threadId: THREAD_ID, initialMessages: [...history], initialState });
  const input: RunAgentInput = { threadId: THREAD_ID, runId: 'input', state: initialState, messages: [], tools: [], context: [] };
  return {
    apply(events, marks) {
      const mutations$ = defaultApplyEvents(input, from(events as BaseEvent[]), agent, []);
      let messages: Message[] = agent.messages;
      let state: unknown = agent.state;
      let count = 0;
      let spanStart = Number.NaN;
      let spanEnd = Number.NaN;
      const start = cpuNow();
      return new Promise((resolve, reject) => {
        mutations$.subscribe({
          next: (m) => {
            count++;
            if (count === marks?.from) spanStart = cpuNow();
            if (count === marks?.to) spanEnd = cpuNow();
            if (m.messages !== undefined) messages = m.messages;
            if (m.state !== undefined) state = m.state;
          },
          error: reject,
          complete: () => resolve({ ms: cpuNow() - start, span: spanEnd - spanStart, messages, state, mutations: count }),
        });
      });
    },
  };
}
