/**
 * A real HTTP server on the loopback interface for transport tests: each
 * test writes the response bytes itself, so the framing the client sees is
 * exactly the one under test. Call `closeServers` after each test.
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** Resolves when the response closes: true when it was cut before the server ended it. */
  closed: Promise<boolean>;
}

export type Handler = (res: ServerResponse, req: Received, index: number) => void | Promise<void>;

const servers: Server[] = [];

/** Closes every server `serve` started, cutting what they still hold open. */
export async function closeServers(): Promise<void> {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** Starts a server whose every request `handler` answers (with the request, and its number from 0). */
export async function serve(handler: Handler): Promise<{ url: string; requests: Received[] }> {
  const requests: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const closed = new Promise<boolean>((resolve) => res.once('close', () => resolve(!res.writableEnded)));
      const received: Received = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        closed,
      };
      requests.push(received);
      // Every write leaves as its own segment, so chunk boundaries reach the client as written.
      res.socket?.setNoDelay(true);
      Promise.resolve(handler(res, received, requests.length - 1)).catch(() => res.destroy());
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/agent`, requests };
}
