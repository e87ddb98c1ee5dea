import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';

/** The HTTP parser's refusals (before any route or hook): the status, and the error in the server's shape. */
function clientError(code: string | undefined): [number, string, string] {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return [408, 'REQUEST_TIMEOUT', 'The request did not arrive in time: send its headers and body at once.'];
  if (code === 'HPE_HEADER_OVERFLOW') return [431, 'HEADERS_TOO_LARGE', 'The request line and headers are too large.'];
  return [400, 'MALFORMED_REQUEST', 'The request is not well-formed HTTP/1.1.'];
}

/**
 * What Node's HTTP parser refuses, answered in the server's error shape;
 * the connection closes (what follows is not read). Bytes that are no
 * request after a whole one (pipelined, or written into a stream under way)
 * are no reason to answer that one with a 400: it gets its own answer, whole,
 * and then the connection closes. Answers are written to the socket only
 * where no answer is under way on it.
 */
export function clientErrors() {
  /** The request each connection is being answered for, from its headers until its answer is sent. */
  const answering = new WeakMap<Socket, { request: IncomingMessage; reply: ServerResponse }>();
  const closing = new WeakSet<Socket>();
  return {
    /** Called as a request's headers arrive (an onRequest hook). */
    started(request: IncomingMessage, reply: ServerResponse): void {
      const socket = request.socket;
      answering.set(socket, { request, reply });
      reply.once('close', () => {
        if (answering.get(socket)?.reply === reply) answering.delete(socket);
      });
    },
    /** Fastify's clientErrorHandler. */
    handler(error: Error, socket: Socket): void {
      if ((error as NodeJS.ErrnoException).code === 'ECONNRESET' || socket.destroyed || closing.has(socket)) return;
      const current = answering.get(socket);
      if (current?.request.complete && !current.reply.writableFinished) {
        // The refused bytes come after a whole request: it is answered, then the connection closes.
        closing.add(socket);
        current.reply.once('close', () => socket.destroy());
        return;
      }
      const [status, code, message] = clientError((error as NodeJS.ErrnoException).code);
      const body = JSON.stringify({ error: { code, message } });
      if (socket.writable && !current?.reply.headersSent)
        socket.write(
          `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
        );
      socket.destroy(error);
    },
  };
}
