import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpAgent } from '@ag-ui/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyJsonPatch, createEventPipeline } from '../src/engine.js';
import {
  type AgUiAgentLike,
  agUiAgentSource,
  type ConnectionStatus,
  createRunController,
  isLargeObject,
  loadEngine,
  type RunAgentInput,
} from '../src/index.js';
import { LARGE_OBJECT_KEYS } from '../src/internal.js';

const input: RunAgentInput = {
  threadId: 't1',
  runId: 'r1',
  messages: [{ id: 'u1', role: 'user', content: 'Refund order 42' }],
  tools: [],
  context: [],
  state: {},
  forwardedProps: {},
};

const started = { type: 'RUN_STARTED', threadId: 't1', runId: 'r1' };
const finished = { type: 'RUN_FINISHED', threadId: 't1', runId: 'r1' };
const custom = (n: number) => ({ type: 'CUSTOM', name: 'n', value: n });

interface Observer {
  next: (event: unknown) => void;
  error: (error: unknown) => void;
  complete: () => void;
}

/**
 * A tiny agent with the shape of an `@ag-ui/client` agent: `run(input)` returns
 * something with `subscribe`. `script` drives the observer; like an Observable,
 * nothing reaches the observer after unsubscribe.
 */
function fakeAgent(script: (observer: Observer) => void) {
  const inputs: RunAgentInput[] = [];
  const unsubscribe = vi.fn();
  const agent: AgUiAgentLike = {
    run(runInput) {
      inputs.push(runInput);
      return {
        subscribe(observer) {
          let active = true;
          const guard =
            <A extends unknown[]>(f: (...args: A) => void) =>
            (...args: A) => {
              if (active) f(...args);
            };
          script({ next: guard(observer.next), error: guard(observer.error), complete: guard(observer.complete) });
          return {
            unsubscribe() {
              active = false;
              unsubscribe();
            },
          };
        },
      };
    },
  };
  return { agent, inputs, unsubscribe };
}

const pause = (ms = 2) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function collect(events: AsyncIterable<unknown>, into: unknown[] = []): Promise<unknown[]> {
  for await (const event of events) into.push(event);
  return into;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (e) {
    return e;
  }
  throw new Error('expected the promise to reject');
}

