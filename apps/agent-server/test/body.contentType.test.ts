/**
 * A request with two `Content-Type` lines: Node keeps the first, a proxy in
 * front may keep the last or join them, so two hops could read one body as
 * two types (one checking a form, the other running JSON). Refused 400 before
 * its body is read, whatever the values.
 */
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { AgentServer } from '../src/server.js';
import { post, readEvents, startServer, userInput } from './support.js';

/** Sends a raw HTTP/1.1 request with `headerLines` as written, and answers the status line's code, the body, and whether the server closed. */
function send(
  server: AgentServer,
  headerLines: string[],
  body: string,
  requestLine = 'POST /agents/refund?speed=0 HTTP/1.1',
): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', rest = ''] = text.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), body: rest });
    });
    const head = [
      requestLine,
      `Host: ${hostname}:${port}`,
      ...headerLines,
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Connection: close',
    ];
    socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
  });
}

describe('a request with two Content-Type headers', () => {
  it('is refused with 400 MALFORMED_CONTENT_TYPE, whatever their order or values, and starts nothing', async () => {
    const server = await startServer();
    const body = JSON.stringify(userInput('t', 'r1'));
    for (const lines of [
      ['Content-Type: application/json', 'Content-Type: text/plain'],
      ['Content-Type: text/plain', 'Content-Type: application/json'],
      ['Content-Type: application/json', 'content-type: application/json'],
    ]) {
      const response = await send(server, lines, body);
      expect(response.status, lines.join(' + ')).toBe(400);
      expect(JSON.parse(response.body)).toMatchObject({ error: { code: 'MALFORMED_CONTENT_TYPE' } });
    }
    // None began the run: a reconnect to it is told it is unknown.
    const reconnect = await post(server, '/agents/refund?speed=0', userInput('t', 'r1'), { 'Last-Event-ID': 'r1:0' });
    expect(reconnect.status).toBe(404);
    await reconnect.body?.cancel();
    // One Content-Type line is taken.
    const one = await send(server, ['Content-Type: application/json'], body);
    expect(one.status).toBe(200);
    expect(one.body).toContain('RUN_FINISHED');
    expect((await readEvents(await post(server, '/agents/refund?speed=0', userInput('t', 'r1')))).at(-1)?.event.type).toBe('RUN_FINISHED');
  });

  it('is refused only when the request has a body: a GET or HEAD without one is answered as without the header', async () => {
    const server = await startServer();
    const lines = ['Content-Type: application/json', 'Content-Type: text/plain'];
    for (const requestLine of ['GET /agents HTTP/1.1', 'HEAD /agents HTTP/1.1', 'GET /health HTTP/1.1', 'GET /effects HTTP/1.1']) {
      const response = await send(server, lines, '', requestLine);
      expect(response.status, requestLine).toBe(200);
    }
    // A body-less POST is refused as before: its method takes a body, and the body it sends is empty.
    expect((await send(server, lines, '')).status).toBe(400);
  });
});
