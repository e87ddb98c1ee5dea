import type { IncomingMessage } from 'node:http';
import { RequestError } from '../request.js';

/**
 * Which browser pages may call the server, and under which host names it may
 * be reached. A page on any other origin is refused before anything is done
 * (no CORS headers, never `*`), and a request naming another host (a DNS
 * rebinding: an attacker's name resolved to 127.0.0.1) is refused too.
 */
export interface OriginPolicy {
  /** Whether an `Origin` header value may call the server. */
  allowsOrigin(origin: string): boolean;
  /** Whether a `Host` header value names this server. */
  allowsHost(host: string): boolean;
}

/** The playground's origins on loopback (its Vite dev server), and that port of `PLAYGROUND_PORT` when set. */
export function defaultOrigins(env: NodeJS.ProcessEnv = process.env): string[] {
  const ports = new Set(['5173']);
  if (env.PLAYGROUND_PORT && /^\d{1,5}$/.test(env.PLAYGROUND_PORT)) ports.add(env.PLAYGROUND_PORT);
  return [...ports].flatMap((port) => [`http://127.0.0.1:${port}`, `http://localhost:${port}`]);
}

const LOOPBACK = ['127.0.0.1', 'localhost', '[::1]'];

/** The loopback names with the server's port, and the address it listens on when that is not a loopback one. */
export function defaultHosts(port: number, listenHost: string): string[] {
  const names = new Set(LOOPBACK);
  if (listenHost !== '0.0.0.0' && listenHost !== '::') names.add(listenHost.includes(':') ? `[${listenHost}]` : listenHost);
  return [...names].map((name) => `${name}:${port}`);
}

/** A comma-separated list from the environment, trimmed, empty entries dropped; undefined when unset or empty. */
export function listFromEnv(value: string | undefined): string[] | undefined {
  const list = (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return list.length ? list : undefined;
}

/**
 * An origin as a browser serializes it: scheme, host and port, lower-cased,
 * the scheme's default port left out (`https://a.example:443/` is
 * `https://a.example`). What is not a URL (`null`) stays as it is.
 */
function canonicalOrigin(origin: string): string {
  try {
    const url = new URL(origin);
    if (url.origin !== 'null') return url.origin;
  } catch {
    // Not a URL: compared as written.
  }
  return origin.toLowerCase().replace(/\/+$/u, '');
}

/**
 * The Host values an allowed host stands for, lower-cased: itself, and, when it names a scheme's default port
 * (`:80`, `:443`), its bare name too, which is what a browser sends for that port. A Host with a port must name it
 * exactly: `localhost:443` is not `localhost:80`.
 */
function hostForms(host: string): string[] {
  const name = host.toLowerCase();
  const bare = name.replace(/:(?:80|443)$/u, '');
  return bare === name ? [name] : [name, bare];
}

export function originPolicy(allowedOrigins: readonly string[], allowedHosts: readonly string[]): OriginPolicy {
  const origins = new Set(allowedOrigins.map(canonicalOrigin));
  const hosts = new Set(allowedHosts.flatMap(hostForms));
  return {
    // A browser's Origin is already serialized: compared as sent (lower-cased), never parsed into something else.
    allowsOrigin: (origin) => origins.has(origin.toLowerCase()),
    allowsHost: (host) => hosts.has(host.toLowerCase()),
  };
}

/** What `checkCaller` reads of a request. */
export type Caller = Pick<IncomingMessage, 'headers' | 'rawHeaders' | 'httpVersion' | 'url'>;

/**
 * The authority of an absolute-form request target (`http://host:port/path`), as written; undefined for any other
 * form, and for a target that is no URL (which the router refuses: its Host header is checked first, as for any other).
 */
export function targetAuthority(url: string | undefined): string | undefined {
  const authority = /^https?:\/\/([^/?#]*)/iu.exec(url ?? '')?.[1];
  return authority && URL.canParse(url ?? '') ? authority : undefined;
}

/**
 * The host a request names (RFC 9112, 3.2): that of its target when the
 * target is in absolute form (a Host header beside it is ignored), else its
 * one Host header; a 400 for a request with two Host headers, or an HTTP/1.1
 * request with none (Node keeps the first of two, and answers a missing one
 * with a bare 400).
 */
function hostOf(request: Caller): string | RequestError {
  let lines = 0;
  for (let i = 0; i < request.rawHeaders.length; i += 2) if (request.rawHeaders[i]?.toLowerCase() === 'host') lines++;
  if (lines > 1) return new RequestError(400, 'MALFORMED_HOST', 'The request has more than one Host header: send one.');
  if (lines === 0 && request.httpVersion !== '1.0')
    return new RequestError(400, 'MALFORMED_HOST', 'The request has no Host header: an HTTP/1.1 request names its host in one.');
  return targetAuthority(request.url) ?? request.headers.host ?? '';
}

/**
 * The first check of every request, a target that is no URL included: a Host
 * that is missing or doubled is refused (400), one that names another server
 * (421), then a page of an origin not allowed (403); an allowed page's origin
 * is the one to grant in Access-Control-Allow-Origin, so that it can read
 * whatever the answer is.
 */
export function checkCaller(policy: OriginPolicy, request: Caller): { refusal?: RequestError; allowOrigin?: string } {
  const host = hostOf(request);
  if (host instanceof RequestError) return { refusal: host };
  if (!policy.allowsHost(host))
    return { refusal: new RequestError(421, 'HOST_NOT_ALLOWED', 'This server does not answer to that Host name.') };
  const { origin } = request.headers;
  if (origin === undefined) return {};
  if (!policy.allowsOrigin(origin))
    return { refusal: new RequestError(403, 'ORIGIN_NOT_ALLOWED', 'Pages of this origin may not call this server.') };
  return { allowOrigin: origin };
}
