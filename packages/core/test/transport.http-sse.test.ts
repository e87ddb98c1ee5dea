import type { ServerResponse } from 'node:http';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { createEventPipeline } from '../src/engine.js';
import {
  AgentTransportError,
  type ConnectionStatus,
  type HttpSseSourceOptions,
  httpSseSource,
  type RunAgentInput,
  type SourceRunOptions,
} from '../src/index.js';
import { closeServers, type Handler, serve } from './support/loopbackServer.js';

afterEach(closeServers);

const pause = (ms = 2) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function sseHead(res: ServerResponse): void {
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
  res.flushHeaders();
}

/** Writes one chunk and resolves once it was handed to the socket. */
function write(res: ServerResponse, chunk: string | Uint8Array): Promise<void> {
  return new Promise<void>((resolve, reject) => res.write(chunk, (error) => (error ? reject(error) : resolve())));
}

/** An SSE stream written chunk by chunk, with a pause between chunks so each arrives separately. */
function stream(chunks: readonly (string | Uint8Array)[], gapMs = 2): Handler {
  return async (res) => {
    sseHead(res);
    for (const [i, chunk] of chunks.entries()) {
      if (i > 0) await pause(gapMs);
      await write(res, chunk);
    }
    res.end();
  };
}

/** Cuts the TCP connection mid-response, once what was written is on its way. */
async function cut(res: ServerResponse): Promise<void> {
  await pause(5);
  res.socket?.destroy();
}

const frame = (event: unknown, id?: string) => `${id === undefined ? '' : `id: ${id}\n`}data: ${JSON.stringify(event)}\n\n`;

/** The frames of events `from`..`to` of `script` (1-based, inclusive), each with its position as its id. */
const framesWithIds =
  (script: readonly unknown[]) =>
  (from: number, to = script.length) =>
    script
      .slice(from - 1, to)
      .map((e, i) => frame(e, String(from + i)))
      .join('');

const input: RunAgentInput = {
  threadId: 't1',
  runId: 'r1',
  messages: [{ id: 'u1', role: 'user', content: 'Refund order 42 👋' }],
  tools: [],
  context: [],
  state: { locale: 'en' },
  forwardedProps: {},
};

const started = { type: 'RUN_STARTED', threadId: 't1', runId: 'r1' };
const finished = { type: 'RUN_FINISHED', threadId: 't1', runId: 'r1' };
const custom = (n: number) => ({ type: 'CUSTOM', name: 'n', value: n });

async function collect(events: AsyncIterable<unknown>): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const event of events) out.push(event);
  return out;
}

/** The error a promise rejects with (fails the test when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (e) {
    return e;
  }
  throw new Error('expected the promise to reject');
}

function run(url: string, options: Omit<HttpSseSourceOptions, 'url'> = {}, runOptions: SourceRunOptions = {}) {
  return httpSseSource({ url, ...options }).run(input, runOptions);
}

/** Half of a surrogate pair, alone (a paired one is one code point, which \p{Cs} does not match). */
const LONE_SURROGATE = /\p{Cs}/u;

describe('httpSseSource: the request', () => {
  it('POSTs the input as JSON with Accept: text/event-stream and Content-Type: application/json', async () => {
    const server = await serve(stream([frame(started), frame(finished)]));
    expect(await collect(run(server.url))).toEqual([started, finished]);
    expect(server.requests).toHaveLength(1);
    const [req] = server.requests;
    expect(req?.method).toBe('POST');
    expect(req?.url).toBe('/agent');
    expect(req?.headers.accept).toBe('text/event-stream');
    expect(req?.headers['content-type']).toBe('application/json');
    expect(req?.headers['last-event-id']).toBeUndefined();
    expect(JSON.parse(req?.body ?? '')).toEqual(input);
  });

  it('adds extra headers given as an object', async () => {
    const server = await serve(stream([frame(started), frame(finished)]));
    await collect(run(server.url, { headers: { Authorization: 'Bearer abc', 'X-Tenant': 'acme' } }));
    expect(server.requests[0]?.headers).toMatchObject({ authorization: 'Bearer abc', 'x-tenant': 'acme', accept: 'text/event-stream' });
  });

  it('adds extra headers from an async function, asked again for every run', async () => {
    const server = await serve(stream([frame(started), frame(finished)]));
    let token = 0;
    const source = httpSseSource({
      url: server.url,
      headers: async () => {
        await pause(1);
        token++;
        return { Authorization: `Bearer t${token}` };
      },
    });
    await collect(source.run(input));
    await collect(source.run(input));
    expect(server.requests.map((r) => r.headers.authorization)).toEqual(['Bearer t1', 'Bearer t2']);
    expect(server.requests[1]?.headers['content-type']).toBe('application/json');
  });
});

