/**
 * What a stream holds to resume after its last SSE id (the events without an
 * id that came after it, which a server resuming there sends again) is the
 * text of those events alone: not the network chunks they came in, and
 * nothing when no resume can use it.
 */
import type { ServerResponse } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { httpSseSource, loadEngine, type RunAgentInput } from '../src/index.js';
import { closeServers, serve } from './support/loopbackServer.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heap = () => {
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

beforeAll(() => loadEngine());
afterEach(closeServers);

const frame = (event: unknown, id?: string) => `${id === undefined ? '' : `id: ${id}\n`}data: ${JSON.stringify(event)}\n\n`;
const input: RunAgentInput = { threadId: 't1', runId: 'r1', messages: [], tools: [], context: [], state: {}, forwardedProps: {} };
const started = { type: 'RUN_STARTED', threadId: 't1', runId: 'r1' };
const finished = { type: 'RUN_FINISHED', threadId: 't1', runId: 'r1' };
const open = { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' };
const text = (delta: string) => ({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta });
const close = { type: 'TEXT_MESSAGE_END', messageId: 'm1' };

/** An id as many servers give, 36 characters. */
const uuid = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;

// Each token in a chunk of its own, padded by a comment (as a server defeating a proxy's buffering pads its writes).
const TOKENS = 1000;
const PAD = `: ${'.'.repeat(60 * 1024)}\n\n`;

const write = (res: ServerResponse, body: string) => new Promise<void>((resolve) => res.write(body, () => resolve()));

/**
 * The heap (MiB) a stream holds once it handed over TOKENS padded tokens after an id, each of ~80 characters, still
 * open: measured before its end comes.
 */
async function heldWhileOpen(reconnect: boolean, ids = false): Promise<number> {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const server = await serve(async (res) => {
    res.writeHead(200, { 'Content-Type': 'text/event-stream' });
    await write(res, frame(started, '1') + frame(open, '2'));
    for (let i = 0; i < TOKENS; i++) await write(res, frame(text(`token ${i} `), ids ? uuid(i) : undefined) + PAD);
    await released;
    res.end(frame(close) + frame(finished));
  });
  const source = httpSseSource({ url: server.url, ...(reconnect ? { reconnect: { attempts: 2, delayMs: 1 } } : {}) });
  const before = heap();
  let tokens = 0;
  let held = Number.NaN;
  for await (const event of source.run(input)) {
    if ((event as { type?: string }).type !== 'TEXT_MESSAGE_CONTENT') continue;
    if (++tokens < TOKENS) continue;
    held = heap() - before;
    release();
  }
  expect(tokens).toBe(TOKENS);
  return held;
}

describe('a stream of events without an id after its last id', () => {
  it('with reconnect on, holds the events, not the 60 KB chunks they came in (60 MB for 1,000 tokens)', async () => {
    expect(await heldWhileOpen(true)).toBeLessThan(8);
  }, 60_000);

  it('with reconnect off, holds none of the chunks they came in either', async () => {
    expect(await heldWhileOpen(false)).toBeLessThan(8);
  }, 60_000);
});

describe('a stream with a long id on every event', () => {
  it('with reconnect on, holds the ids it skips a replay by, not the 60 KB chunks they came in', async () => {
    expect(await heldWhileOpen(true, true)).toBeLessThan(8);
  }, 60_000);

  it('with reconnect off, holds the ids, not the 60 KB chunks they came in', async () => {
    expect(await heldWhileOpen(false, true)).toBeLessThan(8);
  }, 60_000);
});
