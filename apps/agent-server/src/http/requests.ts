/**
 * How the agent server reads a request before a route handles it, and how it
 * refuses one: the resource a target names and the methods it takes, the
 * body codings and types it reads, the answers to targets the router cannot
 * take and to tunnels, and any error as the JSON refusal a client gets.
 */
import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { findScenario, type Scenario } from '@aguikit/scenarios';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { RequestError } from '../request.js';
import { StorageUnavailable } from '../storage/types.js';
import { checkCaller, type OriginPolicy, targetAuthority } from './origin.js';
import { validationError } from './schema.js';

/** The path of a request target; an absolute-form target (`http://host/agents/refund`) is taken as its path, as the router takes it. */
const pathOf = (url: string): string => {
  const authority = targetAuthority(url);
  const path = (authority === undefined ? url : url.slice(url.indexOf('://') + 3 + authority.length)).split('?')[0] ?? '';
  return authority === undefined || path !== '' ? path : '/';
};

/** The scenario named `id`, or the 404 that says there is none. */
export function scenarioOf(id: string): Scenario {
  if (id === '') throw new RequestError(404, 'NOT_FOUND', 'Nothing is at /agents/: GET /agents lists the scenarios.');
  const scenario = findScenario(id);
  if (!scenario) throw new RequestError(404, 'UNKNOWN_SCENARIO', `No scenario named '${id}'. GET /agents lists them.`);
  return scenario;
}

/**
 * The methods the resource a request names takes (a 405's `Allow`, a plain
 * OPTIONS's answer), or the 404 that says there is no resource there: an
 * unknown scenario is none, whatever the method.
 */
export function allowedMethods(method: string, url: string): string {
  const path = pathOf(url);
  if (path === '/health' || path === '/ready' || path === '/agents' || path === '/effects') return 'GET, HEAD, OPTIONS';
  const name = /^\/agents\/([^/]+)$/u.exec(path)?.[1];
  if (name === undefined) throw new RequestError(404, 'NOT_FOUND', `No route for ${method} ${path}.`);
  let id: string;
  try {
    id = decodeURIComponent(name);
  } catch {
    throw new RequestError(400, 'MALFORMED_URL', 'The request target is not a valid URL.');
  }
  scenarioOf(id);
  return 'POST, OPTIONS';
}

/** Refuses a request no route takes: 405, with what the resource takes in `Allow`, or the 404 that says there is no resource. */
export function refuseUnrouted(request: FastifyRequest, reply: FastifyReply): never {
  const allow = allowedMethods(request.method, request.url);
  reply.header('Allow', allow);
  throw new RequestError(405, 'METHOD_NOT_ALLOWED', `${pathOf(request.url)} answers ${allow}.`);
}

export const tooLarge = () => new RequestError(413, 'BODY_TOO_LARGE', 'The body is too large.');

/** The methods any route answers; others get a 405 before anything is read. */
export const METHODS = new Set(['GET', 'HEAD', 'POST', 'OPTIONS']);

/**
 * A request with more than one `Content-Type` line: 400. Node keeps the
 * first, a proxy in front may keep the last or join them; a body two hops
 * read as two types is refused, as two `Host` lines are (origin.ts).
 */
export function doubleContentType(rawHeaders: readonly string[]): RequestError | undefined {
  let lines = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]?.toLowerCase() === 'content-type') lines++;
  if (lines > 1) return new RequestError(400, 'MALFORMED_CONTENT_TYPE', 'The request has more than one Content-Type header: send one.');
  return undefined;
}

/** `application/json`, with an optional charset: the one body type accepted. */
export const isJson = (type: string | undefined) => /^application\/json\s*(;\s*charset\s*=\s*"?utf-8"?\s*)?$/iu.test(type ?? '');

/**
 * A body in a coding the server does not read, refused before it is read
 * (it would be parsed as the compressed bytes): a transfer coding other than
 * chunked is 501 (RFC 9112), a content coding other than identity 415 with
 * `Accept-Encoding: identity` (RFC 9110). `bodyRead`: whether the route reads
 * the body (a POST's); the content coding of a body no route reads (a GET's,
 * a HEAD's) is no concern, the transfer coding, which frames the connection's
 * next request, always is.
 */
export function unreadCoding(headers: Record<string, string | string[] | undefined>, bodyRead = true): RequestError | undefined {
  const codings = (header: string | string[] | undefined) =>
    String(header ?? '')
      .split(',')
      .map((c) => c.trim().toLowerCase())
      .filter((c) => c !== '');
  const transfer = codings(headers['transfer-encoding']).filter((c) => c !== 'chunked');
  if (transfer.length)
    return new RequestError(
      501,
      'UNSUPPORTED_TRANSFER_CODING',
      `The body's transfer coding (${transfer.join(', ').slice(0, 100)}) is not one this server reads: send it chunked or with a Content-Length.`,
    );
  const content = bodyRead ? codings(headers['content-encoding']).filter((c) => c !== 'identity') : [];
  if (content.length)
    return new RequestError(
      415,
      'UNSUPPORTED_CONTENT_ENCODING',
      `The body's content coding (${content.join(', ').slice(0, 100)}) is not one this server reads: send the JSON as it is.`,
    );
  return undefined;
}