describe('httpSseSource: SSE framing', () => {
  it('yields plain data frames in order, each parsed as JSON', async () => {
    const events = [started, ...Array.from({ length: 20 }, (_, i) => custom(i)), finished];
    const server = await serve(
      stream([
        events
          .slice(0, 5)
          .map((e) => frame(e))
          .join(''),
        events
          .slice(5)
          .map((e) => frame(e))
          .join(''),
      ]),
    );
    expect(await collect(run(server.url))).toEqual(events);
  });

  it('accepts CRLF line endings, also with the CR and LF in different chunks', async () => {
    const server = await serve(
      stream([
        `data: ${JSON.stringify(started)}\r\n\r\n`,
        `data: ${JSON.stringify(custom(1))}\r`,
        `\n\r`,
        `\ndata: ${JSON.stringify(finished)}\r\n\r\n`,
      ]),
    );
    expect(await collect(run(server.url))).toEqual([started, custom(1), finished]);
  });

  it('delivers a frame whose chunk ends in CR at once, without waiting for the next chunk', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const server = await serve(async (res) => {
      sseHead(res);
      await write(res, `data: ${JSON.stringify(started)}\r\r`);
      await held;
      await write(res, `\ndata: ${JSON.stringify(finished)}\r\n\r\n`);
      res.end();
    });
    const events = run(server.url)[Symbol.asyncIterator]();
    // The server writes nothing more until the first event has arrived.
    expect((await events.next()).value).toEqual(started);
    release();
    const rest: unknown[] = [];
    for (let next = await events.next(); !next.done; next = await events.next()) rest.push(next.value);
    // The LF that starts the second chunk is a line of its own after a bare CR: an empty line, no event.
    expect(rest).toEqual([finished]);
  });

  it('accepts bare CR line endings', async () => {
    const server = await serve(
      stream([
        `data: ${JSON.stringify(started)}\r\r`,
        `id: 1\rdata: ${JSON.stringify(custom(1))}\r\r`,
        `data: ${JSON.stringify(finished)}\r\r`,
      ]),
    );
    expect(await collect(run(server.url))).toEqual([started, custom(1), finished]);
  });

  it('ignores comment lines and heartbeats between and inside frames', async () => {
    const server = await serve(
      stream([
        ': connected\n\n',
        `data: ${JSON.stringify(started)}\n\n:\n\n: heartbeat\n\n`,
        `: before the data\ndata: ${JSON.stringify(custom(1))}\n: after the data, before the blank line\n\n`,
        ':keep-alive\n\n',
        `data: ${JSON.stringify(finished)}\n\n: bye\n\n`,
      ]),
    );
    expect(await collect(run(server.url))).toEqual([started, custom(1), finished]);
  });

  it('joins multi-line data with a newline into one JSON document', async () => {
    const multi = { type: 'CUSTOM', name: 'multi', value: { a: [1, 2], b: 'two\nlines' } };
    const lines = JSON.stringify(multi, null, 2).split('\n');
    expect(lines.length).toBeGreaterThan(2);
    const server = await serve(
      stream([
        frame(started),
        `${lines.map((l) => `data: ${l}`).join('\n')}\n\n`,
        'data: {"type":"CUSTOM",\ndata: "name":"two","value":2}\n\n',
        frame(finished),
      ]),
    );
    expect(await collect(run(server.url))).toEqual([started, multi, { type: 'CUSTOM', name: 'two', value: 2 }, finished]);
  });

  it('ignores event: and retry: fields', async () => {
    const server = await serve(
      stream([
        'retry: 3000\n\n',
        `event: message\ndata: ${JSON.stringify(started)}\n\n`,
        `event: agui\nretry: 10\ndata: ${JSON.stringify(custom(1))}\n\n`,
        `retry: not-a-number\nevent: done\ndata: ${JSON.stringify(finished)}\n\n`,
      ]),
    );
    expect(await collect(run(server.url))).toEqual([started, custom(1), finished]);
  });

  it('a multi-byte character split between two chunks at every byte position arrives whole', async () => {
    const text = '👩‍👩‍👧漢字';
    const bytes = Buffer.from(text, 'utf8');
    expect(bytes.length).toBe(24);
    const chunks: Buffer[] = [];
    for (let at = 1; at < bytes.length; at++) {
      const whole = Buffer.from(`data: ${JSON.stringify({ type: 'CUSTOM', name: 'split', value: `${at}:${text}` })}\n\n`, 'utf8');
      const splitAt = whole.indexOf(bytes) + at;
      chunks.push(whole.subarray(0, splitAt), whole.subarray(splitAt));
    }
    // Record the chunks the client's reader gets, to check the splits reached it.
    const seen: number[] = [];
    const recordingFetch: typeof fetch = async (url, init) => {
      const response = await fetch(url, init);
      const body = response.body?.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            seen.push(chunk.byteLength);
            controller.enqueue(chunk);
          },
        }),
      );
      return new Response(body, response);
    };
    const server = await serve(stream(chunks));
    const events = await collect(run(server.url, { fetch: recordingFetch }));
    expect(events).toEqual(
      Array.from({ length: bytes.length - 1 }, (_, i) => ({ type: 'CUSTOM', name: 'split', value: `${i + 1}:${text}` })),
    );
    expect(JSON.stringify(events)).not.toContain('\uFFFD');
    expect(seen.length).toBeGreaterThan(bytes.length);
  });

  it('reassembles a JSON document split mid-frame across many chunks', async () => {
    const big = { type: 'CUSTOM', name: 'big', value: { text: 'Ünïcödé ✓ '.repeat(40), list: Array.from({ length: 30 }, (_, i) => i) } };
    const bytes = Buffer.from(frame(big), 'utf8');
    const pieces: Buffer[] = [];
    for (let at = 0; at < bytes.length; at += 37) pieces.push(bytes.subarray(at, at + 37));
    expect(pieces.length).toBeGreaterThan(10);
    const server = await serve(stream([frame(started), ...pieces, frame(finished)], 1));
    expect(await collect(run(server.url))).toEqual([started, big, finished]);
  });

  describe('decoding the body as one UTF-8 stream, whatever its chunks', () => {
    const bytes = (text: string) => new Uint8Array(Buffer.from(text, 'utf8'));
    /** The events of a body handed to the client in exactly these chunks. */
    const eventsOf = async (chunks: readonly Uint8Array[]) => {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(chunk);
          controller.close();
        },
      });
      const response = new Response(body, { headers: { 'content-type': 'text/event-stream' } });
      return collect(run('http://agent.invalid/run', { fetch: async () => response }));
    };
    const valueFrame = (value: string) => frame({ type: 'CUSTOM', name: 'v', value });

    it('drops one byte order mark at the start of the body, so the first frame is not lost', async () => {
      expect(await eventsOf([bytes(`\uFEFF${frame(started)}`), bytes(frame(finished))])).toEqual([started, finished]);
      // A second U+FEFF is the start of a field name: that line is not a data line.
      expect(await eventsOf([bytes(`\uFEFF\uFEFF${frame(custom(1))}`), bytes(frame(started)), bytes(frame(finished))])).toEqual([
        started,
        finished,
      ]);
    });

    it('keeps a U+FEFF that starts a later chunk: it is text, not a byte order mark', async () => {
      const [head, tail] = valueFrame('\uFEFFword').split('\uFEFF') as [string, string];
      const events = await eventsOf([bytes(frame(started)), bytes(head), bytes(`\uFEFF${tail}`), bytes(frame(finished))]);
      expect(events).toEqual([started, { type: 'CUSTOM', name: 'v', value: '\uFEFFword' }, finished]);
    });

    it('joins a character split around empty chunks and chunks that end in ASCII', async () => {
      const whole = bytes(valueFrame('a漢b'));
      const at = whole.indexOf(0xe6) + 1;
      const chunks = [bytes(frame(started)), whole.subarray(0, at), new Uint8Array(0), whole.subarray(at, at + 1), new Uint8Array(0)];
      chunks.push(whole.subarray(at + 1), bytes(valueFrame('ü')), bytes(frame(finished)));
      const events = await eventsOf(chunks);
      expect(events).toEqual([started, { type: 'CUSTOM', name: 'v', value: 'a漢b' }, { type: 'CUSTOM', name: 'v', value: 'ü' }, finished]);
    });

    it('yields the same events however the bytes are cut into chunks, empty ones included', async () => {
      // Text with one- to four-byte characters and U+FEFF, so that cuts fall inside characters and after ASCII alike.
      const char = fc.constantFrom('a', ' ', 'é', '漢', '😀', '\uFEFF', '"', '\\', '\n');
      const value = fc.array(char, { maxLength: 30 }).map((cs) => cs.join(''));
      await fc.assert(
        fc.asyncProperty(fc.array(value, { minLength: 1, maxLength: 6 }), fc.array(fc.nat(), { maxLength: 40 }), async (values, cuts) => {
          const events = [started, ...values.map((v) => ({ type: 'CUSTOM', name: 'v', value: v })), finished];
          const whole = bytes(events.map((e) => frame(e)).join(''));
          const at = cuts.map((c) => c % (whole.length + 1)).sort((a, b) => a - b);
          const chunks = [0, ...at].map((from, i) => whole.subarray(from, at[i] ?? whole.length));
          expect(await eventsOf(chunks)).toEqual(events);
        }),
        { numRuns: 150 },
      );
    });

    it('turns bytes that are not UTF-8 into U+FFFD in any chunk, and loses no frame after them', async () => {
      const bad = new Uint8Array([...bytes('data: {"type":"CUSTOM","name":"v","value":"x'), 0xff, 0xc3, ...bytes('y"}\n\n')]);
      const events = await eventsOf([bytes(frame(started)), bad, bytes(frame(finished))]);
      expect(events).toEqual([started, { type: 'CUSTOM', name: 'v', value: 'x\uFFFD\uFFFDy' }, finished]);
    });
  });

  it('yields a frame that is not JSON as its text, without throwing', async () => {
    const server = await serve(stream([frame(started), 'data: not json {\n\n', 'data: [DONE]\n\n', frame(finished)]));
    expect(await collect(run(server.url))).toEqual([started, 'not json {', '[DONE]', finished]);
  });
});

