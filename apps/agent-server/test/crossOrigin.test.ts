/**
 * A real cross-origin page in Chromium against a real server: a page served
 * from another loopback origin tries every way a browser lets it reach the
 * server without CORS (a `text/plain` simple POST, a `no-cors` POST with a
 * guessed interrupt id, a CORS fetch) and must fail to start, read or approve
 * anything. A page on an allowed origin doing the same succeeds: the refusals
 * are the origin check at work, not a broken page.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS } from '../../../chromium.js';
import type { AgentServer } from '../src/server.js';
import { interruptsOf, post, readEvents, startServer, userInput } from './support.js';

let browser: Browser;
const pages: Server[] = [];

/** An empty HTML page on its own loopback port: its origin is `http://127.0.0.1:<port>`. */
async function servePage(): Promise<string> {
  const server = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>page</title>'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  pages.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
});
afterAll(async () => {
  await browser?.close();
  await Promise.all(pages.map((p) => new Promise((resolve) => p.close(resolve))));
});

async function openPage(origin: string): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(`${origin}/`);
  return page;
}

/** What the page's script could see of each attempt: the status it could read, or the error fetch threw. */
type Seen = { status: number; body: string } | { error: string };

/** Runs the attacks from inside the page; its run ids are `<prefix>-1` to `<prefix>-5`. */
function attack(page: Page, target: string, threadId: string, guessedId: string, prefix = 'evil'): Promise<Record<string, Seen>> {
  return page.evaluate(
    async ({ target, threadId, guessedId, prefix }) => {
      const input = (runId: string, extra: object = {}) =>
        JSON.stringify({
          threadId,
          runId,
          messages: [{ id: `${runId}-m`, role: 'user', content: 'My teapot from order A-1001 arrived broken.' }],
          tools: [],
          context: [],
          ...extra,
        });
      const seen: Record<string, unknown> = {};
      const attempt = async (name: string, request: () => Promise<Response>) => {
        try {
          const response = await request();
          seen[name] = { status: response.status, body: await response.text() };
        } catch (e) {
          seen[name] = { error: String(e) };
        }
      };
      // A simple request: no preflight, the browser sends it and hides the answer.
      await attempt('start text/plain', () =>
        fetch(`${target}/agents/refund?speed=0`, {
          method: 'POST',
          mode: 'no-cors',
          headers: { 'Content-Type': 'text/plain' },
          body: input(`${prefix}-1`),
        }),
      );
      // The same, read with CORS: the browser may show the answer only if the server grants this origin.
      await attempt('read text/plain', () =>
        fetch(`${target}/agents/refund?speed=0`, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: input(`${prefix}-2`) }),
      );
      // application/json: preflighted.
      await attempt('start json', () =>
        fetch(`${target}/agents/refund?speed=0`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: input(`${prefix}-3`),
        }),
      );
      // Approving blind, with the id an attacker would guess.
      const resume = { messages: [], resume: [{ interruptId: guessedId, status: 'resolved', payload: { approved: true } }] };
      await attempt('approve no-cors', () =>
        fetch(`${target}/agents/refund?speed=0`, {
          method: 'POST',
          mode: 'no-cors',
          headers: { 'Content-Type': 'text/plain' },
          body: input(`${prefix}-4`, resume),
        }),
      );
      await attempt('approve json', () =>
        fetch(`${target}/agents/refund?speed=0`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: input(`${prefix}-5`, resume),
        }),
      );
      await attempt('read effects', () => fetch(`${target}/effects`));
      await attempt('read agents', () => fetch(`${target}/agents`));
      return seen as Record<string, { status: number; body: string } | { error: string }>;
    },
    { target, threadId, guessedId, prefix },
  );
}

describe('a page on another origin, in Chromium', () => {
  let server: AgentServer;
  let allowed: string;
  let evil: string;

  beforeAll(async () => {
    [allowed, evil] = await Promise.all([servePage(), servePage()]);
  });

  it('cannot start, read or approve anything; a page on an allowed origin can', async () => {
    server = await startServer({ allowedOrigins: [allowed] });
    // A reviewer's thread with the refund waiting for approval.
    const first = await readEvents(await post(server, '/agents/refund?speed=0', userInput('victim', 'victim-1')));
    const realId = interruptsOf(first)[0]?.id ?? '';

    const page = await openPage(evil);
    const seen = await attack(page, server.url, 'victim', 'victim-1-refund-approval');
    await page.close();
    // What the page could see: opaque answers (status 0) to no-cors requests, network errors for CORS ones.
    expect(seen['start text/plain']).toEqual({ status: 0, body: '' });
    expect(seen['approve no-cors']).toEqual({ status: 0, body: '' });
    for (const name of ['read text/plain', 'start json', 'approve json', 'read effects', 'read agents'])
      expect(seen[name], name).toEqual({ error: expect.stringContaining('Failed to fetch') });

    // And what happened on the server: nothing. No refund; no run of the page's; the thread still waits for its reviewer.
    expect(await (await fetch(`${server.url}/effects`)).json()).toEqual([]);
    expect(realId).not.toBe('victim-1-refund-approval');
    for (const runId of ['evil-1', 'evil-2', 'evil-3', 'evil-4', 'evil-5']) {
      const free = await post(server, '/agents/clarification?speed=0', userInput(`free-${runId}`, runId));
      expect(free.status, `${runId} was never started`).toBe(200);
      await readEvents(free);
    }
    const blocked = await post(server, '/agents/refund', userInput('victim', 'next', 'hello'));
    expect(blocked.status).toBe(409);

    // The same page script on an allowed origin reads the list, and with the real id approves.
    const good = await openPage(allowed);
    const own = await attack(good, server.url, 'own-thread', 'none', 'own');
    expect(own['read agents']).toMatchObject({ status: 200 });
    expect(own['start json']).toMatchObject({ status: 200, body: expect.stringContaining('RUN_FINISHED') });
    const approved = await attack(good, server.url, 'victim', realId, 'reviewer');
    await good.close();
    expect(approved['approve json']).toMatchObject({ status: 200, body: expect.stringContaining('"TOOL_CALL_RESULT"') });
    expect(await (await fetch(`${server.url}/effects`)).json()).toEqual([expect.objectContaining({ key: realId })]);
    await server.close();
  }, 60_000);
});
