/**
 * Who reads a run, and what that holds: a client that stops reading no longer
 * holds its run (its room among the runs being produced) long before it is
 * dropped, and a client that comes back reads what it missed at once and the
 * rest at the run's pace.
 */
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AgentServer } from '../src/server.js';
import { post, startServer, userInput } from './support.js';

const sockets: Socket[] = [];
afterEach(() => {
  for (const s of sockets.splice(0)) s.destroy();
});

const health = async (server: AgentServer) =>
  (await (await fetch(`${server.url}/health`)).json()) as { ok: boolean; streams: number; bufferedBytes: number; runs: number };

/** The SSE ids of a text, as indexes of run `runId`. */
const indexes = (text: string, runId: string) => [...text.matchAll(new RegExp(`^id: ${runId}:(\\d+)$`, 'gmu'))].map((m) => Number(m[1]));

/** `text` holds every event of the 100,000-token run `runId` once, in order, to its RUN_FINISHED. */
function expectWholeRun(text: string, runId: string) {
  const ids = indexes(text, runId);
  expect(ids.length).toBeGreaterThan(100_000);
  expect(ids.every((id, i) => id === i)).toBe(true);
  expect(text.slice(text.lastIndexOf(`id: ${runId}:`))).toMatch(/"type":"RUN_FINISHED"/u);
}

/**
 * A run of 100,000 tokens (about 13 MB of events, three times what the kernel's buffers on loopback take) asked
 * for on a raw connection that stops reading once its answer begins; what it is sent piles up in `text`.
 * `junkBytes`: padding in its input, the bytes its body holds among the runs being produced.
 */
