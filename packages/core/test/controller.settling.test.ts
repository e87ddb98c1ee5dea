/**
 * Every action settles, and settles the thread: a resume that fails before
 * any event leaves its interrupts open, a frontend tool an interrupt holds
 * waits for the answer, `stop()` ends a request still waiting for the app's
 * headers, a message the agent opens after its run ended stops streaming
 * when the stream ends, and a quoted error body is whole text.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createRunController,
  type FrameScheduler,
  type HttpSseSourceOptions,
  httpSseSource,
  loadEngine,
  parseSession,
  type RunAgentInput,
  serializeSession,
} from '../src/index.js';
import {
  type Emit,
  expectReplayed,
  finished,
  held,
  microScheduler,
  scripted,
  started,
  tick,
  toolCall,
} from './support/controllerHarness.js';

beforeAll(() => loadEngine());

const sse = (events: unknown[]) =>
  new Response(events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join(''), { headers: { 'content-type': 'text/event-stream' } });
const interrupted = (input: RunAgentInput, id: string, toolCallId?: string) =>
  finished(input, {
    outcome: { type: 'interrupt', interrupts: [{ id, reason: 'confirmation', message: 'ok?', ...(toolCallId ? { toolCallId } : {}) }] },
  });
const approve = (approved: boolean) => [{ interruptId: 'i1', status: 'resolved' as const, payload: { approved } }];
/** The agent's answer: a 200 event stream that breaks before its first event. */
const broken = () =>
  new Response(
    new ReadableStream({
      start(controller) {
        controller.error(new Error('socket hang up'));
      },
    }),
    { headers: { 'content-type': 'text/event-stream' } },
  );
/** No answer until the request is aborted. */
const hanging = (init: RequestInit | undefined) =>
  new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)));

/** Half of a surrogate pair, alone (a paired one is one code point, which \p{Cs} does not match). */
const LONE_SURROGATE = /\p{Cs}/u;

/** A controller over an HTTP agent whose n-th request (from 1) gets `answer`; every request's input is kept. */
function httpAgent(
  answer: (input: RunAgentInput, n: number, init: RequestInit | undefined) => Response | Promise<Response>,
  options: Partial<HttpSseSourceOptions> = {},
) {
  const posted: RunAgentInput[] = [];
  const source = httpSseSource({
    url: 'http://agent.test/run',
    ...options,
    fetch: async (_url, init) => {
      const input = JSON.parse(String(init?.body)) as RunAgentInput;
      posted.push(input);
      return answer(input, posted.length, init);
    },
  });
  return { posted, c: createRunController({ source, scheduler: microScheduler }) };
}

describe('a resume that fails before any event', () => {
  it("keeps its interrupts open when the app's headers() throws: answering again sends it", async () => {
    let tokenExpired = false;
    const { c, posted } = httpAgent(
      (input, n) => sse(n === 1 ? [started(input), interrupted(input, 'i1')] : [started(input), finished(input)]),
      {
        headers: () => {
          if (tokenExpired) throw new Error('token expired');
          return { authorization: 'Bearer t' };
        },
      },
    );
    await c.run('Refund order A-1001');
    expect(c.getSnapshot().thread.interrupts.map((i) => i.id)).toEqual(['i1']);
    tokenExpired = true;
    const failed = await c.resume(approve(true));
    expect(failed).toMatchObject({ status: 'error' });
    expect(c.getSnapshot().failure?.code).toBe('INVALID_REQUEST');
    expect(posted).toHaveLength(1);
    // The agent never got the answer: the question is still open, and the thread says so.
    expect(c.getSnapshot().thread.interrupts.map((i) => i.id)).toEqual(['i1']);
    expectReplayed(c);
    tokenExpired = false;
    const again = await c.resume(approve(true));
    expect(again.ok).toBe(true);
    expect(posted).toHaveLength(2);
    expect(posted[1]?.resume).toEqual(approve(true));
    expect(c.getSnapshot().thread.interrupts).toEqual([]);
    expect(c.getSnapshot().thread.run.status).toBe('success');
    expectReplayed(c);
  });

  it('keeps its interrupts open when the agent answers 422 to the resume', async () => {
    const { c, posted } = httpAgent((input, n) =>
      n === 2
        ? new Response('payload.approved is required', { status: 422 })
        : sse([started(input), n === 1 ? interrupted(input, 'i1') : finished(input)]),
    );
    await c.run('Refund order A-1001');
    expect(await c.resume([{ interruptId: 'i1', status: 'resolved', payload: {} }])).toMatchObject({ status: 'error' });
    expect(c.getSnapshot().failure).toMatchObject({ code: 'HTTP_STATUS', status: 422 });
    expect(c.getSnapshot().thread.interrupts.map((i) => i.id)).toEqual(['i1']);
    expectReplayed(c);
    expect((await c.resume(approve(true))).ok).toBe(true);
    expect(posted).toHaveLength(3);
    expect(c.getSnapshot().thread.interrupts).toEqual([]);
    expectReplayed(c);
  });
});

