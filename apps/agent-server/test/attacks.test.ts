/**
 * What an attacker and a failing machine try on the server beyond origins,
 * hosts and body types (security.test.ts): reading another client's run by
 * its run id, an id that forges SSE frames, an answer the interrupt's schema
 * does not allow, a body that never finishes, and a journal of an earlier
 * version with lines no parser expected.
 */
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importJournal } from '../src/journal.js';
import type { AgentServer } from '../src/server.js';
import { openMemoryStorage } from '../src/storage/memory.js';
import { interruptsOf, NOW, parseFrames, post, readEvents, startServer, stopServer, userInput } from './support.js';

describe('a run id is not a key to the run', () => {
  it('a reconnect with a known run id and another input reads nothing: 404, no interrupt id, no thread id', async () => {
    const server = await startServer();
    const mine = await post(server, '/agents/refund?speed=0', userInput('victim-thread', 'victim-run'));
    const [secret] = interruptsOf(await readEvents(mine));
    expect(secret?.id).toBeTruthy();
    const peek = await post(server, '/agents/refund?speed=0', userInput('whatever', 'victim-run', 'x'), {
      'Last-Event-ID': 'victim-run:0',
    });
    const text = await peek.text();
    expect(peek.status).toBe(404);
    expect(JSON.parse(text)).toMatchObject({ error: { code: 'UNKNOWN_RUN' } });
    expect(text).not.toContain(String(secret?.id));
    expect(text).not.toContain('victim-thread');
  });

  it('the client that started the run reconnects with its own input and gets the rest', async () => {
    const server = await startServer();
    const input = userInput('my-thread', 'my-run');
    const all = await readEvents(await post(server, '/agents/refund?speed=0', input));
    const rest = await readEvents(await post(server, '/agents/refund?speed=0', input, { 'Last-Event-ID': String(all[1]?.id) }));
    expect(rest.map((e) => e.id)).toEqual(all.slice(2).map((e) => e.id));
  });
});

describe('ids are text without control characters', () => {
  it.each([
    ['runId', { runId: 'x\n\ndata: {"type":"RUN_ERROR","message":"forged"}\n\nid: y' }],
    ['threadId', { threadId: 't\r\nX-Forged: 1' }],
    ['a message id', { messages: [{ id: 'm\n1', role: 'user', content: 'hi' }] }],
  ])('an id with a line break (%s) is refused with 400 before anything runs', async (_name, change) => {
    const server = await startServer();
    const response = await post(server, '/agents/reasoning?speed=0', { ...userInput('t', 'r'), ...change });
    expect(response.status).toBe(400);
    expect(await response.text()).not.toContain('forged');
    expect(await server.effects()).toEqual([]);
  });

  it.each([
    ['threadId', { threadId: 'ts\ud800' }],
    ['runId', { runId: 'r\udfff' }],
    ['an interrupt id', { resume: [{ interruptId: 'i\udc00', status: 'cancelled' }] }],
  ])('an id with a lone surrogate (%s), which storage and the wire would turn into U+FFFD, is refused with 400', async (_name, change) => {
    const server = await startServer();
    const response = await post(server, '/agents/reasoning?speed=0', { ...userInput('t', 'r'), ...change });
    expect(response.status).toBe(400);
    // An id of emoji (surrogate pairs, well formed) is an ordinary id.
    const emoji = await post(server, '/agents/reasoning?speed=0', userInput('🧵'.repeat(50), '🏃'.repeat(50)));
    expect(emoji.status).toBe(200);
    expect(parseFrames(await emoji.text()).find((f) => f.id)?.id).toBe(`${'🏃'.repeat(50)}:0`);
  });

  it('every id line of a stream is one line', async () => {
    const server = await startServer();
    const response = await post(server, '/agents/reasoning?speed=0', userInput('thread-1', 'run-1'));
    const frames = parseFrames(await response.text()).filter((f) => f.comment === undefined);
    expect(frames.length).toBeGreaterThan(2);
    for (const f of frames) expect(f.id).toMatch(/^run-1:\d+$/);
  });
});

