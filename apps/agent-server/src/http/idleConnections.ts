import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** The share of `maxConnections` held from which connections idle after an answer are closed to make room. */
export const RECLAIM_FROM = 0.9;

/**
 * Closes connections kept open after an answer (keep-alive) when they would take the places among `maxConnections`
 * that new clients need: once the connections held reach `RECLAIM_FROM` of `maxConnections`, as a connection arrives
 * or an answer ends, the connections idle after an answer are closed, the oldest idle first, until fewer are held. So
 * the connections held reach the cap (and Node refuses the next as it connects) only when none of them is idle.
 * Without that pressure a connection is kept for the keep-alive timeout, as long as a proxy in front of the server
 * expects: one it reuses after the server closed it is a 502 to its client.
 *
 * A connection is idle after an answer from its last response's end until its next request: one whose request is in
 * progress (its body arriving, its answer or stream being written) is never closed, nor one whose next request has
 * begun to arrive, nor one that has sent no request yet (the headers timeout closes that one if it sends nothing).
 */
export function reclaimIdleConnections(server: Server, maxConnections: number): void {
  const mark = Math.max(1, Math.ceil(maxConnections * RECLAIM_FROM));
  /** Every connection open. */
  const held = new Set<Socket>();
  /** The requests in progress on each connection (several when a client pipelines them). */
  const pending = new WeakMap<Socket, number>();
  /** The connections idle after an answer, oldest idle first, with the bytes read from each when its answer ended. */
  const idle = new Map<Socket, number>();

  const reclaim = () => {
    if (held.size < mark) return;
    for (const [socket, bytesRead] of idle) {
      if (held.size < mark) return;
      // Its next request has begun to arrive (Node emits it once its headers are in).
      if (socket.bytesRead !== bytesRead) continue;
      idle.delete(socket);
      held.delete(socket);
      socket.destroy();
    }
  };

  const track = (socket: Socket, response: ServerResponse) => {
    pending.set(socket, (pending.get(socket) ?? 0) + 1);
    idle.delete(socket);
    let done = false;
    const end = () => {
      if (done) return;
      done = true;
      const left = (pending.get(socket) ?? 1) - 1;
      pending.set(socket, left);
      // A response closed before its end is a connection lost, or about to be.
      if (left > 0 || !response.writableFinished || socket.destroyed || socket.writableEnded || !held.has(socket)) return;
      idle.set(socket, socket.bytesRead);
      reclaim();
    };
    response.once('finish', end);
    response.once('close', end);
  };

  server.on('connection', (socket: Socket) => {
    held.add(socket);
    socket.once('close', () => {
      held.delete(socket);
      idle.delete(socket);
    });
    reclaim();
  });
  server.on('request', (request, response) => track(request.socket, response));
  // A request whose Expect the server cannot meet is answered without a 'request' event.
  server.on('checkExpectation', (request, response) => track(request.socket, response));
}