describe('a resume stopped before its first event', () => {
  it('gives its interrupts back: the agent never said it took the answer, and the user may answer otherwise', async () => {
    const { c, posted } = httpAgent((input, n, init) =>
      n === 2
        ? new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)))
        : sse([started(input), n === 1 ? interrupted(input, 'i1', 'c1') : finished(input)]),
    );
    await c.run('Refund order A-1001');
    const resuming = c.resume(approve(true));
    await tick();
    expect(c.getSnapshot().thread.interrupts).toEqual([]);
    c.stop();
    await resuming;
    expect(c.getSnapshot().thread.interrupts.map((i) => i.id)).toEqual(['i1']);
    expect(c.getSnapshot().thread.answers).toEqual([]);
    expectReplayed(c);
    expect((await c.resume(approve(false))).ok).toBe(true);
    expect(posted[2]?.resume).toEqual(approve(false));
    expect(c.getSnapshot().thread.interrupts).toEqual([]);
    expectReplayed(c);
  });
});

describe('a resume stopped once the agent answered, before its first event', () => {
  /** A run that asks to confirm, and its resume, which the agent answers at once and is quiet on while it works. */
  async function resumeAnsweredQuietly() {
    const { c, posted } = httpAgent((input, n, init) => {
      if (n !== 2) return sse([started(input), interrupted(input, 'i1')]);
      const body = new ReadableStream({
        start(controller) {
          init?.signal?.addEventListener('abort', () => controller.error(init.signal?.reason));
        },
      });
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    });
    await c.run('Transfer 500 EUR');
    const resuming = c.resume(approve(true));
    for (let i = 0; i < 20 && c.getSnapshot().connection !== 'open'; i++) await tick();
    expect(c.getSnapshot().connection).toBe('open');
    return { c, posted, resuming };
  }

  it('stays answered: the agent took the answers and may be acting on them', async () => {
    const { c, posted, resuming } = await resumeAnsweredQuietly();
    c.stop();
    await resuming;
    expect(c.getSnapshot().thread.interrupts).toEqual([]);
    expect(c.getSnapshot().thread.answers.map((a) => a.interruptId)).toEqual(['i1']);
    expect(posted).toHaveLength(2);
    expectReplayed(c);
  });
  it('stays answered in a log saved meanwhile: a controller made from it (a reload) does not give the answers back', async () => {
    const { c, posted, resuming } = await resumeAnsweredQuietly();
    // Saved while the agent works on the answer (a reload's storage, a download): no stop or destroy in it.
    const saved = [...c.log.entries];
    const again = createRunController({ source: httpSseSource({ url: 'http://agent.test/run' }), log: saved });
    expect(again.getSnapshot().thread.interrupts).toEqual([]);
    expect(again.getSnapshot().thread.answers.map((a) => a.interruptId)).toEqual(['i1']);
    expect((await again.resume(approve(false))).ok).toBe(false);
    // Read back from the file the playground downloads, it says the same.
    const text = serializeSession(saved);
    const read = createRunController({ source: httpSseSource({ url: 'http://agent.test/run' }), log: parseSession(text).entries });
    expect(read.getSnapshot().thread.interrupts).toEqual([]);
    c.stop();
    await resuming;
    expect(posted).toHaveLength(2);
  });

  it('gives the answers back when the stream the agent answered with fails before its first event in a way it cannot have taken (a frame too large)', async () => {
    const { c } = httpAgent(
      (input, n) =>
        n === 1
          ? sse([started(input), interrupted(input, 'i1')])
          : new Response(`data: ${'x'.repeat(5000)}\n\n`, { headers: { 'content-type': 'text/event-stream' } }),
      { maxFrameBytes: 1000 },
    );
    await c.run('Transfer 500 EUR');
    await c.resume(approve(true));
    expect(c.log.entries.some((e) => e.type === 'resume_taken')).toBe(true);
    expect(c.getSnapshot().thread.interrupts.map((i) => i.id)).toEqual(['i1']);
    expectReplayed(c);
    // Read back from the log, the same.
    const again = createRunController({ source: httpSseSource({ url: 'http://agent.test/run' }), log: [...c.log.entries] });
    expect(again.getSnapshot().thread.interrupts.map((i) => i.id)).toEqual(['i1']);
  });

  it('gives the answers back in a log saved while the agent had not answered yet: it never took them', async () => {
    const { c } = httpAgent((input, n, init) => (n !== 2 ? sse([started(input), interrupted(input, 'i1')]) : hanging(init)));
    await c.run('Transfer 500 EUR');
    const resuming = c.resume(approve(true));
    for (let i = 0; i < 20 && c.getSnapshot().connection !== 'connecting'; i++) await tick();
    expect(c.getSnapshot().connection).toBe('connecting');
    const again = createRunController({ source: httpSseSource({ url: 'http://agent.test/run' }), log: [...c.log.entries] });
    expect(again.getSnapshot().thread.interrupts.map((i) => i.id)).toEqual(['i1']);
    c.stop();
    await resuming;
  });
});

