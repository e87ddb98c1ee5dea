/**
 * Story and test support: an agent whose requests fail the ways real ones
 * do (an HTTP status, no answer, a stream cut inside its run, a reconnect
 * that works or does not), through the real store. Not part of the
 * package's API.
 */
import { type AgentSource, AgentTransportError } from '@aguikit/core';
import { type AgentStore, type AgentStoreOptions, createAgentStore } from '@aguikit/react';
import { type ScriptEvent, STORY_THREAD, waitForState } from './scripted.js';

/** What one request of the agent does: the events it sends, then how it ends. */
export interface Turn {
  /** Events sent (each with an SSE id when `ids`, so the stream can be resumed after it). */
  events?: ScriptEvent[];
  /** Give each event an id (`evt-1`, `evt-2`, …): a reconnect resumes after the last one. */
  ids?: boolean;
  /** Thrown once the events are sent: a transport error, a `TypeError` (no answer), anything. */
  fail?: unknown;
  /** Say `reconnecting` (with the attempt, when given) and wait (until stopped), as a transport retrying after a drop does. */
  reconnecting?: boolean | { attempt: number; of: number };
  /** Keep the stream open (until stopped) once the events are sent. */
  hold?: boolean;
  /** Milliseconds before the request answers. */
  delayMs?: number;
}

/** An HTTP error status as the HTTP transport reports it. */
export const httpError = (status: number, body?: string) =>
  new AgentTransportError('HTTP_STATUS', `The agent answered HTTP ${status}.`, status, body);

/** No answer at all (refused, offline, blocked): what `fetch` rejects with. */
export const noAnswer = () => new TypeError('Failed to fetch');

/** A URL that cannot be requested. */
export const invalidUrl = () => new AgentTransportError('INVALID_URL', 'The agent URL "agents/refund" is not an absolute URL.');

/** A request that cannot be built (a header fetch refuses): nothing was sent. */
export const invalidRequest = () =>
  new AgentTransportError('INVALID_REQUEST', 'The request header "Authorization" cannot be sent: fetch refuses its name or value.');

/** A body that ended inside an event (its last frame without the blank line), as the HTTP transport reports it. */
export const unfinishedEvent = () =>
  new AgentTransportError(
    'UNFINISHED_EVENT',
    'The stream ended inside an event: the server sent its last frame (data: {"type":"RUN_FINISHED","threadId":"8c1d2f4e-5b6a-4f3e-9a7b-2c1d0e9f8a7b"…) without the blank line that ends an SSE event, so it was not read. The server must end each event with a blank line.',
  );

const waitForAbort = (signal: AbortSignal | undefined) =>
  new Promise<void>((_, reject) =>
    signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')), { once: true }),
  );

/** A source that answers its n-th request as `turns[n]` says (an empty, finished stream past the last). */
export function turnsSource(turns: Turn[]): AgentSource {
  let next = 0;
  let id = 0;
  return {
    async *run(_input, options = {}) {
      const turn = turns[next++] ?? {};
      options.onConnection?.('connecting');
      if (turn.delayMs) await new Promise((resolve) => setTimeout(resolve, turn.delayMs));
      if (turn.fail !== undefined && !turn.events?.length) {
        options.onConnection?.('failed');
        throw turn.fail;
      }
      options.onConnection?.('open');
      for (const event of turn.events ?? []) {
        if (options.signal?.aborted) throw new DOMException('Aborted', 'AbortError');
        if (turn.ids) options.onEventId?.(`evt-${++id}`);
        yield event;
      }
      if (turn.fail !== undefined) {
        options.onConnection?.('failed');
        throw turn.fail;
      }
      if (turn.reconnecting) {
        if (typeof turn.reconnecting === 'object') options.onReconnecting?.(turn.reconnecting.attempt, turn.reconnecting.of);
        options.onConnection?.('reconnecting');
        await waitForAbort(options.signal);
      }
      if (turn.hold) await waitForAbort(options.signal);
      options.onConnection?.('closed');
    },
  };
}

/** A store over `turnsSource(turns)`, with the stories' clock and a scheduler that works without animation frames. */
export function turnsStore(turns: Turn[], options: Partial<AgentStoreOptions> = {}): AgentStore {
  return createAgentStore({
    threadId: STORY_THREAD,
    now: () => Date.parse('2026-11-30T12:00:00Z'),
    scheduler: (flush) => {
      const t = setTimeout(flush, 0);
      return () => clearTimeout(t);
    },
    ...options,
    source: turnsSource(turns),
  });
}

/** `turnsStore` after the first request was sent with `message` and its stream is over (or, with `hold`/`reconnecting`, under way). */
export async function failedStore(message: string, turns: Turn[], options: Partial<AgentStoreOptions> = {}): Promise<AgentStore> {
  const store = turnsStore(turns, options);
  const first = turns[0];
  if (first?.hold || first?.reconnecting) {
    void store.getState().run(message);
    await waitForState(
      store,
      (s) => s.connection === (first.reconnecting ? 'reconnecting' : 'open') && s.eventCount >= (first.events?.length ?? 0),
    );
  } else await store.getState().run(message);
  return store;
}
