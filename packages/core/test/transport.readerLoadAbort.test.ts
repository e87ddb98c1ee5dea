/**
 * httpSseSource reads answers with a chunk loaded on demand (sseBody.ts). On
 * a slow network that chunk may still be on its way when a run starts, and
 * for as long as it takes: an abort meanwhile must end the run at once.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RunAgentInput } from '../src/index.js';

afterEach(() => {
  vi.doUnmock('../src/transports/sseBody.js');
  vi.resetModules();
});

const input: RunAgentInput = { threadId: 't1', runId: 'r1', messages: [], tools: [], context: [], state: {}, forwardedProps: {} };
const within = <T>(p: Promise<T>, ms: number) => Promise.race([p, new Promise<'pending'>((r) => setTimeout(() => r('pending'), ms))]);
const nameOf = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: unknown) => (e as Error).name,
  );

/** The package, with the chunk that reads answers still loading (it never arrives), and a count of the requests sent. */
async function stalledReader() {
  vi.doMock('../src/transports/sseBody.js', () => new Promise(() => undefined));
  vi.resetModules();
  const core = await import('../src/index.js');
  const sent = { count: 0 };
  const source = core.httpSseSource({
    url: 'http://agent.test/run',
    fetch: async () => {
      sent.count++;
      return new Response('', { headers: { 'content-type': 'text/event-stream' } });
    },
  });
  return { core, source, sent };
}

describe('httpSseSource: an abort while the code that reads answers is still loading', () => {
  it('ends run() at once with the abort, having sent nothing, reporting the connection as deliver() does', async () => {
    const { source, sent } = await stalledReader();
    const controller = new AbortController();
    const statuses: string[] = [];
    const drained = (async () => {
      for await (const _ of source.run(input, { signal: controller.signal, onConnection: (s) => statuses.push(s) }));
    })();
    setTimeout(() => controller.abort(), 20);
    expect(await within(nameOf(drained), 1000)).toBe('AbortError');
    expect(statuses).toEqual(['connecting', 'closed']);
    expect(sent.count).toBe(0);
  });

  it('ends deliver() at once with the abort, reporting the connection closed', async () => {
    const { source, sent } = await stalledReader();
    const controller = new AbortController();
    const statuses: string[] = [];
    const delivered = source.deliver?.(
      input,
      { signal: controller.signal, onConnection: (s) => statuses.push(s) },
      () => undefined,
    ) as Promise<void>;
    setTimeout(() => controller.abort(), 20);
    expect(await within(nameOf(delivered), 1000)).toBe('AbortError');
    expect(statuses).toEqual(['connecting', 'closed']);
    expect(sent.count).toBe(0);
  });

  it('reports the same connection through run() and deliver() for a signal aborted before either starts', async () => {
    const core = await import('../src/index.js');
    const source = core.httpSseSource({ url: 'http://agent.test/run', fetch: async () => new Response('') });
    const viaRun: string[] = [];
    const viaDeliver: string[] = [];
    const signal = AbortSignal.abort();
    const ran = (async () => {
      for await (const _ of source.run(input, { signal, onConnection: (s) => viaRun.push(s) }));
    })();
    expect(await nameOf(ran)).toBe('AbortError');
    const delivered = source.deliver?.(input, { signal, onConnection: (s) => viaDeliver.push(s) }, () => undefined) as Promise<void>;
    expect(await nameOf(delivered)).toBe('AbortError');
    expect(viaDeliver).toEqual(['connecting', 'closed']);
    expect(viaRun).toEqual(viaDeliver);
  });
});
