/**
 * What the errors of answers that are no event stream say. One of another
 * 2xx status than 200 (a 204 a proxy or a misrouted handler gives): the
 * failure a person reads names the status, not only the missing content
 * type. An error page of megabytes: the source's error names the status and
 * quotes the page's start, and keeps the page's first 64 KiB as its body.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AgentTransportError, createRunController, httpSseSource, loadEngine, type RunAgentInput } from '../src/index.js';
import { closeServers, serve } from './support/loopbackServer.js';

beforeAll(() => loadEngine());
afterEach(closeServers);

describe('a 2xx answer that is no event stream', () => {
  it.each([
    [204, undefined, /HTTP 204 without a content type/],
    [202, 'application/json', /HTTP 202 application\/json/],
  ])('HTTP %i (%s): INVALID_STREAM whose message names the status', async (status, type, said) => {
    const server = await serve((res) => {
      res.writeHead(status, type ? { 'Content-Type': type } : {});
      res.end(status === 204 ? undefined : '{"queued":true}');
    });
    const c = createRunController({ threadId: 't1', source: httpSseSource({ url: server.url }) });
    await c.run('hi');
    const { failure } = c.getSnapshot();
    expect(failure).toMatchObject({ code: 'INVALID_STREAM', status, retryable: false, eventsReceived: 0 });
    expect(failure?.message).toMatch(said);
    c.destroy();
  });

  it("a 200 of text/html names its status and quotes the page's title", async () => {
    const server = await serve((res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('<title>Sign in</title>');
    });
    const c = createRunController({ threadId: 't1', source: httpSseSource({ url: server.url }) });
    await c.run('hi');
    expect(c.getSnapshot().failure?.message).toMatch(/The agent answered HTTP 200 text\/html, not text\/event-stream. It said: Sign in$/);
    c.destroy();
  });
});

describe('an error page of 5 MB', () => {
  it("a 503 of HTML: the source's error names the status and quotes the page's start in a message of a few hundred characters", async () => {
    const page = `<html><body><h1>Service Unavailable</h1>${'lorem ipsum '.repeat(450_000)}</body></html>`;
    const server = await serve((res) => {
      res.writeHead(503, { 'Content-Type': 'text/html' });
      res.end(page);
    });
    const input: RunAgentInput = { threadId: 't1', runId: 'r1', messages: [], tools: [], context: [], state: {}, forwardedProps: {} };
    const error = await httpSseSource({ url: server.url })
      .deliver?.(input, {}, () => undefined)
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(AgentTransportError);
    const { code, status, message, body } = error as AgentTransportError;
    expect({ code, status }).toEqual({ code: 'HTTP_STATUS', status: 503 });
    expect(message).toMatch(/^The agent answered HTTP 503: <html><body><h1>Service Unavailable<\/h1>lorem ipsum/);
    expect(message.length).toBeLessThan(300);
    expect(body?.length).toBeGreaterThanOrEqual(64 * 1024);
    expect(page.startsWith((body ?? '').slice(0, -1))).toBe(true);
  });
});
