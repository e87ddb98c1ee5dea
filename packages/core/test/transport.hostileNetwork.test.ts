/**
 * httpSseSource against a network and servers that misbehave as real ones
 * do: a body cut at every byte with line ends mixed, a byte order mark,
 * `retry:` values no client should obey, an id holding NUL, a stream of
 * comments only, and answers that are no event stream (HTML, a redirect,
 * 204).
 */
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentTransportError, httpSseSource, type RunAgentInput } from '../src/index.js';
import { closeServers, serve } from './support/loopbackServer.js';

afterEach(closeServers);

const input: RunAgentInput = { threadId: 't1', runId: 'r1', messages: [], tools: [], context: [], state: {}, forwardedProps: {} };
const started = { type: 'RUN_STARTED', threadId: 't1', runId: 'r1' };
const finished = { type: 'RUN_FINISHED', threadId: 't1', runId: 'r1' };
const text = (delta: string) => ({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta });

function head(res: ServerResponse): void {
  res.writeHead(200, { 'Content-Type': 'text/event-stream' });
  res.flushHeaders();
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The events a source hands over, and the error it ends with, if any. */
async function outcome(url: string, options: { reconnect?: { attempts: number; delayMs: number } } = {}) {
  const events: unknown[] = [];
  try {
    await httpSseSource({ url, ...options }).deliver?.(input, {}, (event) => events.push(event));
    return { events, error: undefined as unknown };
  } catch (error) {
    return { events, error };
  }
}

describe('a body cut at every byte', () => {
  it('with a byte order mark, CRLF, LF and CR line ends mixed, comments and a character of four bytes: every event, once, whole', async () => {
    const body =
      `\uFEFF: hello\r\ndata: ${JSON.stringify(started)}\r\n\r\n` +
      `id: 1\rdata: ${JSON.stringify(text('a😀'))}\r\r` +
      `data: ${JSON.stringify(text('b'))}\n\r\n` +
      `retry: 10\ndata: ${JSON.stringify(finished)}\r\n\n`;
    const bytes = new TextEncoder().encode(body);
    const server = await serve(async (res) => {
      head(res);
      for (const byte of bytes) {
        await new Promise<void>((resolve) => res.write(Uint8Array.of(byte), () => resolve()));
      }
      res.end();
    });
    const { events, error } = await outcome(server.url);
    expect(error).toBeUndefined();
    expect(events).toEqual([started, text('a😀'), text('b'), finished]);
  }, 20_000);
});

describe('a retry: field', () => {
  it.each(['99999999999999999999', '-5', '1e9', ''])('of %j is ignored: no reconnect waits on it, every event arrives', async (retry) => {
    const server = await serve(async (res) => {
      head(res);
      res.end(`retry: ${retry}\ndata: ${JSON.stringify(started)}\n\nretry: ${retry}\n\ndata: ${JSON.stringify(finished)}\n\n`);
    });
    const startedAt = performance.now();
    const { events, error } = await outcome(server.url);
    expect(error).toBeUndefined();
    expect(events).toEqual([started, finished]);
    expect(performance.now() - startedAt).toBeLessThan(1000);
  });
});

describe('an SSE id holding NUL', () => {
  it('is no point to resume after: a drop after it is not reconnected with a header it cannot carry', async () => {
    const server = await serve(async (res) => {
      head(res);
      res.write(`id: a\u0000b\ndata: ${JSON.stringify(started)}\n\n`);
      await pause(10);
      res.socket?.destroy();
    });
    const { events, error } = await outcome(server.url, { reconnect: { attempts: 2, delayMs: 1 } });
    expect(events).toEqual([started]);
    expect(error).toBeDefined();
    expect(server.requests).toHaveLength(1);
  });
});

describe('a stream of comments only', () => {
  it('for 1.5 s before its events is waited on, not taken as lost, with idleTimeoutMs above the gap between comments', async () => {
    const server = await serve(async (res) => {
      head(res);
      const until = Date.now() + 1500;
      while (Date.now() < until && !res.destroyed) {
        res.write(': keepalive\n\n');
        await pause(20);
      }
      res.end(`data: ${JSON.stringify(started)}\n\ndata: ${JSON.stringify(finished)}\n\n`);
    });
    const events: unknown[] = [];
    await httpSseSource({ url: server.url, idleTimeoutMs: 300 }).deliver?.(input, {}, (event) => events.push(event));
    expect(events).toEqual([started, finished]);
  });
});

describe('an answer that is no event stream', () => {
  it('a 200 of text/html is NOT_EVENT_STREAM quoting the page, and is not sent again', async () => {
    const server = await serve((res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('<!doctype html><title>Sign in</title>');
    });
    const { error } = await outcome(server.url, { reconnect: { attempts: 2, delayMs: 1 } });
    expect(error).toBeInstanceOf(AgentTransportError);
    expect((error as AgentTransportError).code).toBe('NOT_EVENT_STREAM');
    expect((error as AgentTransportError).body).toContain('Sign in');
    expect(server.requests).toHaveLength(1);
  });

  it('a 204 is NOT_EVENT_STREAM, not an empty success, and is not sent again', async () => {
    const server = await serve((res) => {
      res.writeHead(204);
      res.end();
    });
    const { error } = await outcome(server.url, { reconnect: { attempts: 2, delayMs: 1 } });
    expect(error).toBeInstanceOf(AgentTransportError);
    expect((error as AgentTransportError).code).toBe('NOT_EVENT_STREAM');
    expect(server.requests).toHaveLength(1);
  });

  it('a 302 to a page: the error names where fetch went, and the redirect turned the POST into a GET', async () => {
    const server = await serve((res, req) => {
      if (req.url === '/agent') {
        res.writeHead(302, { Location: '/login' });
        return void res.end();
      }
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('<p>login</p>');
    });
    const { error } = await outcome(server.url);
    expect(error).toBeInstanceOf(AgentTransportError);
    expect((error as AgentTransportError).redirectedTo).toMatch(/\/login$/);
    expect(server.requests.map((r) => r.method)).toEqual(['POST', 'GET']);
  });

  it('a 307 keeps the POST and its body: the stream it leads to is read', async () => {
    const server = await serve((res, req) => {
      if (req.url === '/agent') {
        res.writeHead(307, { Location: '/agent2' });
        return void res.end();
      }
      head(res);
      res.end(`data: ${JSON.stringify(started)}\n\ndata: ${JSON.stringify(finished)}\n\n`);
    });
    const { events, error } = await outcome(server.url);
    expect(error).toBeUndefined();
    expect(events).toEqual([started, finished]);
    expect(server.requests[1]?.body).toBe(server.requests[0]?.body);
  });
});
