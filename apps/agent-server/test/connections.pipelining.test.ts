/**
 * A client that pipelines requests and never reads the answers: the server stops taking its requests once a bounded
 * amount of answers waits for it, and closes its connection, rather than answering millions into memory while every
 * other client waits.
 */
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startServer } from './support.js';

describe('pipelined requests whose answers are never read', () => {
  it('close the connection once answers pile up unread; another client is answered meanwhile', async () => {
    const server = await startServer();
    const { port, host } = new URL(server.url);
    const socket = connect(Number(port), '127.0.0.1');
    socket.on('error', () => {});
    await new Promise((resolve) => socket.once('connect', resolve));
    // Never read: the answers stay with the server (and the kernel's buffers).
    socket.pause();
    const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(performance.now())));
    const started = performance.now();
    const chunk = `GET /health HTTP/1.1\r\nHost: ${host}\r\n\r\n`.repeat(2_000);
    for (let i = 0; i < 150; i++) socket.write(chunk);
    let worst = 0;
    let done = false;
    void closed.then(() => {
      done = true;
    });
    const until = performance.now() + 20_000;
    while (!done && performance.now() < until) {
      const at = performance.now();
      await (await fetch(`${server.url}/health`)).text();
      worst = Math.max(worst, performance.now() - at);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(done).toBe(true);
    console.log(`closed after ${((await closed) - started).toFixed(0)} ms; the longest /health meanwhile ${worst.toFixed(0)} ms`);
    expect((await closed) - started).toBeLessThan(15_000);
    expect(worst).toBeLessThan(3_000);
    socket.destroy();
  }, 60_000);

  it('answers a client that pipelines a few requests and reads them, each in order', async () => {
    const server = await startServer();
    const { port, host } = new URL(server.url);
    const socket = connect(Number(port), '127.0.0.1');
    let text = '';
    socket.on('data', (d: Buffer) => {
      text += d.toString('latin1');
    });
    socket.write(
      `${`GET /health HTTP/1.1\r\nHost: ${host}\r\n\r\n`.repeat(20)}GET /nowhere HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
    );
    await new Promise((resolve) => socket.once('close', resolve));
    expect(text.match(/HTTP\/1\.1 \d+/g)).toEqual([...Array.from({ length: 20 }, () => 'HTTP/1.1 200'), 'HTTP/1.1 404']);
  });
});
