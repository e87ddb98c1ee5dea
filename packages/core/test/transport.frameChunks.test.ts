/**
 * A network chunk that holds exactly one frame of one `data:` line (a server
 * flushing each token) is read as any other: what the chunks before it left
 * unfinished (an `id:`, an `event:` name, a `data:` line, a comment) belongs
 * to the frame it ends, and a `data:` line with or without its space reads
 * the same.
 */
import { describe, expect, it } from 'vitest';
import { httpSseSource, type RunAgentInput } from '../src/index.js';

const input: RunAgentInput = { threadId: 't1', runId: 'r1', messages: [], tools: [], context: [], state: {}, forwardedProps: {} };
const started = { type: 'RUN_STARTED', threadId: 't1', runId: 'r1' };
const finished = { type: 'RUN_FINISHED', threadId: 't1', runId: 'r1' };
const custom = (value: unknown) => ({ type: 'CUSTOM', name: 'n', value });
const data = (event: unknown) => `data: ${JSON.stringify(event)}\n\n`;

/** The events (each with the SSE id reported for it) of a body that arrives in these chunks, one read each. */
async function read(chunks: readonly string[]): Promise<{ event: unknown; id: string | undefined }[]> {
  let next = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[next++];
      if (chunk === undefined) controller.close();
      else controller.enqueue(new TextEncoder().encode(chunk));
    },
  });
  const response = new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  const got: { event: unknown; id: string | undefined }[] = [];
  let id: string | undefined;
  const source = httpSseSource({ url: 'http://agent.invalid/run', fetch: async () => response });
  for await (const event of source.run(input, { onEventId: (said) => (id = said) })) {
    got.push({ event, id });
    id = undefined;
  }
  return got;
}

describe('httpSseSource: a chunk of one whole frame', () => {
  it('takes the id a chunk before it gave', async () => {
    const got = await read([data(started), 'id: 7\n', data(custom(1)), data(finished)]);
    expect(got).toEqual([
      { event: started, id: undefined },
      { event: custom(1), id: '7' },
      // An event without an id after one: no point a resume can start from.
      { event: finished, id: '' },
    ]);
  });

  it('takes the event name a chunk before it gave (a named heartbeat is no event)', async () => {
    const got = await read([data(started), 'event: ping\n', 'data: {"at":1}\n\n', data(custom(1)), data(finished)]);
    expect(got.map((g) => g.event)).toEqual([started, custom(1), finished]);
  });

  it('ends the data a chunk before it began: one frame of two lines', async () => {
    const got = await read([data(started), 'data: {"type":"CUSTOM",\n', 'data: "name":"n","value":2}\n\n', data(finished)]);
    expect(got.map((g) => g.event)).toEqual([started, custom(2), finished]);
  });

  it('ends a line a chunk before it began, and skips a comment', async () => {
    const got = await read([data(started), 'data: {"type":"CUSTOM","name":"n",', '"value":3}\n\n', ': hi\n', data(finished)]);
    expect(got.map((g) => g.event)).toEqual([started, custom(3), finished]);
  });

  it('reads `data:` without its space, and a frame of no data, as the parser does', async () => {
    const got = await read([data(started), `data:${JSON.stringify(custom(4))}\n\n`, 'data:\n\n', data(finished)]);
    expect(got.map((g) => g.event)).toEqual([started, custom(4), '', finished]);
  });
});