/** The longest path segment (a scenario's name) the router takes: Fastify's default. */
export const MAX_PATH_SEGMENT = 100;

/**
 * A request whose body (chunked, or of a Content-Length above 0) has not all been read. The router answers as the
 * headers arrive, before Node marks even a request without a body complete: that one is kept alive.
 */
const bodyUnread = (request: IncomingMessage) =>
  !request.complete && (request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) !== 0);

/**
 * Answers a request the router refused (`refusal`) as any other refusal: after the checks of its Host and Origin,
 * and, its body unread, with the connection closed once the answer is sent, as `closeUnread` does.
 */
export function refuseTarget(policy: () => OriginPolicy, refusal: () => RequestError) {
  return (_path: string, request: IncomingMessage, res: ServerResponse) => {
    const caller = checkCaller(policy(), request);
    const e = caller.refusal ?? refusal();
    const body = JSON.stringify({ error: { code: e.code, message: e.message } });
    res
      .writeHead(e.status, {
        'Content-Type': 'application/json',
        'Content-Length': Buffer.byteLength(body),
        Vary: 'Origin',
        ...(caller.allowOrigin !== undefined ? { 'Access-Control-Allow-Origin': caller.allowOrigin } : {}),
        ...(bodyUnread(request) ? { Connection: 'close' } : {}),
      })
      .end(body);
  };
}

/**
 * Answers a CONNECT, a tunnel this server (no proxy) does not open: Node hands its connection over whole, and
 * closes it unanswered when no one takes it. After the checks of its Host and Origin, as any other request; the
 * answer in the server's shape, and the connection closed.
 */
export function refuseTunnel(policy: () => OriginPolicy, log: () => FastifyBaseLogger) {
  return (request: IncomingMessage, socket: Duplex) => {
    socket.on('error', () => {});
    const caller = checkCaller(policy(), request);
    const e =
      caller.refusal ??
      new RequestError(
        501,
        'NOT_IMPLEMENTED',
        'This server is no proxy: it opens no tunnels (CONNECT). It answers GET, HEAD and OPTIONS, and POST to /agents/:scenario.',
      );
    log().info({ req: { method: request.method, url: request.url }, status: e.status }, 'tunnel refused');
    const body = JSON.stringify({ error: { code: e.code, message: e.message } });
    const grant = caller.allowOrigin !== undefined ? `Access-Control-Allow-Origin: ${caller.allowOrigin}\r\n` : '';
    // Closed once the answer is out, or after 5 s when the client does not take it: a client that keeps its side open
    // (Node's server sockets allow half-open ones) would otherwise hold a connection for ever, and keep close() waiting.
    const gone = setTimeout(() => socket.destroy(), 5_000);
    gone.unref();
    socket.end(
      `HTTP/1.1 ${e.status} ${STATUS_CODES[e.status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nVary: Origin\r\n${grant}Date: ${new Date().toUTCString()}\r\nConnection: close\r\n\r\n${body}`,
      () => {
        clearTimeout(gone);
        socket.destroy();
      },
    );
  };
}

/**
 * A header's value read as the UTF-8 bytes clients send (EventSource sends a
 * `Last-Event-ID` so, and a run id may be any text); Node hands a header over
 * one character per byte. Bytes that are not UTF-8 are left as they came.
 */
export function utf8Header(value: string | string[] | undefined): string | undefined {
  if (typeof value !== 'string') return undefined;
  const bytes = Buffer.from(value, 'latin1');
  const text = bytes.toString('utf8');
  return Buffer.from(text, 'utf8').equals(bytes) ? text : value;
}

/**
 * A refusal sent before the request's body was read whole (an oversized
 * upload, a 415, an unknown scenario, a foreign origin or host) closes the
 * connection once it is sent: the rest of the upload is not read.
 */
export function closeUnread(request: FastifyRequest, reply: FastifyReply): void {
  if (!request.raw.complete) reply.header('Connection', 'close');
}

/** Any error as the JSON refusal the client gets. */
export function asRequestError(error: unknown): RequestError {
  if (error instanceof RequestError) return error;
  if (error instanceof StorageUnavailable)
    // A write that timed out may still land (Redis runs a script it got late): nothing is claimed either way.
    return new RequestError(
      503,
      'STORAGE_UNAVAILABLE',
      'Storage did not answer, so what was asked may or may not have been recorded. Send the same request again: it is answered from what was recorded, if anything was.',
    );
  const e = error as { code?: string; statusCode?: number; validation?: { instancePath: string; keyword: string; message?: string }[] };
  if (e.validation) return validationError(e.validation);
  switch (e.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return tooLarge();
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new RequestError(415, 'UNSUPPORTED_MEDIA_TYPE', 'POST a body of Content-Type application/json.');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new RequestError(400, 'MALFORMED_JSON', 'The body is empty: POST a RunAgentInput.');
    case 'FST_ERR_BAD_URL':
      return new RequestError(400, 'MALFORMED_URL', 'The request target is not a valid URL.');
  }
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500)
    return new RequestError(e.statusCode, 'BAD_REQUEST', error instanceof Error ? error.message : 'Bad request.');
  return new RequestError(500, 'INTERNAL', 'The server failed to handle the request.');
}