describe('httpSseSource: errors', () => {
  it('a 422 with a JSON body is an HTTP_STATUS error carrying the status and the body', async () => {
    const body = JSON.stringify({ error: 'messages must not be empty' });
    const server = await serve((res) => {
      res.writeHead(422, { 'Content-Type': 'application/json' });
      res.end(body);
    });
    const statuses: ConnectionStatus[] = [];
    const error = await rejection(collect(run(server.url, {}, { onConnection: (s) => statuses.push(s) })));
    expect(error).toBeInstanceOf(AgentTransportError);
    expect(error).toMatchObject({ name: 'AgentTransportError', code: 'HTTP_STATUS', status: 422, body });
    expect((error as Error).message).toContain('422');
    expect((error as Error).message).toContain('messages must not be empty');
    expect(statuses).toEqual(['connecting', 'failed']);
  });

  it('a 500 with a text body is an HTTP_STATUS error carrying the status and the body', async () => {
    const server = await serve((res) => {
      res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end('upstream model unavailable');
    });
    const error = await rejection(collect(run(server.url)));
    expect(error).toBeInstanceOf(AgentTransportError);
    expect(error).toMatchObject({ code: 'HTTP_STATUS', status: 500, body: 'upstream model unavailable' });
    expect((error as Error).message).toMatch(/500.*upstream model unavailable/);
  });

  it('a 200 that is application/json, not an event stream, is NOT_EVENT_STREAM', async () => {
    const server = await serve((res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify([started, finished]));
    });
    const error = await rejection(collect(run(server.url)));
    expect(error).toBeInstanceOf(AgentTransportError);
    expect(error).toMatchObject({ code: 'NOT_EVENT_STREAM', status: 200 });
    expect((error as Error).message).toContain('application/json');
  });

  it('stops with FRAME_TOO_LARGE on a frame over maxFrameBytes that arrives whole, after the events before it', async () => {
    const huge = { type: 'CUSTOM', name: 'huge', value: 'x'.repeat(5000) };
    const server = await serve(async (res, req) => {
      sseHead(res);
      await write(res, frame(started) + frame(custom(1)));
      await pause();
      // Events before the big frame in the same chunk are still delivered; what follows it is not.
      await write(res, frame(custom(2)) + frame(huge) + frame(custom(3)));
      await req.closed;
    });
    const received: unknown[] = [];
    const error = await rejection(
      (async () => {
        for await (const event of run(server.url, { maxFrameBytes: 1024 })) received.push(event);
      })(),
    );
    expect(error).toBeInstanceOf(AgentTransportError);
    expect(error).toMatchObject({ code: 'FRAME_TOO_LARGE' });
    expect((error as Error).message).toContain('1024');
    expect(received).toEqual([started, custom(1), custom(2)]);
    // The response is abandoned, not read to its end.
    expect(await server.requests[0]?.closed).toBe(true);
  });

  it('stops with FRAME_TOO_LARGE on a frame over maxFrameBytes that arrives in pieces', async () => {
    const bytes = Buffer.from(frame({ type: 'CUSTOM', name: 'huge', value: 'y'.repeat(5000) }));
    const pieces = Array.from({ length: 10 }, (_, i) => bytes.subarray(i * 600, (i + 1) * 600)).filter((p) => p.length > 0);
    const server = await serve(stream([frame(started), ...pieces, frame(finished)]));
    const received: unknown[] = [];
    const error = await rejection(
      (async () => {
        for await (const event of run(server.url, { maxFrameBytes: 1024 })) received.push(event);
      })(),
    );
    expect(error).toMatchObject({ code: 'FRAME_TOO_LARGE' });
    expect(received).toEqual([started]);
  });

  it('an error answer whose body never ends is reported from its first 64 KiB, and the rest is not read', async () => {
    let sent = 0;
    const server = await serve(async (res, req) => {
      res.writeHead(502, { 'Content-Type': 'text/html' });
      let open = true;
      void req.closed.then(() => {
        open = false;
      });
      const chunk = `<p>${'bad gateway '.repeat(5000)}</p>`;
      while (open && sent < 64 * 1024 * 1024) {
        await write(res, chunk).catch(() => {
          open = false;
        });
        sent += chunk.length;
      }
    });
    const error = await rejection(collect(run(server.url)));
    expect(error).toMatchObject({ code: 'HTTP_STATUS', status: 502 });
    expect((error as AgentTransportError).body?.length).toBeLessThanOrEqual(64 * 1024 + 1);
    expect((error as AgentTransportError).body).toMatch(/^<p>bad gateway/);
    // The response was abandoned, not read to an end it does not have.
    expect(await server.requests[0]?.closed).toBe(true);
    expect(sent).toBeLessThan(16 * 1024 * 1024);
  });

  it('an error body cut at 64 KiB is cut at a whole character: never half of a surrogate pair', async () => {
    // 'a' then pairs: unit 65,535 is the first half of a pair.
    const server = await serve(async (res) => {
      res.writeHead(502, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(`a${'😀'.repeat(40_000)}`);
    });
    const error = (await rejection(collect(run(server.url)))) as AgentTransportError;
    expect(error).toMatchObject({ code: 'HTTP_STATUS', status: 502 });
    expect(error.body).not.toMatch(LONE_SURROGATE);
    expect(error.body?.length).toBe(65_535 + 1);
  });

  it('a header value fetch refuses is a request that cannot be built: INVALID_REQUEST, never sent, never retried', async () => {
    const server = await serve(stream([frame(started), frame(finished)]));
    const error = await rejection(
      collect(run(server.url, { headers: () => ({ Authorization: 'Bearer tok\nen' }), reconnect: { attempts: 2, delayMs: 1 } })),
    );
    expect(error).toBeInstanceOf(AgentTransportError);
    expect(error).toMatchObject({ code: 'INVALID_REQUEST' });
    expect((error as Error).message).toMatch(/header/i);
    // It names the header, never its value: a token must not reach the run's failure, a log or a saved session.
    expect((error as Error).message).toContain('Authorization');
    expect((error as Error).message).not.toMatch(/tok/);
    expect(server.requests).toHaveLength(0);
  });

  it('passes many frames each under maxFrameBytes even when their total is far over it', async () => {
    const events = [
      started,
      ...Array.from({ length: 300 }, (_, i) => ({ type: 'CUSTOM', name: 'fill', value: `${i}:${'z'.repeat(900)}` })),
      finished,
    ];
    const frames = events.map((e) => frame(e));
    expect(frames.join('').length).toBeGreaterThan(250 * 1024);
    const server = await serve(stream([frames.slice(0, 150).join(''), frames.slice(150).join('')]));
    expect(await collect(run(server.url, { maxFrameBytes: 1024 }))).toEqual(events);
  });
});