describe('agUiAgentSource', () => {
  it('runs the agent with the input and yields its events in order, then ends on completion', async () => {
    const events = [started, custom(1), custom(2), finished];
    const { agent, inputs, unsubscribe } = fakeAgent((o) => {
      void (async () => {
        for (const event of events) {
          await pause(1);
          o.next(event);
        }
        o.complete();
      })();
    });
    const statuses: ConnectionStatus[] = [];
    expect(await collect(agUiAgentSource(agent).run(input, { onConnection: (s) => statuses.push(s) }))).toEqual(events);
    expect(inputs).toEqual([input]);
    expect(inputs[0]).toBe(input);
    expect(statuses).toEqual(['connecting', 'open', 'closed']);
    expect(unsubscribe).toHaveBeenCalled();
  });

  it('hands over each event as JSON would carry it, a copy the agent cannot change afterwards', async () => {
    const state: Record<string, unknown> = { items: ['a'] };
    const { agent } = fakeAgent((o) => {
      o.next(started);
      o.next({ type: 'STATE_SNAPSHOT', snapshot: state });
      // What JSON cannot hold goes as JSON writes it: NaN as null, an undefined member left out (in a list, null).
      o.next({ type: 'STATE_DELTA', delta: [{ op: 'add', path: '/n', value: Number.NaN }], metadata: undefined });
      o.next({ type: 'CUSTOM', name: 'odd', value: { gone: undefined, list: [undefined, Number.POSITIVE_INFINITY] } });
      o.next(finished);
      o.complete();
      // The agent goes on with its own object once it emitted it.
      (state.items as string[]).push('b');
    });
    const events = await collect(agUiAgentSource(agent).run(input));
    expect(events).toEqual([
      started,
      { type: 'STATE_SNAPSHOT', snapshot: { items: ['a'] } },
      { type: 'STATE_DELTA', delta: [{ op: 'add', path: '/n', value: null }] },
      { type: 'CUSTOM', name: 'odd', value: { list: [null, null] } },
      finished,
    ]);
    expect(Object.keys(events[2] as object)).toEqual(['type', 'delta']);
  });

  it('hands over as it is an event JSON cannot write (a cycle, a BigInt), for the thread to refuse or keep', async () => {
    const cyclic: Record<string, unknown> = { type: 'CUSTOM', name: 'loop' };
    cyclic.value = cyclic;
    const big = { type: 'CUSTOM', name: 'big', value: 10n };
    const { agent } = fakeAgent((o) => {
      o.next(cyclic);
      o.next(big);
      o.complete();
    });
    const events = await collect(agUiAgentSource(agent).run(input));
    expect(events[0]).toBe(cyclic);
    expect(events[1]).toBe(big);
  });

  it('hands the agent a plain copy of a shared state that holds a large object, which structuredClone accepts', async () => {
    const big = Object.fromEntries(Array.from({ length: LARGE_OBJECT_KEYS + 1 }, (_, i) => [`k${i}`, i]));
    const patched = applyJsonPatch({ big }, [{ op: 'replace', path: '/big/k0', value: 'zero' }]);
    if (!patched.ok) throw new Error(patched.message);
    const { agent, inputs } = fakeAgent((o) => o.complete());
    await collect(agUiAgentSource(agent).run({ ...input, state: patched.document }));
    const sent = inputs[0]?.state as { big: Record<string, unknown> };
    expect(isLargeObject(sent.big)).toBe(false);
    expect(structuredClone(sent)).toEqual({ big: { ...big, k0: 'zero' } });
  });

  it('does not subscribe until iteration starts, and subscribes once per run', async () => {
    const { agent, inputs } = fakeAgent((o) => o.complete());
    const source = agUiAgentSource(agent);
    const events = source.run(input);
    expect(inputs).toHaveLength(0);
    await collect(events);
    await collect(source.run(input));
    expect(inputs).toHaveLength(2);
  });

  it('keeps every event of thousands emitted synchronously before the first read, in order', async () => {
    const count = 20_000;
    const { agent } = fakeAgent((o) => {
      o.next(started);
      for (let i = 0; i < count; i++) o.next(custom(i));
      o.next(finished);
      o.complete();
    });
    const t0 = performance.now();
    const events = await collect(agUiAgentSource(agent).run(input));
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(events).toHaveLength(count + 2);
    expect(events[0]).toEqual(started);
    expect(events.at(-1)).toEqual(finished);
    const values = events.slice(1, -1).map((e) => (e as { value: number }).value);
    expect(values.every((v, i) => v === i)).toBe(true);
  });

  it('keeps events emitted while the consumer is busy with an earlier one', async () => {
    let emit: Observer | undefined;
    const { agent } = fakeAgent((o) => {
      emit = o;
      o.next(started);
    });
    const received: unknown[] = [];
    for await (const event of agUiAgentSource(agent).run(input)) {
      received.push(event);
      if (received.length === 1) {
        emit?.next(custom(1));
        emit?.next(custom(2));
        emit?.complete();
      }
      if (received.length > 10) break;
    }
    expect(received).toEqual([started, custom(1), custom(2)]);
  });

  it("throws the agent's own error after the events before it, and reports failed", async () => {
    const boom = new Error('model quota exceeded');
    const { agent, unsubscribe } = fakeAgent((o) => {
      o.next(started);
      setTimeout(() => {
        o.next(custom(1));
        o.error(boom);
      }, 2);
    });
    const statuses: ConnectionStatus[] = [];
    const received: unknown[] = [];
    const error = await rejection(collect(agUiAgentSource(agent).run(input, { onConnection: (s) => statuses.push(s) }), received));
    expect(error).toBe(boom);
    expect(received).toEqual([started, custom(1)]);
    expect(statuses).toEqual(['connecting', 'open', 'failed']);
    expect(unsubscribe).toHaveBeenCalled();
  });

  it('throws a synchronous error from subscribe too', async () => {
    const boom = { reason: 'not an Error instance' };
    const { agent } = fakeAgent((o) => o.error(boom));
    expect(await rejection(collect(agUiAgentSource(agent).run(input)))).toBe(boom);
  });

  it('an abort while waiting unsubscribes and ends promptly with an AbortError', async () => {
    const { agent, unsubscribe } = fakeAgent((o) => o.next(started));
    const controller = new AbortController();
    const statuses: ConnectionStatus[] = [];
    const received: unknown[] = [];
    setTimeout(() => controller.abort(), 10);
    const t0 = performance.now();
    const error = await rejection(
      collect(agUiAgentSource(agent).run(input, { signal: controller.signal, onConnection: (s) => statuses.push(s) }), received),
    );
    expect(performance.now() - t0).toBeLessThan(250);
    expect(error).toMatchObject({ name: 'AbortError' });
    expect(received).toEqual([started]);
    expect(unsubscribe).toHaveBeenCalled();
    expect(statuses).toEqual(['connecting', 'open', 'closed']);
  });

  it('is open once the agent answers (its first event), not as it is asked: an agent over HTTP may not have answered yet', async () => {
    let emit: Observer | undefined;
    const { agent } = fakeAgent((o) => {
      emit = o;
    });
    const statuses: ConnectionStatus[] = [];
    const done = collect(agUiAgentSource(agent).run(input, { onConnection: (s) => statuses.push(s) }));
    await pause();
    expect(statuses).toEqual(['connecting']);
    emit?.next(started);
    emit?.next(finished);
    emit?.complete();
    await done;
    expect(statuses).toEqual(['connecting', 'open', 'closed']);
  });

  it('gives back the answers of a resume stopped before the agent answered it, as over HTTP', async () => {
    await loadEngine();
    let runs = 0;
    const agent: AgUiAgentLike = {
      run(runInput) {
        const n = runs++;
        return {
          subscribe(o) {
            // The first run asks to confirm a refund; the resume's request gets no answer (its response has not come).
            if (n === 0)
              queueMicrotask(() => {
                o.next({ type: 'RUN_STARTED', threadId: runInput.threadId, runId: runInput.runId });
                o.next({
                  type: 'RUN_FINISHED',
                  threadId: runInput.threadId,
                  runId: runInput.runId,
                  outcome: { type: 'interrupt', interrupts: [{ id: 'int-refund', reason: 'confirmation', message: '退款 42 元？' }] },
                });
                o.complete();
              });
            return { unsubscribe() {} };
          },
        };
      },
    };
    const controller = createRunController({ source: agUiAgentSource(agent), threadId: 't1' });
    await controller.run('Refund order 42');
    expect(controller.getSnapshot().thread.interrupts.map((i) => i.id)).toEqual(['int-refund']);
    const resumed = controller.resume([{ interruptId: 'int-refund', status: 'resolved', payload: { approved: true } }]);
    for (let i = 0; i < 50 && !controller.log.entries.some((e) => e.type === 'resume'); i++) await pause();
    expect(controller.getSnapshot().inFlight).toBe('resume');
    controller.stop();
    await resumed;
    expect(controller.log.entries.some((e) => e.type === 'resume_taken')).toBe(false);
    expect(controller.getSnapshot().thread.interrupts.map((i) => i.id)).toEqual(['int-refund']);
    controller.destroy();
  });

  it('an abort mid-stream delivers nothing more, even events already queued', async () => {
    const { agent, unsubscribe } = fakeAgent((o) => {
      o.next(started);
      for (let i = 1; i <= 5; i++) o.next(custom(i));
    });
    const controller = new AbortController();
    const received: unknown[] = [];
    const error = await rejection(
      (async () => {
        for await (const event of agUiAgentSource(agent).run(input, { signal: controller.signal })) {
          received.push(event);
          if (received.length === 2) controller.abort();
        }
      })(),
    );
    expect(error).toMatchObject({ name: 'AbortError' });
    expect(received).toEqual([started, custom(1)]);
    expect(unsubscribe).toHaveBeenCalled();
  });

  it('the abort reason is what the iteration throws', async () => {
    const { agent } = fakeAgent(() => undefined);
    const controller = new AbortController();
    const reason = new Error('user pressed stop');
    setTimeout(() => controller.abort(reason), 2);
    expect(await rejection(collect(agUiAgentSource(agent).run(input, { signal: controller.signal })))).toBe(reason);
  });

  it('unsubscribes when the consumer stops early', async () => {
    const { agent, unsubscribe } = fakeAgent((o) => {
      o.next(started);
      o.next(custom(1));
    });
    for await (const event of agUiAgentSource(agent).run(input)) {
      expect(event).toEqual(started);
      break;
    }
    expect(unsubscribe).toHaveBeenCalledTimes(1);
  });
});

