import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createAgentStore } from '../src/index.js';
import { manualFrames, manualSource, tick, WithId } from './support/sources.js';

const started = (runId: string, threadId: string) => ({ type: 'RUN_STARTED', threadId, runId });
const finished = (runId: string, threadId: string, extra: object = {}) => ({ type: 'RUN_FINISHED', threadId, runId, ...extra });

/** How the source hands events to the store: pulled from `run`, or pushed through `deliver`. */
let form: 'pull' | 'push' = 'pull';

function setup(extra: Partial<Parameters<typeof createAgentStore>[0]> = {}) {
  const m = manualSource({ push: form === 'push' });
  const frames = manualFrames();
  const store = createAgentStore({ source: m.source, threadId: 't1', scheduler: frames.scheduler, ...extra });
  return { m, frames, store };
}

/** Runs one whole turn: the agent answers `text` and finishes. */
async function turn(s: ReturnType<typeof setup>, message: string, text: string, extra: object = {}) {
  const done = s.store.getState().run(message);
  await tick();
  const input = s.m.requests.at(-1);
  if (!input) throw new Error('no request');
  s.m.push(
    started(input.runId, 't1'),
    { type: 'TEXT_MESSAGE_START', messageId: `a-${input.runId}` },
    { type: 'TEXT_MESSAGE_CONTENT', messageId: `a-${input.runId}`, delta: text },
    { type: 'TEXT_MESSAGE_END', messageId: `a-${input.runId}` },
    finished(input.runId, 't1', extra),
  );
  s.m.end();
  return { result: await done, input };
}

