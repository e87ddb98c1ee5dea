/**
 * The HTTP layer's bounds: what one request may cost the server (body size,
 * nesting, generated events, playback speed, a client that stops reading or
 * goes away) and what the server says about it (HEAD, JSON logs, 5xx).
 */
import { connect, type Socket } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AgentServer } from '../src/server.js';
import { openMemoryStorage } from '../src/storage/memory.js';
import { type Storage, StorageUnavailable } from '../src/storage/types.js';
import { interruptsOf, post, readEvents, startServer, stopServer, userInput } from './support.js';

const sockets: Socket[] = [];
afterEach(() => {
  for (const s of sockets.splice(0)) s.destroy();
});

/** A raw TCP connection to the server, closed after the test. */
function socketTo(server: AgentServer): Socket {
  const socket = connect(Number(new URL(server.url).port), '127.0.0.1');
  sockets.push(socket);
  return socket;
}

const health = async (server: AgentServer) =>
  (await (await fetch(`${server.url}/health`)).json()) as { ok: boolean; streams: number; bufferedBytes: number; runs: number };

/** The request head of a POST with a JSON body, as a client writes it. */
function head(server: AgentServer, path: string, length: number | 'chunked', extra = ''): string {
  const size = length === 'chunked' ? 'Transfer-Encoding: chunked' : `Content-Length: ${length}`;
  return `POST ${path} HTTP/1.1\r\nHost: ${new URL(server.url).host}\r\nContent-Type: application/json\r\n${size}\r\n${extra}\r\n`;
}

async function errorCode(response: Response): Promise<string> {
  return ((await response.json()) as { error: { code: string } }).error.code;
}

describe('a body is checked whole before anything is applied', () => {
  const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

  it('refuses 100,000 levels of nesting (under the body limit) with 400, and the approval it carried is not half-applied', async () => {
    const server = await startServer();
    const first = await readEvents(await post(server, '/agents/refund?speed=0', userInput('t', 'r1')));
    const id = interruptsOf(first)[0]?.id ?? '';
    const payload = `{"approved":true,"comment":"ok","extra":${deep(100_000)}}`;
    const body = `{"threadId":"t","runId":"r2","messages":[],"tools":[],"context":[],"resume":[{"interruptId":${JSON.stringify(id)},"status":"resolved","payload":${payload}}]}`;
    expect(body.length).toBeLessThan(1024 * 1024);
    const response = await post(server, '/agents/refund?speed=0', body);
    expect(response.status).toBe(400);
    expect(await errorCode(response)).toBe('TOO_DEEP');
    // Nothing of it happened: no refund, the run id is free, and the approval is still open and works.
    expect(server.effects()).toEqual([]);
    const again = await post(server, '/agents/refund?speed=0', {
      ...userInput('t', 'r2'),
      messages: [],
      resume: [{ interruptId: id, status: 'resolved', payload: { approved: true } }],
    });
    expect(again.status).toBe(200);
    await readEvents(again);
    expect(server.effects()).toHaveLength(1);
  });

  it('refuses deep nesting anywhere (forwardedProps, messages, tools), and a new run made of it does not exist afterwards', async () => {
    const server = await startServer();
    const base = userInput('t', 'r1');
    for (const [field, value] of [
      ['forwardedProps', deep(100_000)],
      ['tools', `[${deep(65)}]`],
      ['context', `[{"value":${deep(70)}}]`],
    ] as const) {
      const rest: Record<string, unknown> = { ...base };
      delete rest[field];
      const body = `${JSON.stringify(rest).slice(0, -1)},${JSON.stringify(field)}:${value}}`;
      const response = await post(server, '/agents/refund?speed=0', body);
      expect(response.status, field).toBe(400);
      expect(await errorCode(response)).toBe('TOO_DEEP');
    }
    // Brackets inside strings are text, not nesting.
    const inString = await post(server, '/agents/refund?speed=0', {
      ...base,
      messages: [{ id: 'm', role: 'user', content: deep(50_000) }],
    });
    expect(inString.status).toBe(200);
    await readEvents(inString);
    // The deepest nesting accepted: 64 levels, the body's own object and forwardedProps included; one more is refused.
    const nested = (levels: number) => ({ ...userInput('t2', `r${levels}`), forwardedProps: JSON.parse(`{"x":${deep(levels)}}`) });
    const atLimit = await post(server, '/agents/clarification?speed=0', nested(62));
    expect(atLimit.status).toBe(200);
    await readEvents(atLimit);
    const past = await post(server, '/agents/clarification?speed=0', nested(63));
    expect(past.status).toBe(400);
    expect(await errorCode(past)).toBe('TOO_DEEP');
  });
});

/** Uploads `total` bytes after `head` as fast as the connection takes them; what the client managed to send, and the answer. */
async function upload(socket: Socket, headText: string, total: number, chunked: boolean) {
  let answer = '';
  let closed = false;
  socket.on('data', (chunk: Buffer) => {
    answer += chunk.toString('latin1');
  });
  socket.on('error', () => {});
  socket.on('close', () => {
    closed = true;
  });
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write(headText);
  const piece = Buffer.alloc(64 * 1024, 0x20);
  let sent = 0;
  while (sent < total && !closed && !socket.destroyed) {
    const ok = socket.write(chunked ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')]) : piece);
    sent += piece.length;
    if (!ok) {
      await new Promise<void>((resolve) => {
        const done = () => {
          socket.off('drain', done);
          socket.off('close', done);
          resolve();
        };
        socket.on('drain', done);
        socket.on('close', done);
      });
    }
  }
  await vi.waitFor(() => expect(closed).toBe(true), { timeout: 10_000 });
  return { answer, written: socket.bytesWritten };
}

describe('an oversized upload', () => {
  it('gets a 413 with Connection: close, and the server stops reading it (most of 200 MB never leaves the client)', async () => {
    const server = await startServer();
    const total = 200 * 1024 * 1024;
    const { answer, written } = await upload(socketTo(server), head(server, '/agents/refund', total), total, false);
    // What the kernel's buffers on both ends take, not the upload: the server stopped reading.
    expect(written).toBeLessThan(32 * 1024 * 1024);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /u);
    expect(answer.toLowerCase()).toContain('connection: close');
    expect(answer).toContain('"code":"BODY_TOO_LARGE"');
    expect((await health(server)).ok).toBe(true);
  }, 30_000);

  it('a chunked upload past the limit too', async () => {
    const server = await startServer({ maxBodyBytes: 64 * 1024 });
    const total = 200 * 1024 * 1024;
    const { answer, written } = await upload(socketTo(server), head(server, '/agents/refund', 'chunked'), total, true);
    expect(written).toBeLessThan(32 * 1024 * 1024);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /u);
    expect(answer.toLowerCase()).toContain('connection: close');
  }, 30_000);
});

