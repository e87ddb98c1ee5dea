import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunAgentInput } from '@aguikit/core';
import { findScenario, scenarioEvents, scenarios } from '@aguikit/scenarios';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AgentServer } from '../src/server.js';
import { openMemoryStorage } from '../src/storage/memory.js';
import { openSqliteStorage } from '../src/storage/sqlite.js';
import { nextThread } from '../src/threads.js';
import { interruptsOf, NOW, parseFrames, post, readEvents, startServer, stopServer, userInput } from './support.js';

/** Checks a refusal: its status, a JSON `{ error: { code, message } }` body, no CORS grant, and a server still healthy. */
async function expectError(server: AgentServer, response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json(; charset=utf-8)?$/);
  // No Origin was sent: nothing is granted to any page.
  expect(response.headers.get('access-control-allow-origin')).toBeNull();
  const body = (await response.json()) as { error?: { code?: unknown; message?: unknown } };
  expect(body.error?.code).toBe(code);
  expect(typeof body.error?.message).toBe('string');
  expect(String(body.error?.message).length).toBeGreaterThan(0);
  const health = await fetch(`${server.url}/health`);
  expect(health.status).toBe(200);
  expect(await health.json()).toMatchObject({ ok: true });
}

/** A pinned run secret, for the tests that compare the wire with `expected` (a server draws a fresh one per run). */
const NONCE = '0123456789abcdef0123456789abcdef';

/**
 * The events a scenario produces for `input` at the test clock and `NONCE`, as the server sends them: each
 * stamped with the server's time as it goes out (its clock is NOW here). What the wire must carry.
 */
function expected(scenarioId: string, input: RunAgentInput): unknown[] {
  const scenario = findScenario(scenarioId);
  if (!scenario) throw new Error(`no scenario ${scenarioId}`);
  const context = { now: NOW, nonce: NONCE };
  return scenarioEvents(scenario, input, context).map((e) => ({ ...e.event, timestamp: NOW }));
}

/** Reads a streaming response until `done` holds for the text so far, then leaves the stream open. */
async function readUntil(
  response: Response,
  done: (text: string) => boolean,
): Promise<{ text: string; rest: () => Promise<string>; cancel: () => Promise<void> }> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!done(text)) {
    const { done: ended, value } = await reader.read();
    if (ended) break;
    text += decoder.decode(value, { stream: true });
  }
  return {
    text,
    rest: async () => {
      let more = '';
      for (;;) {
        const { done: ended, value } = await reader.read();
        if (ended) return more;
        more += decoder.decode(value, { stream: true });
      }
    },
    cancel: () => reader.cancel(),
  };
}

/** The approval interrupt id each first refund run opened, by its run id: ids carry the run's secret nonce. */
const opened = new Map<string, string>();
afterEach(() => opened.clear());

/** A first refund run streamed to its end: the approval interrupt is open afterwards. */
async function firstRun(server: AgentServer, threadId: string, runId: string, extra: Partial<RunAgentInput> = {}) {
  const response = await post(server, '/agents/refund?speed=0', { ...userInput(threadId, runId), ...extra });
  expect(response.status).toBe(200);
  const events = await readEvents(response);
  const id = interruptsOf(events)[0]?.id;
  if (id) opened.set(runId, id);
  return events;
}

/** The approval interrupt `firstRun` saw open for `firstRunId`. */
function approvalId(firstRunId: string): string {
  const id = opened.get(firstRunId);
  if (!id) throw new Error(`no first run ${firstRunId}`);
  return id;
}

/** A resume of `threadId` that answers the refund approval of `firstRunId`, with the id that run sent. */
function approval(threadId: string, firstRunId: string, runId: string, approved = true): RunAgentInput {
  return {
    ...userInput(threadId, runId),
    messages: [],
    resume: [{ interruptId: approvalId(firstRunId), status: 'resolved', payload: { approved } }],
  };
}

