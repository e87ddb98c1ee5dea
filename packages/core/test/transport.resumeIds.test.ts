/**
 * A resume after a dropped stream (`reconnect`, `Last-Event-ID`) hands over
 * no event twice and skips none, whatever ids the server gives: ids on only
 * some events, an id given to several events, ids in no order. Where the
 * transport cannot know which events the server sends again, it says so
 * rather than apply an event twice.
 */
import type { ServerResponse } from 'node:http';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type AgentSource, AgentTransportError, createRunController, httpSseSource, loadEngine, type RunAgentInput } from '../src/index.js';
import { closeServers, serve } from './support/loopbackServer.js';

beforeAll(() => loadEngine());
afterEach(closeServers);

const frame = (event: unknown, id?: string) => `${id === undefined ? '' : `id: ${id}\n`}data: ${JSON.stringify(event)}\n\n`;

const input: RunAgentInput = { threadId: 't1', runId: 'r1', messages: [], tools: [], context: [], state: {}, forwardedProps: {} };
const started = { type: 'RUN_STARTED', threadId: 't1', runId: 'r1' };
const finished = { type: 'RUN_FINISHED', threadId: 't1', runId: 'r1' };
const open = { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' };
const text = (delta: string) => ({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta });
const close = { type: 'TEXT_MESSAGE_END', messageId: 'm1' };
const push = (n: number) => ({ type: 'STATE_DELTA', delta: [{ op: 'add', path: '/items/-', value: n }] });

function head(res: ServerResponse): void {
  res.writeHead(200, { 'Content-Type': 'text/event-stream' });
  res.flushHeaders();
}

/** Writes `body`, then cuts the connection once it is on its way. */
async function writeThenCut(res: ServerResponse, body: string): Promise<void> {
  await new Promise<void>((resolve) => res.write(body, () => resolve()));
  await new Promise((resolve) => setTimeout(resolve, 10));
  res.socket?.destroy();
}

/** The events a source hands over for `input`, or the error it ends with beside them. */
async function delivered(url: string): Promise<{ events: unknown[]; error?: unknown }> {
  const events: unknown[] = [];
  const source = httpSseSource({ url, reconnect: { attempts: 2, delayMs: 1 } });
  try {
    await source.deliver?.(input, {}, (event) => events.push(event));
    return { events };
  } catch (error) {
    return { events, error };
  }
}

const deltas = (events: unknown[]) =>
  events
    .filter((e): e is { delta: string } => (e as { type?: string }).type === 'TEXT_MESSAGE_CONTENT')
    .map((e) => e.delta)
    .join('');

describe('a server that gives ids to only some events', () => {
  it('resumed after the last id, sends again the events without an id that followed it: each is applied once', async () => {
    const server = await serve(async (res, req, index) => {
      head(res);
      const first = frame(started, '1') + frame({ type: 'STATE_SNAPSHOT', snapshot: { items: [] } }, '2') + frame(open, '3');
      const after = frame(text('Hel')) + frame(push(1)) + frame(text('lo'));
      if (index === 0) return writeThenCut(res, first + after);
      // What an SSE server does: every event after the one named by Last-Event-ID, ids or none.
      expect(req.headers['last-event-id']).toBe('3');
      res.end(after + frame(text(' world'), '4') + frame(close, '5') + frame(finished, '6'));
    });
    const c = createRunController({ threadId: 't1', source: httpSseSource({ url: server.url, reconnect: { attempts: 2, delayMs: 1 } }) });
    expect(await c.run('hi')).toMatchObject({ ok: true, status: 'success' });
    const { thread } = c.getSnapshot();
    const reply = thread.messages.byId.get('m1');
    expect(reply?.content).toBe('Hello world');
    expect(thread.sharedState.document).toEqual({ items: [1] });
    expect(server.requests).toHaveLength(2);
  });

  it('resumed after the last id, sends only what came after it with an id: nothing is skipped', async () => {
    const server = await serve(async (res, _req, index) => {
      head(res);
      if (index === 0) return writeThenCut(res, frame(started, '1') + frame(open, '2') + frame(text('Hel')) + frame(text('lo')));
      res.end(frame(text(' world'), '3') + frame(close, '4') + frame(finished, '5'));
    });
    const { events, error } = await delivered(server.url);
    expect(error).toBeUndefined();
    expect(deltas(events)).toBe('Hello world');
  });

  it('sends other events after the id than it sent before: the run fails as lost, with nothing applied twice', async () => {
    const server = await serve(async (res, _req, index) => {
      head(res);
      if (index === 0) return writeThenCut(res, frame(started, '1') + frame(open, '2') + frame(text('Hel')) + frame(text('lo')));
      // The agent ran again and said it otherwise: whether "Hi" is new or stands for "Hel" no client can tell.
      res.end(frame(text('Hi')) + frame(text(' there'), '3') + frame(close, '4') + frame(finished, '5'));
    });
    const { events, error } = await delivered(server.url);
    expect(error).toBeInstanceOf(AgentTransportError);
    expect((error as AgentTransportError).code).toBe('CONNECTION_LOST');
    expect(deltas(events)).toBe('Hello');
  });

  it('resumed after the last id, sends again the events without an id written otherwise (spaces, key order): each is applied once', async () => {
    // As Python's json.dumps writes what the agent wrote compactly, or a store that keeps events as values gives them back.
    const loose = (event: Record<string, unknown>) =>
      `data: {${Object.entries(event)
        .reverse()
        .map(([key, value]) => `${JSON.stringify(key)}: ${JSON.stringify(value)}`)
        .join(', ')}}\n\n`;
    const server = await serve(async (res, _req, index) => {
      head(res);
      if (index === 0)
        return writeThenCut(res, frame(started, '1') + frame(open, '2') + frame(text('Hel')) + frame(push(1)) + frame(text('lo')));
      res.end(loose(text('Hel')) + loose(push(1)) + loose(text('lo')) + frame(text(' world')) + frame(close, '3') + frame(finished, '4'));
    });
    const { events, error } = await delivered(server.url);
    expect(error).toBeUndefined();
    expect(deltas(events)).toBe('Hello world');
    expect(events.filter((e) => (e as { type?: string }).type === 'STATE_DELTA')).toHaveLength(1);
    expect(server.requests).toHaveLength(2);
  });

  it('resumed after the last id, sends in their place events of the same keys with other values: the run fails as lost', async () => {
    const server = await serve(async (res, _req, index) => {
      head(res);
      if (index === 0) return writeThenCut(res, frame(started, '1') + frame(open, '2') + frame(text('Hel')) + frame(push(1)));
      res.end(frame(text('Hel')) + frame(push(2)) + frame(close, '3') + frame(finished, '4'));
    });
    const { events, error } = await delivered(server.url);
    expect((error as AgentTransportError).code).toBe('CONNECTION_LOST');
    expect(deltas(events)).toBe('Hel');
  });

  it('tells the consumer there is no resume point once an event without an id follows the last id', async () => {
    const server = await serve(async (res) => {
      head(res);
      res.end(frame(started, '1') + frame(open, '2') + frame(text('Hel')) + frame(close, '3') + frame(text('x')) + frame(finished));
    });
    const ids: string[] = [];
    await httpSseSource({ url: server.url }).deliver?.(input, { onEventId: (id) => ids.push(id) }, () => undefined);
    expect(ids).toEqual(['1', '2', '', '3', '']);
  });
});

describe("the controller's reconnect() after a stream of such ids", () => {
  it.each([
    ['an event without an id after the last id', frame(started, '1') + frame(open, '2') + frame(text('Hel'))],
    ['a last id given to two events', frame(started, '1') + frame(open, '2') + frame(text('Hel'), '2')],
  ])('refuses with NO_RESUME_POINT after %s, sending nothing', async (_name, body) => {
    const server = await serve(async (res, _req, index) => {
      head(res);
      if (index === 0) return writeThenCut(res, body);
      res.end(frame(text('Hel')) + frame(close, '3') + frame(finished, '4'));
    });
    const c = createRunController({ threadId: 't1', source: httpSseSource({ url: server.url }) });
    expect(await c.run('hi')).toMatchObject({ status: 'unknown' });
    expect(await c.reconnect()).toMatchObject({ ok: false, code: 'NO_RESUME_POINT' });
    expect(server.requests).toHaveLength(1);
    expect(c.getSnapshot().thread.messages.byId.get('m1')?.content).toBe('Hel');
  });

  it('skips, by their ids, the events a server resuming from an earlier point sends again: each is applied once', async () => {
    const snapshot = { type: 'STATE_SNAPSHOT', snapshot: { items: [] } };
    const all = [
      frame(started, '1'),
      frame(snapshot, '2'),
      frame(open, '3'),
      frame(text('Hel'), '4'),
      frame(push(1), '5'),
      frame(text('lo'), '6'),
    ];
    const server = await serve(async (res, req, index) => {
      head(res);
      if (index === 0) return writeThenCut(res, all.join(''));
      // A server that resumes from its last checkpoint (the run's start), not after the id it was given.
      expect(req.headers['last-event-id']).toBe('6');
      res.end(all.join('') + frame(close, '7') + frame(finished, '8'));
    });
    const c = createRunController({ threadId: 't1', source: httpSseSource({ url: server.url }) });
    expect(await c.run('hi')).toMatchObject({ status: 'unknown' });
    expect(await c.reconnect()).toMatchObject({ ok: true, status: 'success' });
    const { thread } = c.getSnapshot();
    expect(thread.messages.byId.get('m1')?.content).toBe('Hello');
    expect(thread.sharedState.document).toEqual({ items: [1] });
    expect(thread.diagnostics.map((d) => d.code)).toEqual([]);
    expect(server.requests).toHaveLength(2);
  });

  it('skips them by id behind a source of the app that sends each request a copy of its input: where the stream stood is kept by the controller, not by input', async () => {
    const all = [frame(started, '1'), frame(open, '2'), frame(text('Hel'), '3'), frame(push(1), '4'), frame(text('lo'), '5')];
    const server = await serve(async (res, req, index) => {
      head(res);
      if (index === 0) return writeThenCut(res, frame({ type: 'STATE_SNAPSHOT', snapshot: { items: [] } }) + all.join(''));
      expect(req.headers['last-event-id']).toBe('5');
      // Resumed from the run's start, not after the id it was given.
      res.end(all.join('') + frame(close, '6') + frame(finished, '7'));
    });
    const http = httpSseSource({ url: server.url });
    // An app's source that adds what its agent needs to each request: a new input object every time.
    const source: AgentSource = { run: (runInput, options) => http.run({ ...runInput, forwardedProps: { tenant: 'acme' } }, options) };
    const c = createRunController({ threadId: 't1', source });
    expect(await c.run('hi')).toMatchObject({ status: 'unknown' });
    expect(await c.reconnect()).toMatchObject({ ok: true, status: 'success' });
    const { thread } = c.getSnapshot();
    expect(thread.messages.byId.get('m1')?.content).toBe('Hello');
    expect(thread.sharedState.document).toEqual({ items: [1] });
    expect(server.requests).toHaveLength(2);
  });
});

describe('a server that gives one id to several events', () => {
  it('whose last id named more than one event: the stream is not resumed (which of them the server resumes after is unknown)', async () => {
    const server = await serve(async (res, _req, index) => {
      head(res);
      if (index === 0) return writeThenCut(res, frame(started, '1') + frame(open, 'm') + frame(text('Hel'), 'm') + frame(text('lo'), 'm'));
      // Resumed after the first event of the id: what followed it comes again.
      res.end(frame(text('Hel'), 'm') + frame(text('lo'), 'm') + frame(close, 'm') + frame(finished, 'f'));
    });
    const { events, error } = await delivered(server.url);
    expect(deltas(events)).toBe('Hello');
    expect(error).toBeInstanceOf(AgentTransportError);
    expect((error as AgentTransportError).code).toBe('CONNECTION_LOST');
    expect((error as Error).message).toContain('"m", to more than one event');
    expect(server.requests).toHaveLength(1);
  });

  it('resumed after an id that named one event, sending it again: it is skipped though other ids came twice', async () => {
    const server = await serve(async (res, req, index) => {
      head(res);
      if (index === 0) return writeThenCut(res, frame(started, 'a') + frame(open, 'a') + frame(text('Hel'), 'b'));
      expect(req.headers['last-event-id']).toBe('b');
      res.end(frame(text('Hel'), 'b') + frame(text('lo'), 'c') + frame(close, 'd') + frame(finished, 'e'));
    });
    const { events, error } = await delivered(server.url);
    expect(error).toBeUndefined();
    expect(deltas(events)).toBe('Hello');
  });
});

describe('a server that gives its heartbeats the last id', () => {
  it('is resumed after it: a heartbeat names no second event of that id, and the event sent again is skipped', async () => {
    const ping = (id: string) => `event: ping\nid: ${id}\ndata: 2026-12-07 05:00:00\n\n`;
    const server = await serve(async (res, req, index) => {
      head(res);
      if (index === 0) return writeThenCut(res, frame(started, '1') + frame(open, '2') + frame(text('Hel'), '3') + ping('3') + ping('3'));
      expect(req.headers['last-event-id']).toBe('3');
      // Resumed from the id, inclusive.
      res.end(frame(text('Hel'), '3') + ping('3') + frame(text('lo'), '4') + frame(close, '5') + frame(finished, '6'));
    });
    const ids: string[] = [];
    const events: unknown[] = [];
    const source = httpSseSource({ url: server.url, reconnect: { attempts: 2, delayMs: 1 } });
    await source.deliver?.(input, { onEventId: (id) => ids.push(id) }, (event) => events.push(event));
    expect(deltas(events)).toBe('Hello');
    expect(ids).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(server.requests).toHaveLength(2);
  });

  it('after events without an id: those are still the ones the server sends again, each applied once', async () => {
    const ping = `event: ping\nid: 3\ndata: 2026-12-07 05:00:00\n\n`;
    const server = await serve(async (res, _req, index) => {
      head(res);
      if (index === 0)
        return writeThenCut(res, frame(started, '1') + frame(open, '2') + frame(text('Hel'), '3') + frame(text('lo')) + ping);
      res.end(frame(text('lo')) + frame(text(' world')) + frame(close, '4') + frame(finished, '5'));
    });
    const { events, error } = await delivered(server.url);
    expect(error).toBeUndefined();
    expect(deltas(events)).toBe('Hello world');
    expect(server.requests).toHaveLength(2);
  });
});

describe('a server whose ids are in no order', () => {
  it('resumed from an earlier point than the last id: what was handed over is skipped, by its id', async () => {
    const server = await serve(async (res, _req, index) => {
      head(res);
      const all = [
        frame(started, '9'),
        frame(open, '3'),
        frame(text('Hel'), '7'),
        frame(text('lo'), '2'),
        frame(close, '8'),
        frame(finished, '1'),
      ];
      if (index === 0) return writeThenCut(res, all.slice(0, 4).join(''));
      res.end(all.slice(1).join(''));
    });
    const { events, error } = await delivered(server.url);
    expect(error).toBeUndefined();
    expect(deltas(events)).toBe('Hello');
    expect(events).toHaveLength(6);
  });
});
