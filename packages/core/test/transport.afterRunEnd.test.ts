/**
 * What a server sends after its run's end does not hold the run in flight:
 * the stream is let go `runEndGraceMs` after the end however fast the server
 * writes, whatever it writes.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRunController, httpSseSource, loadEngine } from '../src/index.js';
import { closeServers, serve } from './support/loopbackServer.js';

beforeAll(() => loadEngine());
afterEach(() => closeServers());

const sse = (event: unknown) => `data: ${JSON.stringify(event)}\n\n`;

describe("a server that floods the stream after its run's end", () => {
  it.each([
    ['lines that are no field', 'x\n'.repeat(20_000)],
    ['heartbeats', ': ping\n\n'.repeat(5_000)],
  ])(
    'with %s for 6 s is let go about runEndGraceMs (200 ms) after the end, not when it stops',
    async (_name, flood) => {
      const server = await serve(async (res, req) => {
        const { threadId, runId } = JSON.parse(req.body) as { threadId: string; runId: string };
        res.writeHead(200, { 'Content-Type': 'text/event-stream' });
        res.write(sse({ type: 'RUN_STARTED', threadId, runId }) + sse({ type: 'RUN_FINISHED', threadId, runId }));
        const until = Date.now() + 6000;
        while (Date.now() < until && !res.destroyed) {
          if (!res.write(flood)) await new Promise((resolve) => res.once('drain', resolve));
        }
        res.end();
      });
      const c = createRunController({ threadId: 't1', source: httpSseSource({ url: server.url, runEndGraceMs: 200 }) });
      const started = Date.now();
      expect(await c.run('hi')).toMatchObject({ ok: true, status: 'success' });
      const took = Date.now() - started;
      expect(c.getSnapshot().failure).toBeUndefined();
      expect(took).toBeLessThan(2500);
    },
    15_000,
  );
});

describe("a server that floods the stream with events after its run's end", () => {
  it('has at most 256 of them handed over (to the session log), not every one it sends in the grace', async () => {
    const server = await serve(async (res, req) => {
      const { threadId, runId } = JSON.parse(req.body) as { threadId: string; runId: string };
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.write(sse({ type: 'RUN_STARTED', threadId, runId }) + sse({ type: 'RUN_FINISHED', threadId, runId }));
      let n = 0;
      const until = Date.now() + 4000;
      while (Date.now() < until && !res.destroyed) {
        let batch = '';
        for (let i = 0; i < 1000; i++) batch += sse({ type: 'CUSTOM', name: 'flood', value: n++ });
        if (!res.write(batch)) await new Promise((resolve) => res.once('drain', resolve));
      }
      res.end();
    });
    const source = httpSseSource({ url: server.url });
    const input = { threadId: 't1', runId: 'r1', messages: [], tools: [], context: [], state: {}, forwardedProps: {} };
    let after = 0;
    const started = performance.now();
    await source.deliver?.(input, {}, (event) => {
      if ((event as { type?: string }).type === 'CUSTOM') after++;
    });
    expect(performance.now() - started).toBeLessThan(2500);
    expect(after).toBeLessThanOrEqual(256);
    expect(await server.requests[0]?.closed).toBe(true);
  }, 15_000);
});

describe('a stream of several runs whose next RUN_STARTED the thread refuses', () => {
  it('is let go runEndGraceMs after the last end the thread took, not when the server stops its heartbeats', async () => {
    const server = await serve(async (res, req) => {
      const { threadId, runId } = JSON.parse(req.body) as { threadId: string; runId: string };
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.write(sse({ type: 'RUN_STARTED', threadId, runId }) + sse({ type: 'RUN_FINISHED', threadId, runId }));
      // Within the grace: a start without its thread, which the thread refuses, so no run is open.
      res.write(sse({ type: 'RUN_STARTED', runId: 'r-next' }));
      const until = Date.now() + 4000;
      while (Date.now() < until && !res.destroyed) {
        res.write(': ping\n\n');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      res.end();
    });
    const c = createRunController({ threadId: 't1', source: httpSseSource({ url: server.url, runEndGraceMs: 200 }) });
    const started = Date.now();
    expect(await c.run('hi')).toMatchObject({ ok: true, status: 'success' });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(c.getSnapshot().failure).toBeUndefined();
    expect(await server.requests[0]?.closed).toBe(true);
  }, 10_000);
});

describe("the grace after a run's end, while the wall clock is set back", () => {
  afterEach(() => vi.restoreAllMocks());

  it('is let go runEndGraceMs after the end: a clock set back an hour (a time sync) does not hold the stream an hour', async () => {
    const encoder = new TextEncoder();
    let back = 0;
    const realNow = Date.now.bind(Date);
    vi.spyOn(Date, 'now').mockImplementation(() => realNow() - back);
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(
          encoder.encode(
            sse({ type: 'RUN_STARTED', threadId: 't1', runId: 'r1' }) + sse({ type: 'RUN_FINISHED', threadId: 't1', runId: 'r1' }),
          ),
        );
        for (let i = 0; i < 80; i++) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          // The system clock is set back an hour as the first heartbeat is on its way.
          if (i === 0) back = 3_600_000;
          try {
            controller.enqueue(encoder.encode(': ping\n\n'));
          } catch {
            return;
          }
        }
        controller.close();
      },
    });
    const source = httpSseSource({
      url: 'http://agent.test/run',
      runEndGraceMs: 200,
      fetch: async () => new Response(body, { headers: { 'Content-Type': 'text/event-stream' } }),
    });
    const input = { threadId: 't1', runId: 'r1', messages: [], tools: [], context: [], state: {}, forwardedProps: {} };
    const started = performance.now();
    await source.deliver?.(input, {}, () => undefined);
    expect(performance.now() - started).toBeLessThan(2000);
  }, 10_000);
});