describe('a refusal before the body is read', () => {
  const total = 200 * 1024 * 1024;
  it.each([
    [
      '415, a body that is not JSON',
      415,
      (server: AgentServer) => head(server, '/agents/refund', total).replace('application/json', 'text/plain'),
    ],
    ['404, an unknown scenario', 404, (server: AgentServer) => head(server, '/agents/no-such-scenario', total)],
    ['405, a resource that takes no POST', 405, (server: AgentServer) => head(server, '/health', total)],
    [
      '403, a page of another origin',
      403,
      (server: AgentServer) => head(server, '/agents/refund', total, 'Origin: https://evil.example\r\n'),
    ],
    [
      '421, a Host that is not the server',
      421,
      (server: AgentServer) => head(server, '/agents/refund', total).replace(/Host: [^\r]+/u, 'Host: rebound.example'),
    ],
    ['415, chunked', 415, (server: AgentServer) => head(server, '/agents/refund', 'chunked').replace('application/json', 'text/plain')],
    ['400, a target whose percent-encoding does not decode', 400, (server: AgentServer) => head(server, '/agents/%zz', total)],
    ['400, a target that does not decode, chunked', 400, (server: AgentServer) => head(server, '/agents/%zz', 'chunked')],
    ['414, a path segment longer than the router takes', 414, (server: AgentServer) => head(server, `/agents/${'x'.repeat(101)}`, total)],
    ['414, a path segment too long, chunked', 414, (server: AgentServer) => head(server, `/agents/${'x'.repeat(101)}`, 'chunked')],
  ] as const)(
    '%s: closes the connection, and the rest of 200 MB is not read',
    async (_name, status, request) => {
      const server = await startServer();
      const text = request(server);
      const { answer, written } = await upload(socketTo(server), text, total, text.includes('chunked'));
      expect(answer).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `, 'u'));
      expect(answer.toLowerCase()).toContain('connection: close');
      expect(written).toBeLessThan(32 * 1024 * 1024);
      expect((await health(server)).ok).toBe(true);
    },
    30_000,
  );
});

describe('Expect: 100-continue', () => {
  it.each([
    ['an unknown scenario', 404, (server: AgentServer) => head(server, '/agents/no-such-scenario', 100, 'Expect: 100-continue\r\n')],
    [
      'a body past the limit by its Content-Length',
      413,
      (server: AgentServer) => head(server, '/agents/refund', 999_999_999, 'Expect: 100-continue\r\n'),
    ],
    [
      'a body that is not JSON',
      415,
      (server: AgentServer) => head(server, '/agents/refund', 100, 'Expect: 100-continue\r\n').replace('application/json', 'text/plain'),
    ],
  ] as const)('%s is refused (%i) without being told to send its body first', async (_name, status, request) => {
    const server = await startServer();
    const answer = await rawAnswer(socketTo(server), request(server));
    expect(answer).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `, 'u'));
    expect(answer).not.toContain('100 Continue');
  });

  it('a request the server takes is told to go on, and is answered once its body arrives', async () => {
    const server = await startServer({ speed: 0 });
    const socket = socketTo(server);
    const body = JSON.stringify(userInput('t-expect', 'r-expect'));
    let answer = '';
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('utf8');
      if (answer === 'HTTP/1.1 100 Continue\r\n\r\n') socket.write(body);
    });
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write(head(server, '/agents/refund', Buffer.byteLength(body), 'Expect: 100-continue\r\nConnection: close\r\n'));
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 /u);
    expect(answer).toContain('RUN_FINISHED');
  });
});

/** What the server answers on a raw connection to `text` (and `body`), read until it closes the connection. */
async function rawAnswer(socket: Socket, text: string, body: Buffer = Buffer.alloc(0)): Promise<string> {
  let answer = '';
  socket.on('data', (chunk: Buffer) => {
    answer += chunk.toString('utf8');
  });
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.write(Buffer.concat([Buffer.from(text, 'latin1'), body]));
  await closed;
  return answer;
}

/** The status line and the JSON body of a raw answer. */
function parsed(answer: string): { status: string; json: unknown; head: string } {
  const end = answer.indexOf('\r\n\r\n');
  return { status: answer.slice(0, answer.indexOf('\r\n')), json: JSON.parse(answer.slice(end + 4)), head: answer.slice(0, end) };
}

