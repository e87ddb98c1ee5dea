/**
 * Sources that misbehave as an app's own sources do: `capabilities()` that
 * throws or gives no promise, a stream that ignores its abort signal, a
 * connection callback after the stream ended, a bug of the source's own,
 * events whose members are inherited. And a saved thread cut off mid-run.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { replaySession } from '../src/engine.js';
import {
  type AgentSource,
  createRunController,
  loadEngine,
  parseSession,
  type RunAgentInput,
  type SourceRunOptions,
  serializeSession,
} from '../src/index.js';
import { expectReplayed, finished, microScheduler, open, scripted, started, tick, view } from './support/controllerHarness.js';

beforeAll(() => loadEngine());

const quiet = { async *run() {} };

describe('capabilities()', () => {
  it('a source whose capabilities() throws synchronously does not make createRunController throw', () => {
    const source: AgentSource = {
      ...quiet,
      capabilities() {
        throw new Error('capabilities endpoint not configured');
      },
    };
    expect(() => createRunController({ source })).not.toThrow();
    // And with askCapabilities: 'when-held', askCapabilities() does not throw either.
    const c = createRunController({ source, askCapabilities: 'when-held' });
    expect(() => c.askCapabilities()).not.toThrow();
  });

  it('a source whose capabilities() returns a plain value (no promise) does not make createRunController throw', () => {
    const source = { ...quiet, capabilities: () => ({ tools: { supported: true } }) } as unknown as AgentSource;
    expect(() => createRunController({ source })).not.toThrow();
  });
});

describe('a source that ignores the abort signal', () => {
  const stuck = (): AgentSource => ({
    async *run(input) {
      yield started(input);
      // Never ends, never looks at the signal.
      await new Promise(() => undefined);
    },
  });

  it('run() settles once stop() ended the run, though the source never ends', async () => {
    const c = createRunController({ source: stuck(), scheduler: microScheduler });
    let settled: unknown;
    void c.run('hi').then((r) => {
      settled = r;
    });
    await tick();
    c.stop();
    for (let i = 0; i < 5; i++) await tick();
    expect(c.getSnapshot().thread.run.status).toBe('cancelled');
    expect(settled).toMatchObject({ ok: true });
  });

  it('run() settles once destroy() tore the stream down, though the source never ends', async () => {
    const c = createRunController({ source: stuck(), scheduler: microScheduler });
    let settled: unknown;
    void c.run('hi').then((r) => {
      settled = r;
    });
    await tick();
    c.destroy();
    for (let i = 0; i < 5; i++) await tick();
    expect(settled).toBeDefined();
  });
});

describe('onConnection called after the stream ended', () => {
  it('does not make the snapshot say the connection is open when nothing streams', async () => {
    let late: ((s: 'open' | 'reconnecting') => void) | undefined;
    const source: AgentSource = {
      async *run() {},
      async deliver(input, options, onEvent) {
        onEvent(started(input));
        onEvent(finished(input));
        late = options.onConnection as typeof late;
      },
    };
    const c = createRunController({ source, scheduler: microScheduler });
    await c.run('hi');
    await tick();
    expect(c.getSnapshot().connection).toBe('closed');
    // A late 'open' callback of the finished request.
    late?.('open');
    expect(c.getSnapshot().inFlight).toBeUndefined();
    expect(c.getSnapshot().connection).not.toBe('open');
    late?.('reconnecting');
    expect(c.getSnapshot().connection).not.toBe('reconnecting');
  });
});

describe('events and ids a source hands over after its request is over', () => {
  it("are not the thread's: a late message, end and id of a finished request change neither the next run nor where it resumes", async () => {
    const requests: { input: RunAgentInput; options: SourceRunOptions; onEvent: (event: unknown) => void }[] = [];
    const source: AgentSource = {
      async *run() {},
      async deliver(input, options, onEvent) {
        const n = requests.push({ input, options, onEvent }) - 1;
        if (n === 2) {
          // The reconnect: the rest of the second run.
          onEvent(finished(input));
          return;
        }
        onEvent(started(input));
        options.onEventId?.(`${n}-1`);
        if (n === 0) {
          onEvent(finished(input));
          return;
        }
        onEvent({ type: 'TEXT_MESSAGE_START', messageId: 'm2', role: 'assistant' });
        options.onEventId?.('1-2');
        // The first request's callbacks, called once it was over (a timer of a buggy source).
        const first = requests[0] as (typeof requests)[number];
        first.onEvent({ type: 'TEXT_MESSAGE_START', messageId: 'ghost', role: 'assistant' });
        first.onEvent({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'ghost', delta: 'from a request that is over' });
        first.onEvent(finished(first.input, { outcome: { type: 'interrupt', interrupts: [{ id: 'late', reason: 'confirmation' }] } }));
        // The second request ends cut off inside its run.
      },
    };
    const c = createRunController({ source, scheduler: microScheduler });
    await c.run('hi');
    await c.run('again');
    // The cut request's own callbacks, once it is over: an id past where it was cut, and an event.
    const cut = requests[1] as (typeof requests)[number];
    cut.options.onEventId?.('1-9');
    cut.onEvent({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm2', delta: 'never sent by this stream' });
    await tick();
    // The second run's own events only: its text message, empty when it was cut.
    expect(c.getSnapshot().thread.messages.byId.has('ghost')).toBe(false);
    expect(c.getSnapshot().thread.messages.byId.get('m2')?.content).toBe('');
    expect(c.getSnapshot().thread.interrupts).toEqual([]);
    expect(c.log.entries.filter((e) => e.type === 'event')).toHaveLength(4);
    expect(c.getSnapshot().failure).toMatchObject({ code: 'CONNECTION_LOST', reconnectable: true });
    expect(await c.reconnect()).toMatchObject({ ok: true, status: 'success' });
    expect(requests[2]?.options.lastEventId).toBe('1-2');
    expectReplayed(c);
  });
});

describe("a source's own bug", () => {
  it('a TypeError thrown by the source (a bug, not fetch) is not reported as NETWORK with the thrown message lost', async () => {
    const source: AgentSource = {
      // biome-ignore lint/correctness/useYield: throws before its first event
      async *run() {
        const config = undefined as unknown as { url: string };
        // TypeError: Cannot read properties of undefined (reading 'url').
        return config.url;
      },
    };
    const c = createRunController({ source, scheduler: microScheduler });
    await c.run('hi');
    const failure = c.getSnapshot().failure;
    // Still NETWORK (fetch rejects with a TypeError too), but what failed is said.
    expect(failure?.message).toContain("reading 'url'");
  });
});

describe('events that are not plain JSON objects', () => {
  it('an event whose members are inherited (Object.create) replays from the saved file as it showed live', async () => {
    const source: AgentSource = {
      async *run(input) {
        yield Object.create(started(input));
        yield { type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant' };
        yield { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'hello' };
        yield { type: 'TEXT_MESSAGE_END', messageId: 'm' };
        yield finished(input);
      },
    };
    const c = createRunController({ source, scheduler: microScheduler });
    await c.run('hi');
    const saved = replaySession(parseSession(serializeSession(c.log.entries)).entries);
    // Live, the RUN_STARTED's inherited runId was read (the reply carries it); the saved file holds `{}` for it.
    expect(view(saved)).toEqual(view(c.getSnapshot().thread));
  });
});

describe('a thread saved mid-run', () => {
  it('reconnect() on a controller made from an autosave cut off mid-run is NO_RESUME_POINT, not "No run was cut off"', async () => {
    const { source } = scripted((n, input, emit, signal) => {
      emit(started(input));
      emit({ type: 'TEXT_MESSAGE_START', messageId: `a${n}`, role: 'assistant' });
      if (n === 0) return open(signal);
      emit(finished(input));
    });
    const first = createRunController({ source, scheduler: microScheduler });
    void first.run('hi');
    await tick();
    await tick();
    // The tab dies mid-stream.
    const autosave = serializeSession(first.log.entries);
    first.destroy();
    const c = createRunController({ source, scheduler: microScheduler, log: parseSession(autosave).entries });
    // The snapshot shows the run cut off (`unknown`).
    expect(c.getSnapshot().thread.run.status).toBe('unknown');
    const r = (await c.reconnect()) as { ok: false; code: string; message: string };
    expect(r.ok).toBe(false);
    // A run was cut off, in a session before this one: there is no stream to go on from, and the refusal says so.
    expect(r.message).not.toMatch(/No run was cut off/);
    expect(r.code).toBe('NO_RESUME_POINT');
  });
});

describe('event ids a source of the app gives', () => {
  it('a number is taken as its digits, and what no header can carry (an object) is ignored, so a reconnect resumes after the last id', async () => {
    const asked: (string | undefined)[] = [];
    let n = 0;
    const source: AgentSource = {
      async *run(input, options = {}) {
        asked.push(options.lastEventId);
        if (n++ === 0) {
          options.onEventId?.(42 as unknown as string);
          yield started(input);
          options.onEventId?.({} as unknown as string);
          yield { type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant' };
          return;
        }
        yield { type: 'TEXT_MESSAGE_END', messageId: 'm' };
        yield finished(input);
      },
    };
    const c = createRunController({ source, scheduler: microScheduler });
    await c.run('hi');
    expect(c.getSnapshot().thread.run.status).toBe('unknown');
    expect(await c.reconnect()).toMatchObject({ ok: true, status: 'success' });
    expect(asked).toEqual([undefined, '42']);
  });
});

describe('values an in-process source hands over with toJSON', () => {
  it("are taken as JSON.stringify writes them, toJSON called with the member's key, so a saved log replays as the thread showed", async () => {
    const keyed = { toJSON: (key: string) => `written under ${JSON.stringify(key)}` };
    const source: AgentSource = {
      async *run(input) {
        yield started(input);
        yield { type: 'CUSTOM', name: 'order', value: { total: keyed, lines: [keyed] } };
        yield finished(input);
      },
    };
    const c = createRunController({ source, scheduler: microScheduler });
    await c.run('hi');
    expect(c.getSnapshot().thread.custom[0]?.value).toEqual({ total: 'written under "total"', lines: ['written under "0"'] });
    const saved = replaySession(parseSession(serializeSession(c.log.entries)).entries);
    expect(view(saved)).toEqual(view(c.getSnapshot().thread));
  });
});

describe('no source', () => {
  it.each([
    ['no options', undefined],
    ['options without a source', {}],
    ['a source with no run()', { source: {} }],
    ['a source whose run is no function', { source: { run: 'https://agent.example' } }],
  ])('createRunController with %s throws a TypeError that says a source is needed and what one is', (_name, options) => {
    expect(() => createRunController(options as never)).toThrow(TypeError);
    expect(() => createRunController(options as never)).toThrow(
      /createRunController needs a `source`.*run\(input, options\).*httpSseSource/,
    );
  });
});