describe.each(['pull', 'push'] as const)('over a source the store %ss from', (f) => {
  beforeEach(() => {
    form = f;
  });

  describe('createAgentStore: running', () => {
    it('sends the history, the state, the tools and the context, and shows the answer', async () => {
      const s = setup({
        context: [{ description: 'user', value: 'Ann' }],
        tools: { pick: { description: 'Pick a color', handler: () => 'red' } },
        initialState: { cart: [] },
      });
      const { result, input } = await turn(s, 'Hello', 'Hi Ann');
      expect(result).toEqual({ ok: true, status: 'success' });
      expect(input).toMatchObject({
        threadId: 't1',
        protocolVersion: '1.0',
        state: { cart: [] },
        context: [{ description: 'user', value: 'Ann' }],
        tools: [{ name: 'pick', description: 'Pick a color' }],
      });
      expect(input.messages).toMatchObject([{ role: 'user', content: 'Hello' }]);
      const { thread, connection, inFlight } = s.store.getState();
      expect(thread.messages.ids.map((id) => thread.messages.byId.get(id)?.content)).toEqual(['Hello', 'Hi Ann']);
      expect(connection).toBe('closed');
      expect(inFlight).toBeUndefined();
    });

    it('a flush between events keeps every field of the state, also one set from outside with setState', async () => {
      const s = setup();
      const done = s.store.getState().run('Hello');
      await tick();
      const runId = s.m.requests.at(-1)?.runId ?? '';
      s.m.push(started(runId, 't1'), { type: 'TEXT_MESSAGE_START', messageId: 'a' });
      await tick();
      s.frames.frame();
      const before = s.store.getState();
      s.store.setState({ extra: 1 } as never);
      s.m.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: 'Hi' });
      await tick();
      s.frames.frame();
      s.m.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: '!' });
      await tick();
      s.frames.frame();
      const after = s.store.getState();
      expect(after.thread.messages.byId.get('a')?.content).toBe('Hi!');
      expect(after.eventCount).toBe(4);
      expect((after as unknown as { extra?: number }).extra).toBe(1);
      expect({ ...after, thread: before.thread, eventCount: before.eventCount, logLength: before.logLength, extra: undefined }).toEqual({
        ...before,
        extra: undefined,
      });
      s.m.push({ type: 'TEXT_MESSAGE_END', messageId: 'a' }, finished(runId, 't1'));
      s.m.end();
      expect(await done).toEqual({ ok: true, status: 'success' });
    });

    it('refuses a second run while one is in flight', async () => {
      const s = setup();
      void s.store.getState().run('one');
      await tick();
      const second = await s.store.getState().run('two');
      expect(second).toMatchObject({ ok: false, code: 'RUN_IN_PROGRESS' });
      expect(s.m.requests).toHaveLength(1);
      expect(s.store.getState().refusal?.code).toBe('RUN_IN_PROGRESS');
    });

    it('refuses a new message while interrupts are open, saying to answer them', async () => {
      const s = setup();
      await turn(s, 'refund', 'Needs approval', { outcome: { type: 'interrupt', interrupts: [{ id: 'i1', reason: 'confirmation' }] } });
      const r = await s.store.getState().run('something else');
      expect(r).toMatchObject({ ok: false, code: 'INTERRUPTS_OPEN' });
      expect(r.ok || r.message).toMatch(/answer them/);
      expect(s.m.requests).toHaveLength(1);
      expect(s.m.requests[0]?.resume).toBeUndefined();
    });

    it('batches events per frame and flushes terminal events at once', async () => {
      const s = setup();
      const updates = vi.fn();
      s.store.subscribe(updates);
      void s.store.getState().run('hi');
      await tick();
      const runId = s.m.requests[0]?.runId ?? '';
      updates.mockClear();
      s.m.push(
        started(runId, 't1'),
        { type: 'TEXT_MESSAGE_START', messageId: 'a' },
        ...Array.from({ length: 50 }, () => ({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: 'x' })),
      );
      await tick();
      expect(updates).not.toHaveBeenCalled();
      expect(s.frames.scheduled).toBe(true);
      s.frames.frame();
      expect(updates).toHaveBeenCalledTimes(1);
      expect(s.store.getState().thread.messages.byId.get('a')?.content).toBe('x'.repeat(50));
      updates.mockClear();
      s.m.push(
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: 'y' },
        { type: 'TEXT_MESSAGE_END', messageId: 'a' },
        finished(runId, 't1'),
      );
      await tick();
      expect(s.store.getState().thread.run.status).toBe('success');
      expect(s.store.getState().thread.messages.byId.get('a')?.content).toBe(`${'x'.repeat(50)}y`);
    });

    it('a steady stream still flushes every frame (never a debounce)', async () => {
      const s = setup();
      void s.store.getState().run('hi');
      await tick();
      const runId = s.m.requests[0]?.runId ?? '';
      s.m.push(started(runId, 't1'), { type: 'TEXT_MESSAGE_START', messageId: 'a' });
      for (let frame = 1; frame <= 5; frame++) {
        s.m.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: 'x' });
        await tick();
        s.frames.frame();
        expect(s.store.getState().thread.messages.byId.get('a')?.content).toBe('x'.repeat(frame));
      }
    });
  });

  describe('createAgentStore: failures', () => {
    it('a truncated stream leaves the run unknown and the connection closed, never success', async () => {
      const onDiagnostic = vi.fn();
      const s = setup({ onDiagnostic });
      const done = s.store.getState().run('hi');
      await tick();
      const runId = s.m.requests[0]?.runId ?? '';
      s.m.push(
        started(runId, 't1'),
        { type: 'TEXT_MESSAGE_START', messageId: 'a' },
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: 'half' },
      );
      s.m.end();
      expect(await done).toEqual({ ok: true, status: 'unknown' });
      const st = s.store.getState();
      expect(st.thread.run.status).toBe('unknown');
      expect(st.connection).toBe('closed');
      expect(st.thread.messages.byId.get('a')).toMatchObject({ content: 'half', streaming: false });
      expect(st.thread.diagnostics.at(-1)?.code).toBe('STREAM_TRUNCATED');
      expect(onDiagnostic).toHaveBeenLastCalledWith(st.thread.diagnostics.at(-1));
    });

    it('a transport failure after events is a failure of the connection, and the run is unknown', async () => {
      const s = setup();
      const done = s.store.getState().run('hi');
      await tick();
      s.m.push(started(s.m.requests[0]?.runId ?? '', 't1'));
      s.m.fail(new TypeError('terminated'));
      expect(await done).toEqual({ ok: true, status: 'unknown' });
      expect(s.store.getState()).toMatchObject({
        connection: 'failed',
        failure: { code: 'CONNECTION_LOST', retryable: false, eventsReceived: 1 },
      });
      expect(s.store.getState().thread.run.error).toMatchObject({ code: 'CONNECTION_LOST' });
    });

    it('stop aborts the request and cancels the run; its late events are ignored', async () => {
      const s = setup();
      const done = s.store.getState().run('hi');
      await tick();
      const runId = s.m.requests[0]?.runId ?? '';
      s.m.push(started(runId, 't1'), { type: 'TEXT_MESSAGE_START', messageId: 'a' });
      await tick();
      s.store.getState().stop();
      expect(s.m.channel(0)?.options.signal?.aborted).toBe(true);
      await done;
      const st = s.store.getState();
      expect(st.thread.run.status).toBe('cancelled');
      expect(st.inFlight).toBeUndefined();
      expect(st.connection).toBe('closed');
      expect(st.thread.messages.byId.get('a')?.streaming).toBe(false);
    });

    it('a run replaced by a newer one cannot change the newer run when it settles late', async () => {
      const s = setup();
      const first = s.store.getState().run('one');
      await tick();
      const firstRun = s.m.requests[0]?.runId ?? '';
      s.m.push(started(firstRun, 't1'));
      await tick();
      s.store.getState().stop();
      const second = s.store.getState().run('two');
      await tick();
      const secondRun = s.m.requests[1]?.runId ?? '';
      s.m.push(started(secondRun, 't1'), { type: 'TEXT_MESSAGE_START', messageId: 'b' });
      await tick();
      s.frames.frame();
      // The first stream settles late: its channel finishes and fails after the second run started.
      const old = s.m.channel(0);
      old?.queue.push(finished(firstRun, 't1', { outcome: { type: 'cancelled' } }));
      await first;
      await tick();
      expect(s.store.getState().thread.run).toMatchObject({ runId: secondRun, status: 'running' });
      expect(s.store.getState().inFlight).toBe('run');
      s.m.push({ type: 'TEXT_MESSAGE_END', messageId: 'b' }, finished(secondRun, 't1'));
      s.m.end();
      expect(await second).toEqual({ ok: true, status: 'success' });
    });
  });

  describe('createAgentStore: interrupts', () => {
    const schema = { type: 'object', properties: { approved: { type: 'boolean' } }, required: ['approved'] };
    async function interrupted(extra: Partial<Parameters<typeof createAgentStore>[0]> = {}) {
      const s = setup(extra);
      await turn(s, 'refund', 'Needs approval', {
        outcome: {
          type: 'interrupt',
          interrupts: [
            { id: 'i1', reason: 'confirmation', responseSchema: schema },
            { id: 'i2', reason: 'input_required' },
          ],
        },
      });
      return s;
    }

    it('a double resume sends exactly one request, and both callers get its result', async () => {
      const onDecision = vi.fn();
      const s = await interrupted({ onDecision });
      const answers = [
        { interruptId: 'i1', status: 'resolved' as const, payload: { approved: true } },
        { interruptId: 'i2', status: 'cancelled' as const },
      ];
      const a = s.store.getState().resume(answers);
      const b = s.store.getState().resume(answers);
      // The answer has a schema: the first resume loads the validator (a dynamic import) before it sends.
      await vi.waitFor(() => expect(s.m.requests).toHaveLength(2));
      const input = s.m.requests[1];
      expect(input).toMatchObject({ threadId: 't1', resume: answers });
      expect(input?.runId).not.toBe(s.m.requests[0]?.runId);
      expect(onDecision).toHaveBeenCalledTimes(2);
      s.m.push(started(input?.runId ?? '', 't1'), finished(input?.runId ?? '', 't1'));
      s.m.end();
      expect(await a).toEqual({ ok: true, status: 'success' });
      expect(await b).toEqual({ ok: true, status: 'success' });
      expect(s.store.getState().thread.interrupts).toEqual([]);
      expect(s.store.getState().decisions.map((d) => d.interruptId)).toEqual(['i1', 'i2']);
      await tick();
      expect(s.m.requests).toHaveLength(2);
    });

    it('refuses a resume that does not cover every interrupt or fails its schema, sending nothing', async () => {
      const s = await interrupted();
      const partial = await s.store.getState().resume([{ interruptId: 'i1', status: 'resolved', payload: { approved: true } }]);
      expect(partial).toMatchObject({ ok: false, code: 'RESUME_REFUSED' });
      const invalid = await s.store.getState().resume([
        { interruptId: 'i1', status: 'resolved', payload: { approved: 'yes' } },
        { interruptId: 'i2', status: 'cancelled' },
      ]);
      expect(invalid.ok || invalid.errors?.map((e) => e.code)).toEqual(['PAYLOAD_INVALID']);
      expect(s.m.requests).toHaveLength(1);
      expect(s.store.getState().thread.interrupts).toHaveLength(2);
    });

    it('cancelInterrupts answers every open interrupt as cancelled', async () => {
      const s = await interrupted();
      void s.store.getState().cancelInterrupts();
      await tick();
      expect(s.m.requests[1]?.resume).toEqual([
        { interruptId: 'i1', status: 'cancelled' },
        { interruptId: 'i2', status: 'cancelled' },
      ]);
    });

    it('an expired interrupt can only be cancelled', async () => {
      const s = setup({ now: () => Date.parse('2030-01-01T00:00:00Z') });
      await turn(s, 'refund', 'x', {
        outcome: { type: 'interrupt', interrupts: [{ id: 'i1', reason: 'confirmation', expiresAt: '2029-01-01T00:00:00Z' }] },
      });
      const r = await s.store.getState().resume([{ interruptId: 'i1', status: 'resolved', payload: {} }]);
      expect(r.ok || r.errors?.map((e) => e.code)).toEqual(['EXPIRED']);
    });
  });

  describe('createAgentStore: frontend tools and shared state', () => {
    it('runs a frontend tool in the browser once its run has finished (never at TOOL_CALL_END), and sends its result in the next run', async () => {
      const handler = vi.fn((args: unknown) => ({ color: 'red', for: args }));
      const s = setup({ tools: { pick_color: { description: 'Pick', handler } } });
      const done = s.store.getState().run('pick a color');
      await tick();
      const runId = s.m.requests[0]?.runId ?? '';
      s.m.push(
        started(runId, 't1'),
        { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'pick_color', parentMessageId: 'a1' },
        { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"shade":"dark"}' },
        { type: 'TOOL_CALL_END', toolCallId: 'c1' },
      );
      await tick();
      s.frames.frame();
      await tick();
      // The arguments are complete, the run is not over: an interrupt may still come to hold the call.
      expect(handler).not.toHaveBeenCalled();
      expect(s.store.getState().thread.toolCalls.get('c1')?.status).toBe('ready');
      s.m.push(finished(runId, 't1', { outcome: { type: 'success', pendingToolCallIds: ['c1'] } }));
      s.m.end();
      await tick();
      await tick();
      expect(handler).toHaveBeenCalledWith(
        { shade: 'dark' },
        expect.objectContaining({ id: 'c1' }),
        expect.objectContaining({ signal: expect.any(AbortSignal) }),
      );
      expect(s.store.getState().thread.toolCalls.get('c1')?.status).toBe('succeeded');
      const next = s.m.requests[1];
      expect(next?.messages.at(-1)).toMatchObject({ role: 'tool', toolCallId: 'c1', content: '{"color":"red","for":{"shade":"dark"}}' });
      s.m.push(started(next?.runId ?? '', 't1'), finished(next?.runId ?? '', 't1'));
      s.m.end();
      expect(await done).toEqual({ ok: true, status: 'success' });
      expect(handler).toHaveBeenCalledTimes(1);
    });

    it('a tool that throws reports a failed call with the error', async () => {
      const s = setup({
        autoContinue: false,
        tools: { boom: { description: 'x', handler: () => Promise.reject(new Error('no permission')) } },
      });
      const done = s.store.getState().run('go');
      await tick();
      const runId = s.m.requests[0]?.runId ?? '';
      s.m.push(
        started(runId, 't1'),
        { type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'boom' },
        { type: 'TOOL_CALL_END', toolCallId: 'c' },
        finished(runId, 't1'),
      );
      s.m.end();
      await done;
      expect(s.store.getState().thread.toolCalls.get('c')).toMatchObject({ status: 'failed', result: { error: 'no permission' } });
      expect(s.m.requests).toHaveLength(1);
    });

    it('setState edits the shared state and sends it with the next run', async () => {
      const s = setup({ initialState: { n: 1 } });
      void s.store.getState().setState((d: unknown) => ({ ...(d as object), n: 2 }));
      await s.store.getState().setState((d: unknown) => ({ ...(d as object), extra: true }));
      const { input } = await turn(s, 'go', 'ok');
      expect(input.state).toEqual({ n: 2, extra: true });
    });

    it('reset returns to the initial thread', async () => {
      const s = setup({ initialMessages: [{ id: 'sys', role: 'system', content: 'Be brief.' }] });
      await turn(s, 'hi', 'hello');
      s.store.getState().reset();
      const st = s.store.getState();
      expect(st.thread.messages.ids).toEqual(['sys']);
      expect(st.thread.run.status).toBe('idle');
      expect(st.eventCount).toBe(0);
      expect(s.store.log.entries).toEqual([]);
    });

    it('keeps the raw event log with arrival indices', async () => {
      const s = setup();
      await turn(s, 'hi', 'hello');
      expect(s.store.log.entries.map((e) => e.index)).toEqual([0, 1, 2, 3, 4]);
      expect(s.store.getState().eventCount).toBe(5);
    });
  });

  describe('createAgentStore: reconnect', () => {
    it('resumes a dropped run after the last event id, continuing the same message without duplicates', async () => {
      const s = setup();
      const done = s.store.getState().run('hi');
      await tick();
      const runId = s.m.requests[0]?.runId ?? '';
      const events = [
        started(runId, 't1'),
        { type: 'TEXT_MESSAGE_START', messageId: 'a' },
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: 'one ' },
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: 'two ' },
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: 'three' },
        { type: 'TEXT_MESSAGE_END', messageId: 'a' },
        finished(runId, 't1'),
      ];
      s.m.push(...events.slice(0, 4).map((e, i) => new WithId(String(i), e)));
      s.m.fail(new TypeError('network connection lost'));
      expect(await done).toEqual({ ok: true, status: 'unknown' });
      expect(s.store.getState().connection).toBe('failed');

      const again = s.store.getState().reconnect();
      await tick();
      expect(s.m.requests).toHaveLength(2);
      expect(s.m.requests[1]).toBe(s.m.requests[0]);
      expect(s.m.channel(1)?.options.lastEventId).toBe('3');
      s.m.push(...events.slice(4).map((e, i) => new WithId(String(i + 4), e)));
      s.m.end();
      expect(await again).toEqual({ ok: true, status: 'success' });
      const thread = s.store.getState().thread;
      expect(thread.messages.byId.get('a')?.content).toBe('one two three');
      expect(thread.diagnostics).toEqual([]);
    });

    it('refuses to reconnect when the server sent no ids, or nothing was cut off', async () => {
      const s = setup();
      expect(await s.store.getState().reconnect()).toMatchObject({ ok: false, code: 'NOTHING_TO_RECONNECT' });
      const done = s.store.getState().run('hi');
      await tick();
      s.m.push(started(s.m.requests[0]?.runId ?? '', 't1'));
      s.m.end();
      await done;
      expect(await s.store.getState().reconnect()).toMatchObject({ ok: false, code: 'NO_RESUME_POINT' });
    });
  });

  describe('createAgentStore: diagnostics', () => {
    it('numbers diagnostics by the event log across runs', async () => {
      const s = setup();
      await turn(s, 'one', 'first');
      const done = s.store.getState().run('two');
      await tick();
      const runId = s.m.requests[1]?.runId ?? '';
      s.m.push(started(runId, 't1'), { type: 'TEXT_MESSAGE_CONTENT', messageId: 'orphan', delta: 'x' }, finished(runId, 't1'));
      s.m.end();
      await done;
      const diagnostic = s.store.getState().thread.diagnostics.find((d) => d.code === 'CONTENT_WITHOUT_START');
      expect(diagnostic?.index).toBe(6);
      expect(s.store.log.entries[6]?.event).toMatchObject({ messageId: 'orphan' });
    });
  });

  describe('createAgentStore: a request that failed before its first event', () => {
    it('can be sent again as it was with reconnect()', async () => {
      const s = setup();
      const done = s.store.getState().run('hi');
      await tick();
      s.m.fail(new TypeError('network connection lost'));
      await done;
      expect(s.store.getState().connection).toBe('failed');
      const again = s.store.getState().reconnect();
      await tick();
      expect(s.m.requests).toHaveLength(2);
      expect(s.m.requests[1]).toEqual(s.m.requests[0]);
      expect(s.m.channel(1)?.options.lastEventId).toBeUndefined();
      const runId = s.m.requests[0]?.runId ?? '';
      s.m.push(started(runId, 't1'), finished(runId, 't1'));
      s.m.end();
      expect(await again).toEqual({ ok: true, status: 'success' });
    });

    it('is not resent after an HTTP refusal', async () => {
      const s = setup();
      const done = s.store.getState().run('hi');
      await tick();
      s.m.fail(Object.assign(new Error('HTTP 422'), { code: 'HTTP_STATUS', status: 422 }));
      await done;
      expect(await s.store.getState().reconnect()).toMatchObject({ ok: false, code: 'NOTHING_TO_RECONNECT' });
    });
  });
});