const tempDirs: string[] = [];
afterEach(async () => {
  await Promise.all(tempDirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});
async function tempDir() {
  const dir = await mkdtemp(join(tmpdir(), 'aguikit-agent-server-'));
  tempDirs.push(dir);
  return dir;
}

describe('bad input gets a 4xx with a JSON error, and never crashes the server', () => {
  it('refuses malformed JSON and bodies that are not objects', async () => {
    const server = await startServer();
    await expectError(server, await post(server, '/agents/refund', '{"threadId": '), 400, 'MALFORMED_JSON');
    await expectError(server, await post(server, '/agents/refund', ''), 400, 'MALFORMED_JSON');
    await expectError(server, await post(server, '/agents/refund', '\u00ff\u0000'), 400, 'MALFORMED_JSON');
    for (const body of ['[]', 'null', '42', '"input"', 'true']) {
      await expectError(server, await post(server, '/agents/refund', body), 400, 'INVALID_INPUT');
    }
  });

  it('refuses a missing, empty, non-string or oversized threadId and runId', async () => {
    const server = await startServer();
    const base = userInput('t', 'r');
    for (const threadId of [undefined, '', 7, null, 'x'.repeat(201)]) {
      await expectError(server, await post(server, '/agents/refund', { ...base, threadId }), 400, 'MISSING_THREAD_ID');
    }
    for (const runId of [undefined, '', ['r'], 'x'.repeat(201)]) {
      await expectError(server, await post(server, '/agents/refund', { ...base, runId }), 400, 'MISSING_RUN_ID');
    }
    // The longest id accepted: the limit is a bound, not an off-by-one.
    const longest = await post(server, '/agents/refund?speed=0', { ...userInput('t'.repeat(200), 'r'.repeat(200)), messages: [] });
    expect(longest.status).toBe(200);
    await readEvents(longest);
  });

  it('refuses messages, tools and context that are not arrays, and messages without id or role', async () => {
    const server = await startServer();
    const base = userInput('t', 'r');
    for (const field of ['messages', 'tools', 'context'] as const) {
      for (const value of [undefined, {}, 'x', null]) {
        await expectError(server, await post(server, '/agents/refund', { ...base, [field]: value }), 400, 'INVALID_INPUT');
      }
    }
    for (const message of [null, 'hi', { role: 'user', content: 'no id' }, { id: 'm', content: 'no role' }, { id: '', role: 'user' }]) {
      await expectError(server, await post(server, '/agents/refund', { ...base, messages: [message] }), 400, 'INVALID_INPUT');
    }
    const many = Array.from({ length: 20_001 }, (_, i) => ({ id: `m${i}`, role: 'user' }));
    await expectError(server, await post(server, '/agents/refund', { ...base, messages: many }), 413, 'TOO_MANY_MESSAGES');
  });

  it('refuses invalid resume entries and an interrupt answered twice in one resume', async () => {
    const server = await startServer();
    const base = userInput('t', 'r');
    for (const resume of [
      {},
      'yes',
      [null],
      [{ status: 'resolved' }],
      [{ interruptId: '', status: 'resolved' }],
      [{ interruptId: 'i', status: 'approved' }],
      [{ interruptId: 'i' }],
    ]) {
      await expectError(server, await post(server, '/agents/refund', { ...base, resume }), 400, 'INVALID_INPUT');
    }
    const twice = [
      { interruptId: 'i', status: 'resolved', payload: { approved: true } },
      { interruptId: 'i', status: 'cancelled' },
    ];
    await expectError(server, await post(server, '/agents/refund', { ...base, resume: twice }), 400, 'DUPLICATE_ANSWER');
  });

  it('answers a body over maxBodyBytes with 413 (the client receives it even while still uploading)', async () => {
    const server = await startServer({ maxBodyBytes: 1000 });
    for (const size of [2_000, 500_000, 8_000_000]) {
      const body = { ...userInput('t', 'r'), messages: [{ id: 'm', role: 'user', content: 'x'.repeat(size) }] };
      await expectError(server, await post(server, '/agents/refund', body), 413, 'BODY_TOO_LARGE');
    }
    // Nothing of the refused bodies was taken for a run.
    const ok = await post(server, '/agents/refund?speed=0', userInput('t', 'r'));
    expect(ok.status).toBe(200);
    await readEvents(ok);
  });

  it('answers unknown scenarios and routes with 404 and other methods with 405', async () => {
    const server = await startServer();
    const input = userInput('t', 'r');
    await expectError(server, await post(server, '/agents/nope', input), 404, 'UNKNOWN_SCENARIO');
    await expectError(server, await post(server, '/agents/__proto__', input), 404, 'UNKNOWN_SCENARIO');
    await expectError(server, await post(server, '/agents/constructor', input), 404, 'UNKNOWN_SCENARIO');
    await expectError(server, await post(server, '/agents/%E0%A4%A', input), 400, 'MALFORMED_URL');
    await expectError(server, await fetch(`${server.url}/nope`), 404, 'NOT_FOUND');
    await expectError(server, await post(server, '/agents/refund/extra', input), 404, 'NOT_FOUND');
    await expectError(server, await post(server, '/agents/', input), 404, 'NOT_FOUND');
    await expectError(server, await fetch(`${server.url}/agents/refund`), 405, 'METHOD_NOT_ALLOWED');
    await expectError(server, await fetch(`${server.url}/agents/refund`, { method: 'PUT', body: '{}' }), 405, 'METHOD_NOT_ALLOWED');
    await expectError(server, await fetch(`${server.url}/agents/refund`, { method: 'DELETE' }), 405, 'METHOD_NOT_ALLOWED');
  });

  it('says with Allow which methods a resource takes when it answers 405; a method on no resource is a 404', async () => {
    const server = await startServer();
    for (const [path, method, allow] of [
      ['/agents/refund', 'GET', 'POST, OPTIONS'],
      ['/agents/refund', 'PUT', 'POST, OPTIONS'],
      ['/agents/refund', 'DELETE', 'POST, OPTIONS'],
      ['/health', 'POST', 'GET, HEAD, OPTIONS'],
      ['/ready', 'PUT', 'GET, HEAD, OPTIONS'],
      ['/agents', 'POST', 'GET, HEAD, OPTIONS'],
      ['/effects', 'DELETE', 'GET, HEAD, OPTIONS'],
    ] as const) {
      const response = await fetch(`${server.url}${path}`, {
        method,
        ...(method === 'POST' ? { body: '{}', headers: { 'content-type': 'application/json' } } : {}),
      });
      expect(response.headers.get('allow'), `${method} ${path}`).toBe(allow);
      await expectError(server, response, 405, 'METHOD_NOT_ALLOWED');
    }
    await expectError(server, await fetch(`${server.url}/nope`, { method: 'PUT', body: '{}' }), 404, 'NOT_FOUND');
  });

  it('is ready while its storage answers, and says 503 when it does not, with no word of where the data lives; alive all the while', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'aguikit-ready-'));
    try {
      const storage = openSqliteStorage(dir);
      const server = await startServer({ storage });
      const ready = await fetch(`${server.url}/ready`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ ready: true });
      await storage.close();
      const gone = await fetch(`${server.url}/ready`);
      expect(await gone.clone().text()).not.toMatch(/aguikit-ready-|agent\.db/);
      // expectError also checks that /health still answers 200: alive, not ready.
      await expectError(server, gone, 503, 'STORAGE_UNAVAILABLE');
      await stopServer(server);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('answers GET and HEAD on an unknown scenario with the 404 a POST gets: no resource is there to take other methods', async () => {
    const server = await startServer();
    const get = await fetch(`${server.url}/agents/no-such-scenario`);
    expect(get.headers.get('allow')).toBeNull();
    await expectError(server, get, 404, 'UNKNOWN_SCENARIO');
    const head = await fetch(`${server.url}/agents/no-such-scenario`, { method: 'HEAD' });
    expect(head.status).toBe(404);
    expect(await head.text()).toBe('');
  });

  it('answers a plain OPTIONS with the methods a resource takes, and 404 where there is none; a CORS preflight gets 204 anywhere', async () => {
    const server = await startServer();
    const refund = await fetch(`${server.url}/agents/refund`, { method: 'OPTIONS' });
    expect(refund.status).toBe(204);
    expect(refund.headers.get('allow')).toBe('POST, OPTIONS');
    expect((await fetch(`${server.url}/health`, { method: 'OPTIONS' })).headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    await expectError(server, await fetch(`${server.url}/no/such/path`, { method: 'OPTIONS' }), 404, 'NOT_FOUND');
    await expectError(server, await fetch(`${server.url}/agents/no-such-scenario`, { method: 'OPTIONS' }), 404, 'UNKNOWN_SCENARIO');
    // A preflight that failed would hide the request's own answer behind a CORS error: the page would read
    // "Failed to fetch", not the 404 that says what is wrong. So the preflight passes, and the request says it.
    const preflight = await fetch(`${server.url}/agents/no-such-scenario`, {
      method: 'OPTIONS',
      headers: { Origin: 'http://localhost:5173', 'Access-Control-Request-Method': 'POST' },
    });
    expect(preflight.status).toBe(204);
  });

  it('survives what is not HTTP or not a valid request target', async () => {
    const server = await startServer();
    const { port } = new URL(server.url);
    const raw = (text: string) =>
      new Promise<string>((resolve) => {
        const socket = connect(Number(port), '127.0.0.1', () => socket.end(text));
        let out = '';
        socket.on('data', (chunk) => {
          out += String(chunk);
        });
        socket.on('close', () => resolve(out));
        socket.on('error', () => resolve(out));
      });
    expect(await raw('GARBAGE\r\n\r\n')).toMatch(/^HTTP\/1\.1 400/);
    const badTarget = await raw(`GET http://[x/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
    expect(badTarget).toMatch(/^HTTP\/1\.1 400/);
    expect(badTarget).toContain('"code":"MALFORMED_URL"');
    // A body that ends before its Content-Length, then a client that goes away mid-upload.
    await raw(
      `POST /agents/refund HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"threadId"`,
    );
    const health = await fetch(`${server.url}/health`);
    expect(health.status).toBe(200);
  });

  it('holds a run back while its client does not read, instead of buffering the stream in memory', async () => {
    // Past the default cap: enough frames (about 10 MB) to fill the kernel's socket buffers.
    const server = await startServer({ knobLimits: { tokens: 100_000 } });
    const { port } = new URL(server.url);
    const body = JSON.stringify({ ...userInput('t', 'r1'), forwardedProps: { tokens: 100_000, tokenDelayMs: 0 } });
    const socket = connect(Number(port), '127.0.0.1');
    let received = 0;
    let ended = false;
    socket.on('data', (chunk: Buffer) => {
      received += chunk.length;
    });
    socket.on('end', () => {
      ended = true;
    });
    await new Promise<void>((resolve) =>
      socket
        .once('data', () => resolve())
        .write(
          `POST /agents/fast-stream?speed=0 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
        ),
    );
    socket.pause();
    const health = async () => (await (await fetch(`${server.url}/health`)).json()) as { streams: number; bufferedBytes: number };
    // About 10 MB of frames; the kernel's socket buffers take a few MB of them, the server's own buffer no more than a frame or so past its mark.
    await new Promise((r) => setTimeout(r, 300));
    const paused = await health();
    expect(paused.streams).toBe(1);
    expect(paused.bufferedBytes).toBeLessThan(64 * 1024);
    socket.resume();
    await vi.waitFor(() => expect(ended).toBe(true), { timeout: 20_000 });
    expect(received).toBeGreaterThan(100_000 * 60);
    expect((await health()).streams).toBe(0);
    socket.destroy();
  }, 30_000);

  it('replays a run sent again as it was, and refuses a run id reused with another input', async () => {
    const server = await startServer();
    const first = await firstRun(server, 't', 'r1');
    // The same request again is a client retrying after a drop before its first event: the run, from the start.
    const again = await readEvents(await post(server, '/agents/refund?speed=0', userInput('t', 'r1')));
    expect(again).toEqual(first);
    await expectError(server, await post(server, '/agents/refund', userInput('t', 'r1', 'something else')), 409, 'RUN_EXISTS');
    // The same run id on another thread, or another scenario, is the same run id.
    await expectError(server, await post(server, '/agents/clarification', userInput('t2', 'r1')), 409, 'RUN_EXISTS');
  });

  it('refuses a new message while interrupts are open, and a resume that does not cover them all', async () => {
    const server = await startServer();
    await firstRun(server, 't', 'r1');
    await expectError(server, await post(server, '/agents/refund', userInput('t', 'r2', 'hello again')), 409, 'RESUME_REQUIRED');

    const first = await post(server, '/agents/two-interrupts?speed=0', userInput('t2', 'x1', scenarios['two-interrupts'].prompt));
    const open = interruptsOf(await readEvents(first));
    expect(open).toHaveLength(2);
    const [one, two] = open.map((it) => it.id);
    const partial = { ...userInput('t2', 'x2'), messages: [], resume: [{ interruptId: one, status: 'cancelled' }] };
    await expectError(server, await post(server, '/agents/two-interrupts', partial), 409, 'RESUME_INCOMPLETE');
    // Both answered in one resume is accepted.
    const full = { ...partial, resume: [...partial.resume, { interruptId: two, status: 'cancelled' }] };
    const ok = await post(server, '/agents/two-interrupts?speed=0', full);
    expect(ok.status).toBe(200);
    expect((await readEvents(ok)).at(-1)?.event.type).toBe('RUN_FINISHED');
  });

  it('refuses an answer to an unknown interrupt with 422', async () => {
    const server = await startServer();
    const unknown = { ...userInput('t', 'r1'), resume: [{ interruptId: 'no-such-interrupt', status: 'cancelled' }] };
    await expectError(server, await post(server, '/agents/refund', unknown), 422, 'UNKNOWN_INTERRUPT');
    await firstRun(server, 't', 'r1');
    // An unknown id next to the open one is still refused: the resume is taken whole or not at all.
    const mixed = approval('t', 'r1', 'r2');
    mixed.resume = [...(mixed.resume ?? []), { interruptId: 'no-such-interrupt', status: 'cancelled' }];
    await expectError(server, await post(server, '/agents/refund', mixed), 422, 'UNKNOWN_INTERRUPT');
    const ok = await post(server, '/agents/refund?speed=0', approval('t', 'r1', 'r2'));
    expect(ok.status).toBe(200);
    await readEvents(ok);
  });

  it('refuses a resolved answer to an expired interrupt with 422; cancelling it is still accepted', async () => {
    let clock = NOW;
    const server = await startServer({ now: () => clock });
    const events = await firstRun(server, 't', 'r1', { forwardedProps: { approvalWindowMs: 1_000 } });
    expect(interruptsOf(events)[0]).toMatchObject({ expiresAt: new Date(NOW + 1_000).toISOString() });
    clock = NOW + 1_000;
    await expectError(server, await post(server, '/agents/refund', approval('t', 'r1', 'r2')), 422, 'INTERRUPT_EXPIRED');
    const cancel = { ...approval('t', 'r1', 'r3'), resume: [{ interruptId: approvalId('r1'), status: 'cancelled' }] };
    const ok = await post(server, '/agents/refund?speed=0', cancel);
    expect(ok.status).toBe(200);
    const text = (await readEvents(ok)).filter((e) => e.event.type === 'TEXT_MESSAGE_CONTENT').map((e) => e.event.delta);
    expect(text.join('')).toContain('no refund was made');
    expect(server.effects()).toEqual([]);
  });

  it('accepts a resolved answer just before the interrupt expires', async () => {
    let clock = NOW;
    const server = await startServer({ now: () => clock });
    await firstRun(server, 't', 'r1', { forwardedProps: { approvalWindowMs: 1_000 } });
    clock = NOW + 999;
    const ok = await post(server, '/agents/refund?speed=0', approval('t', 'r1', 'r2'));
    expect(ok.status).toBe(200);
    await readEvents(ok);
    expect(server.effects()).toHaveLength(1);
  });

  it("keeps a thread's record small however large the answers were: a fingerprint of each, and the newest 1,024", async () => {
    const storage = openMemoryStorage();
    const server = await startServer({ storage });
    await firstRun(server, 't', 'r1');
    // A cancel's payload means nothing; 600 KB of it is not kept either.
    const cancel = {
      ...approval('t', 'r1', 'r2'),
      resume: [{ interruptId: approvalId('r1'), status: 'cancelled' as const, payload: 'x'.repeat(600_000) }],
    };
    const ok = await post(server, '/agents/refund?speed=0', cancel);
    expect(ok.status).toBe(200);
    await readEvents(ok);
    const { record } = await storage.thread('t');
    expect(JSON.stringify(record).length).toBeLessThan(2_000);
    // The same cancel retried (whatever it carries) is the same answer; a resolved one is not.
    const again = await post(server, '/agents/refund?speed=0', { ...cancel, runId: 'r3', resume: [{ ...cancel.resume[0], payload: 1 }] });
    expect(again.status).toBe(200);
    await readEvents(again);
    await expectError(server, await post(server, '/agents/refund', approval('t', 'r1', 'r4')), 409, 'ALREADY_ANSWERED');

    const many = Object.fromEntries(
      Array.from({ length: 1_100 }, (_, i) => [`old-${i}`, { status: 'cancelled' as const, payload: 'null' }]),
    );
    const open = [{ id: 'newest', reason: 'confirmation' }];
    const next = nextThread(
      { threadId: 't', open, answered: many },
      { ...userInput('t', 'r9'), resume: [{ interruptId: 'newest', status: 'cancelled' }] },
      [],
    );
    expect(Object.keys(next.answered)).toHaveLength(1_024);
    expect(Object.keys(next.answered).at(-1)).toBe('newest');
    expect(Object.hasOwn(next.answered, 'old-0')).toBe(false);
  });

  it('takes a retried answer or run whatever the order of its keys: the same JSON is the same request', async () => {
    const server = await startServer();
    await firstRun(server, 't', 'r1');
    const answer = (runId: string, payload: object) => ({
      ...userInput('t', runId),
      messages: [],
      resume: [{ interruptId: approvalId('r1'), status: 'resolved' as const, payload }],
    });
    expect(
      (await readEvents(await post(server, '/agents/refund?speed=0', answer('r2', { approved: true, comment: 'ok' })))).at(-1)?.event.type,
    ).toBe('RUN_FINISHED');
    const again = await post(server, '/agents/refund?speed=0', answer('r3', { comment: 'ok', approved: true }));
    expect(again.status).toBe(200);
    await readEvents(again);
    expect(server.effects()).toHaveLength(1);

    const run = { threadId: 'k', runId: 'rk', messages: [], tools: [], context: [] };
    const first = await readEvents(await post(server, '/agents/refund?speed=0', run));
    const { runId, threadId, ...rest } = run;
    const reordered = await post(server, '/agents/refund?speed=0', { runId, ...rest, threadId });
    expect(reordered.status).toBe(200);
    expect(await readEvents(reordered)).toEqual(first);
  });

  it('refuses the same interrupt answered differently with 409', async () => {
    const server = await startServer();
    await firstRun(server, 't', 'r1');
    const ok = await post(server, '/agents/refund?speed=0', approval('t', 'r1', 'r2'));
    await readEvents(ok);
    await expectError(server, await post(server, '/agents/refund', approval('t', 'r1', 'r3', false)), 409, 'ALREADY_ANSWERED');
    const cancel = { ...approval('t', 'r1', 'r4'), resume: [{ interruptId: approvalId('r1'), status: 'cancelled' }] };
    await expectError(server, await post(server, '/agents/refund', cancel), 409, 'ALREADY_ANSWERED');
    const withComment = approval('t', 'r1', 'r5');
    withComment.resume = [{ interruptId: approvalId('r1'), status: 'resolved', payload: { approved: true, comment: 'ok' } }];
    await expectError(server, await post(server, '/agents/refund', withComment), 409, 'ALREADY_ANSWERED');
    expect(server.effects()).toHaveLength(1);
  });

  it('refuses a resume that repeats an answer already taken beside an answer to an open interrupt: the new approval is never lost', async () => {
    const server = await startServer();
    await firstRun(server, 't', 'r1');
    await readEvents(await post(server, '/agents/refund?speed=0', approval('t', 'r1', 'r2')));
    expect(server.effects()).toHaveLength(1);
    const [second] = interruptsOf(await readEvents(await post(server, '/agents/refund?speed=0', userInput('t', 'r3', '另一个茶壶也碎了'))));
    const mixed = {
      ...approval('t', 'r1', 'r4'),
      resume: [
        { interruptId: approvalId('r1'), status: 'resolved', payload: { approved: true } },
        { interruptId: String(second?.id), status: 'resolved', payload: { approved: true } },
      ],
    };
    await expectError(server, await post(server, '/agents/refund', mixed), 409, 'RESUME_MIXED');
    // The open approval is still open: answered alone, it is carried out.
    const alone = {
      ...approval('t', 'r1', 'r5'),
      resume: [{ interruptId: String(second?.id), status: 'resolved', payload: { approved: true } }],
    };
    await readEvents(await post(server, '/agents/refund?speed=0', alone));
    expect(server.effects().map((e) => e.key)).toEqual([
      expect.stringContaining(approvalId('r1')),
      expect.stringContaining(String(second?.id)),
    ]);
  });

  it('refuses a Last-Event-ID of another run with 400, and of an unknown run with 404', async () => {
    const server = await startServer();
    await firstRun(server, 't', 'r1');
    await expectError(
      server,
      await post(server, '/agents/refund', userInput('t', 'r1'), { 'Last-Event-ID': 'r0:3' }),
      400,
      'BAD_LAST_EVENT_ID',
    );
    for (const id of ['garbage', 'r1', 'r1:', 'r1:-1', 'r1:1.5', 'r1: 3', 'r1:0x3', 'r1:3e0', ':3']) {
      await expectError(
        server,
        await post(server, '/agents/refund', userInput('t', 'r1'), { 'Last-Event-ID': id }),
        400,
        'BAD_LAST_EVENT_ID',
      );
    }
    await expectError(server, await post(server, '/agents/refund', userInput('t', 'r9'), { 'Last-Event-ID': 'r9:3' }), 404, 'UNKNOWN_RUN');
  });

  it('answers a Last-Event-ID ahead of the frames stored with what comes after it: those before it are made, stored and their side effects done, never skipped', async () => {
    const server = await startServer();
    const input = { ...userInput('t', 'r1'), forwardedProps: { tokens: 400, tokenDelayMs: 5 } };
    const live = await post(server, '/agents/fast-stream?speed=1', input);
    const { cancel } = await readUntil(live, (t) => t.includes('id: r1:2\n'));
    await cancel();
    // The run goes on without its client; an id far ahead of what it has made (a power cut lost the frames stored
    // after what the client got, or a client that claims more): the events after it.
    const ahead = await readEvents(await post(server, '/agents/fast-stream?speed=0', input, { 'Last-Event-ID': 'r1:300' }));
    expect(ahead[0]?.id).toBe('r1:301');
    expect(ahead.at(-1)?.event.type).toBe('RUN_FINISHED');
    // What it skipped was made and stored: a client that got less reads it all, in order, once.
    const rest = await readEvents(await post(server, '/agents/fast-stream?speed=0', input, { 'Last-Event-ID': 'r1:2' }));
    expect(rest.map((e) => e.id)).toEqual(Array.from({ length: rest.length }, (_, i) => `r1:${i + 3}`));
    expect(rest.slice(298).map((e) => e.event)).toEqual(ahead.map((e) => e.event));
    expect(rest.at(-1)?.event.type).toBe('RUN_FINISHED');
  });

  it('does the side effect of an event a Last-Event-ID jumps over, once', async () => {
    const server = await startServer({ nonce: () => NONCE });
    const first = await readEvents(await post(server, '/agents/refund?speed=0', userInput('t', 'r1')));
    const approval: RunAgentInput = {
      ...userInput('t', 'r2'),
      resume: [{ interruptId: interruptsOf(first)[0]?.id as string, status: 'resolved', payload: { approved: true } }],
    };
    const plan = expected('refund', approval);
    const live = await post(server, '/agents/refund?speed=0.5', approval);
    const { cancel } = await readUntil(live, (t) => t.includes('id: r2:0\n'));
    await cancel();
    // Slowed, the run is far from its refund when the client says it got the last event but one. The run goes on
    // without its client; the reconnect reads what it stores, and gets what follows the event it names.
    const last = await readEvents(await post(server, '/agents/refund?speed=0', approval, { 'Last-Event-ID': `r2:${plan.length - 2}` }));
    expect(last.map((e) => e.event.type)).toEqual(['RUN_FINISHED']);
    expect(server.effects().filter((e) => e.runId === 'r2')).toHaveLength(1);
  });
});