describe('what the HTTP parser refuses before any route', () => {
  it("answers headers past the limit with 431 and an error of the server's shape, and closes", async () => {
    const server = await startServer();
    const host = new URL(server.url).host;
    const answer = parsed(await rawAnswer(socketTo(server), `GET /health?${'a'.repeat(20_000)} HTTP/1.1\r\nHost: ${host}\r\n\r\n`));
    expect(answer.status).toMatch(/^HTTP\/1\.1 431 /u);
    expect(answer.head.toLowerCase()).toContain('connection: close');
    expect(answer.json).toEqual({ error: { code: 'HEADERS_TOO_LARGE', message: expect.stringMatching(/headers/u) } });
  });

  it("answers a request that does not arrive in time with 408 and an error of the server's shape", async () => {
    const server = await startServer({ requestTimeoutMs: 300 });
    const text = head(server, '/agents/refund', 1000).concat('{"threadId":');
    const answer = parsed(await rawAnswer(socketTo(server), text));
    expect(answer.status).toMatch(/^HTTP\/1\.1 408 /u);
    expect(answer.json).toEqual({ error: { code: 'REQUEST_TIMEOUT', message: expect.stringMatching(/time/u) } });
  });

  it("answers what is no HTTP request with 400 and an error of the server's shape", async () => {
    const server = await startServer();
    const answer = parsed(await rawAnswer(socketTo(server), 'GET /health HTTP/1.1\r\nHost: a\r\nContent-Length: x\r\n\r\n'));
    expect(answer.status).toMatch(/^HTTP\/1\.1 400 /u);
    expect(answer.json).toEqual({ error: { code: 'MALFORMED_REQUEST', message: expect.any(String) } });
  });

  it('answers a well-formed request that stray bytes follow with its own answer, then closes: no 400 for what it did', async () => {
    const server = await startServer({ speed: 0 });
    const asked = interruptsOf(await readEvents(await post(server, '/agents/refund', userInput('t', 'r1'))));
    const body = JSON.stringify({
      ...userInput('t', 'r2'),
      messages: [],
      resume: [{ interruptId: asked[0]?.id, status: 'resolved', payload: { approved: true } }],
    });
    const answer = await rawAnswer(socketTo(server), `${head(server, '/agents/refund', Buffer.byteLength(body))}${body}X\r\n\r\n`);
    // The refund was made, and the client is told so: the run's stream, whole, and nothing after it.
    expect(server.effects().map((e) => e.kind)).toEqual(['refund']);
    expect(answer).toMatch(/^HTTP\/1\.1 200 /u);
    expect(answer.match(/HTTP\/1\.1 /gu)).toHaveLength(1);
    expect(answer).toContain('RUN_FINISHED');
  });

  it('never writes an answer into a stream under way when bytes that are no request follow it: the stream goes on to its end', async () => {
    const server = await startServer({ speed: 1 });
    const socket = socketTo(server);
    const body = JSON.stringify(userInput('t-mid', 'r-mid'));
    const answering = rawAnswer(socket, `${head(server, '/agents/refund', Buffer.byteLength(body))}${body}`);
    await vi.waitFor(() => expect((socket.bytesRead as number) > 0).toBe(true));
    socket.write('GARBAGE\r\n\r\n');
    const answer = await answering;
    expect(answer.match(/HTTP\/1\.1 /gu)).toHaveLength(1);
    expect(answer).toContain('RUN_FINISHED');
  }, 20_000);
});

describe('a body that is not UTF-8', () => {
  it('is refused with 400, not read with its bad bytes made U+FFFD (two ids made one), and starts nothing', async () => {
    const server = await startServer();
    const bodyOf = (bad: number[]) =>
      Buffer.concat([
        Buffer.from('{"threadId":"t-', 'latin1'),
        Buffer.from(bad),
        Buffer.from('","runId":"r-utf8","messages":[{"id":"m1","role":"user","content":"hi"}],"tools":[],"context":[]}', 'latin1'),
      ]);
    for (const bad of [[0xff, 0xfe], [0xc3], [0xed, 0xa0, 0x80]]) {
      const body = bodyOf(bad);
      const answer = parsed(
        await rawAnswer(socketTo(server), head(server, '/agents/refund?speed=0', body.length, 'Connection: close\r\n'), body),
      );
      expect(answer.status, bad.join(',')).toMatch(/^HTTP\/1\.1 400 /u);
      expect(answer.json).toEqual({ error: { code: 'MALFORMED_JSON', message: expect.stringMatching(/UTF-8/u) } });
    }
    expect((await health(server)).runs).toBe(0);
    // Well-formed text that is not ASCII is read as it is.
    const ok = await post(server, '/agents/refund?speed=0', userInput('线程-🫖', 'r-ok'));
    expect(ok.status).toBe(200);
    await readEvents(ok);
  });
});

describe('HEAD', () => {
  it('answers HEAD on every GET route, with no body', async () => {
    const server = await startServer();
    for (const path of ['/health', '/agents', '/effects']) {
      const response = await fetch(`${server.url}${path}`, { method: 'HEAD' });
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/u);
      expect(await response.text()).toBe('');
    }
    expect((await fetch(`${server.url}/nope`, { method: 'HEAD' })).status).toBe(404);
  });
});

describe('speed', () => {
  it('refuses a speed outside 0.1..100 (0 sends at once) with 400, from the query or forwardedProps', async () => {
    const server = await startServer();
    let n = 0;
    const run = (query: string, forwarded?: unknown) =>
      post(server, `/agents/clarification${query}`, {
        ...userInput(`t${++n}`, `r${n}`),
        ...(forwarded === undefined ? {} : { forwardedProps: { speed: forwarded } }),
      });
    // '1e-99999' and '1e99999' are decimals whose Number() is 0 and Infinity: below the range and above it, not 0.
    for (const speed of ['1e-9', '0.0001', '0.09', '100.5', '1e9', '-1', 'abc', '', 'Infinity', 'NaN', '0x10', '1e-99999', '1e99999']) {
      const response = await run(`?speed=${encodeURIComponent(speed)}`);
      expect(response.status, speed).toBe(400);
      expect(await errorCode(response)).toBe('BAD_SPEED');
    }
    for (const speed of [1e-9, 0.0001, 1000, -1, 'fast', '1e-9', '1e-99999', true]) {
      const response = await run('', speed);
      expect(response.status, String(speed)).toBe(400);
      expect(await errorCode(response)).toBe('BAD_SPEED');
    }
    for (const speed of ['0', '0.1', '1', '100']) {
      const response = await run(`?speed=${speed}`);
      expect(response.status, speed).toBe(200);
      await response.body?.cancel();
    }
    const forwarded = await run('', 100);
    expect(forwarded.status).toBe(200);
    await readEvents(forwarded);
  });

  it('refuses a hostile 500,000-digit speed at once, and stays responsive', async () => {
    const server = await startServer();
    const started = performance.now();
    const response = await post(server, '/agents/clarification', {
      ...userInput('t', 'r'),
      forwardedProps: { speed: `${'1'.repeat(500_000)}x` },
    });
    expect(response.status).toBe(400);
    expect(await errorCode(response)).toBe('BAD_SPEED');
    // A backtracking check took minutes here, the whole server frozen meanwhile.
    expect(performance.now() - started).toBeLessThan(2_000);
    for (const speed of ['.5', '0.5', '5.', '1e1', '1E+1', '2.5e-1']) {
      const ok = await post(server, `/agents/clarification?speed=${encodeURIComponent(speed)}`, userInput(`t${speed}`, `r${speed}`));
      expect(ok.status, speed).toBe(speed === '5.' ? 400 : 200);
      await ok.body?.cancel();
    }
  });

  it('refuses a server started with a speed out of range', async () => {
    await expect(startServer({ speed: 1e-9 })).rejects.toThrow(/speed/u);
    await expect(startServer({ maxRuns: 0 })).rejects.toThrow(/maxRuns/u);
    await expect(startServer({ maxRunInputBytes: Number.NaN })).rejects.toThrow(/maxRunInputBytes/u);
  });
});

