/**
 * httpSseSource against real HTTP servers (node:http on loopback), sending
 * what servers and proxies do: heartbeats after the end, ids no header can
 * carry, frames split anywhere, content types that only look right.
 */
import type { ServerResponse } from 'node:http';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  AgentTransportError,
  createRunController,
  type HttpSseSourceOptions,
  httpSseSource,
  loadEngine,
  type RunAgentInput,
  type SourceRunOptions,
} from '../src/index.js';
import { microScheduler } from './support/controllerHarness.js';
import { closeServers, type Handler, serve } from './support/loopbackServer.js';

beforeAll(() => loadEngine());
afterEach(closeServers);
const pause = (ms = 2) => new Promise<void>((r) => setTimeout(r, ms));
const head = (res: ServerResponse, type = 'text/event-stream') => {
  res.writeHead(200, { 'Content-Type': type });
  res.flushHeaders();
};
const write = (res: ServerResponse, chunk: string | Uint8Array) =>
  new Promise<void>((resolve, reject) => res.write(chunk, (e) => (e ? reject(e) : resolve())));
const stream =
  (chunks: readonly (string | Uint8Array)[], type?: string): Handler =>
  async (res) => {
    head(res, type);
    for (const [i, c] of chunks.entries()) {
      if (i > 0) await pause();
      await write(res, c);
    }
    res.end();
  };
const input: RunAgentInput = {
  threadId: 't1',
  runId: 'r1',
  messages: [{ id: 'u1', role: 'user', content: 'hi' }],
  tools: [],
  context: [],
  state: {},
  forwardedProps: {},
};
const started = { type: 'RUN_STARTED', threadId: 't1', runId: 'r1' };
const finished = { type: 'RUN_FINISHED', threadId: 't1', runId: 'r1' };
const frame = (e: unknown, id?: string) => `${id === undefined ? '' : `id: ${id}\n`}data: ${JSON.stringify(e)}\n\n`;
async function collect(events: AsyncIterable<unknown>): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const e of events) out.push(e);
  return out;
}
const run = (url: string, o: Omit<HttpSseSourceOptions, 'url'> = {}, r: SourceRunOptions = {}) =>
  httpSseSource({ url, ...o }).run(input, r);
const within = <T>(p: Promise<T>, ms: number) => Promise.race([p, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), ms))]);