describe('the wire', () => {
  it("stamps each event with the server's time as it goes out, and a reconnect gets the stamps they went out with", async () => {
    let clock = NOW;
    const server = await startServer({ nonce: () => NONCE, now: () => clock++ });
    const input = userInput('t', 'r1');
    const first = await readEvents(await post(server, '/agents/refund?speed=0', input));
    const stamps = first.map((e) => e.event.timestamp as number);
    // Read as each event is sent, not once for the run: each later than the one before.
    expect(stamps.every((t, i) => i === 0 || t > (stamps[i - 1] ?? t))).toBe(true);
    expect(stamps[0]).toBeGreaterThan(NOW);
    const again = await readEvents(await post(server, '/agents/refund?speed=0', input, { 'Last-Event-ID': 'r1:2' }));
    expect(again.map((e) => e.event.timestamp)).toEqual(stamps.slice(3));
  });
  it('streams the refund flow with an id on every event, in order, ending with RUN_FINISHED', async () => {
    const server = await startServer({ nonce: () => NONCE });
    const input = userInput('t', 'r1');
    const response = await post(server, '/agents/refund?speed=0', input);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const first = await readEvents(response);
    expect(first.map((e) => e.id)).toEqual(first.map((_, i) => `r1:${i}`));
    expect(first.map((e) => e.event)).toEqual(expected('refund', input));
    expect(first.at(-1)?.event).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'interrupt' } });
    // The approval and its tool call carry the run's nonce: 32 hex digits, drawn per run.
    const [open] = interruptsOf(first) as [{ id: string; toolCallId?: string }];
    expect(open).toMatchObject({ reason: 'tool_call' });
    expect(open.id).toBe(`r1.${NONCE}-refund-approval`);
    expect(open.toolCallId).toBe(`${open.id.slice(0, -'-approval'.length)}`);
    opened.set('r1', open.id);

    const resume = approval('t', 'r1', 'r2');
    const second = await readEvents(await post(server, '/agents/refund?speed=0', resume));
    expect(second.map((e) => e.id)).toEqual(second.map((_, i) => `r2:${i}`));
    expect(second.map((e) => e.event)).toEqual(expected('refund', resume));
    expect(second.at(-1)?.event).toEqual({ type: 'RUN_FINISHED', threadId: 't', runId: 'r2', timestamp: NOW });
    expect(second.find((e) => e.event.type === 'TOOL_CALL_RESULT')?.event).toMatchObject({ toolCallId: `r1.${NONCE}-refund` });
    expect(server.effects()).toEqual([
      expect.objectContaining({
        kind: 'refund',
        key: approvalId('r1'),
        runId: 'r2',
        at: NOW,
        detail: expect.objectContaining({ amount: 42 }),
      }),
    ]);
  });

  it('plays the scenario at the requested speed', async () => {
    const server = await startServer();
    const started = performance.now();
    await readEvents(await post(server, '/agents/refund?speed=0', userInput('t', 'r1')));
    expect(performance.now() - started).toBeLessThan(500);
    const slow = performance.now();
    await readEvents(await post(server, '/agents/clarification?speed=4', userInput('t2', 'c1')));
    // Its tokens are 30 ms apart at speed 1: 13 of them take ~100 ms at speed 4.
    expect(performance.now() - slow).toBeGreaterThan(60);
  });

  it('lists the scenarios', async () => {
    const server = await startServer();
    const response = await fetch(`${server.url}/agents`);
    expect(response.status).toBe(200);
    const list = (await response.json()) as { id: string; title: string; description: string; prompt: string }[];
    expect(list.map((s) => s.id)).toEqual(Object.keys(scenarios));
    for (const s of list) expect(Object.keys(s).sort()).toEqual(['description', 'id', 'prompt', 'title']);
  });

  it('answers CORS preflights of the playground and grants its origin alone, on streams and errors alike, never *', async () => {
    const server = await startServer();
    const origin = 'http://localhost:5173';
    const preflight = await fetch(`${server.url}/agents/refund`, {
      method: 'OPTIONS',
      headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type, last-event-id' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(origin);
    expect(preflight.headers.get('vary')).toContain('Origin');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    const allowed = (preflight.headers.get('access-control-allow-headers') ?? '').split(',').map((h) => h.trim());
    expect(allowed).toEqual(expect.arrayContaining(['content-type', 'accept', 'last-event-id']));
    const stream = await post(server, '/agents/refund?speed=0', userInput('t', 'r1'), { Origin: origin });
    expect(stream.headers.get('access-control-allow-origin')).toBe(origin);
    await readEvents(stream);
    const error = await post(server, '/agents/nope', userInput('t', 'r2'), { Origin: origin });
    expect(error.status).toBe(404);
    expect(error.headers.get('access-control-allow-origin')).toBe(origin);
    expect((await fetch(`${server.url}/agents`, { headers: { Origin: origin } })).headers.get('access-control-allow-origin')).toBe(origin);
    // Without an Origin (curl, a server, the playground's own proxy) nothing is granted, and nothing is needed.
    expect((await fetch(`${server.url}/agents`)).headers.get('access-control-allow-origin')).toBeNull();
  });

  it('sends `: ping` heartbeats on a slow stream', async () => {
    const server = await startServer({ heartbeatMs: 10 });
    const response = await post(server, '/agents/refund?speed=0.1', userInput('t', 'r1'));
    const { text, cancel } = await readUntil(response, (t) => (t.match(/^: ping$/gmu) ?? []).length >= 3);
    await cancel();
    const frames = parseFrames(text.slice(0, text.lastIndexOf('\n\n') + 2));
    expect(frames.filter((f) => f.comment === 'ping').length).toBeGreaterThanOrEqual(3);
    // Heartbeats are frames of their own: an event frame is never split by one, and a ping carries no id to resume from.
    for (const f of frames) {
      if (f.comment === undefined) expect(f).toEqual({ id: expect.any(String), data: expect.any(String) });
      else expect(f).toEqual({ comment: 'ping' });
    }
  });

  it('sends exactly the events after Last-Event-ID on a reconnect', async () => {
    const server = await startServer();
    const input = userInput('t', 'r1');
    const all = await firstRun(server, 't', 'r1');
    for (const from of [0, 10, all.length - 2]) {
      const again = await readEvents(await post(server, '/agents/refund?speed=0', input, { 'Last-Event-ID': `r1:${from}` }));
      expect(again).toEqual(all.slice(from + 1));
    }
    // After the last event there is nothing left to send, and the stream ends.
    expect(await readEvents(await post(server, '/agents/refund?speed=0', input, { 'Last-Event-ID': `r1:${all.length - 1}` }))).toEqual([]);
    expect(await readEvents(await post(server, '/agents/refund?speed=0', input, { 'Last-Event-ID': 'r1:9999' }))).toEqual([]);
  });

  it('reconnects a run whose id is not ASCII: Last-Event-ID is read as the UTF-8 bytes a client sends', async () => {
    const server = await startServer();
    const input = userInput('线程-1', '运行-1');
    const all = await readEvents(await post(server, '/agents/refund?speed=0', input));
    expect(all[2]?.id).toBe('运行-1:2');
    // What EventSource (and aguikit's client) put on the wire; fetch takes a header only as bytes, one per character.
    const bytes = String.fromCharCode(...new TextEncoder().encode('运行-1:2'));
    const rest = await readEvents(await post(server, '/agents/refund?speed=0', input, { 'Last-Event-ID': bytes }));
    expect(rest).toEqual(all.slice(3));
  });

  it('reconnects to a run still streaming', async () => {
    const server = await startServer();
    const input = userInput('t', 'r1');
    const live = await post(server, '/agents/refund?speed=2', input);
    const { text, cancel } = await readUntil(live, (t) => t.includes('id: r1:4\n'));
    await cancel();
    const seen = parseFrames(text).filter((f) => f.data !== undefined && text.includes(`${f.data}\n\n`));
    const lastId = seen.at(-1)?.id ?? '';
    const rest = await readEvents(await post(server, '/agents/refund?speed=0', input, { 'Last-Event-ID': lastId }));
    const ids = [...seen.map((f) => f.id), ...rest.map((e) => e.id)];
    expect(ids).toEqual(expected('refund', input).map((_, i) => `r1:${i}`));
    expect(rest.at(-1)?.event.type).toBe('RUN_FINISHED');
  });
});