describe('what one request can make the server generate', () => {
  it('refuses forwardedProps knobs past the per-request caps, and takes the cap itself', async () => {
    const server = await startServer();
    for (const [scenario, knob, max] of [
      ['fast-stream', 'tokens', 20_000],
      ['long-thread', 'messages', 5_000],
      ['dashboard', 'deltas', 5_000],
    ] as const) {
      const over = await post(server, `/agents/${scenario}?speed=0`, {
        ...userInput(`t-${knob}`, `o-${knob}`),
        forwardedProps: { [knob]: max + 1 },
      });
      expect(over.status, knob).toBe(400);
      expect(await errorCode(over)).toBe('LIMIT_EXCEEDED');
      const at = await post(server, `/agents/${scenario}?speed=0`, {
        ...userInput(`t-${knob}`, `a-${knob}`),
        forwardedProps: { [knob]: max },
      });
      expect(at.status, knob).toBe(200);
      await at.body?.cancel();
    }
  });

  it('refuses a run that would play for longer than maxPlaybackMs, whichever knobs and speed make it so', async () => {
    const server = await startServer();
    // 20,000 tokens a second apart: 5.5 hours of a run paced for a client that reads, retention held back all along.
    const slow = await post(server, '/agents/fast-stream', {
      ...userInput('t-slow', 'r-slow'),
      forwardedProps: { tokens: 20_000, tokenDelayMs: 1000 },
    });
    expect(slow.status).toBe(400);
    expect(await errorCode(slow)).toBe('LIMIT_EXCEEDED');
    // The largest dashboard is 100 s at speed 1: at the slowest speed, 17 minutes, which is taken.
    const dashboard = await post(server, '/agents/dashboard?speed=0.1', {
      ...userInput('t-dash', 'r-dash'),
      forwardedProps: { deltas: 5_000 },
    });
    expect(dashboard.status).toBe(200);
    await dashboard.body?.cancel();
    // A speed of 0 has no pauses at all.
    const fast = await post(server, '/agents/fast-stream?speed=0', {
      ...userInput('t-fast', 'r-fast'),
      forwardedProps: { tokens: 20_000, tokenDelayMs: 1000 },
    });
    expect(fast.status).toBe(200);
    await fast.body?.cancel();
    // A reconnect cannot stretch a run still being produced: asked again at a tenth of the speed, it is refused.
    const strict = await startServer({ maxPlaybackMs: 5_000 });
    const live = await post(strict, '/agents/refund', userInput('t-r', 'r-r'));
    expect(live.status).toBe(200);
    const reader = live.body?.getReader();
    const head = new TextDecoder().decode((await reader?.read())?.value);
    const first = head.match(/^id: (.+)$/mu)?.[1] ?? '';
    // Its client still reads it: it is paced, not produced at once, while the reconnect asks.
    const stretched = await post(strict, '/agents/refund?speed=0.1', userInput('t-r', 'r-r'), { 'last-event-id': first });
    await reader?.cancel();
    expect(stretched.status).toBe(400);
    expect(await errorCode(stretched)).toBe('LIMIT_EXCEEDED');
    // A run produced to its end streams from its log with no pauses: a reconnect at any speed gets the rest.
    const done = await post(strict, '/agents/refund', userInput('t-d', 'r-d'));
    const all = await done.text();
    const second = [...all.matchAll(/^id: (.+)$/gmu)][1]?.[1] ?? '';
    const rest = await post(strict, '/agents/refund?speed=0.1', userInput('t-d', 'r-d'), { 'last-event-id': second });
    expect(rest.status).toBe(200);
    expect(await rest.text()).toMatch(/RUN_FINISHED/u);
    await expect(startServer({ maxPlaybackMs: -1 })).rejects.toThrow(/maxPlaybackMs/u);
  });

  it('does not pin memory for a hostile small request whose client is gone after the headers', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    // The largest stream a request could once ask for: 100,000 tokens, about 13 MB of events. Each run is produced
    // to its end once its client is gone; the storage keeps no frames, so what is measured is what the server holds.
    const storage = openMemoryStorage();
    const server = await startServer({ knobLimits: { tokens: 100_000 }, storage: { ...storage, appendEvent: async () => true } });
    const body = JSON.stringify({ ...userInput('t', 'r0'), forwardedProps: { tokens: 100_000 } });
    const settle = async () => {
      for (let i = 0; i < 3; i++) {
        gc();
        await new Promise((r) => setTimeout(r, 20));
      }
      return process.memoryUsage().heapUsed;
    };
    // One request first, so lazily built code and caches are not counted.
    const hostile = async (i: number) => {
      const socket = socketTo(server);
      const text = body.replace('"r0"', `"r${i}"`).replace('"t"', `"t${i}"`);
      await new Promise<void>((resolve) => {
        socket.once('data', () => resolve());
        socket.write(`${head(server, '/agents/fast-stream?speed=0', Buffer.byteLength(text))}${text}`);
      });
      socket.destroy();
    };
    await hostile(0);
    await vi.waitFor(async () => expect(await health(server)).toMatchObject({ streams: 0, runs: 0 }), { timeout: 10_000 });
    const before = await settle();
    const COUNT = 20;
    for (let i = 1; i <= COUNT; i++) await hostile(i);
    // 2 million tokens produced: 30 s alone on a busy two-core machine, 50 s beside other test files.
    await vi.waitFor(async () => expect(await health(server)).toMatchObject({ streams: 0, runs: 0 }), { timeout: 100_000 });
    const after = await settle();
    const perRequest = (after - before) / COUNT;
    // The bar: at most 1 MB left behind by each once its client is gone.
    expect(perRequest).toBeLessThan(1024 * 1024);
  }, 150_000);
});

