/**
 * An abort must end a run promptly at every stage, including one made from
 * the source's own callbacks (an app that stops a run when it sees it
 * reconnecting), before a long reconnect delay.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { httpSseSource, type RunAgentInput } from '../src/index.js';
import { closeServers, serve } from './support/loopbackServer.js';

afterEach(closeServers);

const input: RunAgentInput = { threadId: 't1', runId: 'r1', messages: [], tools: [], context: [], state: {}, forwardedProps: {} };
const started = { type: 'RUN_STARTED', threadId: 't1', runId: 'r1' };
const within = <T>(p: Promise<T>, ms: number) => Promise.race([p, new Promise<'pending'>((r) => setTimeout(() => r('pending'), ms))]);
const nameOf = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: unknown) => (e as Error).name,
  );

/** A server that sends the run's first event with an id, then cuts the connection: a reconnect follows. */
const cutAfterFirst = () =>
  serve(async (res) => {
    res.writeHead(200, { 'Content-Type': 'text/event-stream' });
    res.write(`id: 1\ndata: ${JSON.stringify(started)}\n\n`);
    await new Promise((r) => setTimeout(r, 5));
    res.socket?.destroy();
  });

describe('httpSseSource: an abort made as the source reports reconnecting', () => {
  it('ends run() at once with an AbortError, without waiting out the reconnect delay', async () => {
    const server = await cutAfterFirst();
    const controller = new AbortController();
    const events = httpSseSource({ url: server.url, reconnect: { attempts: 2, delayMs: 10_000 } }).run(input, {
      signal: controller.signal,
      onConnection: (status) => status === 'reconnecting' && controller.abort(),
    });
    const drained = (async () => {
      for await (const _ of events);
    })();
    expect(await within(nameOf(drained), 1000)).toBe('AbortError');
    expect(server.requests).toHaveLength(1);
  });

  it('ends deliver() at once with an AbortError, without waiting out the reconnect delay', async () => {
    const server = await cutAfterFirst();
    const controller = new AbortController();
    const delivered = httpSseSource({ url: server.url, reconnect: { attempts: 2, delayMs: 10_000 } }).deliver?.(
      input,
      { signal: controller.signal, onReconnecting: () => controller.abort() },
      () => undefined,
    ) as Promise<void>;
    expect(await within(nameOf(delivered), 1000)).toBe('AbortError');
    expect(server.requests).toHaveLength(1);
  });
});

describe('httpSseSource: an abort made as the source reports the stream open', () => {
  /** A fetch that ignores its signal (some polyfills do), answering with a stream that says nothing yet (the agent thinks). */
  const deafFetch = (async () =>
    new Response(new ReadableStream<Uint8Array>(), { headers: { 'Content-Type': 'text/event-stream' } })) as typeof fetch;

  it.each(['onConnection', 'onServerTime'] as const)('ends deliver() at once with an AbortError when %s aborts', async (callback) => {
    const controller = new AbortController();
    const source = httpSseSource({
      url: 'http://agent.test/run',
      fetch: async (...args) => {
        const response = await deafFetch(...args);
        if (callback === 'onServerTime') response.headers.set('Date', new Date().toUTCString());
        return response;
      },
    });
    const delivered = source.deliver?.(
      input,
      {
        signal: controller.signal,
        ...(callback === 'onConnection'
          ? { onConnection: (status: string) => status === 'open' && controller.abort() }
          : { onServerTime: () => controller.abort() }),
      },
      () => undefined,
    ) as Promise<void>;
    expect(await within(nameOf(delivered), 1000)).toBe('AbortError');
  });

  it('ends run() at once with an AbortError when onConnection aborts', async () => {
    const controller = new AbortController();
    const events = httpSseSource({ url: 'http://agent.test/run', fetch: deafFetch }).run(input, {
      signal: controller.signal,
      onConnection: (status) => status === 'open' && controller.abort(),
    });
    const drained = (async () => {
      for await (const _ of events);
    })();
    expect(await within(nameOf(drained), 1000)).toBe('AbortError');
  });
});
