/**
 * What a failure says of an answer a person must act on: a 200 that is no
 * event stream (a JSON error of a misconfigured key, a proxy's sign-in page)
 * quotes what the server said, readable (a page's title or first visible
 * text, whitespace collapsed, no control characters), with the content type
 * and status; a 429 or 503 with `Retry-After` says when to try again, as a
 * typed `retryAfterMs`, and a Retry-After that makes no sense is ignored.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRunController, httpSseSource, loadEngine, type RunFailure } from '../src/index.js';
import { closeServers, serve } from './support/loopbackServer.js';

beforeAll(() => loadEngine());
afterEach(closeServers);

async function failureOf(status: number, headers: Record<string, string>, body: string): Promise<RunFailure | undefined> {
  const server = await serve((res) => {
    res.writeHead(status, headers);
    res.end(body);
  });
  const c = createRunController({ threadId: 't1', source: httpSseSource({ url: server.url }) });
  await c.run('hi');
  const { failure } = c.getSnapshot();
  c.destroy();
  return failure;
}

describe('a 200 that is no event stream quotes what the server said', () => {
  it('a JSON error: its message, the content type and the status', async () => {
    const failure = await failureOf(200, { 'Content-Type': 'application/json' }, '{"error":"invalid api key"}');
    expect(failure).toMatchObject({ code: 'INVALID_STREAM', status: 200, said: 'invalid api key' });
    expect(failure?.message).toContain('HTTP 200');
    expect(failure?.message).toContain('application/json');
    expect(failure?.message).toContain('invalid api key');
  });

  it("a proxy's sign-in page: its title, no tag, no line break", async () => {
    const page = `<!DOCTYPE html>\n<html>\n<head>\n  <title>\n    Sign in – Acme   SSO\n  </title>\n<style>body{color:red}</style></head>\n<body><script>var x = "<b>";</script><h1>Welcome</h1>${'<p>filler text</p>\n'.repeat(500)}</body></html>`;
    const failure = await failureOf(200, { 'Content-Type': 'text/html; charset=utf-8' }, page);
    expect(failure).toMatchObject({ code: 'INVALID_STREAM', status: 200, said: 'Sign in – Acme SSO' });
    expect(failure?.message).toMatch(/HTTP 200 text\/html/);
    expect(failure?.message).toContain('Sign in – Acme SSO');
    expect(failure?.message).not.toMatch(/[<>\n]/);
  });

  it('a page without a title: its first visible text, without scripts, styles, comments or entities raw', async () => {
    const page = `<html><head><style>p{}</style><script>alert(1)</script></head><body><!-- hidden --><div>\n  Access&nbsp;denied &amp; logged\t\t</div><p>${'more '.repeat(200)}</p></body></html>`;
    const failure = await failureOf(200, { 'Content-Type': 'text/html' }, page);
    expect(failure?.said?.startsWith('Access denied & logged more more')).toBe(true);
    expect(failure?.said?.length).toBeLessThanOrEqual(201);
    expect(failure?.said?.endsWith('…')).toBe(true);
    expect(failure?.message).not.toMatch(/alert|hidden|[<>]|p\{\}/);
  });

  it('text with control characters and bidi overrides: collapsed and not shown raw, at most 200 characters', async () => {
    const failure = await failureOf(
      200,
      { 'Content-Type': 'text/plain' },
      `bad\u0000\u001b[31m gateway\u202e\r\n\r\n  config ${'x'.repeat(1000)}`,
    );
    expect(failure?.said).toMatch(/^bad \[31m gateway config x+…$/);
    expect(failure?.said?.length).toBe(201);
    expect(failure?.message).not.toMatch(/[\p{Cc}\u202e]/u);
  });

  it('an HTTP error status with an HTML page says its title, not the markup', async () => {
    const failure = await failureOf(
      502,
      { 'Content-Type': 'text/html' },
      '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>',
    );
    expect(failure).toMatchObject({ code: 'HTTP_STATUS', status: 502, said: '502 Bad Gateway' });
    expect(failure?.message).not.toMatch(/[<>]/);
  });
});

describe('Retry-After', () => {
  it('429 with Retry-After in seconds: retryAfterMs, and the message says when', async () => {
    const failure = await failureOf(
      429,
      { 'Content-Type': 'application/json', 'Retry-After': '30' },
      '{"error":{"message":"Rate limit reached"}}',
    );
    expect(failure).toMatchObject({ code: 'HTTP_STATUS', status: 429, retryable: true, retryAfterMs: 30_000 });
    expect(failure?.message).toContain('try again in 30 s');
    expect(failure?.message).toContain('Rate limit reached');
  });

  it("503 with Retry-After as an HTTP date, read against the answer's Date", async () => {
    const now = Date.now();
    const date = new Date(now).toUTCString();
    const later = new Date(now + 120_000).toUTCString();
    const failure = await failureOf(503, { Date: date, 'Retry-After': later }, 'down for maintenance');
    expect(failure).toMatchObject({ code: 'HTTP_STATUS', status: 503, retryAfterMs: 120_000 });
    expect(failure?.message).toContain('try again in 2 min');
  });

  it.each(['-5', '1.5', 'soon', '999999999', '', 'Wed, 21 Oct 2099 07:28:00 GMT', 'Wed, 21 Oct 2015 07:28:00 GMT', '1e3', '0x10'])(
    'an absurd Retry-After (%j) is ignored',
    async (value) => {
      const failure = await failureOf(429, { 'Retry-After': value }, '');
      expect(failure).toMatchObject({ code: 'HTTP_STATUS', status: 429, retryable: true });
      expect(failure?.retryAfterMs).toBeUndefined();
      expect(failure?.message).toMatch(/try again\./);
    },
  );

  it('a Retry-After on a 400 (not a status retry can help) is not offered', async () => {
    const failure = await failureOf(400, { 'Retry-After': '30' }, '');
    expect(failure?.retryAfterMs).toBeUndefined();
  });
});