describe('one producer per run', () => {
  /** The SSE ids of a stream's frames. */
  const ids = (text: string) => [...text.matchAll(/^id: (.+)$/gmu)].map((m) => m[1]);

  it('retries and reconnects of a run under way read what its producer stores: one run is produced, however many ask', async () => {
    const server = await startServer({ speed: 0.5 });
    const input = userInput('t-many', 'r-many');
    const first = await post(server, '/agents/refund', input);
    const reader = first.body?.getReader();
    const start = new TextDecoder().decode((await reader?.read())?.value);
    const lastId = ids(start)[0] ?? '';
    // Fifty retries whose clients leave once they have the headers, and fifty reconnects that read to the end.
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        const aborted = new AbortController();
        const r = await fetch(`${server.url}/agents/refund`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(input),
          signal: aborted.signal,
        });
        aborted.abort();
        await r.body?.cancel().catch(() => undefined);
      }),
    );
    const readers = Array.from({ length: 50 }, () =>
      post(server, '/agents/refund', input, { 'last-event-id': lastId }).then((r) => r.text()),
    );
    await vi.waitFor(async () => expect((await health(server)).streams).toBe(51), { timeout: 5_000, interval: 20 });
    expect((await health(server)).runs).toBe(1);
    let rest = '';
    for (let chunk = await reader?.read(); chunk && !chunk.done; chunk = await reader?.read())
      rest += new TextDecoder().decode(chunk.value);
    const whole = ids(start + rest);
    expect(rest).toMatch(/RUN_FINISHED/u);
    // Each reconnect gets every event after its Last-Event-ID, once, in order.
    for (const text of await Promise.all(readers)) expect(ids(text)).toEqual(whole.slice(1));
    expect(server.effects()).toHaveLength(0);
    await vi.waitFor(async () => expect(await health(server)).toMatchObject({ streams: 0, runs: 0 }), { timeout: 5_000 });
  }, 30_000);
});

describe('a client that stops reading', () => {
  it('is disconnected after the drain timeout, and its stream leaves the server', async () => {
    const server = await startServer({ drainTimeoutMs: 300, knobLimits: { tokens: 100_000 } });
    const socket = socketTo(server);
    let closed = false;
    socket.on('close', () => {
      closed = true;
    });
    socket.on('error', () => {});
    const body = JSON.stringify({ ...userInput('t', 'r1'), forwardedProps: { tokens: 100_000, tokenDelayMs: 0 } });
    await new Promise<void>((resolve) => {
      socket.once('data', () => resolve());
      socket.write(`${head(server, '/agents/fast-stream?speed=0', Buffer.byteLength(body))}${body}`);
    });
    // The client stops reading: the kernel's buffers fill, then the server's, then the drain timeout runs.
    socket.pause();
    const started = performance.now();
    await vi.waitFor(async () => expect((await health(server)).streams).toBe(0), { timeout: 5_000, interval: 50 });
    expect(performance.now() - started).toBeGreaterThanOrEqual(250);
    socket.resume();
    await vi.waitFor(() => expect(closed).toBe(true), { timeout: 5_000 });
  }, 20_000);

  it('keeps a slow but reading client (the timeout is per wait, not per stream)', async () => {
    const server = await startServer({ drainTimeoutMs: 200 });
    const response = await post(server, '/agents/clarification?speed=1', userInput('t', 'r1'));
    // The run takes longer than the timeout; the client reads every event as it comes.
    const events = await readEvents(response);
    expect(events.at(-1)?.event.type).toBe('RUN_FINISHED');
  }, 20_000);
});

/** A log sink: every JSON line the server writes. */
function logSink() {
  const lines: Record<string, unknown>[] = [];
  return { lines, stream: { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) } };
}

/** Memory storage with one method replaced. */
function failing(method: keyof Storage, error: () => Error): Storage {
  const storage = openMemoryStorage();
  return new Proxy(storage, {
    get(target, key, receiver) {
      if (key === method) return async () => Promise.reject(error());
      return Reflect.get(target, key, receiver);
    },
  });
}

describe('logs', () => {
  it('logs every request as JSON, and every 5xx with its error', async () => {
    const log = logSink();
    const server = await startServer({
      logLevel: 'info',
      logStream: log.stream,
      storage: failing('thread', () => new Error('disk on fire')),
    });
    const response = await post(server, '/agents/refund?speed=0', userInput('t', 'r1'));
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: { code: 'INTERNAL', message: 'The server failed to handle the request.' } });
    await fetch(`${server.url}/health`);
    await vi.waitFor(() => expect(log.lines.filter((l) => l.msg === 'request completed')).toHaveLength(2));
    const failed = log.lines.find((l) => l.level === 50);
    expect(failed).toMatchObject({ msg: 'request failed', status: 500, err: { message: 'disk on fire' }, reqId: expect.any(String) });
    // The error's stack is logged; the client's answer carries none of it.
    expect(String((failed?.err as { stack?: string } | undefined)?.stack)).toContain('disk on fire');
    const completed = log.lines.filter((l) => l.msg === 'request completed').map((l) => (l.res as { statusCode: number }).statusCode);
    expect(completed).toEqual([500, 200]);
  });

  it('answers 503 before any byte when storage is unavailable, and logs it', async () => {
    const log = logSink();
    const server = await startServer({
      logLevel: 'info',
      logStream: log.stream,
      storage: failing('beginRun', () => new StorageUnavailable('disk full')),
    });
    const response = await post(server, '/agents/refund?speed=0', userInput('t', 'r1'));
    expect(response.status).toBe(503);
    const { error } = (await response.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe('STORAGE_UNAVAILABLE');
    // A write that timed out may have landed (Redis runs a script it was sent late): the answer claims nothing it cannot
    // know, and says what is safe, the same request again (answered from what was recorded, if anything was).
    expect(error.message).not.toMatch(/nothing was done/i);
    expect(error.message).toMatch(/same request again/);
    expect(log.lines.find((l) => l.level === 50)).toMatchObject({ status: 503, err: { message: 'disk full' } });
  });

  it('ends a stream without the event of an effect that could not be recorded, and logs it', async () => {
    const log = logSink();
    const storage = failing('performEffect', () => new StorageUnavailable('disk full'));
    const server = await startServer({ logLevel: 'info', logStream: log.stream, storage });
    const first = await readEvents(await post(server, '/agents/refund?speed=0', userInput('t', 'r1')));
    const id = interruptsOf(first)[0]?.id ?? '';
    const resume = {
      ...userInput('t', 'r2'),
      messages: [],
      resume: [{ interruptId: id, status: 'resolved', payload: { approved: true } }],
    };
    const events = await readEvents(await post(server, '/agents/refund?speed=0', resume));
    expect(events.map((e) => e.event.type)).toEqual(['RUN_STARTED', 'STEP_STARTED']);
    expect(await storage.effects()).toEqual([]);
    expect(server.effects()).toEqual([]);
    expect(log.lines.find((l) => l.level === 50)).toMatchObject({ msg: 'storage unavailable mid-stream', runId: 'r2' });
  });
});

