/**
 * The controller at its edges: an answer the app changes after sending it, a
 * session file nested past what the engine takes, a controller made of an
 * event log without its `init`, and a scheduler that flushes at once.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { replaySession } from '../src/engine.js';
import { serializeEventLog } from '../src/eventLog.js';
import { createRunController, loadEngine, parseSession, serializeSession } from '../src/index.js';
import { finished, held, microScheduler, picksOnce, scripted, started, tick } from './support/controllerHarness.js';

beforeAll(() => loadEngine());
const interrupt = { outcome: { type: 'interrupt', interrupts: [{ id: 'i1', reason: 'confirmation' }] } };

describe('the controller at its edges', () => {
  it('records an answer as the JSON sent: the app changing its object afterwards rewrites nothing, and live equals replayed', async () => {
    const { source, inputs } = scripted((n, input, emit) => {
      emit(started(input));
      emit(finished(input, n === 0 ? interrupt : {}));
    });
    const c = createRunController({ source, scheduler: microScheduler });
    await c.run('refund');
    const payload = { approved: true, note: 'ok', when: new Date(0) };
    await c.resume([{ interruptId: 'i1', status: 'resolved', payload }]);
    const live = c.getSnapshot().thread.answers;
    payload.note = 'edited after the fact';
    expect(live).toEqual(replaySession(parseSession(serializeSession(c.log.entries)).entries).answers);
    expect(JSON.stringify(live)).toContain('"note":"ok"');
    expect(JSON.stringify(live)).toContain('"when":"1970-01-01T00:00:00.000Z"');
    // What the agent got is what the log holds.
    expect(JSON.stringify(inputs[1]?.resume)).toBe(
      JSON.stringify([
        { interruptId: 'i1', status: 'resolved', payload: { approved: true, note: 'ok', when: '1970-01-01T00:00:00.000Z' } },
      ]),
    );
  });

  it('refuses an answer that is no JSON (a cycle) or nests past 512 levels, and sends nothing', async () => {
    const { source, inputs } = scripted((n, input, emit) => {
      emit(started(input));
      emit(finished(input, n === 0 ? interrupt : {}));
    });
    const c = createRunController({ source, scheduler: microScheduler });
    await c.run('refund');
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    let deep: unknown = 1;
    for (let i = 0; i < 600; i++) deep = { a: deep };
    for (const payload of [cycle, deep, { n: 10n }]) {
      expect(await c.resume([{ interruptId: 'i1', status: 'resolved', payload }])).toMatchObject({ ok: false, code: 'RESUME_REFUSED' });
    }
    expect(inputs).toHaveLength(1);
    expect(c.getSnapshot().thread.interrupts.map((i) => i.id)).toEqual(['i1']);
  });

  it('refuses, line by line, a session whose client values nest past 512 levels: replaying the rest never throws', () => {
    const deep = `${'{"a":'.repeat(600)}1${'}'.repeat(600)}`;
    const lines = [
      `{"type":"init","at":1,"threadId":"t","state":${deep}}`,
      `{"type":"state_set","at":2,"document":${deep}}`,
      `{"type":"user_message","at":3,"message":{"id":"u1","role":"user","content":"hi","metadata":${deep}}}`,
    ];
    for (const line of lines) {
      const { entries, errors } = parseSession(line);
      expect(errors, line.slice(0, 30)).toHaveLength(1);
      expect(errors[0]?.message).toMatch(/nest/);
      expect(() => replaySession(entries)).not.toThrow();
      const silent = { run: () => (async function* () {})() };
      expect(() => createRunController({ source: silent, log: entries })).not.toThrow();
    }
  });

  it('a controller made of an event log (no init line) runs and resumes under the thread the log names', async () => {
    const { entries } = parseSession(
      serializeEventLog([
        { index: 0, event: { type: 'RUN_STARTED', threadId: 't-old', runId: 'r1' } },
        { index: 1, event: { type: 'RUN_FINISHED', threadId: 't-old', runId: 'r1' } },
      ]),
    );
    const { source, inputs } = scripted((n, input, emit) => {
      emit(started(input));
      emit(finished(input, n === 0 ? interrupt : {}));
    });
    const c = createRunController({ source, scheduler: microScheduler, log: entries });
    await c.run('refund');
    await c.resume([{ interruptId: 'i1', status: 'cancelled' }]);
    expect(inputs.map((i) => i.threadId)).toEqual(['t-old', 't-old']);
    expect(c.getSnapshot().thread.diagnostics.map((d) => d.code)).not.toContain('THREAD_MISMATCH');
  });

  it('a scheduler that flushes at once applies every event as it comes', async () => {
    const gate = held<void>();
    const { source } = scripted(async (_n, input, emit) => {
      emit(started(input));
      await tick();
      emit({ type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' });
      emit({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'hello' });
      await gate.promise;
      emit({ type: 'TEXT_MESSAGE_END', messageId: 'm1' });
      emit(finished(input));
    });
    const atOnce = (flush: () => void) => {
      flush();
      return () => undefined;
    };
    const c = createRunController({ source, scheduler: atOnce });
    const done = c.run('hi');
    for (let i = 0; i < 5; i++) await tick();
    expect(c.getSnapshot().eventCount).toBe(3);
    gate.settle();
    await done;
    expect(c.getSnapshot().eventCount).toBe(5);
  });

  it('a clock of the app past the last date JavaScript has is reported, and the system time is used: resume() still answers', async () => {
    const { source, inputs } = scripted((n, input, emit) => {
      emit(started(input));
      emit(finished(input, n === 0 ? interrupt : {}));
    });
    const reported = vi.fn();
    vi.stubGlobal('reportError', reported);
    try {
      const c = createRunController({ source, scheduler: microScheduler, now: () => 1e16 });
      await c.run('refund');
      expect(await c.resume([{ interruptId: 'i1', status: 'cancelled' }])).toMatchObject({ ok: true });
      expect(inputs).toHaveLength(2);
      expect(reported).toHaveBeenCalledWith(expect.objectContaining({ message: expect.stringMatching(/now\(\)/) }));
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('a frontend tool that returns what JSON has no form for (a function) gets an error result, which the saved session keeps', async () => {
    const { source } = scripted(picksOnce);
    const c = createRunController({
      source,
      scheduler: microScheduler,
      tools: { pick: { description: 'Picks', handler: () => () => 'a function' } },
    });
    await c.run('go');
    await vi.waitFor(() => expect(c.getSnapshot().thread.toolCalls.get('c1')?.status).toBe('failed'));
    const { entries, errors } = parseSession(serializeSession(c.log.entries));
    expect(errors).toEqual([]);
    expect(replaySession(entries).toolCalls.get('c1')?.status).toBe('failed');
  });

  it("a frontend tool runs on a call whose metadata grew past 128 keys (a large object), and changing what it is handed changes nothing of the thread's", async () => {
    // The agent names each argument chunk's metadata anew: merged per key, the call's metadata becomes a large object.
    const { source } = scripted((n, input, emit) => {
      emit(started(input));
      if (n === 0) {
        emit({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'pick', parentMessageId: 'a1' });
        for (let i = 0; i < 200; i++)
          emit({ type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: i ? ' ' : '{"orderId":"A-1001"}', metadata: { [`chunk${i}`]: i } });
        emit({ type: 'TOOL_CALL_END', toolCallId: 'c1' });
      }
      emit(finished(input));
    });
    const handed: { args: unknown; chunks: number }[] = [];
    const c = createRunController({
      source,
      scheduler: microScheduler,
      tools: {
        pick: {
          description: 'Picks',
          handler: (args, call) => {
            handed.push({ args, chunks: Object.keys(call.metadata ?? {}).length });
            (call.metadata as Record<string, unknown>).chunk0 = 'changed';
            return 'picked';
          },
        },
      },
    });
    await c.run('go');
    await vi.waitFor(() => expect(c.getSnapshot().thread.toolCalls.get('c1')?.status).toBe('succeeded'));
    const call = c.getSnapshot().thread.toolCalls.get('c1');
    expect(call?.result?.content).toBe('picked');
    expect(handed).toEqual([{ args: { orderId: 'A-1001' }, chunks: 200 }]);
    expect(call?.metadata?.chunk0).toBe(0);
    expect(replaySession(c.log.entries).toolCalls.get('c1')?.status).toBe('succeeded');
  });

  it('a message whose id the thread already holds is refused, not dropped while the run goes ahead without it', async () => {
    const { source, inputs } = scripted((_n, input, emit) => {
      emit(started(input));
      emit(finished(input));
    });
    const c = createRunController({ source, scheduler: microScheduler });
    expect(await c.run({ message: { id: 'u1', role: 'user', content: 'first' } })).toMatchObject({ ok: true });
    const again = await c.run({ message: { id: 'u1', role: 'user', content: 'second' } });
    expect(again).toMatchObject({ ok: false, code: 'MESSAGE_ID_TAKEN' });
    expect(inputs).toHaveLength(1);
    expect(c.getSnapshot().thread.messages.byId.get('u1')).toMatchObject({ content: 'first' });
  });

  it('a RUN_FINISHED about another thread does not close the run: the stream ends there, the run is unknown, never a success', async () => {
    const { source } = scripted((_n, input, emit) => {
      emit(started(input));
      emit(finished(input, { threadId: 'other' }));
    });
    const c = createRunController({ threadId: 't', source, scheduler: microScheduler });
    await c.run('hi');
    const thread = c.getSnapshot().thread;
    expect(thread.run.status).toBe('unknown');
    expect(Object.values(thread.runs).map((r) => r.status)).toEqual(['unknown']);
    expect(thread.diagnostics.map((d) => d.code)).toEqual(['THREAD_MISMATCH', 'STREAM_TRUNCATED']);
    expect(replaySession(c.log.entries).run).toEqual(thread.run);
  });

  it('a server that names its own thread in both RUN_STARTED and RUN_FINISHED still ends the run, reported', async () => {
    const { source } = scripted((_n, input, emit) => {
      emit({ ...started(input), threadId: 'server-thread' });
      emit(finished(input, { threadId: 'server-thread' }));
    });
    const c = createRunController({ threadId: 't', source, scheduler: microScheduler });
    await c.run('hi');
    const thread = c.getSnapshot().thread;
    expect(thread.run.status).toBe('success');
    expect(thread.diagnostics.map((d) => d.code)).toEqual(['THREAD_MISMATCH', 'THREAD_MISMATCH']);
  });
});
