/**
 * An answer from `GET /effects` too large for the network's buffers is written
 * only as fast as its client takes it. A client that stops taking it (or a
 * window that stays shut) is dropped after `drainTimeoutMs`, as an SSE stream's
 * is (within twice the timeout: Node's socket timeout): it would otherwise
 * hold its connection, one of `maxConnections`, for as long as it stayed
 * connected. A client that keeps reading, however slowly, is kept.
 */
import { connect, type Socket } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import type { AgentServer } from '../src/server.js';
import { openMemoryStorage } from '../src/storage/memory.js';
import { effectRecord } from './storageContract.js';
import { NOW, startServer, userInput } from './support.js';

/** A server whose storage holds `count` effects of about 12 KB each: 1,000 of them (a page) are more than loopback's buffers hold. */
async function serverWithEffects(count: number, options: { drainTimeoutMs: number; maxConnections?: number }): Promise<AgentServer> {
  const storage = openMemoryStorage({ maxRecordBytes: 512 * 1024 * 1024 });
  for (let n = 0; n < count; n++)
    await storage.performEffect(effectRecord(`action-${n}`, { at: NOW - 60_000 + n, detail: { note: `${n}`.padEnd(12_000, '.') } }));
  return startServer({ storage, runRetentionMs: 0, ...options });
}

/** A client that sends `GET path` and reads nothing of the answer once its first bytes are in. */
async function stalledReader(server: AgentServer, path: string): Promise<{ socket: Socket; closed: () => boolean }> {
  const { port } = new URL(server.url);
  const socket = connect(Number(port), '127.0.0.1');
  let closed = false;
  socket.on('close', () => {
    closed = true;
  });
  socket.on('error', () => {});
  await new Promise<void>((resolve) => {
    socket.once('data', () => resolve());
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
  });
  socket.pause();
  return { socket, closed: () => closed };
}

describe('a client that stops reading an answer of effects', () => {
  for (const path of ['/effects', '/effects?limit=1000']) {
    it(`is dropped after the drain timeout (${path}), and its connection is free for another client`, async () => {
      const server = await serverWithEffects(2_000, { drainTimeoutMs: 400, maxConnections: 1 });
      const started = performance.now();
      const reader = await stalledReader(server, path);
      // The only connection the server takes is free again once the reader is dropped (until then a new one is closed
      // as it connects, and its client waits on it: hence the time each try is given).
      await vi.waitFor(async () => expect((await fetch(`${server.url}/health`, { signal: AbortSignal.timeout(500) })).status).toBe(200), {
        timeout: 10_000,
        interval: 100,
      });
      expect(performance.now() - started).toBeGreaterThanOrEqual(350);
      // The reader, reading again, finds its connection closed before its answer's end.
      reader.socket.resume();
      await vi.waitFor(() => expect(reader.closed()).toBe(true), { timeout: 5_000, interval: 50 });
    }, 30_000);
  }

  it('keeps a client that reads slowly, pausing for less than the drain timeout: it gets every effect', async () => {
    const server = await serverWithEffects(1_500, { drainTimeoutMs: 400 });
    const { port } = new URL(server.url);
    const socket = connect(Number(port), '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      // A pause of 150 ms after every 2 MB.
      if (chunks.reduce((n, c) => n + c.length, 0) % (2 * 1024 * 1024) < chunk.length) {
        socket.pause();
        setTimeout(() => socket.resume(), 150);
      }
    });
    const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write(`GET /effects HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
    await ended;
    const text = Buffer.concat(chunks).toString('utf8');
    const body = text.slice(text.indexOf('\r\n\r\n') + 4);
    const chunked = /transfer-encoding: chunked/iu.test(text.slice(0, text.indexOf('\r\n\r\n')));
    const effects = JSON.parse(chunked ? unchunk(body) : body) as unknown[];
    expect(effects).toHaveLength(1_500);
  }, 30_000);
});

describe('the drain timeout of an answer of effects ends with it', () => {
  it('does not cut a stream the client asked for behind it on the same connection (pipelined) while the run is quiet', async () => {
    // Events every 200 ms at this speed, a heartbeat far later: quiet for longer than the drain timeout between events.
    const server = await startServer({ drainTimeoutMs: 150, stallTimeoutMs: 100, heartbeatMs: 5_000, runRetentionMs: 0 });
    const { port } = new URL(server.url);
    const socket = connect(Number(port), '127.0.0.1');
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
    });
    socket.on('error', () => {});
    let open = true;
    const closed = new Promise<void>((resolve) =>
      socket.on('close', () => {
        open = false;
        resolve();
      }),
    );
    const host = `Host: 127.0.0.1:${port}\r\n`;
    const body = JSON.stringify(userInput('thread-pipelined', 'run-pipelined'));
    socket.write(
      `GET /effects?limit=1 HTTP/1.1\r\n${host}\r\n` +
        `POST /agents/dashboard?speed=0.1 HTTP/1.1\r\n${host}Content-Type: application/json\r\nAccept: text/event-stream\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    try {
      // Six events, 200 ms apart: five pauses longer than the drain timeout.
      await vi.waitFor(() => expect(text.includes('id: run-pipelined:5\n') || !open).toBe(true), { timeout: 15_000, interval: 50 });
      expect(text).toContain('id: run-pipelined:5\n');
      expect(text.indexOf('{"effects":[]')).toBeGreaterThan(0);
      expect(text.indexOf('{"effects":[]')).toBeLessThan(text.indexOf('"RUN_STARTED"'));
    } finally {
      socket.destroy();
      await closed;
    }
  }, 30_000);
});

/** The body of a chunked transfer. */
function unchunk(body: string): string {
  let out = '';
  let at = 0;
  const bytes = Buffer.from(body, 'utf8');
  for (;;) {
    const lineEnd = bytes.indexOf('\r\n', at);
    const size = Number.parseInt(bytes.subarray(at, lineEnd).toString('latin1'), 16);
    if (!(size > 0)) return out;
    out += bytes.subarray(lineEnd + 2, lineEnd + 2 + size).toString('utf8');
    at = lineEnd + 2 + size + 2;
  }
}