describe('the server on its Storage', () => {
  it('streams a reconnect from the stored log first, then continues producing from the run record', async () => {
    const storage = openMemoryStorage();
    const server = await startServer({ storage });
    const input = userInput('t', 'r1');
    const all = await readEvents(await post(server, '/agents/clarification?speed=0', input));
    // A log that says something the scenario would not: what is stored is what is sent.
    await storage.appendEvent('r1', all.length, 'id: r1:never\ndata: {"type":"CUSTOM","name":"stored"}\n\n');
    const again = await readEvents(await post(server, '/agents/clarification?speed=0', input, { 'Last-Event-ID': 'r1:2' }));
    expect(again.map((e) => e.id)).toEqual([...all.slice(3).map((e) => e.id), 'r1:never']);

    // A run whose log holds only its first frames (a server that died): the rest is produced, the same as before.
    const cut = openMemoryStorage();
    const run = await storage.run('r1');
    const thread = await storage.thread('t');
    if (!run || !thread.record) throw new Error('not stored');
    expect(await cut.beginRun(run, thread.record, 0)).toBe('created');
    for (const [i, frame] of (await storage.events('r1', 0, 3)).entries()) await cut.appendEvent('r1', i, frame);
    const second = await startServer({ storage: cut });
    const rest = await readEvents(await post(second, '/agents/clarification?speed=0', input, { 'Last-Event-ID': 'r1:0' }));
    expect(rest).toEqual(all.slice(1));
    expect(await cut.events('r1', 0, 1000)).toHaveLength(all.length);
  });

  it('retries a run whose thread changed meanwhile (a conflict), and answers 503 when storage fails before the stream', async () => {
    const storage = openMemoryStorage();
    let conflicts = 2;
    const racing: Storage = new Proxy(storage, {
      get(target, key, receiver) {
        if (key === 'beginRun')
          return async (...args: Parameters<Storage['beginRun']>) => (conflicts-- > 0 ? 'conflict' : target.beginRun(...args));
        return Reflect.get(target, key, receiver);
      },
    });
    const server = await startServer({ storage: racing });
    const ok = await post(server, '/agents/clarification?speed=0', userInput('t', 'r1'));
    expect(ok.status).toBe(200);
    await readEvents(ok);
    expect(conflicts).toBe(-1);

    const down = await startServer({ storage: failing('events', () => new StorageUnavailable('connection lost')) });
    const response = await post(down, '/agents/clarification?speed=0', userInput('t', 'r1'), { 'Last-Event-ID': 'r1:0' });
    // The run is unknown to this storage, so it is a 404 before the log is read; with the run known, the log read fails.
    expect(response.status).toBe(404);
    const known = failing('events', () => new StorageUnavailable('connection lost'));
    const run = await storage.run('r1');
    const thread = await storage.thread('t');
    if (!run || !thread.record) throw new Error('not stored');
    await known.beginRun(run, thread.record, 0);
    const third = await startServer({ storage: known });
    const unavailable = await post(third, '/agents/clarification?speed=0', userInput('t', 'r1'), { 'Last-Event-ID': 'r1:0' });
    expect(unavailable.status).toBe(503);
    expect(await errorCode(unavailable)).toBe('STORAGE_UNAVAILABLE');
  });
});

describe('connections held at once', () => {
  const closed = (socket: Socket) =>
    new Promise<string>((resolve) => {
      let data = '';
      socket.on('data', (chunk: Buffer) => {
        data += chunk.toString('latin1');
      });
      socket.on('close', () => resolve(data));
    });
  const connected = (socket: Socket) => new Promise<void>((resolve) => socket.once('connect', () => resolve()));

  it('are capped by maxConnections: one more is closed as it connects, and taken again once one goes', async () => {
    const server = await startServer({ maxConnections: 2 });
    const held = [socketTo(server), socketTo(server)];
    await Promise.all(held.map(connected));
    // Two half-sent requests hold their connections.
    for (const socket of held) socket.write(head(server, '/agents/refund', 1000));
    const extra = socketTo(server);
    expect(await closed(extra)).toBe('');
    held[0]?.destroy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });

  it('held by idle clients (one sends nothing, one sends its headers a byte a second, one keeps its connection after an answer) are dropped within 13 s, so an honest client is served', async () => {
    const server = await startServer({ maxConnections: 3 });
    const silent = socketTo(server);
    const slow = socketTo(server);
    const kept = socketTo(server);
    await Promise.all([silent, slow, kept].map(connected));
    const started = performance.now();
    const text = `GET /health HTTP/1.1\r\nHost: ${new URL(server.url).host}\r\nX-Pad: ${'a'.repeat(100)}\r\n`;
    let sent = 0;
    const drip = setInterval(() => {
      if (!slow.destroyed) slow.write(text.charAt(sent++ % text.length));
    }, 1_000);
    kept.write(`GET /health HTTP/1.1\r\nHost: ${new URL(server.url).host}\r\n\r\n`);
    const gone = [silent, slow, kept].map(
      (socket) =>
        new Promise<number>((resolve) => {
          socket.on('error', () => undefined);
          // Read what the server says (its 408): a socket nobody reads never sees the end that follows.
          socket.resume();
          socket.on('close', () => resolve(performance.now() - started));
        }),
    );
    try {
      const refused = socketTo(server);
      refused.on('error', () => undefined);
      expect(await closed(refused)).toBe('');
      const held = await Promise.race([Promise.all(gone), new Promise<'held'>((resolve) => setTimeout(() => resolve('held'), 15_000))]);
      expect(held).not.toBe('held');
      for (const ms of held as number[]) expect(ms).toBeLessThan(13_000);
      expect((await fetch(`${server.url}/health`)).status).toBe(200);
    } finally {
      clearInterval(drip);
    }
  }, 20_000);

  it('refuses a cap that is no whole number of 1 or more as the server starts', async () => {
    for (const maxConnections of [0, -1, 1.5, Number.NaN])
      await expect(startServer({ maxConnections })).rejects.toThrow(/maxConnections must be a whole number, 1 or more/);
  });

  it('refuses a timeout that is no whole time to wait (0, negative, a fraction, NaN, past what a timer holds) as the server starts', async () => {
    for (const name of ['drainTimeoutMs', 'stallTimeoutMs', 'requestTimeoutMs', 'headersTimeoutMs', 'keepAliveTimeoutMs'] as const)
      for (const ms of [0, -1, 1500.5, Number.NaN, Number.POSITIVE_INFINITY])
        await expect(startServer({ [name]: ms })).rejects.toThrow(new RegExp(`${name} must be a whole number of milliseconds`));
  });
});