describe("an answer is checked against the interrupt's responseSchema", () => {
  it('an answer the schema does not allow is refused with 422 and starts nothing', async () => {
    const server = await startServer();
    const [ask] = interruptsOf(await readEvents(await post(server, '/agents/clarification?speed=0', userInput('t', 'c1'))));
    const answer = (payload: unknown, runId: string) => ({
      ...userInput('t', runId),
      messages: [],
      resume: [{ interruptId: String(ask?.id), status: 'resolved', payload }],
    });
    const long = await post(server, '/agents/clarification?speed=0', answer('a '.repeat(200_000), 'c2'));
    expect(long.status).toBe(422);
    expect(await long.json()).toMatchObject({ error: { code: 'INVALID_ANSWER' } });
    const odd = await post(server, '/agents/clarification?speed=0', answer({ toString: 1 }, 'c3'));
    expect(odd.status).toBe(422);
    // The interrupt is still open: a valid answer goes through.
    const good = await post(server, '/agents/clarification?speed=0', answer('email', 'c4'));
    expect(good.status).toBe(200);
    expect((await readEvents(good)).at(-1)?.event.type).toBe('RUN_FINISHED');
  });

  it('a cancel carries no answer to check', async () => {
    const server = await startServer();
    const [ask] = interruptsOf(await readEvents(await post(server, '/agents/escalation?speed=0', userInput('t', 'e1'))));
    const cancel = await post(server, '/agents/escalation?speed=0', {
      ...userInput('t', 'e2'),
      messages: [],
      resume: [{ interruptId: String(ask?.id), status: 'cancelled', payload: { decision: { toString: 1 } } }],
    });
    expect(cancel.status).toBe(200);
  });

  it('an escalation decision that is an object, not one of its choices, is a 422, not a 500', async () => {
    const server = await startServer();
    const [ask] = interruptsOf(await readEvents(await post(server, '/agents/escalation?speed=0', userInput('t', 'e1'))));
    const response = await post(server, '/agents/escalation?speed=0', {
      ...userInput('t', 'e2'),
      messages: [],
      resume: [{ interruptId: String(ask?.id), status: 'resolved', payload: { decision: { toString: 1 } } }],
    });
    expect(response.status).toBe(422);
  });
});

describe('a body that never finishes', () => {
  it('is dropped after the request timeout, not held open', async () => {
    const server = await startServer({ requestTimeoutMs: 300 });
    const { hostname, port } = new URL(server.url);
    const socket = connect(Number(port), hostname);
    const closed = new Promise<number>((resolve) => {
      const start = Date.now();
      socket.on('close', () => resolve(Date.now() - start));
    });
    socket.on('error', () => undefined);
    // Read what the server says (its 408): a socket nobody reads never sees the end that follows.
    socket.resume();
    socket.write(
      `POST /agents/reasoning HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"threadId":`,
    );
    const after = await Promise.race([closed, new Promise<number>((r) => setTimeout(() => r(-1), 3_000))]);
    socket.destroy();
    expect(after).toBeGreaterThan(0);
  });
});

