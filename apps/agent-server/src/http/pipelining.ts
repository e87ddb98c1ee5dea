import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * The most requests one connection may have waiting for their answers to be sent (its client pipelining them) as it
 * sends another. Node answers pipelined requests in order, each queued in memory behind the one before, and keeps
 * reading more while the first answer waits for a client that does not read it: a few megabytes of pipelined
 * `GET /health` had held the event loop for a minute and a third of a gigabyte of heap, every other client waiting.
 */
export const MAX_PIPELINED = 100;

/**
 * Closes a connection whose client sends a request while `MAX_PIPELINED` of its earlier requests still wait for their
 * answers to be written (a browser sends one at a time; a client that pipelines stays under it only while it sends at
 * most `MAX_PIPELINED` before reading: more written at once, all of them read, are all refused with the connection).
 */
export function boundPipelining(server: Server): void {
  const waiting = new WeakMap<Socket, number>();
  const track = (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    const count = (waiting.get(socket) ?? 0) + 1;
    waiting.set(socket, count);
    let done = false;
    const end = () => {
      if (done) return;
      done = true;
      waiting.set(socket, (waiting.get(socket) ?? 1) - 1);
    };
    response.once('finish', end);
    response.once('close', end);
    if (count > MAX_PIPELINED && !socket.destroyed) socket.destroy();
  };
  server.prependListener('request', track);
  server.prependListener('checkExpectation', track);
}