describe('long runs, streamed from a plan', () => {
  it.each([
    ['fast-stream', { tokens: 400, tokenDelayMs: 5 }],
    ['dashboard', { deltas: 200 }],
    ['long-thread', { messages: 300 }],
  ] as const)('%s: a reconnect in the middle continues with no event lost or doubled', async (scenario, forwardedProps) => {
    const server = await startServer();
    const input = { ...userInput('t', 'r1'), forwardedProps };
    const live = await post(server, `/agents/${scenario}?speed=4`, input);
    const { text, cancel } = await readUntil(live, (t) => t.includes('id: r1:6\n'));
    await cancel();
    const seen = parseFrames(text).filter((f) => f.data !== undefined && text.includes(`${f.data}\n\n`));
    const rest = await readEvents(await post(server, `/agents/${scenario}?speed=0`, input, { 'Last-Event-ID': seen.at(-1)?.id ?? '' }));
    const wire = [...seen.map((f) => JSON.parse(f.data ?? 'null')), ...rest.map((e) => e.event)];
    expect(wire).toEqual(expected(scenario, input));
  });
});

describe('idempotency', () => {
  it('performs the refund once however often the approving resume arrives', async () => {
    const server = await startServer();
    await firstRun(server, 't', 'r1');
    const resume = approval('t', 'r1', 'r2');
    const first = await readEvents(await post(server, '/agents/refund?speed=0', resume));
    expect(first.some((e) => e.event.type === 'TOOL_CALL_RESULT')).toBe(true);
    expect(server.effects()).toHaveLength(1);

    // The same resume under a new run id: accepted (the same answer), streamed again, refunded once.
    const retried = await readEvents(await post(server, '/agents/refund?speed=0', approval('t', 'r1', 'r3')));
    expect(retried.find((e) => e.event.type === 'TOOL_CALL_RESULT')?.event).toMatchObject({
      toolCallId: approvalId('r1').slice(0, -'-approval'.length),
    });
    // The same request again: a retry, replayed from the start, not run twice.
    const replayed = await readEvents(await post(server, '/agents/refund?speed=0', resume));
    expect(replayed).toEqual(first);
    // A reconnect that replays the event reporting the refund.
    await readEvents(await post(server, '/agents/refund?speed=0', resume, { 'Last-Event-ID': 'r2:0' }));
    // Concurrently, under many new run ids.
    const many = await Promise.all(
      Array.from({ length: 10 }, (_, i) => post(server, '/agents/refund?speed=0', approval('t', 'r1', `r-${i}`))),
    );
    await Promise.all(many.map(readEvents));

    const effects = await (await fetch(`${server.url}/effects`)).json();
    expect(effects).toEqual([expect.objectContaining({ kind: 'refund', key: approvalId('r1'), runId: 'r2' })]);
    expect(server.effects()).toEqual(effects);
  });

  it('refunds each interrupt once: two threads, two refunds', async () => {
    const server = await startServer();
    await firstRun(server, 'a', 'a1');
    await firstRun(server, 'b', 'b1');
    await readEvents(await post(server, '/agents/refund?speed=0', approval('a', 'a1', 'a2')));
    await readEvents(await post(server, '/agents/refund?speed=0', approval('b', 'b1', 'b2')));
    expect(server.effects().map((e) => e.key)).toEqual([approvalId('a1'), approvalId('b1')]);
  });

  it('lists the effects of the runs storage still holds, not every one since it started: storage keeps them, and a retried approval refunds once', async () => {
    let clock = NOW;
    const storage = openMemoryStorage();
    const server = await startServer({ storage, runRetentionMs: 60_000, pruneEveryMs: 20, now: () => clock });
    // A refund a minute, on threads of their own: each run is past the retention two minutes later.
    for (let n = 0; n < 6; n++) {
      await firstRun(server, `t${n}`, `a${n}`);
      await readEvents(await post(server, '/agents/refund?speed=0', approval(`t${n}`, `a${n}`, `b${n}`)));
      clock += 60_000;
    }
    expect(await storage.effects()).toHaveLength(6);
    // The clock is at NOW + 6 min: the runs of the last minute are within the retention, the others pruned, and
    // their effects no longer held in memory.
    await vi.waitFor(() => expect(server.effects().map((e) => e.runId)).toEqual(['b5']), { timeout: 5_000 });
    const held = [];
    for (const e of await storage.effects()) if (await storage.run(e.runId)) held.push(e);
    expect(server.effects()).toEqual(held);
    // Storage still holds every effect: the approval of a pruned run retried under a new run id refunds nothing.
    await readEvents(await post(server, '/agents/refund?speed=0', approval('t0', 'a0', 'c0')));
    expect(await storage.effects()).toHaveLength(6);
    expect((await storage.effects()).filter((e) => e.key === approvalId('a0'))).toEqual([expect.objectContaining({ runId: 'b0' })]);
  }, 20_000);

  it('keeps an effect of a pruned run out of the list when a new run meets it again: the new run did nothing, and the run that did is gone', async () => {
    let clock = NOW;
    const storage = openMemoryStorage();
    const first = await startServer({ storage, runRetentionMs: 60_000, now: () => clock });
    await firstRun(first, 't', 'a0');
    await readEvents(await post(first, '/agents/refund?speed=0', approval('t', 'a0', 'b0')));
    await stopServer(first);
    // Two minutes on, a server on the same storage prunes those runs as it starts; its next prune is an hour away.
    clock += 120_000;
    const server = await startServer({ storage, runRetentionMs: 60_000, pruneEveryMs: 3_600_000, now: () => clock });
    await vi.waitFor(async () => expect(await storage.run('b0')).toBeUndefined(), { timeout: 5_000 });
    expect(server.effects()).toEqual([]);
    // The approval retried under a new run id meets the refund already made (and makes none).
    const retried = await readEvents(await post(server, '/agents/refund?speed=0', approval('t', 'a0', 'c0')));
    expect(retried.at(-1)?.event.type).toBe('RUN_FINISHED');
    expect(await storage.effects()).toEqual([expect.objectContaining({ runId: 'b0' })]);
    expect(server.effects()).toEqual([]);
  });

  it('refunds nothing on a rejection', async () => {
    const server = await startServer();
    await firstRun(server, 't', 'r1');
    await readEvents(await post(server, '/agents/refund?speed=0', approval('t', 'r1', 'r2', false)));
    expect(server.effects()).toEqual([]);
  });
});