describe('runs whose clients leave do not pile up in memory', () => {
  /** Starts a long run of the dashboard with `junkBytes` of padding in its input, and reads it: its client stays. */
  async function startAndRead(server: AgentServer, n: number, junkBytes: number): Promise<number> {
    const input = { ...userInput(`flood-${n}`, `flood-${n}`), forwardedProps: { junk: 'x'.repeat(junkBytes) } };
    const response = await post(server, '/agents/dashboard?speed=0.1', input);
    void response.text().catch(() => undefined);
    return response.status;
  }

  it('past the bytes of input the runs being produced may hold, a new run is refused 503 with Retry-After', async () => {
    const server = await startServer({ maxRunInputBytes: 2_500_000 });
    const taken: number[] = [];
    for (let n = 0; n < 4; n++) taken.push(await startAndRead(server, n, 900_000));
    // Two runs of 0.9 MB hold 1.8 MB: a third would hold 2.7 MB.
    expect(taken).toEqual([200, 200, 503, 503]);
    const refused = await post(server, '/agents/dashboard?speed=0.1', {
      ...userInput('flood-x', 'flood-x'),
      forwardedProps: { junk: 'x'.repeat(900_000) },
    });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/u);
    expect(await refused.json()).toMatchObject({ error: { code: 'TOO_MANY_RUNS' } });
    // A small run still fits beside them.
    const small = await post(server, '/agents/refund?speed=0', userInput('small', 'small'));
    expect(small.status).toBe(200);
    await readEvents(small);
    const health = (await (await fetch(`${server.url}/health`)).json()) as { runs: number };
    expect(health.runs).toBe(2);
  });

  it('retries and reconnects of a run hold their bodies in the same bytes: past them, one more is refused 503; a stream that ends makes room', async () => {
    const server = await startServer({ maxRunInputBytes: 2_500_000 });
    const input = { ...userInput('again', 'again'), forwardedProps: { junk: 'x'.repeat(900_000) } };
    const streams = async () => ((await (await fetch(`${server.url}/health`)).json()) as { streams: number }).streams;
    const first = await post(server, '/agents/dashboard?speed=0.1', input);
    expect(first.status).toBe(200);
    // The same request again streams the run again, and holds its body meanwhile: 1.8 MB with the run's own.
    const retry = await post(server, '/agents/dashboard?speed=0.1', input);
    expect(retry.status).toBe(200);
    const refusals = [
      await post(server, '/agents/dashboard?speed=0.1', input),
      await post(server, '/agents/dashboard?speed=0.1', input, { 'Last-Event-ID': 'again:0' }),
    ];
    for (const refused of refusals) {
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/u);
      expect(await refused.json()).toMatchObject({ error: { code: 'TOO_MANY_RUNS' } });
    }
    expect(await streams()).toBe(2);
    // The retry's client goes: its share is free, and a reconnect takes it.
    await retry.body?.cancel();
    await expect.poll(streams).toBe(1);
    const reconnect = await post(server, '/agents/dashboard?speed=0.1', input, { 'Last-Event-ID': 'again:0' });
    expect(reconnect.status).toBe(200);
    expect((await post(server, '/agents/dashboard?speed=0.1', input)).status).toBe(503);
    await reconnect.body?.cancel();
    await first.body?.cancel();
  });

  it('past the count of runs being produced, a new run is refused the same way; a run that ends makes room', async () => {
    const server = await startServer({ maxRuns: 2 });
    // Runs that end free their room: any number of them, one after another.
    for (let n = 0; n < 4; n++) {
      const quick = await post(server, '/agents/refund?speed=0', userInput(`quick-${n}`, `quick-${n}`));
      expect(quick.status).toBe(200);
      await readEvents(quick);
    }
    await expect.poll(async () => ((await (await fetch(`${server.url}/health`)).json()) as { runs: number }).runs).toBe(0);
    const taken: number[] = [];
    for (let n = 0; n < 4; n++) taken.push(await startAndRead(server, n, 10));
    expect(taken).toEqual([200, 200, 503, 503]);
  });

  it('200 runs started and left (a dropped connection, a closed socket, a client gone before its answer) give their room back at once, each still produced to its end', async () => {
    const storage = openMemoryStorage();
    // The default room: 200 runs at once.
    const server = await startServer({ storage });
    const { hostname, port } = new URL(server.url);
    const runs = (async () => ((await (await fetch(`${server.url}/health`)).json()) as { runs: number }).runs) as () => Promise<number>;
    // Each would play for 1,000 s (100 tokens 10 s apart) to a client that stayed.
    const input = (n: number) => ({ ...userInput(`gone-${n}`, `gone-${n}`), forwardedProps: { tokens: 100, tokenDelayMs: 10_000 } });
    const silent: ReturnType<typeof connect>[] = [];
    /** The request over a socket of its own, which goes once `leave` says so. */
    const raw = (n: number, leave: (socket: ReturnType<typeof connect>, done: () => void) => void) =>
      new Promise<void>((resolve, reject) => {
        const body = JSON.stringify(input(n));
        const socket = connect(Number(port), hostname, () => {
          socket.write(
            `POST /agents/fast-stream HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
          );
          leave(socket, resolve);
        });
        socket.on('error', reject);
      });
    for (let n = 0; n < 200; n++) {
      if (n % 3 === 0) {
        // A fetch whose client drops the connection once the answer's status is in.
        const response = await post(server, '/agents/fast-stream', input(n));
        expect(response.status).toBe(200);
        await response.body?.cancel();
      } else if (n % 3 === 1) {
        // A socket closed once the answer began.
        await raw(n, (socket, done) =>
          socket.once('data', () => {
            socket.destroy();
            done();
          }),
        );
      } else {
        // A socket that sends its request and closes its side at once, never reading what comes.
        await raw(n, (socket, done) => {
          silent.push(socket);
          socket.end(done);
        });
      }
    }
    const left = performance.now();
    // Without a client to pace them for, what is left of them is produced at once: their room is free again.
    await expect.poll(runs, { timeout: 30_000, interval: 100 }).toBe(0);
    console.info(`200 runs left by their clients: all produced and their room free ${Math.round(performance.now() - left)} ms later`);
    const next = await post(server, '/agents/refund?speed=0', userInput('next', 'next'));
    expect(next.status).toBe(200);
    await readEvents(next);
    // Every one was produced to its end, all its events stored.
    for (let n = 0; n < 200; n++) {
      const stored = await storage.events(`gone-${n}`, 0, 1_000);
      expect(stored.at(-1), `gone-${n}`).toContain('"RUN_FINISHED"');
    }
    for (const socket of silent) socket.destroy();
  }, 90_000);

  it('a run keeps its pace and its room while a client still reads it, a reconnect too; once none does, the rest is produced at once', async () => {
    const server = await startServer({ maxRuns: 1 });
    const runs = async () => ((await (await fetch(`${server.url}/health`)).json()) as { runs: number }).runs;
    const input = { ...userInput('paced', 'paced'), forwardedProps: { tokens: 100, tokenDelayMs: 10_000 } };
    const first = await post(server, '/agents/fast-stream', input);
    expect(first.status).toBe(200);
    const reader = (first.body as ReadableStream<Uint8Array>).getReader();
    let text = '';
    while (!text.includes('id: paced:1\n')) text += new TextDecoder().decode((await reader.read()).value);
    // A second client reads the same run from where the first is (a reconnect), then the first leaves.
    const second = await post(server, '/agents/fast-stream', input, { 'Last-Event-ID': 'paced:1' });
    expect(second.status).toBe(200);
    const follower = (second.body as ReadableStream<Uint8Array>).getReader();
    const followed = (async () => {
      let read = '';
      for (;;) {
        const { done, value } = await follower.read().catch(() => ({ done: true, value: undefined }));
        if (done) return read;
        read += new TextDecoder().decode(value);
      }
    })();
    await reader.cancel();
    await new Promise((r) => setTimeout(r, 500));
    // Still read, so still paced: the run holds the one room there is.
    expect(await runs()).toBe(1);
    const refused = await post(server, '/agents/refund?speed=0', userInput('other', 'other'));
    expect(refused.status).toBe(503);
    await refused.body?.cancel();
    // The reconnect's client leaves too: the rest of the run is produced at once, and its room is free.
    await follower.cancel();
    expect(await followed).not.toContain('RUN_FINISHED');
    await expect.poll(runs, { timeout: 10_000 }).toBe(0);
    const taken = await post(server, '/agents/refund?speed=0', userInput('other', 'other'));
    expect(taken.status).toBe(200);
    await readEvents(taken);
  }, 20_000);
});

describe('one client cannot take every run', () => {
  /** POSTs a long dashboard run from `localAddress` (a loopback address of its own: another client) and reads it, paced. */
  function runFrom(
    server: AgentServer,
    localAddress: string,
    n: number,
  ): Promise<{ status: number; retryAfter?: string | undefined; code?: string; leave?: () => void }> {
    const { hostname, port } = new URL(server.url);
    const body = JSON.stringify(userInput(`per-${localAddress}-${n}`, `per-${localAddress}-${n}`));
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: hostname,
          port: Number(port),
          localAddress,
          method: 'POST',
          path: '/agents/dashboard?speed=0.1',
          headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
        },
        (res) => {
          if (res.statusCode === 200) {
            res.resume();
            resolve({ status: 200, leave: () => req.destroy() });
            return;
          }
          let text = '';
          res.on('data', (chunk: Buffer) => {
            text += chunk.toString();
          });
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              retryAfter: res.headers['retry-after'],
              code: (JSON.parse(text) as { error: { code: string } }).error.code,
            }),
          );
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  it('past maxRunsPerAddress runs being produced for one address, its next is refused 429 with Retry-After; another address still runs', async () => {
    const server = await startServer({ maxRuns: 4, maxRunsPerAddress: 2 });
    const mine = [await runFrom(server, '127.0.0.1', 0), await runFrom(server, '127.0.0.1', 1)];
    expect(mine.map((r) => r.status)).toEqual([200, 200]);
    const refused = await runFrom(server, '127.0.0.1', 2);
    expect(refused).toMatchObject({ status: 429, code: 'TOO_MANY_RUNS_FROM_ADDRESS' });
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect((await runFrom(server, '127.0.0.2', 0)).status).toBe(200);
    // One of its clients goes: its run is produced at once, and its room given back to the address.
    mine[0]?.leave?.();
    await expect.poll(async () => (await runFrom(server, '127.0.0.1', 3)).status, { timeout: 5_000, interval: 100 }).toBe(200);
    // Without the option one address takes every run, as before.
    const open = await startServer({ maxRuns: 3 });
    const all = [];
    for (let n = 0; n < 4; n++) all.push((await runFrom(open, '127.0.0.1', n)).status);
    expect(all).toEqual([200, 200, 200, 503]);
  });

  it('refuses a maxRunsPerAddress that is no whole number of 1 or more as the server starts', async () => {
    for (const maxRunsPerAddress of [0, -1, 1.5, Number.NaN])
      await expect(startServer({ maxRunsPerAddress })).rejects.toThrow(/maxRunsPerAddress must be a whole number, 1 or more/);
  });
});

describe('a journal of an earlier version with lines no reader expected', () => {
  it('skips each such line and starts: a resume that is no list, an effect nested 20,000 deep', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aguikit-journal-'));
    const run = (runId: string, extra: Record<string, unknown> = {}) => ({
      type: 'run',
      scenarioId: 'reasoning',
      now: 0,
      input: { threadId: `t-${runId}`, runId, messages: [], tools: [], context: [], ...extra },
    });
    const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    const lines = [
      JSON.stringify(run('good')),
      JSON.stringify(run('odd', { resume: {} })),
      `{"type":"effect","runId":"good","at":0,"effect":{"kind":"refund","key":"k","detail":${deep}}}`,
    ];
    writeFileSync(join(dir, 'journal.jsonl'), `${lines.join('\n')}\n`);
    expect(importJournal(join(dir, 'journal.jsonl')).skipped.map((s) => s.where)).toEqual([
      expect.stringMatching(/:2$/),
      expect.stringMatching(/:3$/),
    ]);
    const server = await startServer({ dataDir: dir });
    const replayed = await post(server, '/agents/reasoning?speed=0', run('good').input);
    expect(replayed.status).toBe(200);
    expect(readdirSync(dir)).not.toContain('journal.jsonl');
  });
});

describe('runs do not pile up in storage until the disk is full', () => {
  it('a run started longer ago than runRetentionMs is dropped with its events: a reconnect to it is a 404, the thread goes on', async () => {
    let clock = NOW;
    const server = await startServer({ runRetentionMs: 60_000, pruneEveryMs: 20, now: () => clock });
    const input = userInput('t', 'old-run');
    const events = await readEvents(await post(server, '/agents/reasoning?speed=0', input));
    const recent = userInput('t', 'recent-run');
    clock += 30_000;
    const recentEvents = await readEvents(await post(server, '/agents/reasoning?speed=0', recent));
    clock += 31_000;
    await new Promise((r) => setTimeout(r, 150));
    const gone = await post(server, '/agents/reasoning?speed=0', input, { 'Last-Event-ID': String(events[0]?.id) });
    expect(gone.status).toBe(404);
    await gone.body?.cancel();
    const kept = await readEvents(
      await post(server, '/agents/reasoning?speed=0', recent, { 'Last-Event-ID': String(recentEvents[0]?.id) }),
    );
    expect(kept.map((e) => e.id)).toEqual(recentEvents.slice(1).map((e) => e.id));
  });

  it('a run still being produced is never pruned, however long it lasts: none of its events is left behind for a run that takes its id', async () => {
    const storage = openMemoryStorage();
    const server = await startServer({ storage, runRetentionMs: 200, pruneEveryMs: 20, now: Date.now });
    // About 1.2 s of tokens: longer than the retention.
    const a = { ...userInput('thread-A', 'shared-run', 'secret of A'), forwardedProps: { tokens: 60, tokenDelayMs: 20 } };
    const eventsA = await readEvents(await post(server, '/agents/fast-stream?speed=1', a));
    expect(eventsA.at(-1)?.event.type).toBe('RUN_FINISHED');
    // Pruned once it ended and aged, with every event of it.
    await new Promise((r) => setTimeout(r, 300));
    expect(await storage.run('shared-run')).toBeUndefined();
    for (let i = 0; i < eventsA.length; i++) expect(await storage.events('shared-run', i, 1)).toEqual([]);
    // Another thread's run under the same id gets its own events only.
    const b = { ...userInput('thread-B', 'shared-run', 'hello from B'), forwardedProps: { tokens: 5, tokenDelayMs: 0 } };
    const eventsB = await readEvents(await post(server, '/agents/fast-stream?speed=0', b));
    expect(eventsB.filter((e) => JSON.stringify(e.event).includes('thread-A'))).toEqual([]);
    await stopServer(server);
  });
});
