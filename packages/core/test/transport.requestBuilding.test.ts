/**
 * What httpSseSource checks as it builds a request (in the reader's chunk,
 * loaded on demand): a resume point no header can carry, and an answer that
 * never comes. Each ends as it says, with the connection's statuses in order,
 * and nothing sent that should not be.
 */
import type { ServerResponse } from 'node:http';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AgentTransportError, createRunController, httpSseSource, loadEngine, type RunAgentInput } from '../src/index.js';
import { closeServers, serve } from './support/loopbackServer.js';

beforeAll(() => loadEngine());
afterEach(closeServers);

const input: RunAgentInput = { threadId: 't1', runId: 'r1', state: {}, messages: [], tools: [], context: [], forwardedProps: {} };
const frame = (event: unknown, id?: string) => `${id === undefined ? '' : `id: ${id}\n`}data: ${JSON.stringify(event)}\n\n`;
const sseHead = (res: ServerResponse) => res.writeHead(200, { 'Content-Type': 'text/event-stream' });
const UNSENDABLE = 'evt\u00017';
const UNRESUMABLE = `The stream cannot be resumed: its last event id ${JSON.stringify(UNSENDABLE)} cannot be sent in a Last-Event-ID header.`;

describe('a last event id no header can carry', () => {
  it('deliver: fails as CONNECTION_LOST before anything is sent, said connecting then closed', async () => {
    const server = await serve((res) => {
      sseHead(res);
      res.end();
    });
    const statuses: string[] = [];
    const source = httpSseSource({ url: server.url });
    const error = await source
      .deliver?.(input, { lastEventId: UNSENDABLE, onConnection: (s) => statuses.push(s) }, () => undefined)
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(AgentTransportError);
    expect(error).toMatchObject({ code: 'CONNECTION_LOST', message: UNRESUMABLE });
    expect(statuses).toEqual(['connecting', 'closed']);
    expect(server.requests).toHaveLength(0);
  });

  it('run: the same error and statuses through the pull form', async () => {
    const server = await serve((res) => {
      sseHead(res);
      res.end();
    });
    const statuses: string[] = [];
    const iterate = async () => {
      for await (const _ of httpSseSource({ url: server.url }).run(input, {
        lastEventId: UNSENDABLE,
        onConnection: (s) => statuses.push(s),
      })) {
        // Nothing arrives.
      }
    };
    await expect(iterate()).rejects.toMatchObject({ code: 'CONNECTION_LOST', message: UNRESUMABLE });
    expect(statuses).toEqual(['connecting', 'closed']);
    expect(server.requests).toHaveLength(0);
  });

  it('through the controller: such an id from the agent is no resume point, so a cut-off run offers no reconnect and reconnect() sends nothing', async () => {
    const server = await serve((res, { body }) => {
      const { threadId, runId } = JSON.parse(body) as RunAgentInput;
      sseHead(res);
      res.write(frame({ type: 'RUN_STARTED', threadId, runId }, UNSENDABLE));
      setTimeout(() => res.socket?.destroy(), 20);
    });
    let fetched = 0;
    const counted: typeof fetch = (...args) => {
      fetched++;
      return fetch(...args);
    };
    const c = createRunController({ threadId: 't1', source: httpSseSource({ url: server.url, fetch: counted }) });
    await c.run('Refund order 42');
    // An id no Last-Event-ID header can carry resets the last event id, as an empty `id:` does: Reconnect is not offered.
    expect(c.getSnapshot().failure).toMatchObject({ code: 'CONNECTION_LOST', reconnectable: false, eventsReceived: 1 });
    expect(await c.reconnect()).toMatchObject({ code: 'NO_RESUME_POINT' });
    expect(fetched).toBe(1);
    expect(server.requests).toHaveLength(1);
    c.destroy();
  });
});

describe('an answer that never comes', () => {
  it('is given up after idleTimeoutMs: the failure says so, with no event received', async () => {
    const server = await serve(() => new Promise<void>(() => undefined));
    const c = createRunController({ threadId: 't1', source: httpSseSource({ url: server.url, idleTimeoutMs: 150 }) });
    const started = Date.now();
    await c.run('Refund order 42');
    expect(Date.now() - started).toBeLessThan(2000);
    const { failure } = c.getSnapshot();
    expect(failure?.message).toContain('No answer from the agent within 150 ms: the request is taken as lost.');
    // The request went out and may have started the run: a lost connection, not the app's source failing, and not sent again on its own.
    expect(failure).toMatchObject({ code: 'CONNECTION_LOST', retryable: false, eventsReceived: 0 });
    expect(failure?.message).not.toContain("The agent's source failed");
    expect(server.requests).toHaveLength(1);
    c.destroy();
  });
});
