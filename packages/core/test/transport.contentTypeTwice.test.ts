/**
 * A Content-Type header a server or a proxy sends twice reaches fetch as one
 * value, joined with ", ". As fetch and EventSource read it, the last media
 * type in it is the answer's type.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AgentTransportError, httpSseSource, type RunAgentInput } from '../src/index.js';
import { closeServers, serve } from './support/loopbackServer.js';

afterEach(closeServers);

const input: RunAgentInput = { threadId: 't1', runId: 'r1', messages: [], tools: [], context: [], state: {}, forwardedProps: {} };
const started = { type: 'RUN_STARTED', threadId: 't1', runId: 'r1' };
const finished = { type: 'RUN_FINISHED', threadId: 't1', runId: 'r1' };
const body = `data: ${JSON.stringify(started)}\n\ndata: ${JSON.stringify(finished)}\n\n`;

async function outcome(contentType: string | string[]): Promise<unknown> {
  const server = await serve((res) => {
    res.setHeader('Content-Type', contentType);
    res.end(body);
  });
  const events: unknown[] = [];
  try {
    for await (const event of httpSseSource({ url: server.url }).run(input)) events.push(event);
  } catch (e) {
    return e;
  }
  return events;
}

describe('httpSseSource: a Content-Type header sent twice', () => {
  it('is an event stream when its last media type is text/event-stream', async () => {
    expect(await outcome(['text/event-stream', 'text/event-stream; charset=utf-8'])).toEqual([started, finished]);
    expect(await outcome(['text/plain', 'text/event-stream'])).toEqual([started, finished]);
  });

  it('reads a comma inside a quoted parameter as part of it, and skips an empty value or */*, as fetch does', async () => {
    expect(await outcome('text/event-stream; x="a,b"')).toEqual([started, finished]);
    expect(await outcome('text/event-stream, */*')).toEqual([started, finished]);
    expect(await outcome('text/event-stream, ')).toEqual([started, finished]);
  });

  it('is NOT_EVENT_STREAM when its last media type is another', async () => {
    const error = await outcome(['text/event-stream', 'text/html; charset=utf-8']);
    expect(error).toBeInstanceOf(AgentTransportError);
    expect(error).toMatchObject({ code: 'NOT_EVENT_STREAM' });
  });
});
