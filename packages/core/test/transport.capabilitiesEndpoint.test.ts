/**
 * httpSseSource's capabilities endpoint, answered by a server that does not
 * answer as it should: what it sends is read only as far as a capabilities
 * object can reach.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { httpSseSource } from '../src/index.js';
import { closeServers, serve } from './support/loopbackServer.js';

afterEach(() => closeServers());

describe('a capabilities endpoint whose answer does not end', () => {
  it('gives no capabilities once its body passes 1 MiB, and is cut there rather than read to the end', async () => {
    let sent = 0;
    const server = await serve(async (res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"streaming":"');
      const chunk = 'x'.repeat(64 * 1024);
      // 64 MiB at most, as a body that never ends would be, unless the client lets go.
      while (sent < 64 * 1024 * 1024 && !res.destroyed) {
        sent += chunk.length;
        if (!res.write(chunk)) await new Promise((resolve) => res.once('drain', resolve));
      }
      res.end('"}');
    });
    expect(await httpSseSource({ url: server.url, capabilities: server.url }).capabilities?.()).toBeUndefined();
    // The client let go: the server saw its response cut before it ended it.
    expect(await server.requests[0]?.closed).toBe(true);
    expect(sent).toBeLessThan(32 * 1024 * 1024);
  }, 30_000);

  it('a capabilities object under the limit is read as before', async () => {
    const caps = { identity: { name: 'refunds', description: 'd'.repeat(500_000) } };
    const server = await serve((res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(caps));
    });
    expect(await httpSseSource({ url: server.url, capabilities: server.url }).capabilities?.()).toEqual(caps);
  });
});

describe('the 1 MiB a capabilities answer may hold', () => {
  it('counts the answer in bytes: 1.2 MB of three-byte characters (400,000 of them) passes 1 MiB and gives none', async () => {
    const caps = { identity: { name: 'refunds', description: '€'.repeat(400_000) } };
    expect(Buffer.byteLength(JSON.stringify(caps))).toBeGreaterThan(1024 * 1024);
    const server = await serve((res) => {
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(caps));
    });
    expect(await httpSseSource({ url: server.url, capabilities: server.url }).capabilities?.()).toBeUndefined();
  });

  it('an answer of characters of several bytes under 1 MiB is read whole, a character split across chunks too', async () => {
    const caps = { identity: { name: 'remboursements', description: '€😀'.repeat(100_000) } };
    const bytes = Buffer.from(JSON.stringify(caps));
    const server = await serve(async (res) => {
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
      // Cut inside a character.
      res.write(bytes.subarray(0, 50_001));
      await new Promise((resolve) => setTimeout(resolve, 20));
      res.end(bytes.subarray(50_001));
    });
    expect(await httpSseSource({ url: server.url, capabilities: server.url }).capabilities?.()).toEqual(caps);
  });

  it('an answer with no body gives none', async () => {
    const source = httpSseSource({
      url: 'http://agent.test/run',
      capabilities: 'http://agent.test/capabilities',
      fetch: async () => new Response(null, { status: 200 }),
    });
    expect(await source.capabilities?.()).toBeUndefined();
  });
});
