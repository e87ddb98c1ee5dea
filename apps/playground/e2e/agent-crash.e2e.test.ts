/**
 * The agent server's process dies while a run streams (a crash, SIGKILL, an
 * out-of-memory kill): its sockets close with the reply half sent, no clean
 * end. The playground's `/agents` proxy must pass that on to the page, so
 * the page says at once that the connection was lost and offers Reconnect;
 * a proxy that keeps the browser's response open leaves the page saying
 * "Running" until its silence timeout (45 s) runs out.
 *
 * The crashed agent is a bare HTTP server on the port the proxy points at:
 * it sends the run's first events and destroys the socket, then stops
 * listening, as a dead process does.
 */
import { createServer, type Server } from 'node:http';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, inject, it } from 'vitest';
import { launchChromium, type OpenPage, openPlayground, unexpected } from './harness.js';

const playgroundUrl = inject('playgroundUrl');
const agentPort = inject('agentPort');

let browser: Browser;
let agent: Server | undefined;
const pages: OpenPage[] = [];

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

afterEach(async () => {
  if (agent?.listening) await new Promise((r) => agent?.close(r));
  agent = undefined;
  await Promise.all(pages.splice(0).map((o) => o.close()));
});

/** An agent that streams the start of a reply, then dies: the socket destroyed mid-response, the port closed. */
function crashingAgent(): Promise<{ crashed: Promise<number> }> {
  let crash: (at: number) => void = () => {};
  const crashed = new Promise<number>((resolve) => {
    crash = resolve;
  });
  const server = createServer((req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(404).end();
      return;
    }
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => {
      const input = JSON.parse(body || '{}') as { threadId?: string; runId?: string };
      const threadId = input.threadId ?? 't1';
      const runId = input.runId ?? 'r1';
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const events = [
        { type: 'RUN_STARTED', threadId, runId },
        { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' },
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'Counting: 1 2 3' },
      ];
      res.write(events.map((e, i) => `id: ${i + 1}\ndata: ${JSON.stringify(e)}\n\n`).join(''));
      setTimeout(() => {
        // The process is gone: this socket and the listening one with it.
        res.socket?.destroy();
        server.close();
        crash(Date.now());
      }, 300);
    });
  });
  agent = server;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(agentPort, '127.0.0.1', () => resolve({ crashed }));
  });
}

it('says at once that the connection was lost when the agent server dies mid-run, and offers Reconnect', async () => {
  const { crashed } = await crashingAgent();
  const o = await openPlayground(browser, playgroundUrl, { params: { mode: 'server', scenario: 'fast-stream', speed: 1 } });
  pages.push(o);
  const { page } = o;
  await page.getByRole('button', { name: 'Send this' }).click();
  await page.getByText('Counting: 1 2 3').waitFor();
  const cutAt = await crashed;

  const status = page.locator('.agk-chat .agk-runstatus[data-status="unknown"]');
  await status.waitFor({ timeout: 10_000 });
  const noticedAfterMs = Date.now() - cutAt;
  expect(noticedAfterMs, 'the page saw the cut in seconds, not at its silence timeout').toBeLessThan(10_000);
  expect(await status.locator('[role="status"]').textContent()).toMatch(/^Connection lost.*The stream ended before the run finished/);
  await page.getByRole('button', { name: 'Reconnect' }).waitFor();
  // The browser reports the cut reply, and the page's automatic reconnect meets the proxy's 502 while nothing listens.
  expect(unexpected(o.problems, [/net::ERR_INCOMPLETE_CHUNKED_ENCODING/, /status of 502 \(Bad Gateway\)/])).toEqual([]);
});