describe('a resume the agent answered, then lost and being retried by the source (reconnect)', () => {
  it.each([
    ['waiting for the next attempt', 200, 2],
    ['waiting for the next attempt to be answered', 1, 3],
  ])(
    'stays answered when stop() comes %s: the agent took the answers, and a second answer is refused',
    async (_when, delayMs, requests) => {
      const { c, posted } = httpAgent(
        (input, n, init) => (n === 1 ? sse([started(input), interrupted(input, 'i1')]) : n === 2 ? broken() : hanging(init)),
        { reconnect: { attempts: 3, delayMs } },
      );
      await c.run('Transfer 500 EUR');
      const resuming = c.resume(approve(true));
      for (let i = 0; i < 50 && posted.length < requests; i++) await tick();
      for (let i = 0; i < 50 && c.getSnapshot().connection !== 'reconnecting'; i++) await tick();
      expect([posted.length, c.getSnapshot().connection]).toEqual([requests, 'reconnecting']);
      c.stop();
      await resuming;
      expect(c.getSnapshot().thread.interrupts).toEqual([]);
      expect(c.getSnapshot().thread.answers.map((a) => a.interruptId)).toEqual(['i1']);
      expect((await c.resume(approve(false))).ok).toBe(false);
      expect(posted.filter((p) => p.resume)).toHaveLength(requests - 1);
      expectReplayed(c);
    },
  );

  it('stays answered when destroy() comes meanwhile: a controller made from the log shows it answered', async () => {
    const { c } = httpAgent(
      (input, n, init) => (n === 1 ? sse([started(input), interrupted(input, 'i1')]) : n === 2 ? broken() : hanging(init)),
      { reconnect: { attempts: 3, delayMs: 200 } },
    );
    await c.run('Transfer 500 EUR');
    const resuming = c.resume(approve(true));
    for (let i = 0; i < 50 && c.getSnapshot().connection !== 'reconnecting'; i++) await tick();
    c.destroy();
    await resuming;
    const again = createRunController({ source: httpSseSource({ url: 'http://agent.test/run' }), log: c.log.entries });
    expect(again.getSnapshot().thread.interrupts).toEqual([]);
    expect(again.getSnapshot().thread.answers.map((a) => a.interruptId)).toEqual(['i1']);
  });

  it('ends as CONNECTION_LOST, not a NETWORK failure to retry, when the later attempts cannot reach the agent', async () => {
    const { c, posted } = httpAgent(
      (input, n) => {
        if (n === 1) return sse([started(input), interrupted(input, 'i1')]);
        if (n === 2) return broken();
        throw new TypeError('fetch failed');
      },
      { reconnect: { attempts: 2, delayMs: 1 } },
    );
    await c.run('Transfer 500 EUR');
    await c.resume(approve(true));
    expect(posted).toHaveLength(4);
    expect(c.getSnapshot().failure).toMatchObject({ code: 'CONNECTION_LOST', retryable: false });
    expect(c.getSnapshot().thread.interrupts).toEqual([]);
    expect((await c.retry()).ok).toBe(false);
    expect(posted).toHaveLength(4);
    expectReplayed(c);
  });

  it('gives its interrupts back when stopped while retrying a request the agent never answered', async () => {
    const { c } = httpAgent(
      (input, n, init) => {
        if (n === 1) return sse([started(input), interrupted(input, 'i1')]);
        if (n === 2) throw new TypeError('fetch failed');
        return hanging(init);
      },
      { reconnect: { attempts: 3, delayMs: 200 } },
    );
    await c.run('Transfer 500 EUR');
    const resuming = c.resume(approve(true));
    for (let i = 0; i < 50 && c.getSnapshot().connection !== 'reconnecting'; i++) await tick();
    c.stop();
    await resuming;
    expect(c.getSnapshot().thread.interrupts.map((i) => i.id)).toEqual(['i1']);
    expectReplayed(c);
  });
});

describe('a run the agent answered, then lost, whose later attempts cannot reach the agent', () => {
  it('ends as CONNECTION_LOST, not a NETWORK failure to retry: the agent may have started it', async () => {
    const { c, posted } = httpAgent(
      (_input, n) => {
        if (n === 1) return broken();
        throw new TypeError('fetch failed');
      },
      { reconnect: { attempts: 2, delayMs: 1 } },
    );
    await c.run('Transfer 500 EUR');
    expect(posted).toHaveLength(3);
    expect(c.getSnapshot().failure).toMatchObject({ code: 'CONNECTION_LOST', retryable: false });
    expect((await c.retry()).ok).toBe(false);
    expect(posted).toHaveLength(3);
  });
});

