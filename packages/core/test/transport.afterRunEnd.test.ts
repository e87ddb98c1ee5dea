/**
 * What a server sends after its run's end does not hold the run in flight:
 * the stream is let go `runEndGraceMs` after the end however fast the server
 * writes, whatever it writes.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
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
