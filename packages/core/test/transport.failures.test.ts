/**
 * How a request that goes wrong on the wire ends, through the controller: the
 * failure's code, whether `retry()` is offered, and what a person reads. A
 * real HTTP server on the loopback interface writes each answer.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpAgent } from '@ag-ui/client';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { agUiAgentSource, createRunController, httpSseSource, loadEngine } from '../src/index.js';
import { closeServers, serve as serveRaw } from './support/loopbackServer.js';

const servers: Server[] = [];
beforeAll(() => loadEngine());
afterEach(async () => {
  await closeServers();
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
});

/** A server that hands each POSTed input to `handler`; `posts()` counts the requests it took. */
async function serve(handler: (res: ServerResponse, input: { threadId: string; runId: string }) => unknown) {
  let posts = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      posts++;
      Promise.resolve(handler(res, JSON.parse(body || '{}'))).catch(() => res.destroy());
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/agent`, posts: () => posts };
}

const sse = (event: unknown, id?: string) => `${id === undefined ? '' : `id: ${id}\n`}data: ${JSON.stringify(event)}\n\n`;

describe('a request that fails on the wire', () => {
  it('a connection dropped after the agent answered 200 is not "could not be reached", and is not retried', async () => {
    const server = await serve((res) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.write(': ping\n\n');
      setTimeout(() => res.socket?.destroy(), 50);
    });
    const c = createRunController({ threadId: 't1', source: httpSseSource({ url: server.url }) });
    await c.run('Refund order 42');
    const { failure, thread } = c.getSnapshot();
    expect(failure).toMatchObject({ code: 'CONNECTION_LOST', retryable: false, eventsReceived: 0 });
    expect(failure?.message).toMatch(/after it answered/);
    // The agent took the request: whether its run went on is not known, so the run does not say it failed.
    expect(thread.run.status).toBe('unknown');
    expect(await c.retry()).toMatchObject({ ok: false, code: 'NOTHING_TO_RETRY' });
    expect(server.posts()).toBe(1);
  });

  it('an event stream that ends empty, without reconnect: sent once, and the failure says it is not sent again on its own', async () => {
    const server = await serve((res) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.end(': ping\n\n');
    });
    const c = createRunController({ threadId: 't1', source: httpSseSource({ url: server.url }) });
    await c.run('Refund order 42');
    const { failure, thread } = c.getSnapshot();
    expect(failure).toMatchObject({ code: 'CONNECTION_LOST', retryable: false, eventsReceived: 0 });
    expect(failure?.message).toMatch(/not sent again on its own/);
    expect(thread.run.status).toBe('unknown');
    expect(server.posts()).toBe(1);
  });

  it('an event stream that ends empty each time, with reconnect: the failure says the request was sent again, as it was', async () => {
    const server = await serve((res) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.end(': ping\n\n');
    });
    const c = createRunController({ threadId: 't1', source: httpSseSource({ url: server.url, reconnect: { attempts: 2, delayMs: 1 } }) });
    await c.run('Refund order 42');
    const { failure, thread } = c.getSnapshot();
    expect(server.posts()).toBe(3);
    expect(failure).toMatchObject({ code: 'CONNECTION_LOST', retryable: false, eventsReceived: 0 });
    expect(failure?.message).not.toMatch(/not sent again on its own/);
    expect(failure?.message).toMatch(/sent again 2 times/);
    expect(thread.run.status).toBe('unknown');
    expect(await c.retry()).toMatchObject({ ok: false, code: 'NOTHING_TO_RETRY' });
    expect(server.posts()).toBe(3);
  });

  it('a resume answered with an event stream that ends empty, then 503 to the source sending it again: the agent took the answer', async () => {
    let n = 0;
    const server = await serve((res, { threadId, runId }) => {
      n++;
      if (n === 2) {
        res.writeHead(200, { 'Content-Type': 'text/event-stream' });
        res.end(': ping\n\n');
      } else if (n === 3) {
        res.writeHead(503, { 'Content-Type': 'text/plain' });
        res.end('upstream unavailable');
      } else {
        const interrupts = [{ id: 'i1', reason: 'confirmation', message: 'Refund 42 USD?' }];
        res.writeHead(200, { 'Content-Type': 'text/event-stream' });
        res.end(
          sse({ type: 'RUN_STARTED', threadId, runId }) +
            sse({ type: 'RUN_FINISHED', threadId, runId, outcome: { type: 'interrupt', interrupts } }),
        );
      }
    });
    const c = createRunController({ threadId: 't1', source: httpSseSource({ url: server.url, reconnect: { attempts: 1, delayMs: 1 } }) });
    await c.run('Refund order 42');
    expect(c.getSnapshot().thread.interrupts.map((it) => it.id)).toEqual(['i1']);
    await c.resume([{ interruptId: 'i1', status: 'resolved', payload: { approved: true } }]);
    const { failure, thread } = c.getSnapshot();
    expect(server.posts()).toBe(3);
    // The agent took the answer with its first answer (it may be refunding): the answer stays given, and nothing sends it again.
    expect(failure).toMatchObject({ code: 'CONNECTION_LOST', retryable: false, eventsReceived: 0 });
    expect(failure?.message).toMatch(/sent again once/);
    expect(thread.interrupts).toEqual([]);
    expect(thread.run.status).toBe('unknown');
    expect(await c.retry()).toMatchObject({ ok: false, code: 'NOTHING_TO_RETRY' });
    expect(server.posts()).toBe(3);
  });

  it('an event stream that ends empty, then 401 to the source sending it again: it sends no more, and the agent took the request', async () => {
    let n = 0;
    const server = await serve((res) => {
      n++;
      if (n === 1) {
        res.writeHead(200, { 'Content-Type': 'text/event-stream' });
        res.end(': ping\n\n');
      } else {
        res.writeHead(401, { 'Content-Type': 'text/plain' });
        res.end('token expired');
      }
    });
    const c = createRunController({ threadId: 't1', source: httpSseSource({ url: server.url, reconnect: { attempts: 3, delayMs: 1 } }) });
    await c.run('Refund order 42');
    const { failure, thread } = c.getSnapshot();
    // A refusal is an answer: sending the same request again meets the same refusal.
    expect(server.posts()).toBe(2);
    expect(failure).toMatchObject({ code: 'CONNECTION_LOST', retryable: false, eventsReceived: 0 });
    expect(failure?.message).toMatch(/sent again once/);
    expect(thread.run.status).toBe('unknown');
  });

  it('a request the agent never answers within idleTimeoutMs, with reconnect: the failure says it was sent again', async () => {
    const server = await serve(() => new Promise(() => undefined));
    const source = httpSseSource({ url: server.url, idleTimeoutMs: 60, reconnect: { attempts: 1, delayMs: 1 } });
    const c = createRunController({ threadId: 't1', source });
    await c.run('Refund order 42');
    const { failure } = c.getSnapshot();
    expect(server.posts()).toBe(2);
    expect(failure).toMatchObject({ code: 'CONNECTION_LOST', eventsReceived: 0 });
    expect(failure?.message).not.toMatch(/not sent again on its own/);
    expect(failure?.message).toMatch(/sent again once/);
  });

  it('a server that gives every event of a run the same SSE id loses none of them', async () => {
    const server = await serve((res, { threadId, runId }) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.end(
        [
          { type: 'RUN_STARTED', threadId, runId },
          { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' },
          { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'Refund approved.' },
          { type: 'TEXT_MESSAGE_END', messageId: 'm1' },
          { type: 'RUN_FINISHED', threadId, runId },
        ]
          .map((e) => sse(e, runId))
          .join(''),
      );
    });
    const c = createRunController({ threadId: 't1', source: httpSseSource({ url: server.url }) });
    expect(await c.run('Refund order 42')).toMatchObject({ ok: true, status: 'success' });
    expect(c.getSnapshot().eventCount).toBe(5);
  });

  it.each([
    [503, true],
    [404, false],
  ])(
    'an HTTP %i through @ag-ui/client is HTTP_STATUS with its status (retryable: %s), as through httpSseSource',
    async (status, retryable) => {
      const server = await serve((res) => {
        res.writeHead(status, { 'Content-Type': 'text/plain' });
        res.end('upstream busy');
      });
      const c = createRunController({ threadId: 't1', source: agUiAgentSource(new HttpAgent({ url: server.url })) });
      await c.run('hi');
      expect(c.getSnapshot().failure).toMatchObject({ code: 'HTTP_STATUS', status, retryable });
    },
  );

  it.each([
    [
      '{"error":{"code":"RESUME_REQUIRED","message":"The thread has 1 open interrupt."}}',
      'It said: The thread has 1 open interrupt. (RESUME_REQUIRED)',
    ],
    ['{"message":"Rate limit exceeded","code":"rate_limited"}', 'It said: Rate limit exceeded (rate_limited)'],
    ['{"detail":"Not authenticated"}', 'It said: Not authenticated'],
    ['{"error":"invalid_api_key"}', 'It said: invalid_api_key'],
  ])('an HTTP error whose body is a JSON error is said by its message and code, not as JSON: %s', async (body, said) => {
    const server = await serve((res) => {
      res.writeHead(409, { 'Content-Type': 'application/json' });
      res.end(body);
    });
    const c = createRunController({ threadId: 't1', source: httpSseSource({ url: server.url }) });
    await c.run('hi');
    const { failure } = c.getSnapshot();
    expect(failure).toMatchObject({ code: 'HTTP_STATUS', status: 409, body });
    expect(failure?.message).toBe(`The agent answered HTTP 409. ${said}`);
  });

  it('an HTTP error whose body is JSON of another shape, or a huge message, is said as text, cut', async () => {
    const long = `{"error":{"message":"${'x'.repeat(5_000)}"}}`;
    for (const [body, check] of [
      ['{"errors":[{"msg":"bad"}]}', (m: string) => expect(m).toContain('It said: {"errors":[{"msg":"bad"}]}')],
      [long, (m: string) => expect(m.length).toBeLessThan(400)],
      ['{"error":{"message":""}}', (m: string) => expect(m).toContain('It said: {"error":{"message":""}}')],
    ] as const) {
      const server = await serve((res) => {
        res.writeHead(400, { 'Content-Type': 'application/json' });
        res.end(body);
      });
      const c = createRunController({ threadId: 't1', source: httpSseSource({ url: server.url }) });
      await c.run('hi');
      check(c.getSnapshot().failure?.message ?? '');
    }
  });

  it('stop() settles run() when the app’s fetch ignores its signal', async () => {
    const c = createRunController({
      threadId: 't1',
      source: httpSseSource({ url: 'http://127.0.0.1:9/agent', fetch: () => new Promise<Response>(() => undefined) }),
    });
    const run = c.run('x');
    await new Promise((resolve) => setTimeout(resolve, 20));
    c.stop();
    const settled = await Promise.race([run.then(() => 'settled'), new Promise((resolve) => setTimeout(() => resolve('pending'), 1000))]);
    expect(settled).toBe('settled');
    expect(c.getSnapshot().inFlight).toBeUndefined();
  });

  it.each([
    ['an error status', 500, 'application/json'],
    ['a page that is no event stream', 200, 'text/html'],
  ])('stop() settles run() while the body of %s is still coming, when the app’s fetch ignores its signal', async (_what, status, type) => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('partial'));
      },
      cancel() {
        cancelled = true;
      },
    });
    const c = createRunController({
      threadId: 't1',
      source: httpSseSource({
        url: 'http://127.0.0.1:9/agent',
        fetch: async () => new Response(body, { status, headers: { 'content-type': type } }),
      }),
    });
    const run = c.run('x');
    await new Promise((resolve) => setTimeout(resolve, 20));
    c.stop();
    const settled = await Promise.race([run.then(() => 'settled'), new Promise((resolve) => setTimeout(() => resolve('pending'), 1000))]);
    expect(settled).toBe('settled');
    // The body is let go, not read for ever in the background.
    expect(cancelled).toBe(true);
  });

  it.each(['http://user:pw@127.0.0.1:9/agent', 'ftp://127.0.0.1/agent', 'javascript:alert(1)'])(
    'the URL %s, which fetch refuses before sending, is INVALID_URL and not retryable',
    async (url) => {
      let fetched = 0;
      const c = createRunController({
        threadId: 't1',
        source: httpSseSource({
          url,
          fetch: (...args) => {
            fetched++;
            return globalThis.fetch(...args);
          },
        }),
      });
      await c.run('x');
      expect(c.getSnapshot().failure).toMatchObject({ code: 'INVALID_URL', retryable: false });
      expect(fetched).toBe(0);
    },
  );

  it('a headers() function that throws is INVALID_REQUEST: nothing was sent, and sending again would fail the same way', async () => {
    let fetched = 0;
    const session: { user?: { token: string } } = {};
    const source = httpSseSource({
      url: 'http://agent.test/run',
      fetch: async () => {
        fetched++;
        throw new Error('unreached');
      },
      headers: () => ({ Authorization: `Bearer ${(session.user as { token: string }).token}` }),
    });
    const c = createRunController({ threadId: 't1', source });
    await c.run('hi');
    expect(fetched).toBe(0);
    const { failure } = c.getSnapshot();
    expect(failure).toMatchObject({ code: 'INVALID_REQUEST', retryable: false });
    expect(failure?.message).toMatch(/headers/);
  });
});

describe('a stream that is not the run it answers', () => {
  it('events that start no run (another protocol at the URL: an OpenAI chunk stream) fail as INVALID_STREAM, not an empty success', async () => {
    const server = await serve((res) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      const chunk = { id: 'chatcmpl-1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: 'Hi' } }] };
      res.end(`data: ${JSON.stringify(chunk)}\n\ndata: [DONE]\n\n`);
    });
    const c = createRunController({ threadId: 't1', source: httpSseSource({ url: server.url }) });
    // The action was taken; its outcome is the failure.
    expect(await c.run('hi')).toMatchObject({ ok: true, status: 'error' });
    const { failure, thread } = c.getSnapshot();
    // No event of a run arrived: the two it got are in the log, with what was wrong with each.
    expect(failure).toMatchObject({ code: 'INVALID_STREAM', retryable: false, eventsReceived: 0 });
    expect(failure?.message).toMatch(/2 events started no run \(no RUN_STARTED\)/);
    expect(c.getSnapshot().eventCount).toBe(2);
    expect(thread.run.status).toBe('error');
  });

  it('a RUN_FINISHED of another run does not end the stream: what the run sends after it arrives', async () => {
    const server = await serve(async (res, { threadId, runId }) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.write(sse({ type: 'RUN_STARTED', threadId, runId }));
      res.write(sse({ type: 'RUN_FINISHED', threadId, runId: 'an-earlier-run' }));
      res.write(sse({ type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' }));
      for (let i = 0; i < 6; i++) {
        await new Promise((resolve) => setTimeout(resolve, 40));
        res.write(sse({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: `w${i} ` }));
      }
      res.end(sse({ type: 'TEXT_MESSAGE_END', messageId: 'm1' }) + sse({ type: 'RUN_FINISHED', threadId, runId }));
    });
    const c = createRunController({ threadId: 't1', source: httpSseSource({ url: server.url, runEndGraceMs: 20 }) });
    expect(await c.run('hi')).toMatchObject({ ok: true, status: 'success' });
    expect(c.getSnapshot().failure).toBeUndefined();
    const reply = c.getSnapshot().thread.messages.byId.get('m1');
    expect(reply?.content).toBe('w0 w1 w2 w3 w4 w5 ');
  });
  it('a RUN_FINISHED of the run that names another thread does not end the stream: the real end 1.2 s later settles the run', async () => {
    const server = await serve(async (res, { threadId, runId }) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.write(sse({ type: 'RUN_STARTED', threadId, runId }));
      res.write(sse({ type: 'RUN_FINISHED', threadId: 'another-thread', runId }));
      // Past the default grace (1 s) after an end: a stream let go at the wrong end never reads what follows.
      await new Promise((resolve) => setTimeout(resolve, 1200));
      res.end(sse({ type: 'RUN_FINISHED', threadId, runId }));
    });
    const c = createRunController({ threadId: 't1', source: httpSseSource({ url: server.url }) });
    expect(await c.run('hi')).toMatchObject({ ok: true, status: 'success' });
    const { failure, thread } = c.getSnapshot();
    expect(failure).toBeUndefined();
    expect(thread.run.status).toBe('success');
    expect(server.posts()).toBe(1);
  });
  it.each([
    ['a RUN_ERROR without its message', { type: 'RUN_ERROR', code: 'X' }],
    ['a RUN_FINISHED whose outcome is no outcome', { type: 'RUN_FINISHED', threadId: 't1', runId: 'r1', outcome: 7 }],
    ['a RUN_FINISHED whose usage is no list', { type: 'RUN_FINISHED', threadId: 't1', runId: 'r1', usage: 'lots' }],
  ])('%s, which the thread refuses, does not end the stream: the real end 1.2 s later settles the run', async (_name, refused) => {
    const server = await serve(async (res, { threadId, runId }) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.write(sse({ type: 'RUN_STARTED', threadId, runId }));
      res.write(sse({ ...refused, ...('threadId' in refused ? { threadId, runId } : {}) }));
      await new Promise((resolve) => setTimeout(resolve, 1200));
      res.end(sse({ type: 'RUN_FINISHED', threadId, runId }));
    });
    const c = createRunController({ threadId: 't1', source: httpSseSource({ url: server.url }) });
    expect(await c.run('hi')).toMatchObject({ ok: true, status: 'success' });
    expect(c.getSnapshot().failure).toBeUndefined();
    expect(c.getSnapshot().thread.run.status).toBe('success');
  });
});

describe('a stream whose last frame has no blank line after it', () => {
  /** Ends the stream right after `RUN_FINISHED`'s data line: the blank line that ends an SSE event never comes. */
  const unterminated = (threadId: string, runId: string, id?: string) =>
    `${sse({ type: 'RUN_STARTED', threadId, runId }, id)}${id === undefined ? '' : `id: ${id}\n`}data: ${JSON.stringify({ type: 'RUN_FINISHED', threadId, runId })}\n`;

  it('ends the run unknown with a failure that says the last event was not ended, and what the server must do', async () => {
    const server = await serve((res, { threadId, runId }) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.end(unterminated(threadId, runId));
    });
    const c = createRunController({ threadId: 't1', source: httpSseSource({ url: server.url }) });
    await c.run('hi');
    const { failure, thread } = c.getSnapshot();
    // SSE drops an event the stream ends inside, so the run's end was never read: whether the run finished is not known.
    expect(thread.run.status).toBe('unknown');
    expect(failure).toMatchObject({ code: 'CONNECTION_LOST', cause: 'UNFINISHED_EVENT', eventsReceived: 1 });
    expect(failure?.message).toMatch(/ended inside an event/);
    expect(failure?.message).toMatch(/blank line/);
    // What the dropped frame held, for the developer to find it in the server's output.
    expect(failure?.message).toContain('RUN_FINISHED');
    expect(server.posts()).toBe(1);
  });

  it('with reconnect on, a clean close inside an event (a proxy cutting the response) resumes after the last whole event', async () => {
    const server = await serveRaw((res, req, index) => {
      const { threadId, runId } = JSON.parse(req.body) as { threadId: string; runId: string };
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      const events = [
        { type: 'RUN_STARTED', threadId, runId },
        { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' },
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'Refund ' },
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'sent' },
        { type: 'TEXT_MESSAGE_END', messageId: 'm1' },
        { type: 'RUN_FINISHED', threadId, runId },
      ];
      const after = Number(req.headers['last-event-id'] ?? 0);
      const frames = events.map((event, i) => sse(event, String(i + 1))).slice(after);
      // The first answer is cut cleanly in the middle of the third event's data line.
      if (index === 0) res.end(frames.slice(0, 2).join('') + (frames[2] as string).slice(0, 30));
      else res.end(frames.join(''));
    });
    const c = createRunController({ threadId: 't1', source: httpSseSource({ url: server.url, reconnect: { attempts: 2, delayMs: 1 } }) });
    expect(await c.run('hi')).toMatchObject({ ok: true, status: 'success' });
    expect(c.getSnapshot().failure).toBeUndefined();
    expect(c.getSnapshot().thread.messages.byId.get('m1')?.content).toBe('Refund sent');
    expect(server.requests.map((r) => r.headers['last-event-id'])).toEqual([undefined, '2']);
  });

  it('with reconnect on, a server that always leaves its last event unfinished fails as UNFINISHED_EVENT once the attempts are spent', async () => {
    const server = await serve((res, { threadId, runId }) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.end(
        server.posts() === 1 ? unterminated(threadId, runId, '1') : `data: ${JSON.stringify({ type: 'RUN_FINISHED', threadId, runId })}\n`,
      );
    });
    const c = createRunController({ threadId: 't1', source: httpSseSource({ url: server.url, reconnect: { attempts: 2, delayMs: 1 } }) });
    await c.run('hi');
    const { failure, thread } = c.getSnapshot();
    expect(thread.run.status).toBe('unknown');
    expect(failure).toMatchObject({ code: 'CONNECTION_LOST', cause: 'UNFINISHED_EVENT' });
    expect(failure?.message).toMatch(/ended inside an event/);
    expect(server.posts()).toBe(3);
  });

  it('with reconnect on, a server that ends no event at all (one newline between frames) is not sent the run again', async () => {
    const server = await serve((res, { threadId, runId }) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      // The whole run, read as one event the body ends inside: nothing was handed over, and no id to resume after.
      res.end(
        [
          { type: 'RUN_STARTED', threadId, runId },
          { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'refund' },
          { type: 'TOOL_CALL_END', toolCallId: 'c1' },
          { type: 'RUN_FINISHED', threadId, runId },
        ]
          .map((e) => `data: ${JSON.stringify(e)}\n`)
          .join(''),
      );
    });
    const c = createRunController({ threadId: 't1', source: httpSseSource({ url: server.url, reconnect: { attempts: 2, delayMs: 1 } }) });
    await c.run('hi');
    expect(c.getSnapshot().failure).toMatchObject({ code: 'CONNECTION_LOST', cause: 'UNFINISHED_EVENT' });
    // The agent ran the request once: sending it again would run it again, to the same answer.
    expect(server.posts()).toBe(1);
  });

  it('a stream that ends inside a comment or a blank field is no unfinished event: the run ended before it', async () => {
    const server = await serve((res, { threadId, runId }) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.end(`${sse({ type: 'RUN_STARTED', threadId, runId })}${sse({ type: 'RUN_FINISHED', threadId, runId })}: bye\nid: 9`);
    });
    const c = createRunController({ threadId: 't1', source: httpSseSource({ url: server.url }) });
    expect(await c.run('hi')).toMatchObject({ ok: true, status: 'success' });
    expect(c.getSnapshot().failure).toBeUndefined();
  });
});

describe('what comes after the run ended', () => {
  it('a frame too large after RUN_FINISHED leaves the run a success with no failure: the run lost nothing', async () => {
    const server = await serve((res, { threadId, runId }) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.end(
        `${sse({ type: 'RUN_STARTED', threadId, runId })}${sse({ type: 'RUN_FINISHED', threadId, runId })}data: "${'x'.repeat(500)}"\n\n`,
      );
    });
    const c = createRunController({ threadId: 't1', source: httpSseSource({ url: server.url, maxFrameBytes: 200 }) });
    expect(await c.run('hi')).toMatchObject({ ok: true, status: 'success' });
    expect(c.getSnapshot().failure).toBeUndefined();
    expect(c.getSnapshot().connection).toBe('closed');
  });
});

describe('a server whose SSE ids identify no single event', () => {
  it('one id for every event: the stream is not resumed after it (which event it names is unknown), and nothing is applied twice', async () => {
    let posts = 0;
    const server = await serve((res, { threadId, runId }) => {
      posts++;
      const events = [
        { type: 'RUN_STARTED', threadId, runId },
        { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' },
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'first half, ' },
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'second half' },
        { type: 'TEXT_MESSAGE_END', messageId: 'm1' },
        { type: 'RUN_FINISHED', threadId, runId },
      ].map((e) => sse(e, runId));
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      // The first answer breaks after three events; a reconnect after the run id would get the run again.
      if (posts === 1) {
        res.write(events.slice(0, 3).join(''));
        setTimeout(() => res.socket?.destroy(), 30);
      } else res.end(events.join(''));
    });
    const c = createRunController({ threadId: 't1', source: httpSseSource({ url: server.url, reconnect: { attempts: 2, delayMs: 1 } }) });
    expect(await c.run('hi')).toMatchObject({ status: 'unknown' });
    expect(posts).toBe(1);
    expect(c.getSnapshot().failure).toMatchObject({ code: 'CONNECTION_LOST', reconnectable: false });
    expect(c.getSnapshot().thread.messages.byId.get('m1')?.content).toBe('first half, ');
  });
});

describe('a resumed stream, which carries no RUN_STARTED', () => {
  it('a RUN_FINISHED of the run under another thread does not end it: the real end 1.2 s later settles the run', async () => {
    const server = await serve(async (res, { threadId, runId }) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      if (server.posts() === 1) {
        res.write(sse({ type: 'RUN_STARTED', threadId, runId }, '1'));
        res.write(sse({ type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' }, '2'));
        setTimeout(() => res.socket?.destroy(), 50);
        return;
      }
      res.write(sse({ type: 'TEXT_MESSAGE_END', messageId: 'm1' }, '3'));
      res.write(sse({ type: 'RUN_FINISHED', threadId: 'another-thread', runId }, '4'));
      // Past the default grace (1 s): a stream let go at the wrong end never reads what follows.
      await new Promise((resolve) => setTimeout(resolve, 1200));
      res.end(sse({ type: 'RUN_FINISHED', threadId, runId }, '5'));
    });
    const c = createRunController({ threadId: 't1', source: httpSseSource({ url: server.url }) });
    await c.run('hi');
    expect(c.getSnapshot().failure).toMatchObject({ code: 'CONNECTION_LOST', reconnectable: true });
    expect(await c.reconnect()).toMatchObject({ ok: true, status: 'success' });
    const { failure, thread } = c.getSnapshot();
    expect(failure).toBeUndefined();
    expect(thread.run.status).toBe('success');
    expect(server.posts()).toBe(2);
  });

  it('an agent that names a thread of its own ends its resumed run at its close, with no reconnect after it', async () => {
    const server = await serve((res, { runId }) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      // The first request and the source's own reconnect are cut; the thread's reconnect is answered.
      if (server.posts() <= 2) {
        if (server.posts() === 1) res.write(sse({ type: 'RUN_STARTED', threadId: 'agent-thread', runId }, '1'));
        res.write(sse({ type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' }, '2'));
        setTimeout(() => res.socket?.destroy(), 50);
        return;
      }
      res.end(
        sse({ type: 'TEXT_MESSAGE_END', messageId: 'm1' }, '3') + sse({ type: 'RUN_FINISHED', threadId: 'agent-thread', runId }, '4'),
      );
    });
    const c = createRunController({ threadId: 't1', source: httpSseSource({ url: server.url, reconnect: { attempts: 1, delayMs: 1 } }) });
    await c.run('hi');
    expect(c.getSnapshot().failure).toMatchObject({ code: 'CONNECTION_LOST', reconnectable: true });
    expect(await c.reconnect()).toMatchObject({ ok: true, status: 'success' });
    expect(c.getSnapshot().failure).toBeUndefined();
    expect(server.posts()).toBe(3);
  });
});