describe('a request sent again carries the document as it is now', () => {
  it('retry() of a run after a 503 sends the shared-state edit the user made meanwhile, with the same run id', async () => {
    const { c, posted } = httpAgent((input, n) =>
      n === 1 ? new Response('busy', { status: 503 }) : sse([started(input), finished(input)]),
    );
    c.setState({ cart: ['teapot'] });
    await c.run('Check out');
    expect(c.getSnapshot().failure).toMatchObject({ code: 'HTTP_STATUS', retryable: true });
    // Retried at once, as a person clicks Retry right after editing: the edit is still applying.
    const edited = c.updateSharedState((d) => void (d as { cart: string[] }).cart.push('cups'));
    expect((await c.retry()).ok).toBe(true);
    expect((await edited).ok).toBe(true);
    expect(posted[1]?.runId).toBe(posted[0]?.runId);
    expect(posted[1]?.state).toEqual({ cart: ['teapot', 'cups'] });
    expect(c.getSnapshot().thread.sharedState.document).toEqual({ cart: ['teapot', 'cups'] });
    expectReplayed(c);
  });

  it('retry() of a resume after a 503 sends the document as it is now', async () => {
    const { c, posted } = httpAgent((input, n) =>
      n === 2 ? new Response('busy', { status: 503 }) : sse([started(input), n === 1 ? interrupted(input, 'i1') : finished(input)]),
    );
    c.setState({ note: 'first' });
    await c.run('Refund order A-1001');
    await c.resume(approve(true));
    c.setState({ note: 'second' });
    expect((await c.retry()).ok).toBe(true);
    expect(posted[2]?.state).toEqual({ note: 'second' });
    expect(posted[2]?.resume).toEqual(posted[1]?.resume);
    expectReplayed(c);
  });
});

describe('a resume the agent could not take, sent again', () => {
  it('retry() after a 503 sends the same answers again, closing the interrupts again, with one decision each', async () => {
    const { c, posted } = httpAgent((input, n) =>
      n === 2 ? new Response('busy', { status: 503 }) : sse([started(input), n === 1 ? interrupted(input, 'i1') : finished(input)]),
    );
    await c.run('Refund order A-1001');
    await c.resume(approve(true));
    expect(c.getSnapshot().failure).toMatchObject({ code: 'HTTP_STATUS', status: 503, retryable: true });
    expect(c.getSnapshot().thread.interrupts.map((i) => i.id)).toEqual(['i1']);
    expect(c.getSnapshot().thread.answers).toEqual([]);
    expect((await c.retry()).ok).toBe(true);
    expect(posted).toHaveLength(3);
    expect(posted[2]).toEqual(posted[1]);
    const t = c.getSnapshot().thread;
    expect(t.interrupts).toEqual([]);
    expect(t.answers.map((a) => a.interruptId)).toEqual(['i1']);
    expect(t.run.status).toBe('success');
    expect(c.getSnapshot().decisions.map((d) => d.interruptId)).toEqual(['i1']);
    expectReplayed(c);
  });

  it('answering again after a failed resume keeps one decision per interrupt: the last', async () => {
    const { c } = httpAgent((input, n) =>
      n === 2 ? new Response('no', { status: 422 }) : sse([started(input), n === 1 ? interrupted(input, 'i1') : finished(input)]),
    );
    await c.run('Refund order A-1001');
    await c.resume(approve(false));
    await c.resume(approve(true));
    expect(c.getSnapshot().decisions.map((d) => [d.interruptId, (d.payload as { approved: boolean }).approved])).toEqual([['i1', true]]);
  });

  it('a resume the agent answered with an event stream that ended empty stays answered, as one that broke does: the agent may be acting on it', async () => {
    const { c, posted } = httpAgent((input, n) => (n === 2 ? sse([]) : sse([started(input), interrupted(input, 'i1')])));
    await c.run('Refund order A-1001');
    await c.resume(approve(true));
    expect(c.getSnapshot().failure).toMatchObject({ code: 'CONNECTION_LOST', eventsReceived: 0, retryable: false });
    expect(c.getSnapshot().thread.run.status).toBe('unknown');
    expect(c.getSnapshot().thread.interrupts).toEqual([]);
    expect(c.getSnapshot().thread.answers.map((a) => a.interruptId)).toEqual(['i1']);
    expect(posted).toHaveLength(2);
    expectReplayed(c);
  });

  it('a resume the agent answered with a stream that broke before its first event stays answered: the agent may be acting on it', async () => {
    const { c } = httpAgent((input, n) => (n === 2 ? broken() : sse([started(input), interrupted(input, 'i1')])));
    await c.run('Refund order A-1001');
    await c.resume(approve(true));
    expect(c.getSnapshot().failure?.code).toBe('CONNECTION_LOST');
    expect(c.getSnapshot().thread.interrupts).toEqual([]);
    expect(c.getSnapshot().thread.answers.map((a) => a.interruptId)).toEqual(['i1']);
    expectReplayed(c);
  });
});

