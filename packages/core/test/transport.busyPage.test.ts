/**
 * The transport's timers (the grace after a run's end, idleTimeoutMs) count
 * the time the page waits on the network, not the time a long task on the
 * page (rendering, a script) holds the thread: what the server sent in time
 * while the page could not read it is read, not taken as late.
 *
 * The server runs in a process of its own, so it writes while this one is
 * busy, as a real agent does. The long task runs from setImmediate: when it
 * ends, the timers that fell due during it run before the network's data
 * is read, as a browser may order them.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { httpSseSource, type RunAgentInput } from '../src/index.js';

const input: RunAgentInput = { threadId: 't1', runId: 'r1', messages: [], tools: [], context: [], state: {}, forwardedProps: {} };

/** Holds the thread for `ms`, as a page rendering does. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // A long task.
  }
}

/** An SSE server in a child process, answering each request with `script` (which has `res` and `sse`). */
async function agentProcess(script: string): Promise<{ url: string; close(): void }> {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `const sse = (e) => 'data: ' + JSON.stringify(e) + '\\n\\n';
      require('node:http').createServer((req, res) => {
        req.resume();
        req.on('end', () => { res.writeHead(200, { 'Content-Type': 'text/event-stream' }); res.socket.setNoDelay(true); ${script} });
      }).listen(0, '127.0.0.1', function () { console.log(this.address().port); });`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const port = await new Promise<string>((resolve) => child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim())));
  return { url: `http://127.0.0.1:${port}/agent`, close: () => child.kill() };
}

/** The types of the events a source hands over, and its error if any; `onType` may start a long task. */
async function typesOf(source: ReturnType<typeof httpSseSource>, onType: (type: string, count: number) => void) {
  const types: string[] = [];
  try {
    await source.deliver?.(input, {}, (event) => {
      const { type } = event as { type: string };
      types.push(type);
      onType(type, types.length);
    });
    return { types, error: undefined as unknown };
  } catch (error) {
    return { types, error };
  }
}

describe('a page busy with a long task', () => {
  it("takes the next run the server sent 200 ms after the run's end, though the page was busy for 1.5 s (past the 1 s grace)", async () => {
    const server = await agentProcess(`
      res.write(sse({ type: 'RUN_STARTED', threadId: 't1', runId: 'r1' }) + sse({ type: 'RUN_FINISHED', threadId: 't1', runId: 'r1' }));
      setTimeout(() => res.write(sse({ type: 'RUN_STARTED', threadId: 't1', runId: 'r2' })), 200);
      setTimeout(() => res.end(sse({ type: 'RUN_FINISHED', threadId: 't1', runId: 'r2' })), 250);
    `);
    try {
      const { types, error } = await typesOf(httpSseSource({ url: server.url }), (type, count) => {
        // The page renders the answer, as the server sends the next run.
        if (type === 'RUN_FINISHED' && count === 2) setTimeout(() => setImmediate(() => busy(1500)), 20);
      });
      expect(error).toBeUndefined();
      expect(types).toEqual(['RUN_STARTED', 'RUN_FINISHED', 'RUN_STARTED', 'RUN_FINISHED']);
    } finally {
      server.close();
    }
  }, 10_000);

  it('with idleTimeoutMs 500, is not taken as lost when the page is busy 1 s while the server pings every 100 ms', async () => {
    const server = await agentProcess(`
      res.write(sse({ type: 'RUN_STARTED', threadId: 't1', runId: 'r1' }));
      const ping = setInterval(() => res.write(': ping\\n\\n'), 100);
      setTimeout(() => { clearInterval(ping); res.end(sse({ type: 'RUN_FINISHED', threadId: 't1', runId: 'r1' })); }, 1500);
    `);
    try {
      const { types, error } = await typesOf(httpSseSource({ url: server.url, idleTimeoutMs: 500 }), (type) => {
        if (type === 'RUN_STARTED') setTimeout(() => setImmediate(() => busy(1000)), 20);
      });
      expect(error).toBeUndefined();
      expect(types).toEqual(['RUN_STARTED', 'RUN_FINISHED']);
    } finally {
      server.close();
    }
  }, 10_000);

  it('with idleTimeoutMs 300, takes a server gone silent as lost within 1.5 s though the page is busy 200 ms at a time throughout', async () => {
    const server = await agentProcess(`res.write(sse({ type: 'RUN_STARTED', threadId: 't1', runId: 'r1' }));`);
    let busyUntil = 0;
    const longTasks = () => {
      if (performance.now() > busyUntil) return;
      busy(200);
      setTimeout(longTasks, 5);
    };
    try {
      const started = performance.now();
      const { types, error } = await typesOf(httpSseSource({ url: server.url, idleTimeoutMs: 300 }), () => {
        busyUntil = performance.now() + 4000;
        setTimeout(longTasks, 5);
      });
      const took = performance.now() - started;
      busyUntil = 0;
      expect(types).toEqual(['RUN_STARTED']);
      expect((error as Error).message).toContain('Nothing arrived from the agent for 300 ms');
      expect(took).toBeLessThan(1500);
    } finally {
      server.close();
    }
  }, 10_000);
});