describe('httpSseSource: SSE ids', () => {
  it('an empty id: field is no id: every event arrives, none is taken for one seen before, and the consumer is told the id was reset', async () => {
    const events = [started, custom(1), custom(2), finished];
    const server = await serve(stream(events.map((e) => `id: \n${frame(e)}`)));
    const ids: string[] = [];
    const received: unknown[] = [];
    await httpSseSource({ url: server.url }).deliver?.(input, { onEventId: (id) => ids.push(id) }, (e) => received.push(e));
    expect(received).toEqual(events);
    // As EventSource's lastEventId: '' once the agent reset it.
    expect(ids).toEqual(['', '', '', '']);
  });
});

describe('httpSseSource: abort and ends', () => {
  it('aborting mid-stream ends the iteration promptly with an AbortError and closes the connection', async () => {
    const server = await serve(async (res, req) => {
      sseHead(res);
      await write(res, frame(started));
      await pause();
      await write(res, frame(custom(1)));
      await req.closed;
    });
    const controller = new AbortController();
    const statuses: ConnectionStatus[] = [];
    const received: unknown[] = [];
    let abortedAt = 0;
    const error = await rejection(
      (async () => {
        for await (const event of run(server.url, {}, { signal: controller.signal, onConnection: (s) => statuses.push(s) })) {
          received.push(event);
          if (received.length === 2) {
            abortedAt = performance.now();
            setTimeout(() => controller.abort(), 5);
          }
        }
      })(),
    );
    expect(performance.now() - abortedAt).toBeLessThan(250);
    expect(error).toMatchObject({ name: 'AbortError' });
    expect(received).toEqual([started, custom(1)]);
    expect(statuses).toEqual(['connecting', 'open', 'closed']);
    expect(await server.requests[0]?.closed).toBe(true);
  });

  it('yields nothing more once aborted, even events already received in the same chunk', async () => {
    const server = await serve(async (res, req) => {
      sseHead(res);
      await write(res, [started, custom(1), custom(2), custom(3)].map((e) => frame(e)).join(''));
      await req.closed;
    });
    const controller = new AbortController();
    const received: unknown[] = [];
    const error = await rejection(
      (async () => {
        for await (const event of run(server.url, {}, { signal: controller.signal })) {
          received.push(event);
          if (received.length === 2) controller.abort();
        }
      })(),
    );
    expect(error).toMatchObject({ name: 'AbortError' });
    expect(received).toEqual([started, custom(1)]);
    expect(await server.requests[0]?.closed).toBe(true);
  });

  it('aborting before the response arrives rejects with an AbortError', async () => {
    const controller = new AbortController();
    // Aborted once the server holds the request, so the abort always lands before any response.
    const server = await serve(async (_res, req) => {
      controller.abort();
      await req.closed;
    });
    const statuses: ConnectionStatus[] = [];
    const error = await rejection(collect(run(server.url, {}, { signal: controller.signal, onConnection: (s) => statuses.push(s) })));
    expect(error).toMatchObject({ name: 'AbortError' });
    expect(statuses).toEqual(['connecting', 'closed']);
    expect(await server.requests[0]?.closed).toBe(true);
  });

  it('a stream that ends inside a run, without reconnect, just ends; the pipeline reports it truncated', async () => {
    const server = await serve(
      stream([
        frame(started),
        frame({ type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' }),
        frame({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'Half a' }),
      ]),
    );
    const statuses: ConnectionStatus[] = [];
    const pipeline = createEventPipeline();
    for await (const event of run(server.url, {}, { onConnection: (s) => statuses.push(s) })) pipeline.push(event);
    expect(pipeline.count).toBe(3);
    expect(pipeline.state.run.status).toBe('running');
    const state = pipeline.end();
    expect(state.run.status).toBe('unknown');
    expect(state.diagnostics.map((d) => d.code)).toContain('STREAM_TRUNCATED');
    expect(statuses).toEqual(['connecting', 'open', 'closed']);
    expect(server.requests).toHaveLength(1);
  });
});

describe('httpSseSource: a stream that goes silent (idleTimeoutMs)', () => {
  /** Sends its frames, then keeps the connection open and writes nothing (a dead upstream behind a proxy). */
  const silentAfter = (frames: string) => async (res: ServerResponse) => {
    sseHead(res);
    await write(res, frames);
    await new Promise<void>((resolve) => res.once('close', resolve));
  };

  it('ends as a lost connection once nothing arrived for idleTimeoutMs, with the events before it delivered', async () => {
    const server = await serve(silentAfter(frame(started, '1')));
    const statuses: ConnectionStatus[] = [];
    const out: unknown[] = [];
    const began = Date.now();
    const error = await rejection(
      (async () => {
        for await (const e of run(server.url, { idleTimeoutMs: 400 }, { onConnection: (st) => statuses.push(st) })) out.push(e);
      })(),
    );
    expect(out).toEqual([started]);
    expect(String((error as Error).message)).toMatch(/nothing arrived/i);
    expect(error).not.toBeInstanceOf(AgentTransportError);
    expect(Date.now() - began).toBeLessThan(2_000);
    expect(statuses.at(-1)).toBe('closed');
    expect(await server.requests[0]?.closed).toBe(true);
  });

  it('counts a heartbeat comment as life: a slow stream with pings ends as it should', async () => {
    const pings = Array.from({ length: 20 }, () => ': ping\n\n');
    const server = await serve(stream([frame(started), ...pings, frame(finished)], 30));
    expect(await collect(run(server.url, { idleTimeoutMs: 400 }))).toEqual([started, finished]);
  });

  it('a server that never answers the request: lost within idleTimeoutMs, and asked again when reconnect allows', async () => {
    const server = await serve(async (res, _req, index) => {
      if (index === 0) return new Promise<void>((resolve) => res.once('close', resolve));
      sseHead(res);
      await write(res, frame(started) + frame(finished));
      res.end();
    });
    const began = Date.now();
    const error = await rejection(collect(run(server.url, { idleTimeoutMs: 400 })));
    expect(String((error as Error).message)).toMatch(/no answer.*400 ms/i);
    expect(Date.now() - began).toBeLessThan(2_000);
    expect(await server.requests[0]?.closed).toBe(true);
    expect(await collect(run(server.url, { idleTimeoutMs: 400, reconnect: { attempts: 1, delayMs: 1 } }))).toEqual([started, finished]);
  });

  it('a fetch that ignores its signal and never settles: lost within idleTimeoutMs all the same', async () => {
    const source = httpSseSource({
      url: 'http://127.0.0.1:1/agent',
      idleTimeoutMs: 400,
      fetch: () => new Promise<Response>(() => undefined),
    });
    const began = Date.now();
    const error = await rejection(
      collect(source.run({ threadId: 't', runId: 'r', messages: [], tools: [], context: [], state: {} } as never)),
    );
    expect(String((error as Error).message)).toMatch(/no answer.*400 ms/i);
    expect(Date.now() - began).toBeLessThan(2_000);
  });

  it('an error answer whose body never ends: HTTP_STATUS within idleTimeoutMs, with the body that came', async () => {
    const server = await serve(async (res) => {
      res.writeHead(502, { 'Content-Type': 'text/plain' });
      await write(res, 'Bad gateway: upstream ');
      await new Promise<void>((resolve) => res.once('close', resolve));
    });
    const began = Date.now();
    const error = await rejection(collect(run(server.url, { idleTimeoutMs: 400 })));
    expect(error).toMatchObject({ code: 'HTTP_STATUS', status: 502, body: 'Bad gateway: upstream ' });
    expect(Date.now() - began).toBeLessThan(2_000);
  });

  it('reconnects after the silence when asked to, from the last id', async () => {
    const server = await serve(async (res, req, index) => {
      if (index === 0) return silentAfter(frame(started, '1'))(res);
      sseHead(res);
      await write(res, frame(finished, '2'));
      res.end();
      expect(req.headers['last-event-id']).toBe('1');
    });
    expect(await collect(run(server.url, { idleTimeoutMs: 400, reconnect: { attempts: 1, delayMs: 1 } }))).toEqual([started, finished]);
  });
});

describe('httpSseSource: Last-Event-ID reconnect', () => {
  const script = [
    started,
    { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' },
    { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'Your refund ' },
    { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'of $42 ' },
    { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'is approved.' },
    { type: 'TEXT_MESSAGE_END', messageId: 'm1' },
    finished,
  ];
  const withId = framesWithIds(script);

  it('resumes after a cut with Last-Event-ID and yields every event exactly once, in order', async () => {
    const server = await serve(async (res, req, index) => {
      sseHead(res);
      if (index === 0) {
        await write(res, withId(1, 2));
        await pause();
        await write(res, withId(3, 4));
        await cut(res);
        return;
      }
      // Replay from before the last id the client has, to check it drops what it already saw.
      const last = Number(req.headers['last-event-id']);
      await write(res, withId(last - 2, last + 1));
      await pause();
      await write(res, withId(last + 2));
      res.end();
    });
    const statuses: ConnectionStatus[] = [];
    const ids: string[] = [];
    const events = await collect(
      run(
        server.url,
        { reconnect: { attempts: 2, delayMs: 1 } },
        { onConnection: (s) => statuses.push(s), onEventId: (id) => ids.push(id) },
      ),
    );
    expect(events).toEqual(script);
    expect(ids).toEqual(['1', '2', '3', '4', '5', '6', '7']);
    expect(statuses).toEqual(['connecting', 'open', 'reconnecting', 'open', 'closed']);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0]?.headers['last-event-id']).toBeUndefined();
    expect(server.requests[1]?.headers['last-event-id']).toBe('4');
    expect(server.requests[1]?.body).toBe(server.requests[0]?.body);
    expect(server.requests[1]?.headers.accept).toBe('text/event-stream');
  });

  it("tells onEventId every id, and '' for the first event without one after an id: a point a resume cannot start from", async () => {
    const server = await serve(
      stream([frame(started, 'a'), frame(custom(1)), frame(custom(2), 'b'), `id: c\ndata: ${JSON.stringify(finished)}\n\n`]),
    );
    const ids: string[] = [];
    const events = await collect(run(server.url, {}, { onEventId: (id) => ids.push(id) }));
    expect(events).toEqual([started, custom(1), custom(2), finished]);
    expect(ids).toEqual(['a', '', 'b', 'c']);
  });

  it('does not reconnect when the server sent no ids', async () => {
    const server = await serve(async (res) => {
      sseHead(res);
      await write(res, frame(started) + frame(custom(1)));
      await cut(res);
    });
    const statuses: ConnectionStatus[] = [];
    const received: unknown[] = [];
    const error = await rejection(
      (async () => {
        for await (const event of run(server.url, { reconnect: { attempts: 2, delayMs: 1 } }, { onConnection: (s) => statuses.push(s) }))
          received.push(event);
      })(),
    );
    expect(error).not.toBeInstanceOf(AgentTransportError);
    expect(received).toEqual([started, custom(1)]);
    expect(statuses).toEqual(['connecting', 'open', 'closed']);
    await pause(20);
    expect(server.requests).toHaveLength(1);
  });

  it('sends the same request again when the connection drops before the first event, and yields each event once', async () => {
    const server = await serve(async (res, _req, i) => {
      sseHead(res);
      if (i === 0) {
        await write(res, 'data: {"type":"RUN_STA');
        await cut(res);
        return;
      }
      await write(res, frame(started) + frame(custom(1)) + frame(finished));
      res.end();
    });
    const statuses: ConnectionStatus[] = [];
    const events = await collect(run(server.url, { reconnect: { attempts: 2, delayMs: 1 } }, { onConnection: (s) => statuses.push(s) }));
    expect(events).toEqual([started, custom(1), finished]);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]?.body).toBe(server.requests[0]?.body);
    expect(server.requests[1]?.headers['last-event-id']).toBeUndefined();
    expect(statuses).toEqual(['connecting', 'open', 'reconnecting', 'open', 'closed']);
  });

  it('does not reconnect when reconnect is off (the default), even with ids', async () => {
    const server = await serve(async (res) => {
      sseHead(res);
      await write(res, withId(1, 3));
      await cut(res);
    });
    const received: unknown[] = [];
    const error = await rejection(
      (async () => {
        for await (const event of run(server.url)) received.push(event);
      })(),
    );
    expect(error).toBeInstanceOf(Error);
    expect(received).toEqual(script.slice(0, 3));
    await pause(20);
    expect(server.requests).toHaveLength(1);
  });

  it('gives up after exactly `attempts` retries, throwing the network error', async () => {
    const server = await serve(async (res, _req, index) => {
      sseHead(res);
      await write(res, index === 0 ? frame(started, '1') : frame(custom(index), String(index + 1)));
      await cut(res);
    });
    const statuses: ConnectionStatus[] = [];
    const received: unknown[] = [];
    const error = await rejection(
      (async () => {
        for await (const event of run(server.url, { reconnect: { attempts: 2, delayMs: 1 } }, { onConnection: (s) => statuses.push(s) }))
          received.push(event);
      })(),
    );
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(AgentTransportError);
    expect(server.requests).toHaveLength(3);
    expect(server.requests.map((r) => r.headers['last-event-id'])).toEqual([undefined, '1', '2']);
    expect(received).toEqual([started, custom(1), custom(2)]);
    expect(statuses).toEqual(['connecting', 'open', 'reconnecting', 'open', 'reconnecting', 'open', 'closed']);
  });

  it('gives up after exactly `attempts` retries when every stream ends cleanly inside the run, and just ends', async () => {
    const server = await serve(async (res, _req, index) => {
      sseHead(res);
      await write(res, index === 0 ? frame(started, '1') : frame(custom(index), String(index + 1)));
      res.end();
    });
    const statuses: ConnectionStatus[] = [];
    const attempts: string[] = [];
    const events = await collect(
      run(
        server.url,
        { reconnect: { attempts: 3, delayMs: 1 } },
        {
          onConnection: (s) => statuses.push(s),
          // Told before each retry which one it is, and how many there are at most, before 'reconnecting' is said.
          onReconnecting: (attempt, of) => attempts.push(`${attempt}/${of} after ${statuses.at(-1)}`),
        },
      ),
    );
    expect(events).toEqual([started, custom(1), custom(2), custom(3)]);
    expect(server.requests).toHaveLength(4);
    expect(statuses.filter((s) => s === 'reconnecting')).toHaveLength(3);
    expect(attempts).toEqual(['1/3 after open', '2/3 after open', '3/3 after open']);
    expect(statuses.at(-1)).toBe('closed');
  });

  it('does not reconnect once the run is over, even if the connection then drops', async () => {
    const server = await serve(async (res) => {
      sseHead(res);
      await write(res, withId(1));
      await cut(res);
    });
    const events = await collect(run(server.url, { reconnect: { attempts: 2, delayMs: 1 } }));
    expect(events).toEqual(script);
    await pause(20);
    expect(server.requests).toHaveLength(1);
  });

  it('sends the lastEventId run option as Last-Event-ID on the first request, and skips an event carrying that id', async () => {
    const server = await serve(async (res, req) => {
      sseHead(res);
      // Replays from the id the client named, inclusive.
      await write(res, withId(Number(req.headers['last-event-id'])));
      res.end();
    });
    const ids: string[] = [];
    const events = await collect(run(server.url, {}, { lastEventId: '5', onEventId: (id) => ids.push(id) }));
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.headers['last-event-id']).toBe('5');
    expect(events).toEqual(script.slice(5));
    expect(ids).toEqual(['6', '7']);
  });

  it('sends an id that is not ASCII as its UTF-8 bytes, as EventSource does (fetch refuses such a header as text)', async () => {
    const server = await serve(async (res) => {
      sseHead(res);
      res.end();
    });
    await collect(run(server.url, {}, { lastEventId: '运行-1:2' }));
    expect(server.requests).toHaveLength(1);
    const raw = server.requests[0]?.headers['last-event-id'] as string;
    expect(Buffer.from(raw, 'latin1').toString('utf8')).toBe('运行-1:2');
  });

  it('an abort during the reconnect delay ends with an AbortError and reports closed', async () => {
    const controller = new AbortController();
    const server = await serve(async (res) => {
      sseHead(res);
      await write(res, withId(1, 2));
      await cut(res);
      setTimeout(() => controller.abort(), 30);
    });
    const statuses: ConnectionStatus[] = [];
    const t0 = performance.now();
    const error = await rejection(
      collect(
        run(
          server.url,
          { reconnect: { attempts: 2, delayMs: 2000 } },
          { signal: controller.signal, onConnection: (s) => statuses.push(s) },
        ),
      ),
    );
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(error).toMatchObject({ name: 'AbortError' });
    expect(statuses.at(-1)).toBe('closed');
    expect(server.requests).toHaveLength(1);
  });
});