async function stalledClient(server: AgentServer, speed: number, tokenDelayMs: number, junkBytes = 0) {
  const socket = connect(Number(new URL(server.url).port), '127.0.0.1');
  sockets.push(socket);
  const client = { socket, text: '', closed: new Promise<void>((resolve) => socket.on('close', () => resolve())) };
  socket.on('data', (chunk: Buffer) => {
    client.text += chunk.toString('utf8');
  });
  socket.on('error', () => {});
  const body = JSON.stringify({
    ...userInput('t', 'r1'),
    forwardedProps: { tokens: 100_000, tokenDelayMs, ...(junkBytes > 0 ? { junk: 'x'.repeat(junkBytes) } : {}) },
  });
  await new Promise<void>((resolve) => {
    socket.once('data', () => resolve());
    socket.write(
      `POST /agents/fast-stream?speed=${speed} HTTP/1.1\r\nHost: ${new URL(server.url).host}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  // The client stops reading: the buffers fill, and its stream stops draining.
  socket.pause();
  return client;
}

describe('a client that stops reading', () => {
  it('no longer holds its run once its stream has not drained for stallTimeoutMs: the run is produced and its room freed long before the drain timeout, and the client, reading again, gets all of it', async () => {
    // One run at a time; the drain timeout is the default 30 s.
    const server = await startServer({ maxRuns: 1, stallTimeoutMs: 300, knobLimits: { tokens: 100_000 } });
    const client = await stalledClient(server, 0, 0);
    const { socket } = client;
    await vi.waitFor(async () => expect((await health(server)).runs).toBe(0), { timeout: 15_000, interval: 100 });
    // Its connection is not cut: a client that reads again gets the rest.
    expect((await health(server)).streams).toBe(1);
    // The room is free: another run is taken.
    const other = await post(server, '/agents/refund?speed=0', userInput('t2', 'r2'));
    expect(other.status).toBe(200);
    expect(await other.text()).toMatch(/RUN_FINISHED/u);
    socket.resume();
    await client.closed;
    expectWholeRun(client.text, 'r1');
  }, 60_000);

  it('no longer holds back a paced run: what is left of it is produced at once, as for a client that went', async () => {
    const server = await startServer({ stallTimeoutMs: 300, knobLimits: { tokens: 100_000 } });
    // 0.2 ms a token: 20 s of run, which a run paced for its client cannot finish in less.
    const client = await stalledClient(server, 1, 0.2);
    const started = performance.now();
    await vi.waitFor(async () => expect((await health(server)).runs).toBe(0), { timeout: 40_000, interval: 100 });
    expect(performance.now() - started).toBeLessThan(18_000);
    expect((await health(server)).streams).toBe(1);
    client.socket.destroy();
  }, 60_000);

  it('holds its request’s body once, not twice, as it falls behind and reads the rest from the log: with the body over half of maxRunInputBytes it is not dropped, and gets every event once', async () => {
    const server = await startServer({ maxRunInputBytes: 1_000_000, stallTimeoutMs: 300, knobLimits: { tokens: 100_000 } });
    // 0.6 MB of 1 MB: the run holds it while it is produced, and its client holds it on as it reads the rest.
    const client = await stalledClient(server, 0, 0, 600_000);
    const { socket } = client;
    await vi.waitFor(async () => expect((await health(server)).runs).toBe(0), { timeout: 15_000, interval: 100 });
    // Its connection is not cut, and its body is still held: another 0.6 MB would make 1.2 MB.
    expect((await health(server)).streams).toBe(1);
    const refused = await post(server, '/agents/refund?speed=0', {
      ...userInput('t2', 'r2'),
      forwardedProps: { junk: 'x'.repeat(600_000) },
    });
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({ error: { code: 'TOO_MANY_RUNS' } });
    socket.resume();
    await client.closed;
    expectWholeRun(client.text, 'r1');
    // Its stream ended: its body is no longer held, and held by nothing else either (one 0.6 MB run is taken, a
    // second beside it is not).
    await vi.waitFor(async () => expect((await health(server)).streams).toBe(0), { timeout: 5_000, interval: 50 });
    const big = (n: number) => ({ ...userInput(`t${n}`, `r${n}`), forwardedProps: { junk: 'x'.repeat(600_000) } });
    const taken = await post(server, '/agents/dashboard?speed=0.1', big(3));
    expect(taken.status).toBe(200);
    expect((await post(server, '/agents/dashboard?speed=0.1', big(4))).status).toBe(503);
    await taken.body?.cancel();
  }, 60_000);
});

describe('a client that comes back', () => {
  it('after a drop reads what it missed at once, then the rest at the run’s pace, while the run, read by no one meanwhile, was produced at once', async () => {
    const server = await startServer();
    // 40 tokens 100 ms apart: the last event is due 4 s after the run starts.
    const input = { ...userInput('t', 'r1'), forwardedProps: { tokens: 40, tokenDelayMs: 100 } };
    const started = performance.now();
    const first = await post(server, '/agents/fast-stream?speed=1', input);
    const reader = (first.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let seen = '';
    while (!/^id: r1:2\n[^\n]*\n\n/mu.test(seen)) seen += decoder.decode((await reader.read()).value, { stream: true });
    await reader.cancel();
    // No one reads the run: what is left of it is produced at once, its room free.
    await vi.waitFor(async () => expect((await health(server)).runs).toBe(0), { timeout: 10_000, interval: 20 });
    const last = Math.max(...indexes(seen.slice(0, seen.lastIndexOf('\n\n')), 'r1'));
    // Away until 3 s into the run: the events up to the 25th token (due by 2.5 s) are what it missed.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, started + 3_000 - performance.now())));
    const again = await post(server, '/agents/fast-stream?speed=1', input, { 'Last-Event-ID': `r1:${last}` });
    expect(again.status).toBe(200);
    const arrivals: { index: number; at: number }[] = [];
    const more = (again.body as ReadableStream<Uint8Array>).getReader();
    let rest = '';
    for (let chunk = await more.read(); !chunk.done; chunk = await more.read()) {
      // The frames this chunk completed: from the end of the last whole frame to the end of the last one now.
      const whole = rest.lastIndexOf('\n\n');
      const before = whole < 0 ? 0 : whole + 2;
      rest += decoder.decode(chunk.value, { stream: true });
      const at = performance.now();
      for (const index of indexes(rest.slice(before, rest.lastIndexOf('\n\n') + 2), 'r1')) arrivals.push({ index, at });
    }
    expect(arrivals.map((a) => a.index)).toEqual(Array.from({ length: arrivals.length }, (_, i) => last + 1 + i));
    expect(rest).toMatch(/"type":"RUN_FINISHED"/u);
    const firstAt = arrivals[0]?.at ?? 0;
    // What it missed comes at once (paced, it would take more than 2 s)...
    const missed = arrivals.filter((a) => a.index <= 26);
    expect(Math.max(...missed.map((a) => a.at)) - firstAt).toBeLessThan(1_000);
    // ...the rest when it is due: the run's last event not before 4 s into the run.
    expect((arrivals.at(-1)?.at ?? 0) - started).toBeGreaterThan(3_900);
  }, 30_000);
});