describe('a frontend tool an interrupt holds', () => {
  const charging = () => {
    let charged = 0;
    const { source, inputs } = scripted((n, input, emit) => {
      emit(started(input));
      if (n === 0) {
        for (const e of toolCall('c1', 'charge_card')) emit(e);
        emit(interrupted(input, 'i1', 'c1'));
      } else emit(finished(input));
    });
    const c = createRunController({
      source,
      scheduler: microScheduler,
      tools: {
        charge_card: {
          description: 'charges the card on file',
          handler: () => {
            charged++;
            return { charged: true };
          },
        },
      },
    });
    return { c, inputs, charged: () => charged };
  };

  it('does not run before the user answers, and a denial settles it as denied without running it', async () => {
    const { c, charged, inputs } = charging();
    await c.run('Charge the card');
    await tick();
    expect(charged()).toBe(0);
    expect(c.getSnapshot().thread.toolCalls.get('c1')?.status).not.toBe('succeeded');
    expect(c.getSnapshot().thread.interrupts.map((i) => i.id)).toEqual(['i1']);
    await c.resume(approve(false));
    await tick();
    expect(charged()).toBe(0);
    expect(c.getSnapshot().thread.toolCalls.get('c1')?.status).toBe('denied');
    expect(inputs).toHaveLength(2);
    expectReplayed(c);
  });

  it('runs once the user approves, and its result goes to the agent', async () => {
    const { c, charged, inputs } = charging();
    await c.run('Charge the card');
    await tick();
    expect(charged()).toBe(0);
    await c.resume(approve(true));
    for (let i = 0; i < 5 && inputs.length < 3; i++) await tick();
    expect(charged()).toBe(1);
    expect(c.getSnapshot().thread.toolCalls.get('c1')?.status).toBe('succeeded');
    // The approval went out first; the tool's result continues the thread after it.
    expect(inputs[1]?.resume).toEqual(approve(true));
    expect(inputs[2]?.messages.some((m) => m.role === 'tool' && m.toolCallId === 'c1')).toBe(true);
    expectReplayed(c);
  });
});

describe('a tool call the agent sends after its run ended', () => {
  const atOnce: FrameScheduler = (flush) => {
    flush();
    return () => undefined;
  };
  it.each([
    ['a frame', microScheduler],
    ['at once', atOnce],
  ])('belongs to no run: its frontend tool does not run, and no run is started for it (events applied %s)', async (_name, scheduler) => {
    let charged = 0;
    const { source, inputs } = scripted((n, input, emit) => {
      emit(started(input));
      emit(finished(input));
      if (n === 0) for (const e of toolCall('c9', 'charge_card')) emit(e);
    });
    const c = createRunController({
      source,
      scheduler,
      tools: { charge_card: { description: 'charges the card on file', handler: () => ++charged } },
    });
    await c.run('hello');
    await tick();
    await tick();
    expect(charged).toBe(0);
    expect(inputs).toHaveLength(1);
    expect(c.getSnapshot().thread.run.status).toBe('success');
    expectReplayed(c);
  });
});

describe("stop() while the app's headers() is pending", () => {
  it('settles run() at once, and sends nothing', async () => {
    let fetched = 0;
    const source = httpSseSource({
      url: 'http://agent.test/run',
      headers: () => new Promise<Record<string, string>>(() => {}),
      fetch: async () => {
        fetched++;
        return new Response('', { status: 500 });
      },
    });
    const c = createRunController({ source, scheduler: microScheduler });
    const running = c.run('hello');
    await tick();
    c.stop();
    const outcome = await Promise.race([running, new Promise((r) => setTimeout(() => r('still waiting'), 1000))]);
    expect(outcome).toMatchObject({ ok: true });
    expect(fetched).toBe(0);
    expect(c.getSnapshot().thread.run.status).not.toBe('running');
  });
});

describe('a message the agent opens after its run ended', () => {
  it('stops streaming when the stream ends, and the run stays a success', async () => {
    const { source } = scripted((_n, input, emit) => {
      emit(started(input));
      emit(finished(input));
      emit({ type: 'TEXT_MESSAGE_START', messageId: 'late', role: 'assistant' });
      emit({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'late', delta: 'after the end' });
    });
    const c = createRunController({ source, scheduler: microScheduler });
    await c.run('hello');
    await tick();
    c.stop();
    const t = c.getSnapshot().thread;
    expect(t.messages.byId.get('late')?.streaming).toBe(false);
    expect(t.run.status).toBe('success');
    expectReplayed(c);
  });
});