describe('httpSseSource into createEventPipeline', () => {
  it('a realistic stream with text, a tool call and state ends in the expected thread state', async () => {
    const events = [
      started,
      { type: 'STATE_SNAPSHOT', snapshot: { cart: [], total: 0 } },
      { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'Let me look ' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'that up for the 👩‍👩‍👧 family…' },
      { type: 'TEXT_MESSAGE_END', messageId: 'm1' },
      { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'lookup', parentMessageId: 'm1' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"sku":' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '"A-1"}' },
      { type: 'TOOL_CALL_END', toolCallId: 'c1' },
      { type: 'TOOL_CALL_RESULT', messageId: 't1m', toolCallId: 'c1', content: '{"price":5}' },
      {
        type: 'STATE_DELTA',
        delta: [
          { op: 'add', path: '/cart/-', value: 'A-1' },
          { op: 'replace', path: '/total', value: 5 },
        ],
      },
      { type: 'TEXT_MESSAGE_START', messageId: 'm2', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm2', delta: 'Added to your cart: 漢字 mug, $5.' },
      { type: 'TEXT_MESSAGE_END', messageId: 'm2' },
      finished,
    ];
    // Mixed framing: CRLF, comments, ids, and chunks that cut frames (and characters) anywhere.
    const body = Buffer.from(
      `: stream\r\n\r\n${events.map((e, i) => `id: ${i + 1}\r\n${i % 3 === 0 ? ': tick\r\n' : ''}data: ${JSON.stringify(e)}\r\n\r\n`).join('')}`,
      'utf8',
    );
    const chunks: Buffer[] = [];
    for (let at = 0; at < body.length; at += 97) chunks.push(body.subarray(at, at + 97));
    const server = await serve(stream(chunks, 1));
    const pipeline = createEventPipeline();
    const statuses: ConnectionStatus[] = [];
    for await (const raw of run(server.url, {}, { onConnection: (s) => statuses.push(s) })) pipeline.push(raw);
    const state = pipeline.end();
    expect(state.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(state.run).toMatchObject({ runId: 'r1', status: 'success' });
    expect(state.threadId).toBe('t1');
    expect(state.messages.byId.get('m1')).toMatchObject({
      role: 'assistant',
      content: 'Let me look that up for the 👩‍👩‍👧 family…',
      streaming: false,
      toolCallIds: ['c1'],
    });
    expect(state.messages.byId.get('m2')?.content).toBe('Added to your cart: 漢字 mug, $5.');
    expect(state.messages.ids[0]).toBe('m1');
    expect(state.messages.ids.at(-1)).toBe('m2');
    expect(state.toolCalls.get('c1')).toMatchObject({
      name: 'lookup',
      status: 'succeeded',
      args: { sku: 'A-1' },
      result: { content: '{"price":5}' },
    });
    expect(state.sharedState).toMatchObject({ document: { cart: ['A-1'], total: 5 }, sync: 'in-sync' });
    expect(state.eventCount).toBe(events.length);
    expect(statuses).toEqual(['connecting', 'open', 'closed']);
  });
});

/** The push form: every event handed to `onEvent`, as `run` would yield them. */
async function deliverAll(
  url: string,
  options: Omit<HttpSseSourceOptions, 'url'> = {},
  runOptions: SourceRunOptions = {},
  onEvent: (event: unknown) => void = () => undefined,
): Promise<unknown[]> {
  const source = httpSseSource({ url, ...options });
  const out: unknown[] = [];
  if (!source.deliver) throw new Error('httpSseSource has a push form');
  await source.deliver(input, runOptions, (event) => {
    out.push(event);
    onEvent(event);
  });
  return out;
}

describe('httpSseSource: the push form (deliver)', () => {
  const script = [
    started,
    { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' },
    { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'Your refund ' },
    { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'is approved.' },
    { type: 'TEXT_MESSAGE_END', messageId: 'm1' },
    finished,
  ];
  const withId = framesWithIds(script);

  it('hands over the events run yields, in order, each with its id, across a reconnect', async () => {
    const server = await serve(async (res, req, index) => {
      sseHead(res);
      if (index === 0) {
        await write(res, withId(1, 2));
        await pause();
        await write(res, withId(3, 3));
        await cut(res);
        return;
      }
      const last = Number(req.headers['last-event-id']);
      await write(res, withId(last - 1, last + 1));
      await pause();
      await write(res, withId(last + 2));
      res.end();
    });
    const statuses: ConnectionStatus[] = [];
    const seen: string[] = [];
    // Each id is told before its event is handed over.
    const events = await deliverAll(
      server.url,
      { reconnect: { attempts: 2, delayMs: 1 } },
      { onConnection: (s) => statuses.push(s), onEventId: (id) => seen.push(`id ${id}`) },
      () => seen.push('event'),
    );
    expect(events).toEqual(script);
    expect(seen).toEqual(script.flatMap((_, i) => [`id ${i + 1}`, 'event']));
    expect(statuses).toEqual(['connecting', 'open', 'reconnecting', 'open', 'closed']);
    expect(server.requests[1]?.headers['last-event-id']).toBe('3');
  });

  it('hands over nothing more once aborted, even events already received in the same chunk', async () => {
    const server = await serve(async (res, req) => {
      sseHead(res);
      await write(res, [started, custom(1), custom(2), custom(3)].map((e) => frame(e)).join(''));
      await req.closed;
    });
    const controller = new AbortController();
    const statuses: ConnectionStatus[] = [];
    const received: unknown[] = [];
    const error = await rejection(
      deliverAll(server.url, {}, { signal: controller.signal, onConnection: (s) => statuses.push(s) }, (event) => {
        received.push(event);
        if (received.length === 2) controller.abort();
      }),
    );
    expect(error).toMatchObject({ name: 'AbortError' });
    expect(received).toEqual([started, custom(1)]);
    expect(statuses).toEqual(['connecting', 'open', 'closed']);
    expect(await server.requests[0]?.closed).toBe(true);
  });

  it('rejects with the error onEvent throws, closing the connection, and does not reconnect', async () => {
    const server = await serve(async (res, req) => {
      sseHead(res);
      await write(res, frame(started, '1') + frame(custom(1), '2'));
      await req.closed;
    });
    const failure = new Error('consumer failed');
    const error = await rejection(
      deliverAll(server.url, { reconnect: { attempts: 3, delayMs: 1 } }, {}, (event) => {
        if (event !== started) throw failure;
      }),
    );
    expect(error).toBe(failure);
    expect(await server.requests[0]?.closed).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it('stops with FRAME_TOO_LARGE after handing over the events before the oversize frame', async () => {
    const huge = { type: 'CUSTOM', name: 'huge', value: 'x'.repeat(5000) };
    const server = await serve(async (res, req) => {
      sseHead(res);
      await write(res, frame(started) + frame(custom(1)) + frame(huge) + frame(custom(2)));
      await req.closed;
    });
    const received: unknown[] = [];
    const error = await rejection(deliverAll(server.url, { maxFrameBytes: 1024 }, {}, (event) => received.push(event)));
    expect(error).toMatchObject({ code: 'FRAME_TOO_LARGE' });
    expect(received).toEqual([started, custom(1)]);
  });
});

describe('httpSseSource: the pull form (run) and its consumer', () => {
  it('tells an event id only once its event is taken', async () => {
    const server = await serve(stream([frame(started, '1') + frame(custom(1), '2') + frame(custom(2), '3'), frame(finished, '4')]));
    const ids: string[] = [];
    const taken: string[] = [];
    for await (const _ of run(server.url, {}, { onEventId: (id) => ids.push(id) })) taken.push(ids.join(','));
    expect(taken).toEqual(['1', '1,2', '1,2,3', '1,2,3,4']);
  });

  it('a consumer that stops early closes the connection and hears nothing more', async () => {
    const server = await serve(async (res, req) => {
      sseHead(res);
      await write(res, frame(started) + frame(custom(1)));
      await req.closed;
    });
    const statuses: ConnectionStatus[] = [];
    const received: unknown[] = [];
    for await (const event of run(server.url, {}, { onConnection: (s) => statuses.push(s) })) {
      received.push(event);
      break;
    }
    expect(received).toEqual([started]);
    expect(await server.requests[0]?.closed).toBe(true);
    await pause(10);
    expect(statuses).toEqual(['connecting', 'open']);
  });
});

describe('httpSseSource: a time option past what a timer can wait, or no number', () => {
  // A timer asked for more than 2^31 - 1 ms fires after 1 ms (Node warns; browsers say nothing).
  const slow: Handler = async (res) => {
    await pause(60);
    sseHead(res);
    await write(res, frame(started));
    await pause(60);
    await write(res, frame(finished));
    res.end();
  };

  it.each([Number.POSITIVE_INFINITY, 2 ** 31, 1e20, Number.NaN])(
    'idleTimeoutMs %s is no timeout: an agent pausing 60 ms is not lost',
    async (idleTimeoutMs) => {
      const { url } = await serve(slow);
      expect(await collect(run(url, { idleTimeoutMs }))).toEqual([started, finished]);
    },
  );

  it('idleTimeoutMs Infinity still reads capabilities from a URL', async () => {
    const { url } = await serve((res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ streaming: true }));
    });
    expect(await httpSseSource({ url, capabilities: url, idleTimeoutMs: Number.POSITIVE_INFINITY }).capabilities?.()).toEqual({
      streaming: true,
    });
  });

  it.each([Number.POSITIVE_INFINITY, 2 ** 31, Number.NaN])(
    'runEndGraceMs %s does not let the stream go at once: a second run 60 ms after the first end is read',
    async (runEndGraceMs) => {
      const second = { type: 'RUN_STARTED', threadId: 't1', runId: 'r2' };
      const secondEnd = { type: 'RUN_FINISHED', threadId: 't1', runId: 'r2' };
      const { url } = await serve(async (res) => {
        sseHead(res);
        await write(res, frame(started) + frame(finished));
        await pause(60);
        await write(res, frame(second) + frame(secondEnd));
        res.end();
      });
      expect(await collect(run(url, { runEndGraceMs }))).toEqual([started, finished, second, secondEnd]);
    },
  );

  it('maxFrameBytes NaN is the default limit, Infinity none, and one under a character no limit a frame can meet: a RangeError now', async () => {
    const { url } = await serve(async (res) => {
      sseHead(res);
      await write(res, frame(started) + frame(finished));
      res.end();
    });
    expect(await collect(run(url, { maxFrameBytes: Number.NaN }))).toEqual([started, finished]);
    expect(await collect(run(url, { maxFrameBytes: Number.POSITIVE_INFINITY }))).toEqual([started, finished]);
    for (const maxFrameBytes of [0, -1, 0.5]) expect(() => httpSseSource({ url, maxFrameBytes })).toThrow(RangeError);
  });

  it('a reconnect delay past what a timer can wait waits, rather than trying again at once', async () => {
    const { url, requests } = await serve(async (res) => {
      sseHead(res);
      await write(res, frame(started, '1'));
      await cut(res);
    });
    const controller = new AbortController();
    const events = collect(run(url, { reconnect: { attempts: 3, delayMs: 2 ** 31 } }, { signal: controller.signal })).catch(() => []);
    await pause(300);
    expect(requests).toHaveLength(1);
    controller.abort();
    await events;
  });
});