describe('agUiAgentSource over a real @ag-ui/client HttpAgent', () => {
  const servers: Server[] = [];

  afterEach(async () => {
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  /** An SSE endpoint on the loopback interface that writes `frames`, one chunk each. */
  async function serve(frames: readonly string[]): Promise<{ url: string; requests: { headers: IncomingHttpHeaders; body: string }[] }> {
    const requests: { headers: IncomingHttpHeaders; body: string }[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', async () => {
        requests.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.socket?.setNoDelay(true);
        res.writeHead(200, { 'Content-Type': 'text/event-stream' });
        for (const frame of frames) {
          res.write(frame);
          await pause(1);
        }
        res.end();
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const { port } = server.address() as AddressInfo;
    return { url: `http://127.0.0.1:${port}/agent`, requests };
  }

  it('yields the events the HttpAgent parsed from the stream, and they reduce to the expected thread', async () => {
    const events = [
      started,
      { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'Refund ' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'approved 👩‍👩‍👧.' },
      { type: 'TEXT_MESSAGE_END', messageId: 'm1' },
      { type: 'STATE_SNAPSHOT', snapshot: { refunded: true } },
      finished,
    ];
    const server = await serve([': hello\n\n', ...events.map((e) => `data: ${JSON.stringify(e)}\n\n`)]);
    const statuses: ConnectionStatus[] = [];
    const pipeline = createEventPipeline();
    const received: unknown[] = [];
    for await (const raw of agUiAgentSource(new HttpAgent({ url: server.url })).run(input, { onConnection: (s) => statuses.push(s) })) {
      received.push(raw);
      pipeline.push(raw);
    }
    expect(received).toHaveLength(events.length);
    for (const [i, event] of events.entries()) expect(received[i]).toMatchObject(event);
    const state = pipeline.end();
    expect(state.run.status).toBe('success');
    expect(state.messages.byId.get('m1')?.content).toBe('Refund approved 👩‍👩‍👧.');
    expect(state.sharedState.document).toEqual({ refunded: true });
    expect(state.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(statuses).toEqual(['connecting', 'open', 'closed']);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.headers.accept).toBe('text/event-stream');
    expect(JSON.parse(server.requests[0]?.body ?? '')).toMatchObject({ threadId: 't1', runId: 'r1', messages: input.messages });
  });
});
