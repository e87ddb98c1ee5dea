/**
 * Connections kept open after an answer: kept for the client's next request as long as a proxy in front of the
 * server expects (a proxy that reuses one the server is closing answers its client 502), and closed, the oldest idle
 * first, once they would take the places among `maxConnections` that new clients need.
 */
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentServer } from '../src/server.js';
import { startServer, userInput } from './support.js';

const sockets: Socket[] = [];
afterEach(() => {
  for (const s of sockets.splice(0)) s.destroy();
});

/** A raw TCP connection to the server, closed after the test; `gone` tells when it closes. */
async function socketTo(server: AgentServer): Promise<Socket & { gone: Promise<number> }> {
  const socket = connect(Number(new URL(server.url).port), '127.0.0.1');
  sockets.push(socket);
  socket.on('error', () => undefined);
  const gone = new Promise<number>((resolve) => socket.once('close', () => resolve(performance.now())));
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return Object.assign(socket, { gone });
}

/** Reads what the server sends on `socket` into `text` (read at any time). */
function reading(socket: Socket): { text: string } {
  const read = { text: '' };
  socket.on('data', (chunk: Buffer) => {
    read.text += chunk.toString('utf8');
  });
  return read;
}

/** A keep-alive GET of `/health` on `socket`, resolved with its whole answer (its status line, its headers, its body). */
function ask(server: AgentServer, socket: Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: (\d+)\r\n/iu.exec(text.slice(0, end + 2));
      if (end >= 0 && length && text.length >= end + 4 + Number(length[1])) {
        socket.off('data', onData);
        socket.off('close', onClose);
        resolve(text);
      }
    };
    const onClose = () => reject(new Error(`the connection was closed before its answer (read: ${JSON.stringify(text)})`));
    socket.on('data', onData);
    socket.once('close', onClose);
    socket.write(`GET /health HTTP/1.1\r\nHost: ${new URL(server.url).host}\r\n\r\n`);
  });
}

const STATUS_200 = /^HTTP\/1\.1 200 /u;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('connections idle after an answer', () => {
  it('with keepAliveTimeoutMs at its default, three clients that keep their connections after one request each, holding every place among maxConnections: 3, do not stop an honest client: it is served within a second, the oldest idle closed first', async () => {
    const server = await startServer({ maxConnections: 3 });
    const kept = [];
    for (let n = 0; n < 3; n++) {
      const socket = await socketTo(server);
      expect(await ask(server, socket)).toMatch(STATUS_200);
      kept.push(socket);
    }
    const started = performance.now();
    const response = await fetch(`${server.url}/health`, { signal: AbortSignal.timeout(1_000) });
    expect(response.status).toBe(200);
    expect(performance.now() - started).toBeLessThan(1_000);
    // The oldest were closed to make room, the newest kept: it is answered again on its connection.
    expect(kept[0]?.destroyed).toBe(true);
    expect(await ask(server, kept[2] as Socket)).toMatch(STATUS_200);
  });

  it('a proxy that reuses its connection after 10 s idle (twice the keep-alive Node gives by default), with no pressure on maxConnections, gets its answer on that connection', async () => {
    const server = await startServer();
    const proxy = await socketTo(server);
    expect(await ask(server, proxy)).toMatch(STATUS_200);
    await sleep(10_000);
    expect(proxy.destroyed).toBe(false);
    expect(await ask(server, proxy)).toMatch(STATUS_200);
  }, 20_000);

  it('closes under pressure only the connection idle after its answer: never a stream in progress, a request whose body is arriving, one whose next request has begun, or the new connection itself', async () => {
    const server = await startServer({ maxConnections: 5 });
    const { host } = new URL(server.url);
    const post = (path: string, length: number) =>
      `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;
    // A run streamed slowly: its SSE stream stays open for seconds.
    const stream = await socketTo(server);
    const streamed = reading(stream);
    const runBody = JSON.stringify(userInput('t-stream', 'r-stream'));
    stream.write(`${post('/agents/dashboard?speed=0.1', Buffer.byteLength(runBody))}${runBody}`);
    await expect.poll(() => streamed.text, { timeout: 5_000 }).toMatch(/^HTTP\/1\.1 200 .*\r\n\r\n.*data: /su);
    // A request whose body is arriving: half of it sent.
    const uploading = await socketTo(server);
    const uploaded = reading(uploading);
    const body = JSON.stringify(userInput('t-body', 'r-body'));
    const half = Math.floor(body.length / 2);
    uploading.write(`${post('/agents/refund?speed=0', Buffer.byteLength(body))}${body.slice(0, half)}`);
    // One answered, kept idle.
    const idle = await socketTo(server);
    expect(await ask(server, idle)).toMatch(STATUS_200);
    // One answered whose next request has begun to arrive: its first headers sent.
    const asking = await socketTo(server);
    expect(await ask(server, asking)).toMatch(STATUS_200);
    const asked = reading(asking);
    asking.write(`GET /health HTTP/1.1\r\nHost: ${host}\r\n`);
    await sleep(100);
    const before = streamed.text.length;

    // A new connection takes the last place: the idle one is closed for the next, and nothing else.
    const arrived = performance.now();
    const fresh = await socketTo(server);
    expect((await Promise.race([idle.gone, sleep(1_000).then(() => Number.NaN)])) - arrived).toBeLessThan(1_000);
    const next = await socketTo(server);
    // No connection idle after an answer is left: one more is refused as it connects, and closes none of the others.
    const refused = await socketTo(server);
    expect(await Promise.race([refused.gone.then(() => 'closed'), sleep(1_000).then(() => 'open')])).toBe('closed');
    await sleep(500);
    for (const socket of [stream, uploading, asking, fresh, next]) expect(socket.destroyed).toBe(false);

    // The stream goes on, the upload is taken and answered, the new connections are served.
    await expect.poll(() => streamed.text.length, { timeout: 5_000 }).toBeGreaterThan(before);
    uploading.write(body.slice(half));
    await expect.poll(() => uploaded.text, { timeout: 5_000 }).toMatch(STATUS_200);
    asking.write('\r\n');
    await expect.poll(() => asked.text, { timeout: 5_000 }).toMatch(STATUS_200);
    expect(await ask(server, fresh)).toMatch(STATUS_200);
    expect(await ask(server, next)).toMatch(STATUS_200);
  }, 20_000);
});