describe('the body an HTTP error quotes', () => {
  it('is cut at a whole character, never half of a surrogate pair', async () => {
    for (const body of [`${'a'.repeat(1999)}😀😀`, `${'a'.repeat(199)}😀 and more`]) {
      const source = httpSseSource({ url: 'http://agent.test/run', fetch: async () => new Response(body, { status: 503 }) });
      const c = createRunController({ source, scheduler: microScheduler });
      await c.run('hello');
      const failure = c.getSnapshot().failure;
      expect(failure?.code).toBe('HTTP_STATUS');
      expect(failure?.body).not.toMatch(LONE_SURROGATE);
      expect(failure?.message).not.toMatch(LONE_SURROGATE);
      expect(failure?.body?.startsWith(body.slice(0, 1999))).toBe(true);
    }
  });
});

describe('reset() from onDiagnostic as a stream is found cut off', () => {
  it('starts a thread that carries nothing of the old run, and the snapshot shows it', async () => {
    const { source } = scripted((n, input, emit) => {
      emit(started(input), '1');
      if (n > 0) emit(finished(input));
      // The first stream is cut inside its run.
    });
    let resets = 0;
    const c = createRunController({
      source,
      scheduler: microScheduler,
      onDiagnostic: (d) => {
        if (d.code === 'STREAM_TRUNCATED' && resets++ === 0) c.reset();
      },
    });
    await c.run('Refund order A-1001');
    await tick();
    expect(resets).toBe(1);
    const t = c.getSnapshot().thread;
    expect(t.messages.ids).toEqual([]);
    expect(t.run).toMatchObject({ status: 'idle' });
    expect(t.run.error).toBeUndefined();
    expect(c.log.entries.at(-1)?.type).toBe('init');
    expectReplayed(c);
  });
});

