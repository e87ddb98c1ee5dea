/**
 * What `httpSseSource` needs once a request is under way: the answer's
 * reader (`sseBody.ts`, with eventsource-parser) and the request's headers,
 * body and timeout. One chunk, loaded on demand: asked for as a source is
 * made and awaited before each request is sent, so none of it is in an
 * application's first load.
 */
import type { AgentCapabilities, RunAgentInput } from '../protocol.js';
import { thrownText } from '../thrownText.js';
import { AgentTransportError, untilAborted } from './source.js';
import { StreamSilent } from './sseBody.js';

export * from './resumePoint.js';
export * from './sseBody.js';

/**
 * The signal of one request, which also ends it when its answer (the status
 * and headers) has not come within `idle` ms: `silence()` is then the
 * StreamSilent error that says so. Without `idle`, the caller's signal as it is.
 */
export function awaitAnswer(signal: AbortSignal | undefined, idle: number | undefined) {
  if (idle === undefined) {
    // The caller's abort is raced too, for a `fetch` that does not honour its signal (some polyfills do not).
    return {
      signal,
      race: <T>(answer: Promise<T>): Promise<T> => untilAborted(answer, signal),
      arrived() {},
      silence: () => undefined,
      done() {},
    };
  }
  const request = new AbortController();
  const follow = () => request.abort(signal?.reason);
  signal?.addEventListener('abort', follow, { once: true });
  if (signal?.aborted) follow();
  let silent: Error | undefined;
  const timer = setTimeout(() => {
    silent = new StreamSilent(`No answer from the agent within ${idle} ms: the request is taken as lost.`);
    request.abort(silent);
  }, idle);
  // Also raced, for a `fetch` that does not honour its signal (some polyfills do not).
  const ended = new Promise<never>((_resolve, reject) => {
    request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true });
  });
  ended.catch(() => undefined);
  return {
    signal: request.signal,
    race: <T>(answer: Promise<T>): Promise<T> => Promise.race([answer, ended]),
    arrived: () => clearTimeout(timer),
    silence: () => silent,
    done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', follow);
    },
  };
}

/**
 * The request's headers and body, or an INVALID_REQUEST error before anything
 * is sent: a header fetch would refuse (a line break in a token, a name that is
 * not a token), or an input that is not JSON (a cycle, a BigInt). fetch would
 * throw a TypeError, which reads as "no answer from the network" and is worth
 * sending again; this is neither.
 */
export function buildRequest(input: RunAgentInput, headers: Record<string, string>): { headers: Headers; body: string } {
  let built: Headers;
  try {
    built = new Headers(headers);
  } catch {
    // Named, never quoted: the value may be a token, which the failure, a log and a saved session would keep.
    const name = Object.keys(headers).find((key) => {
      try {
        new Headers([[key, headers[key] as string]]);
        return false;
      } catch {
        return true;
      }
    });
    throw new AgentTransportError(
      'INVALID_REQUEST',
      `The request header ${JSON.stringify(name)} cannot be sent: fetch refuses its name or value.`,
    );
  }
  try {
    return { headers: built, body: JSON.stringify(input) };
  } catch (e) {
    throw new AgentTransportError('INVALID_REQUEST', `The run's input cannot be sent as JSON: ${thrownText(e)}`);
  }
}

/**
 * The `Last-Event-ID` header that resumes after `lastId`, or none without
 * an id; a CONNECTION_LOST error for an id no header can carry (a control
 * character): it is no resume point, as the server could never be told it.
 */
export function resumeHeader(lastId: string | undefined): string | undefined {
  if (lastId === undefined) return undefined;
  const header = headerBytes(lastId);
  if (HEADER_VALUE.test(header)) return header;
  throw new AgentTransportError(
    'CONNECTION_LOST',
    `The stream cannot be resumed: its last event id ${JSON.stringify(lastId)} cannot be sent in a Last-Event-ID header.`,
  );
}

/** What a header's value may hold (fetch refuses the rest): a tab, visible ASCII and space, and bytes 0x80-0xFF. */
const HEADER_VALUE = /^[\t\u0020-\u007e\u0080-\u00ff]*$/u;

/**
 * A header value as its UTF-8 bytes, one character per byte: how EventSource
 * sends a `Last-Event-ID` that is not ASCII (an id is any text the server
 * chose), and the only way fetch takes it (a header is a byte string).
 */
function headerBytes(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII is exactly U+0000..U+007F.
  if (/^[\u0000-\u007f]*$/u.test(value)) return value;
  let bytes = '';
  for (const byte of new TextEncoder().encode(value)) bytes += String.fromCharCode(byte);
  return bytes;
}

/** The most a capabilities answer may hold, in bytes: an object that says what an agent supports is far smaller. */
const MAX_CAPABILITIES = 1024 * 1024;

/**
 * What the agent supports, as its capabilities endpoint answers a GET (sent
 * with the run's headers, bounded by `idle` as a run's request is: an
 * endpoint that never answers gives none); undefined for an answer that is
 * not OK, not a JSON object, or over MAX_CAPABILITIES. Throws what the
 * request throws.
 */
export async function fetchCapabilities(
  url: string | URL,
  headers: Record<string, string>,
  doFetch: typeof fetch,
  idle: number | undefined,
): Promise<AgentCapabilities | undefined> {
  const response = await doFetch(url, {
    headers: { Accept: 'application/json', ...headers },
    ...(idle === undefined ? {} : { signal: AbortSignal.timeout(idle) }),
  });
  if (!response.ok) return undefined;
  const text = await cappedText(response);
  if (text === undefined) return undefined;
  const body = JSON.parse(text) as unknown;
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as AgentCapabilities) : undefined;
}

/**
 * A capabilities answer's text, or undefined once its body passes
 * MAX_CAPABILITIES bytes (the body is then let go): a body that never ends
 * would otherwise be held in memory as it grows.
 */
async function cappedText(response: Response): Promise<string | undefined> {
  // A fetch of the app's whose answer has no body stream.
  if (!response.body) return response.text();
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return text + decoder.decode();
      bytes += value.byteLength;
      if (bytes > MAX_CAPABILITIES) return undefined;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
}