describe('httpSseSource against real servers', () => {
  it('a run settles once RUN_FINISHED arrived, even when the server keeps the connection open with heartbeats', async () => {
    const { url } = await serve(async (res) => {
      head(res);
      await write(res, frame(started) + frame(finished));
      for (let i = 0; i < 500 && !res.destroyed; i++) {
        await pause(20);
        if (!res.destroyed) await write(res, ': ping\n\n').catch(() => undefined);
      }
      res.end();
    });
    // Heartbeats are life to the idle timeout; after a run's end they do not hold it open.
    const c = createRunController({ source: httpSseSource({ url, idleTimeoutMs: 500 }), scheduler: microScheduler });
    const first = c.run('hi');
    // Let go a second after its end (the default grace), not when the server's ten seconds of pings are over.
    expect(await within(first, 2500)).not.toBe('timeout');
    expect(c.getSnapshot().thread.run.status).toBe('success');
    // The next run is taken: the finished run's connection was let go.
    expect(await within(c.run('again'), 300)).not.toMatchObject({ code: 'RUN_IN_PROGRESS' });
  });

  it("a heartbeat frame a server names (sse-starlette's `event: ping`) is no event and no diagnostic; a named event is still an event, and another named frame is diagnosed", async () => {
    const opened = { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' };
    const said = { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: '茶壶已退款' };
    const ended = { type: 'TEXT_MESSAGE_END', messageId: 'm1' };
    const ping = 'event: ping\ndata: 2026-12-04 22:10:00.123456+00:00\n\n';
    const chunks = [
      frame(started),
      ping,
      `event: TEXT_MESSAGE_START\ndata: ${JSON.stringify(opened)}\n\n`,
      'event: ping\r\ndata: {"ts": 1764885000}\r\n\r\n',
      `event: message\ndata: ${JSON.stringify(said)}\n\n`,
      frame(ended),
      'event: heartbeat\ndata:\n\n',
      'event: error\ndata: {"message": "the model is overloaded"}\n\n',
      ping,
      frame(finished),
    ];
    const { url } = await serve(stream(chunks));
    // A named frame that is no heartbeat and no event is handed on, to be diagnosed: it may say something.
    expect(await collect(run(url))).toEqual([started, opened, said, ended, { message: 'the model is overloaded' }, finished]);
    // Through a controller: only the error frame is diagnosed, and the reply is whole.
    const c = createRunController({ source: httpSseSource({ url }), scheduler: microScheduler, threadId: 't1' });
    await c.run('hi');
    const { thread } = c.getSnapshot();
    expect(thread.diagnostics.map((d) => d.code)).toEqual(['MISSING_TYPE']);
    expect(thread.run.status).toBe('success');
    expect(thread.messages.byId.get('m1')?.content).toBe('茶壶已退款');
  });

  it('an error answer reached through a redirect says so: a 301 turns the POST into a GET without the run', async () => {
    const { url, requests } = await serve((res, req) => {
      if (req.url === '/agent') {
        res.writeHead(301, { Location: '/agent/' });
        res.end();
        return;
      }
      res.writeHead(405, { 'Content-Type': 'text/plain', Allow: 'POST' });
      res.end('Method Not Allowed');
    });
    const failure = await collect(run(url)).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(AgentTransportError);
    expect(failure).toMatchObject({ code: 'HTTP_STATUS', status: 405 });
    expect((failure as Error).message).toBe(
      `The agent answered HTTP 405: Method Not Allowed (after a redirect to ${url}/, which a 301, 302 or 303 makes a GET without the run's body)`,
    );
    expect(requests.map((r) => r.method)).toEqual(['POST', 'GET']);
    // The run's failure says so too, and where it was sent.
    const controller = createRunController({ source: httpSseSource({ url }), threadId: 't1', scheduler: microScheduler });
    await controller.run('Refund order A-1001');
    expect(controller.getSnapshot().failure).toMatchObject({ code: 'HTTP_STATUS', status: 405, said: 'Method Not Allowed' });
    expect(controller.getSnapshot().failure?.message).toBe(
      `The agent answered HTTP 405. It said: Method Not Allowed (after a redirect to ${url}/, which a 301, 302 or 303 makes a GET without the run's body)`,
    );
    controller.destroy();
    // A 200 that is no event stream, reached through a redirect, says so too.
    const { url: other } = await serve((res, req) => {
      if (req.url === '/agent') {
        res.writeHead(302, { Location: '/login' });
        res.end();
        return;
      }
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('<form>Sign in</form>');
    });
    const login = await collect(run(other)).catch((e: unknown) => e);
    expect(login).toMatchObject({ code: 'NOT_EVENT_STREAM' });
    expect((login as Error).message).toContain(`(after a redirect to ${other.replace(/\/agent$/, '/login')},`);
  });

  it('a stream of several runs (a replayed thread) goes on when the next run starts within the grace after an end', async () => {
    const second = { type: 'RUN_STARTED', threadId: 't1', runId: 'r2' };
    const secondEnd = { type: 'RUN_FINISHED', threadId: 't1', runId: 'r2' };
    const { url } = await serve(async (res) => {
      head(res);
      await write(res, frame(started) + frame(finished));
      for (let i = 0; i < 5; i++) {
        await pause(20);
        await write(res, ': ping\n\n');
      }
      await write(res, frame(second) + frame(secondEnd));
      await pause(50);
      res.end();
    });
    expect(await collect(run(url, { runEndGraceMs: 500 }))).toEqual([started, finished, second, secondEnd]);
  });

  it("the grace after a run's end counts time spent waiting on the network, not time the consumer takes over an event", async () => {
    const second = { type: 'RUN_STARTED', threadId: 't1', runId: 'r2' };
    const secondEnd = { type: 'RUN_FINISHED', threadId: 't1', runId: 'r2' };
    const { url } = await serve(async (res) => {
      head(res);
      await write(res, frame(started) + frame(finished));
      await pause(10);
      await write(res, frame(second) + frame(secondEnd));
      res.end();
    });
    const types: unknown[] = [];
    for await (const e of run(url, { runEndGraceMs: 100 })) {
      types.push(e);
      // A consumer that takes a while over the run's end (a render, an async handler): the next run is on the wire.
      if (types.length === 2) await pause(300);
    }
    expect(types).toEqual([started, finished, second, secondEnd]);
  });

  it('an SSE id no header can carry (a control character) is no resume point: it resets the last id, and the drop wastes no attempt', async () => {
    const { url, requests } = await serve(async (res) => {
      head(res);
      await write(res, frame(started, 'a\u0001b'));
      await pause(5);
      res.socket?.destroy();
    });
    const ids: string[] = [];
    const out = await collect(run(url, { reconnect: { attempts: 3, delayMs: 1 } }, { onEventId: (id) => ids.push(id) })).catch(
      (e: unknown) => e,
    );
    // As a drop after events without ids: the connection's own error, no attempt made, and the consumer told of no id.
    expect(out).toBeInstanceOf(Error);
    expect(out).not.toBeInstanceOf(AgentTransportError);
    expect(ids).toEqual(['']);
    await pause(20);
    expect(requests).toHaveLength(1);
    // Asked to resume after it (a controller's reconnect()), the same: a typed failure, nothing sent.
    const again = await collect(run(url, {}, { lastEventId: 'a\u0001b' })).catch((e: unknown) => e);
    expect(again).toMatchObject({ code: 'CONNECTION_LOST' });
    expect(requests).toHaveLength(1);
  });

  it('an SSE id of Chinese and an emoji is a resume point: the reconnect sends it, as its UTF-8 bytes', async () => {
    const id = '运行-😀-1';
    const { url, requests } = await serve(async (res) => {
      head(res);
      if (requests.length > 1) return void res.end(frame(finished));
      await write(res, frame(started, id));
      await pause(5);
      res.socket?.destroy();
    });
    const ids: string[] = [];
    await collect(run(url, { reconnect: { attempts: 1, delayMs: 1 } }, { onEventId: (i) => ids.push(i) }));
    expect(ids).toEqual([id, '']);
    expect(requests).toHaveLength(2);
    expect(Buffer.from(requests[1]?.headers['last-event-id'] as string, 'latin1').toString('utf8')).toBe(id);
  });

  it('a frame of exactly maxFrameBytes is accepted whether it arrives in one chunk or split near its end', async () => {
    const max = 1000;
    const data = JSON.stringify({ type: 'CUSTOM', name: 'n', value: 'x'.repeat(max - 40) });
    const padded = data.slice(0, -2) + 'y'.repeat(max - data.length) + data.slice(-2);
    expect(padded.length).toBe(max);
    const line = `data: ${padded}\n\n`;
    const whole = await serve(stream([frame(started), line, frame(finished)]));
    const a = await collect(run(whole.url, { maxFrameBytes: max }));
    expect(a).toHaveLength(3);
    const split = await serve(stream([frame(started), line.slice(0, line.length - 3), line.slice(line.length - 3), frame(finished)]));
    const b = await collect(run(split.url, { maxFrameBytes: max })).catch((e: unknown) => e);
    expect(b).toEqual(a);
  });

  it('a content type that merely begins with "text/event-stream" is NOT_EVENT_STREAM', async () => {
    const { url } = await serve(stream([frame(started), frame(finished)], 'text/event-streamer'));
    const e = await collect(run(url)).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(e).toBeInstanceOf(AgentTransportError);
    expect(e).toMatchObject({ code: 'NOT_EVENT_STREAM' });
  });
});
