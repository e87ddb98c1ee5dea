/**
 * Frames whose data is no JSON (an empty `data:` line, `[DONE]`, a word)
 * are handed over as their text, for validation to refuse: a server that
 * sends many of them costs about what as many JSON frames cost, not an
 * exception apiece.
 */
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { httpSseSource, type RunAgentInput } from '../src/index.js';
import { closeServers, serve } from './support/loopbackServer.js';

afterEach(closeServers);

const input: RunAgentInput = { threadId: 't1', runId: 'r1', messages: [], tools: [], context: [], state: {}, forwardedProps: {} };
const started = `data: ${JSON.stringify({ type: 'RUN_STARTED', threadId: 't1', runId: 'r1' })}\n\n`;
const finished = `data: ${JSON.stringify({ type: 'RUN_FINISHED', threadId: 't1', runId: 'r1' })}\n\n`;

/** A stream of `frames` copies of `frame` in chunks of 10,000, inside a run. */
async function streamOf(frame: string, frames: number) {
  const server = await serve(async (res: ServerResponse) => {
    res.writeHead(200, { 'Content-Type': 'text/event-stream' });
    res.write(started);
    const chunk = frame.repeat(10_000);
    for (let k = 0; k < frames / 10_000; k++) {
      if (!res.write(chunk)) await new Promise((resolve) => res.once('drain', resolve));
    }
    res.end(finished);
  });
  return server.url;
}

/** How long the source takes over the stream, and what it handed over besides the run's start and end. */
async function read(url: string) {
  const events: unknown[] = [];
  const startedAt = performance.now();
  await httpSseSource({ url }).deliver?.(input, {}, (event) => events.push(event));
  return { ms: performance.now() - startedAt, events: events.slice(1, -1) };
}

describe('frames whose data is no JSON', () => {
  it.each([
    ['an empty data: line', 'data:\n\n', ''],
    ['[DONE]', 'data: [DONE]\n\n', '[DONE]'],
    ['a word', 'data: nothing\n\n', 'nothing'],
    ['spaces', 'data:    \n\n', '   '],
  ])(
    '200,000 frames of %s are each handed over as text, within 4 times what as many JSON frames take',
    async (_name, frame, text) => {
      const frames = 200_000;
      const jsonUrl = await streamOf('data: {"a":1}\n\n', frames);
      const textUrl = await streamOf(frame, frames);
      // Warmed up first: the first stream read pays for loading the reader.
      await read(jsonUrl);
      const json = await read(jsonUrl);
      const texts = await read(textUrl);
      expect(json.events.length).toBe(frames);
      expect(texts.events.length).toBe(frames);
      expect(texts.events.every((event) => event === text)).toBe(true);
      expect(texts.ms).toBeLessThan(Math.max(4 * json.ms, 400));
    },
    60_000,
  );
});

describe('frames of JSON', () => {
  it.each([
    '{"type":"X"}',
    ' \t{"a":1}',
    '"text"',
    '-1',
    '0',
    '[]',
    '[ ]',
    '[true, null]',
    '[[1]]',
    '[{"a":1}]',
    '[[[[[[[[[[1]]]]]]]]]]',
    '\t [ \t1 ]',
    'true',
    'false',
    'null',
    ' null ',
    '["x"]',
  ])('%j is handed over parsed', async (data) => {
    const server = await serve((res) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.end(`${started}data: ${data}\n\n${finished}`);
    });
    const { events } = await read(server.url);
    expect(events).toEqual([JSON.parse(data)]);
  });
});
