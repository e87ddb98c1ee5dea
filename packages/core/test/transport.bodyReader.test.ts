/**
 * httpSseSource reads answers with a chunk loaded on demand (sseRequest.ts,
 * with sseBody.ts). A chunk that cannot load must not leave a request behind:
 * the request is not sent until the reader is there, so the failure is one
 * that sending again can fix, and nothing runs on the server meanwhile.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it, vi } from 'vitest';

const servers: Server[] = [];

afterEach(async () => {
  vi.doUnmock('../src/transports/sseRequest.js');
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

it('a body reader that cannot load sends nothing, fails as ENGINE_UNAVAILABLE, and retry() sends once it loads', async () => {
  let fail = true;
  vi.doMock('../src/transports/sseRequest.js', async (original) => {
    if (fail) throw new TypeError('Failed to fetch dynamically imported module: /assets/sseRequest-5e2a.js');
    return original();
  });
  vi.resetModules();
  const core = await import('../src/index.js');
  await core.loadEngine();
  let posts = 0;
  const server = createServer((req, res) => {
    posts++;
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.write(`data: ${JSON.stringify({ type: 'RUN_STARTED', threadId: 't1', runId: 'r1' })}\n\n`);
      res.end(`data: ${JSON.stringify({ type: 'RUN_FINISHED', threadId: 't1', runId: 'r1' })}\n\n`);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/agent`;
  const controller = core.createRunController({
    threadId: 't1',
    source: core.httpSseSource({ url, reconnect: { attempts: 2, delayMs: 1 } }),
  });

  const first = await controller.run('退款 A-1001');
  expect(first).toMatchObject({ ok: true, status: 'error' });
  expect(controller.getSnapshot().failure).toMatchObject({ code: 'ENGINE_UNAVAILABLE', retryable: true, eventsReceived: 0 });
  expect(posts).toBe(0);

  fail = false;
  await expect(controller.retry()).resolves.toMatchObject({ ok: true, status: 'success' });
  expect(posts).toBe(1);
});