describe('a body in a coding the server does not read', () => {
  const body = () => gzipSync(Buffer.from(JSON.stringify(userInput('t', 'r1'))));
  const chunked = (data: Buffer) => Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from('\r\n0\r\n\r\n')]);

  it('answers `Transfer-Encoding: gzip, chunked` with 501 and an error that names the coding, and runs nothing', async () => {
    const server = await startServer();
    const host = new URL(server.url).host;
    const text = `POST /agents/refund?speed=0 HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nTransfer-Encoding: gzip, chunked\r\nConnection: close\r\n\r\n`;
    const answer = parsed(await rawAnswer(socketTo(server), text, chunked(body())));
    expect(answer.status).toMatch(/^HTTP\/1\.1 501 /u);
    expect(answer.json).toEqual({ error: { code: 'UNSUPPORTED_TRANSFER_CODING', message: expect.stringMatching(/gzip/u) } });
    expect((await health(server)).runs).toBe(0);
  });

  it('answers `Content-Encoding: gzip` with 415, saying to send the JSON as it is, and runs nothing', async () => {
    const server = await startServer();
    const data = body();
    const text = head(server, '/agents/refund?speed=0', data.length, 'Content-Encoding: gzip\r\nConnection: close\r\n');
    const answer = parsed(await rawAnswer(socketTo(server), text, data));
    expect(answer.status).toMatch(/^HTTP\/1\.1 415 /u);
    expect(answer.head.toLowerCase()).toContain('accept-encoding: identity');
    expect(answer.json).toEqual({ error: { code: 'UNSUPPORTED_CONTENT_ENCODING', message: expect.stringMatching(/gzip/u) } });
    expect((await health(server)).runs).toBe(0);
  });

  it('answers a GET without a body whatever Content-Encoding it names: there is no body to decode', async () => {
    const server = await startServer();
    const host = new URL(server.url).host;
    const text = `GET /agents HTTP/1.1\r\nHost: ${host}\r\nContent-Encoding: gzip\r\nConnection: close\r\n\r\n`;
    expect(parsed(await rawAnswer(socketTo(server), text)).status).toMatch(/^HTTP\/1\.1 200 /u);
  });
});

it('takes an absolute-form target (`POST http://host/agents/refund`) as its path, as HTTP/1.1 asks of a server', async () => {
  const server = await startServer();
  const body = Buffer.from(JSON.stringify(userInput('t', 'r1')));
  const text = head(server, `${server.url}/agents/refund?speed=0`, body.length, 'Connection: close\r\n');
  const answer = await rawAnswer(socketTo(server), text, body);
  expect(answer).toMatch(/^HTTP\/1\.1 200 /u);
  expect(answer).toContain('RUN_FINISHED');
});