describe('an agent that resets its last event id (an empty `id:`) before the stream is cut', () => {
  it('leaves reconnect() no point to resume after: it never sends the id the agent reset', async () => {
    const lastIds: (string | null)[] = [];
    const { c } = httpAgent((input, n, init) => {
      lastIds.push(new Headers(init?.headers).get('last-event-id'));
      const message = { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' };
      return new Response(
        n === 1
          ? `id: 1\ndata: ${JSON.stringify(started(input))}\n\nid:\ndata: ${JSON.stringify(message)}\n\n`
          : `data: ${JSON.stringify(finished(input))}\n\n`,
        { headers: { 'content-type': 'text/event-stream' } },
      );
    });
    await c.run('hi');
    await tick();
    expect(c.getSnapshot().failure?.code).toBe('CONNECTION_LOST');
    // The failure says so before anyone tries: a UI need not offer a Reconnect that cannot work.
    expect(c.getSnapshot().failure?.reconnectable).toBe(false);
    expect(await c.reconnect()).toMatchObject({ ok: false, code: 'NO_RESUME_POINT' });
    expect(lastIds).toEqual([null]);
  });

  it('a stream cut off after an id says it can be reconnected, and the reconnect goes on after that id', async () => {
    const lastIds: (string | null)[] = [];
    const { c } = httpAgent((input, n, init) => {
      lastIds.push(new Headers(init?.headers).get('last-event-id'));
      const message = { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' };
      return new Response(
        n === 1
          ? `id: 1\ndata: ${JSON.stringify(started(input))}\n\nid: 2\ndata: ${JSON.stringify(message)}\n\n`
          : `id: 3\ndata: ${JSON.stringify({ type: 'TEXT_MESSAGE_END', messageId: 'm1' })}\n\nid: 4\ndata: ${JSON.stringify(finished(input))}\n\n`,
        { headers: { 'content-type': 'text/event-stream' } },
      );
    });
    await c.run('hi');
    await tick();
    expect(c.getSnapshot().failure).toMatchObject({ code: 'CONNECTION_LOST', reconnectable: true });
    expect(await c.reconnect()).toMatchObject({ ok: true });
    expect(lastIds).toEqual([null, '2']);
    expect(c.getSnapshot().thread.run.status).toBe('success');
    expectReplayed(c);
  });
});

describe('a resume given back, then', () => {
  it('retry() does not send an approval of an interrupt that expired meanwhile: it can only be cancelled', async () => {
    let now = Date.parse('2026-12-04T10:00:00Z');
    const posted: RunAgentInput[] = [];
    const source = httpSseSource({
      url: 'http://agent.test/run',
      fetch: async (_url, init) => {
        const input = JSON.parse(String(init?.body)) as RunAgentInput;
        posted.push(input);
        if (posted.length === 2) return new Response('busy', { status: 503 });
        const expiresAt = new Date(now + 120_000).toISOString();
        return sse([
          started(input),
          finished(input, { outcome: { type: 'interrupt', interrupts: [{ id: 'i1', reason: 'confirmation', expiresAt }] } }),
        ]);
      },
    });
    const c = createRunController({ source, scheduler: microScheduler, now: () => now });
    await c.run('Transfer 500 EUR');
    await c.resume(approve(true));
    expect(c.getSnapshot().failure?.retryable).toBe(true);
    now += 180_000;
    expect(await c.retry()).toMatchObject({ ok: false, code: 'RESUME_REFUSED' });
    expect(posted).toHaveLength(2);
    expect(c.getSnapshot().thread.interrupts.map((i) => i.id)).toEqual(['i1']);
    expect((await c.cancelInterrupts()).ok).toBe(true);
    expect(posted[2]?.resume).toEqual([{ interruptId: 'i1', status: 'cancelled' }]);
  });

  it('answered again, keeps the decisions the agent did take: an id the agent raises again in a later run keeps its first', async () => {
    const { c } = httpAgent((input, n) =>
      n === 3 ? new Response('busy', { status: 503 }) : sse([started(input), n === 4 ? finished(input) : interrupted(input, 'i1')]),
    );
    await c.run('Refund order A-1001');
    await c.resume(approve(true)); // taken: the agent asks again under the same id
    await c.resume(approve(false)); // 503: given back
    await c.resume(approve(true));
    const decisions = c.getSnapshot().decisions.map((d) => [d.interruptId, (d.payload as { approved: boolean }).approved]);
    expect(decisions).toEqual([
      ['i1', true],
      ['i1', true],
    ]);
  });

  it('keeps the order its interrupts were asked in', async () => {
    const { c } = httpAgent((input, n) =>
      n === 2
        ? new Response('busy', { status: 503 })
        : sse([
            started(input),
            n === 1
              ? finished(input, {
                  outcome: {
                    type: 'interrupt',
                    interrupts: [
                      { id: 'i1', reason: 'confirmation' },
                      { id: 'i2', reason: 'confirmation' },
                    ],
                  },
                })
              : finished(input),
          ]),
    );
    await c.run('Two questions');
    await c.resume([
      { interruptId: 'i1', status: 'resolved', payload: { approved: true } },
      { interruptId: 'i2', status: 'cancelled' },
    ]);
    expect(c.getSnapshot().thread.interrupts.map((i) => i.id)).toEqual(['i1', 'i2']);
    expectReplayed(c);
  });
});

describe('frontend tools started together', () => {
  it('a stop() from the first tool starts no other: nothing is left executing', async () => {
    const started2: string[] = [];
    let c: ReturnType<typeof createRunController> | undefined;
    const { source } = scripted((_n, input, emit) => {
      emit(started(input));
      for (const e of toolCall('c1', 'first')) emit(e);
      for (const e of toolCall('c2', 'second')) emit(e);
      emit(finished(input));
    });
    c = createRunController({
      source,
      scheduler: microScheduler,
      tools: {
        first: {
          description: 'stops the run',
          handler: () => {
            started2.push('first');
            c?.stop();
            return 'stopped';
          },
        },
        second: {
          description: 'another',
          handler: () => {
            started2.push('second');
            return 'ok';
          },
        },
      },
    });
    await c.run('Go');
    await tick();
    expect(started2).toEqual(['first']);
    expect([...c.getSnapshot().thread.toolCalls].filter((t) => t.status === 'executing')).toEqual([]);
    expectReplayed(c);
  });
});

describe('a frontend tool called with arguments that are not JSON', () => {
  it('does not run: the call fails with why, and the agent is told in the next request', async () => {
    let ran = 0;
    const { source, inputs } = scripted((n, input, emit) => {
      emit(started(input));
      if (n === 0) {
        emit({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'refund_order' });
        emit({ type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"orderId": "A-10' });
        emit({ type: 'TOOL_CALL_END', toolCallId: 'c1' });
      }
      emit(finished(input));
    });
    const c = createRunController({
      source,
      scheduler: microScheduler,
      tools: { refund_order: { description: 'Refunds an order', handler: () => `refunded ${++ran}` } },
    });
    await c.run('Refund A-1001');
    for (let i = 0; i < 5; i++) await tick();
    expect(ran).toBe(0);
    const call = c.getSnapshot().thread.toolCalls.get('c1');
    expect(call?.status).toBe('failed');
    expect(inputs).toHaveLength(2);
    const told = inputs[1]?.messages.find((m) => m.role === 'tool');
    expect(told).toMatchObject({ toolCallId: 'c1' });
    expect(String(told?.content)).toMatch(/did not run.*not valid JSON/);
    expectReplayed(c);
  });
});

describe('a call to a tool the app does not have', () => {
  it('fails at once with why (not Ready for ever), the agent is told, and an app with no tools leaves it as the agent did', async () => {
    let ran = 0;
    const script = (n: number, input: RunAgentInput, emit: Emit) => {
      emit(started(input));
      if (n === 0) for (const e of toolCall('c1', 'show_map')) emit(e);
      emit(finished(input));
    };
    const { source, inputs } = scripted(script);
    const c = createRunController({
      source,
      scheduler: microScheduler,
      tools: { refund_order: { description: 'Refunds an order', handler: () => `refunded ${++ran}` } },
    });
    await c.run('Where is the shop?');
    for (let i = 0; i < 5; i++) await tick();
    expect(ran).toBe(0);
    const call = c.getSnapshot().thread.toolCalls.get('c1');
    expect(call?.status).toBe('failed');
    expect(call?.result?.error).toMatch(/no tool named "show_map"/);
    expect(inputs).toHaveLength(2);
    const told = inputs[1]?.messages.find((m) => m.role === 'tool');
    expect(told).toMatchObject({ toolCallId: 'c1', error: expect.stringMatching(/show_map/) });
    expectReplayed(c);

    // An app that gave no tools at all runs none: the call stays as the agent left it, and nothing is sent by itself.
    const bare = scripted(script);
    const b = createRunController({ source: bare.source, scheduler: microScheduler });
    await b.run('Where is the shop?');
    for (let i = 0; i < 5; i++) await tick();
    expect(b.getSnapshot().thread.toolCalls.get('c1')?.status).toBe('ready');
    expect(bare.inputs).toHaveLength(1);
  });

  it('a tool the request offered, gone from the app by RUN_FINISHED (the component that gave it hidden), fails and the agent is told', async () => {
    const finish = held<void>();
    const { source, inputs } = scripted(async (n, input, emit) => {
      emit(started(input));
      if (n === 0) {
        for (const e of toolCall('c1', 'show_map')) emit(e);
        await finish.promise;
      }
      emit(finished(input));
    });
    const c = createRunController({
      source,
      scheduler: microScheduler,
      tools: { show_map: { description: 'Shows the shop on a map', handler: () => 'shown' } },
    });
    const done = c.run('Where is the shop?');
    await tick();
    expect(inputs[0]?.tools.map((t) => t.name)).toEqual(['show_map']);
    // As the React bindings take a hidden component's tools away: the option back to its default.
    c.configure({ tools: undefined } as unknown as Parameters<typeof c.configure>[0]);
    finish.settle();
    await done;
    for (let i = 0; i < 5; i++) await tick();
    expect(c.getSnapshot().thread.toolCalls.get('c1')).toMatchObject({
      status: 'failed',
      result: { error: expect.stringMatching(/show_map/) },
    });
    expect(inputs[1]?.messages.find((m) => m.role === 'tool')).toMatchObject({
      toolCallId: 'c1',
      error: expect.stringMatching(/show_map/),
    });
    expect(c.getSnapshot().inFlight).toBeUndefined();
    expectReplayed(c);
  });
});

describe('an agent that calls a frontend tool in every run', () => {
  const looping = () =>
    scripted((n, input, emit) => {
      emit(started(input));
      for (const e of toolCall(`c${n}`, 'lookup_order')) emit(e);
      emit(finished(input));
    });

  it.each([
    [undefined, 10],
    [3, 3],
  ])(
    'is continued %s times at most (default 10): then the results wait for the next run, and the refusal says why',
    async (max, followUps) => {
      const { source, inputs } = looping();
      const c = createRunController({
        source,
        scheduler: microScheduler,
        ...(max !== undefined ? { maxFollowUps: max } : {}),
        tools: { lookup_order: { description: 'Looks an order up', handler: () => '{"status":"shipped"}' } },
      });
      const result = await c.run('Where is A-1001?');
      expect(result.ok).toBe(true);
      expect(inputs).toHaveLength(1 + followUps);
      const s = c.getSnapshot();
      expect(s.inFlight).toBeUndefined();
      expect(s.refusal?.code).toBe('FOLLOW_UPS_EXHAUSTED');
      expect(s.refusal?.message).toMatch(new RegExp(`${followUps} runs`));
      expect(s.thread.toolCalls.get(`c${followUps}`)?.status).toBe('succeeded');
      // The user's next message starts the count again, and carries the last result.
      await c.run('And B-2002?');
      expect(inputs).toHaveLength(2 + 2 * followUps);
      expect(inputs[1 + followUps]?.messages.some((m) => m.role === 'tool' && m.toolCallId === `c${followUps}`)).toBe(true);
      expectReplayed(c);
    },
  );

  it.each([Number.NaN, 1.5, -1, '3'])(
    'a maxFollowUps of %s is refused at once, naming the option, when made and when configured',
    (max) => {
      const { source } = looping();
      expect(() => createRunController({ source, maxFollowUps: max as number })).toThrow(/^maxFollowUps is .*whole number/);
      const c = createRunController({ source, maxFollowUps: Number.POSITIVE_INFINITY });
      expect(() => c.configure({ maxFollowUps: max as number })).toThrow(RangeError);
      c.destroy();
    },
  );
});
