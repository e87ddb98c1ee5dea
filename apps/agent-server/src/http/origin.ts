import type { IncomingHttpHeaders } from 'node:http';
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

/**
 * The first check of every request, a target that is no URL included: a Host
 * that names another server is refused (421), then a page of an origin not
 * allowed (403); an allowed page's origin is the one to grant in
 * Access-Control-Allow-Origin, so that it can read whatever the answer is.
 */
export function checkCaller(policy: OriginPolicy, headers: IncomingHttpHeaders): { refusal?: RequestError; allowOrigin?: string } {
  if (!policy.allowsHost(headers.host ?? ''))
    return { refusal: new RequestError(421, 'HOST_NOT_ALLOWED', 'This server does not answer to that Host name.') };
  const { origin } = headers;
  if (origin === undefined) return {};
  if (!policy.allowsOrigin(origin))
    return { refusal: new RequestError(403, 'ORIGIN_NOT_ALLOWED', 'Pages of this origin may not call this server.') };
  return { allowOrigin: origin };
}
