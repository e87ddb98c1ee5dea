/**
 * A request whose body trickles in (a slow upload) holds no room among the
 * runs being produced while it arrives: room is reserved once its body is
 * read and parsed, so it cannot hold back the runs of complete requests.
 */
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentServer } from '../src/server.js';
import { post, readEvents, startServer, userInput } from './support.js';

const sockets: Socket[] = [];
afterEach(() => {
  for (const s of sockets.splice(0)) s.destroy();
});

const health = async (server: AgentServer) => (await (await fetch(`${server.url}/health`)).json()) as { streams: number; runs: number };

/** A POST whose headers and first half of the body are sent at once; `more()` sends one more byte, `rest()` the rest. */
async function slowUpload(server: AgentServer, body: string) {
  const { hostname, port } = new URL(server.url);
  const socket = connect(Number(port), hostname);
  sockets.push(socket);
  let answer = '';
  socket.on('data', (chunk: Buffer) => {
    answer += chunk.toString('utf8');
  });
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const bytes = Buffer.from(body);
  let sent = Math.floor(bytes.length / 2);
  socket.write(
    `POST /agents/refund?speed=0 HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\nContent-Length: ${bytes.length}\r\nConnection: close\r\n\r\n`,
  );
  socket.write(bytes.subarray(0, sent));
  return {
    answer: () => answer,
    closed,
    more() {
      if (sent < bytes.length - 1) socket.write(bytes.subarray(sent, ++sent));
    },
    rest() {
      socket.write(bytes.subarray(sent));
    },
  };
}

describe('a request whose body arrives slowly', () => {
  it('holds no room while its body trickles in: with maxRuns 1, a complete request runs as soon as the run before it ends', async () => {
    const server = await startServer({ maxRuns: 1 });
    // The first run holds the one room there is for about 2 s: 10 tokens 200 ms apart, read by its client.
    const first = await post(server, '/agents/fast-stream', {
      ...userInput('t1', 'r1'),
      forwardedProps: { tokens: 10, tokenDelayMs: 200 },
    });
    expect(first.status).toBe(200);
    const slow = await slowUpload(server, JSON.stringify(userInput('t2', 'r2')));
    const trickle = setInterval(() => slow.more(), 100);
    try {
      // While the first run is produced, there is no room (a request's run is refused, never queued).
      const early = await post(server, '/agents/refund?speed=0', userInput('t3', 'r3-early'));
      expect(early.status).toBe(503);
      expect(await early.json()).toMatchObject({ error: { code: 'TOO_MANY_RUNS' } });
      expect((await readEvents(first)).at(-1)?.event.type).toBe('RUN_FINISHED');
      await expect.poll(async () => (await health(server)).runs).toBe(0);
      // The first run ended: a complete request runs at once, though the slow body is still arriving.
      const third = await post(server, '/agents/refund?speed=0', userInput('t3', 'r3'));
      expect(third.status).toBe(200);
      expect((await readEvents(third)).at(-1)?.event.type).toBe('RUN_FINISHED');
      expect(slow.answer()).toBe('');
    } finally {
      clearInterval(trickle);
    }
    // Its body whole at last, the slow request is taken as any other.
    slow.rest();
    await slow.closed;
    expect(slow.answer()).toMatch(/^HTTP\/1\.1 200 /u);
    expect(slow.answer()).toContain('"RUN_FINISHED"');
  }, 30_000);
});