describe('shutdown and restart', () => {
  it('close() ends open streams, resolves, and refuses new connections', async () => {
    const server = await startServer({ heartbeatMs: 5 });
    const streams = await Promise.all([
      post(server, '/agents/refund?speed=0.1', userInput('a', 'a1')),
      post(server, '/agents/refund?speed=0.1', userInput('b', 'b1')),
    ]);
    const heads = await Promise.all(streams.map((s) => readUntil(s, (t) => t.includes('id: '))));
    await stopServer(server);
    for (const head of heads) {
      // The stream ends cleanly (no reset), before the run finished: a client reconnects to the rest.
      const rest = await head.rest();
      expect(`${head.text}${rest}`).not.toContain('RUN_FINISHED');
    }
    await expect(fetch(`${server.url}/health`)).rejects.toThrow();
  });

  it('continues a run after a restart on the same data directory', async () => {
    const dataDir = await tempDir();
    const input = userInput('t', 'r1');
    const before = await startServer({ dataDir, nonce: () => NONCE });
    const live = await post(before, '/agents/refund?speed=2', input);
    const { text } = await readUntil(live, (t) => t.includes('id: r1:5\n') && t.endsWith('\n\n'));
    // The server dies mid-run.
    await stopServer(before);
    const got = parseFrames(text).filter((f) => f.data !== undefined);
    const lastId = got.at(-1)?.id ?? '';
    const all = expected('refund', input);
    expect(got.length).toBeLessThan(all.length);

    const after = await startServer({ dataDir, nonce: () => NONCE });
    const rest = await readEvents(await post(after, '/agents/refund?speed=0', input, { 'Last-Event-ID': lastId }));
    expect([...got.map((f) => JSON.parse(f.data ?? '') as unknown), ...rest.map((e) => e.event)]).toEqual(all);
    expect([...got.map((f) => f.id), ...rest.map((e) => e.id)]).toEqual(all.map((_, i) => `r1:${i}`));
    // It knows the run (the same request again replays it, it is not a new run) and its open interrupt.
    expect((await readEvents(await post(after, '/agents/refund?speed=0', input))).map((e) => e.event)).toEqual(all);
    await expectError(after, await post(after, '/agents/refund', userInput('t', 'r2', 'hi')), 409, 'RESUME_REQUIRED');
  });

  it('never repeats a side effect after a restart', async () => {
    const dataDir = await tempDir();
    const first = await startServer({ dataDir });
    await firstRun(first, 't', 'r1');
    const resume = approval('t', 'r1', 'r2');
    const live = await post(first, '/agents/refund?speed=2', resume);
    // Killed after the event reporting the refund went out, before the run ends.
    const { text } = await readUntil(live, (t) => t.includes('"TOOL_CALL_RESULT"'));
    expect(text).not.toContain('RUN_FINISHED');
    await stopServer(first);
    expect(first.effects()).toHaveLength(1);

    const second = await startServer({ dataDir });
    expect(second.effects()).toEqual(first.effects());
    // Reconnected from before the refund: the event is sent again, the refund is not made again.
    const rest = await readEvents(await post(second, '/agents/refund?speed=0', resume, { 'Last-Event-ID': 'r2:1' }));
    expect(rest[0]?.event.type).toBe('TOOL_CALL_RESULT');
    expect(rest.at(-1)?.event.type).toBe('RUN_FINISHED');
    await readEvents(await post(second, '/agents/refund?speed=0', approval('t', 'r1', 'r3')));
    expect(await (await fetch(`${second.url}/effects`)).json()).toEqual([expect.objectContaining({ key: approvalId('r1'), runId: 'r2' })]);

    // A third life still remembers: the answer, and the refund made.
    await stopServer(second);
    const third = await startServer({ dataDir });
    await expectError(third, await post(third, '/agents/refund', approval('t', 'r1', 'r4', false)), 409, 'ALREADY_ANSWERED');
    expect(third.effects()).toHaveLength(1);
  });

  it('makes the approved refund when the approver goes before it streams, with no one reconnecting', async () => {
    const server = await startServer({ nonce: () => NONCE });
    await firstRun(server, 't', 'r1');
    const resume = approval('t', 'r1', 'r2');
    const leave = new AbortController();
    const live = await fetch(`${server.url}/agents/refund?speed=20`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(resume),
      signal: leave.signal,
    });
    expect(live.status).toBe(200);
    // The tab closes as the answer is accepted: the thread has taken it, the refund is still to come.
    leave.abort();
    expect(server.effects()).toEqual([]);
    await vi.waitFor(() => expect(server.effects()).toEqual([expect.objectContaining({ key: approvalId('r1'), runId: 'r2' })]), {
      timeout: 5_000,
    });
    // The run went on to its end: a reconnect later gets the rest from the log, stamped as it was produced.
    const rest = await readEvents(await post(server, '/agents/refund?speed=0', resume, { 'Last-Event-ID': 'r2:0' }));
    expect(rest.map((e) => e.event)).toEqual(expected('refund', resume).slice(1));
    await vi.waitFor(async () => expect(await (await fetch(`${server.url}/health`)).json()).toMatchObject({ streams: 0, runs: 0 }));
  });

  it('sends a retry that overlaps the first stream of a run the frames stored, stamps and all', async () => {
    let clock = NOW;
    const server = await startServer({ now: () => clock++ });
    const input = userInput('t', 'r1');
    const first = await post(server, '/agents/refund?speed=5', input);
    const head = await readUntil(first, (t) => t.includes('id: r1:1\n'));
    // The same request again while the first still streams: a client that retried after a drop it only thought it saw.
    const [firstText, retried] = await Promise.all([
      head.rest().then((rest) => head.text + rest),
      post(server, '/agents/refund?speed=5', input).then((r) => r.text()),
    ]);
    const stored = await (await post(server, '/agents/refund?speed=0', input)).text();
    const frames = (text: string) => text.replaceAll(/^: ping\n\n/gm, '');
    expect(frames(retried)).toBe(stored);
    expect(frames(firstText)).toBe(stored);
  });

  it('close() ends the streams it sends and finishes their runs, side effects and logs, before it closes storage', async () => {
    const dataDir = await tempDir();
    const first = await startServer({ dataDir, nonce: () => NONCE });
    await firstRun(first, 't', 'r1');
    const resume = approval('t', 'r1', 'r2');
    const live = await post(first, '/agents/refund?speed=0.1', resume);
    const head = await readUntil(live, (t) => t.includes('id: r2:0\n'));
    expect((await (await fetch(`${first.url}/health`)).json()) as unknown).toMatchObject({ runs: 1, streams: 1 });
    // Paced at a tenth of the speed for its client, the refund would come seconds later: close() makes it now, unpaced.
    await stopServer(first);
    expect(first.effects()).toEqual([expect.objectContaining({ key: approvalId('r1'), runId: 'r2' })]);
    expect(await head.rest()).not.toContain('RUN_FINISHED');

    const second = await startServer({ dataDir, nonce: () => NONCE });
    expect(second.effects()).toEqual(first.effects());
    const rest = await readEvents(await post(second, '/agents/refund?speed=0', resume, { 'Last-Event-ID': 'r2:0' }));
    expect(rest.map((e) => e.event)).toEqual(expected('refund', resume).slice(1));
  });
});