describe('requests at the edges of HTTP', () => {
  const hostOf = (server: AgentServer) => new URL(server.url).host;
  const errorOf = (answer: string) => parsed(answer).json as { error: { code: string; message: string } };

  it('answers a POST with `Expect: 100-continue` to a resource that takes no POST with 405 at once, not waiting for a body it never asked for', async () => {
    const server = await startServer();
    const answer = await rawAnswer(socketTo(server), head(server, '/health', 100, 'Expect: 100-continue\r\n'));
    expect(answer).toMatch(/^HTTP\/1\.1 405 /u);
    expect(answer).not.toContain('100 Continue');
    expect(parsed(answer).head.toLowerCase()).toMatch(/^allow: get, head, options$/mu);
    expect(errorOf(answer).error.code).toBe('METHOD_NOT_ALLOWED');
  }, 10_000);

  it('answers an expectation other than 100-continue with 417 and an error that says so', async () => {
    const server = await startServer();
    const answer = await rawAnswer(socketTo(server), head(server, '/agents/refund', 100, 'Expect: 200-ok\r\n'));
    expect(answer).toMatch(/^HTTP\/1\.1 417 /u);
    expect(parsed(answer).head.toLowerCase()).toContain('connection: close');
    expect(errorOf(answer)).toEqual({ error: { code: 'EXPECTATION_FAILED', message: expect.stringMatching(/100-continue/u) } });
  });

  it('sends no 100 Continue to an HTTP/1.0 client, which cannot take one: it sends its body at once, and gets its answer', async () => {
    const server = await startServer({ speed: 0 });
    const body = JSON.stringify(userInput('t', 'r1'));
    const text = head(server, '/agents/refund', Buffer.byteLength(body), 'Expect: 100-continue\r\n').replace('HTTP/1.1', 'HTTP/1.0');
    const answer = await rawAnswer(socketTo(server), `${text}${body}`);
    expect(answer).toMatch(/^HTTP\/1\.1 200 /u);
    expect(answer).not.toContain('100 Continue');
    expect(answer).toContain('RUN_FINISHED');
  });

  it('answers CONNECT (a tunnel this server, no proxy, does not open) with 501 and an error, and stays up', async () => {
    const server = await startServer();
    const answer = await rawAnswer(socketTo(server), `CONNECT ${hostOf(server)} HTTP/1.1\r\nHost: ${hostOf(server)}\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 501 /u);
    expect(parsed(answer).head.toLowerCase()).toContain('connection: close');
    expect(errorOf(answer)).toEqual({ error: { code: 'NOT_IMPLEMENTED', message: expect.stringMatching(/CONNECT/u) } });
    // A CONNECT to another host is misdirected, as any request to another host is.
    const elsewhere = await rawAnswer(socketTo(server), 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expect(elsewhere).toMatch(/^HTTP\/1\.1 421 /u);
    expect(errorOf(elsewhere).error.code).toBe('HOST_NOT_ALLOWED');
    expect((await health(server)).ok).toBe(true);
  });

  it('closes a refused tunnel whose client never closes its side: it holds no connection, and the server still closes', async () => {
    const server = await startServer({ maxConnections: 2 });
    const port = Number(new URL(server.url).port);
    const answers: Promise<string>[] = [];
    for (let i = 0; i < 2; i++) {
      // A client that keeps its side open after the answer (half-open), and never closes it.
      const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
      sockets.push(socket);
      socket.on('error', () => {});
      answers.push(
        new Promise((resolve) => {
          let text = '';
          socket.on('data', (chunk: Buffer) => {
            text += chunk.toString('utf8');
            if (text.includes('NOT_IMPLEMENTED')) resolve(text);
          });
        }),
      );
      socket.write(`CONNECT ${hostOf(server)} HTTP/1.1\r\nHost: ${hostOf(server)}\r\n\r\n`);
    }
    for (const answer of answers) expect(await answer).toMatch(/^HTTP\/1\.1 501 /u);
    // Both tunnels' connections are let go: a third client is answered.
    await vi.waitFor(async () => expect((await health(server)).ok).toBe(true), { timeout: 10_000, interval: 200 });
    const closing = stopServer(server).then(() => 'closed');
    expect(await Promise.race([closing, new Promise((resolve) => setTimeout(() => resolve('still open'), 8_000))])).toBe('closed');
  }, 30_000);

  it('reads an absolute-form target as its path, and its authority as the host (the Host header is ignored, as HTTP/1.1 asks)', async () => {
    const server = await startServer();
    const host = hostOf(server);
    const ask = (text: string) => rawAnswer(socketTo(server), `${text}Connection: close\r\n\r\n`);
    const options = await ask(`OPTIONS http://${host}/agents/refund HTTP/1.1\r\nHost: ${host}\r\n`);
    expect(options).toMatch(/^HTTP\/1\.1 204 /u);
    expect(options.toLowerCase()).toMatch(/^allow: post, options\r$/mu);
    const put = await ask(`PUT http://${host}/agents/refund HTTP/1.1\r\nHost: ${host}\r\n`);
    expect(put).toMatch(/^HTTP\/1\.1 405 /u);
    expect(put.toLowerCase()).toMatch(/^allow: post, options\r$/mu);
    const missing = await ask(`GET http://${host}/nowhere HTTP/1.1\r\nHost: ${host}\r\n`);
    expect(missing).toMatch(/^HTTP\/1\.1 404 /u);
    expect(errorOf(missing).error.message).toBe('No route for GET /nowhere.');
    // Another server named in the target is misdirected, whatever the Host header says; this one is answered.
    expect(await ask(`GET http://rebound.example/health HTTP/1.1\r\nHost: ${host}\r\n`)).toMatch(/^HTTP\/1\.1 421 /u);
    expect(await ask(`GET http://${host}/health HTTP/1.1\r\nHost: rebound.example\r\n`)).toMatch(/^HTTP\/1\.1 200 /u);
  });

  it('answers `OPTIONS *` with what the server as a whole takes', async () => {
    const server = await startServer();
    const answer = await rawAnswer(socketTo(server), `OPTIONS * HTTP/1.1\r\nHost: ${hostOf(server)}\r\nConnection: close\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 204 /u);
    expect(answer.toLowerCase()).toMatch(/^allow: get, head, post, options\r$/mu);
  });

  it('answers a request with two Host headers, or an HTTP/1.1 request with none, with 400 and an error that says why', async () => {
    const server = await startServer();
    const host = hostOf(server);
    for (const second of [host, 'rebound.example']) {
      const answer = await rawAnswer(
        socketTo(server),
        `GET /health HTTP/1.1\r\nHost: ${host}\r\nHost: ${second}\r\nConnection: close\r\n\r\n`,
      );
      expect(answer).toMatch(/^HTTP\/1\.1 400 /u);
      expect(errorOf(answer)).toEqual({ error: { code: 'MALFORMED_HOST', message: expect.stringMatching(/Host/u) } });
    }
    const none = await rawAnswer(socketTo(server), 'GET /health HTTP/1.1\r\nConnection: close\r\n\r\n');
    expect(none).toMatch(/^HTTP\/1\.1 400 /u);
    expect(errorOf(none)).toEqual({ error: { code: 'MALFORMED_HOST', message: expect.stringMatching(/Host/u) } });
  });
});

describe('a GET or HEAD that sends a body', () => {
  it('is answered, its body framed by its Content-Length and never taken for a request of its own', async () => {
    const server = await startServer();
    const host = new URL(server.url).host;
    // The body looks like a request; the next request on the connection is the one after it.
    const hidden = `POST /agents/refund HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`;
    for (const method of ['GET', 'HEAD']) {
      const text =
        `${method} /agents HTTP/1.1\r\nHost: ${host}\r\nContent-Type: text/plain\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\n` +
        `Content-Length: ${Buffer.byteLength(hidden)}\r\n\r\n${hidden}` +
        `GET /health HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`;
      const answer = await rawAnswer(socketTo(server), text);
      const statuses = answer.match(/HTTP\/1\.1 \d{3}/gu) ?? [];
      expect(statuses, method).toEqual(['HTTP/1.1 200', 'HTTP/1.1 200']);
      expect(answer).toContain('"ok":true');
      expect(answer).not.toContain('RESUME');
    }
    expect((await health(server)).runs).toBe(0);
  });
});
