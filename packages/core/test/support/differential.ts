/**
 * Runs event streams through the official `@ag-ui/client@1.0.0`, the reference
 * the differential tests compare aguikit with.
 *
 * The official reducer works on an rxjs Observable. rxjs is not a dependency
 * of @aguikit/core (and biome forbids importing it here), so the Observable is
 * built with the official client's own transport: the events are encoded as
 * an SSE response and read back by `runHttpRequest` + `transformHttpEventStream`,
 * exactly as they would arrive off the wire.
 */
import {
  AbstractAgent,
  type AgentStateMutation,
  type AgentSubscriber,
  defaultApplyEvents,
  type Interrupt,
  type Message,
  type RunAgentInput,
  type RunAgentResult,
  runHttpRequest,
  transformChunks,
  transformHttpEventStream,
} from '@ag-ui/client';

type EventStream = ReturnType<AbstractAgent['run']>;

/** The events as one SSE body: `data: <json>` and a blank line each. */
export function encodeSse(events: readonly unknown[]): string {
  return events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('');
}

/** The events as the official client reads them from an HTTP response. */
export function officialEventStream(events: readonly unknown[]): EventStream {
  const response = () => Promise.resolve(new Response(encodeSse(events), { headers: { 'content-type': 'text/event-stream' } }));
  return transformHttpEventStream(runHttpRequest(response));
}

/** An official agent whose `run` replays a fixed list of events. */
export class ReplayAgent extends AbstractAgent {
  constructor(
    private readonly events: readonly unknown[],
    init: { threadId?: string; initialState?: unknown } = {},
  ) {
    super({ threadId: init.threadId ?? 't', initialState: init.initialState ?? {} });
  }

  run(): EventStream {
    return officialEventStream(this.events);
  }
}

export interface OfficialResult {
  messages: Message[];
  state: unknown;
  /** What the agent holds as open interrupts after the stream. */
  pendingInterrupts: Interrupt[];
}

/**
 * Replays `events` through the official reducer, `defaultApplyEvents`, after
 * its chunk expansion (no validation, no verification: the reducer alone), and
 * returns the messages and state it ends with.
 */
export function officialReplay(events: readonly unknown[], initialState: unknown = {}): Promise<OfficialResult> {
  const agent = new ReplayAgent(events, { initialState });
  const input: RunAgentInput = { threadId: 't', runId: 'input', state: initialState, messages: [], tools: [], context: [] };
  const subscribers: AgentSubscriber[] = [];
  const mutations = defaultApplyEvents(input, transformChunks()(officialEventStream(events)), agent, subscribers);
  return new Promise((resolve, reject) => {
    let messages: Message[] = [];
    let state = initialState;
    mutations.subscribe({
      next: (m: AgentStateMutation) => {
        if (m.messages !== undefined) messages = m.messages;
        if (m.state !== undefined) state = m.state;
      },
      error: reject,
      complete: () => resolve({ messages, state, pendingInterrupts: agent.pendingInterrupts }),
    });
  });
}

/** Runs `events` through the whole official pipeline (`runAgent`): what an application using the client sees. */
export async function officialRun(
  events: readonly unknown[],
): Promise<{ outcome: 'resolved'; result: RunAgentResult; agent: ReplayAgent } | { outcome: 'rejected'; error: unknown }> {
  const agent = new ReplayAgent(events);
  try {
    return { outcome: 'resolved', result: await agent.runAgent(), agent };
  } catch (error) {
    return { outcome: 'rejected', error };
  }
}
