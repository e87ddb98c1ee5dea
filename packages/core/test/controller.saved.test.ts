/**
 * A saved session as it comes back: a line of the wrong shape is named, not
 * taken; a frontend tool that was running when the log was saved is settled
 * as stopped and answered in the next request; a named thread made of an
 * event log starts over under its name with its initial state; a message
 * `run()` cannot keep in its log is refused; and a controller destroyed
 * while a resume waited for its first event gives its interrupts back.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { replaySession } from '../src/engine.js';
import { serializeEventLog } from '../src/eventLog.js';
import { createRunController, loadEngine, parseSession, serializeSession } from '../src/index.js';
import {
  expectReplayed,
  finished,
  heldPick,
  microScheduler,
  open,
  picksOnce,
  scripted,
  started,
  tick,
} from './support/controllerHarness.js';

beforeAll(() => loadEngine());

const lines = {
  init: '{"type":"init","at":1,"threadId":"t"}',
  user: '{"type":"user_message","at":2,"message":{"id":"u1","role":"user","content":"hi"}}',
  call: [
    '{"type":"stream_start","at":3,"kind":"run","runId":"r1"}',
    '{"type":"event","at":4,"event":{"type":"RUN_STARTED","threadId":"t","runId":"r1"}}',
    '{"type":"event","at":4,"event":{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"pick","parentMessageId":"a1"}}',
    '{"type":"event","at":4,"event":{"type":"TOOL_CALL_END","toolCallId":"c1"}}',
    '{"type":"event","at":4,"event":{"type":"RUN_FINISHED","threadId":"t","runId":"r1"}}',
    '{"type":"stream_end","at":5,"open":false}',
  ],
};

describe('a saved line of the wrong shape', () => {
  it.each([
    [
      'a failure whose message is no text',
      '{"type":"failed","at":3,"failure":{"code":"NETWORK","message":{"html":"<b>"},"retryable":true,"eventsReceived":0}}',
    ],
    [
      'a failure whose count of events is no number',
      '{"type":"failed","at":3,"failure":{"code":"NETWORK","message":"m","retryable":true,"eventsReceived":"0"}}',
    ],
    ['a failure whose code is no text', '{"type":"failed","at":3,"failure":{"code":7,"message":"m","retryable":true,"eventsReceived":0}}'],
    [
      'a tool result whose error is no text',
      '{"type":"tool_result","at":7,"toolCallId":"c1","messageId":"tr1","content":"x","error":{"boom":1}}',
    ],
    ['a tool result whose parts hold a null', '{"type":"tool_result","at":7,"toolCallId":"c1","messageId":"tr1","content":[null]}'],
    [
      'a tool result whose parts are no parts',
      '{"type":"tool_result","at":7,"toolCallId":"c1","messageId":"tr1","content":[{"type":"text","text":"ok"},1,"s"]}',
    ],
    [
      'a tool result with a text part without text',
      '{"type":"tool_result","at":7,"toolCallId":"c1","messageId":"tr1","content":[{"type":"text"}]}',
    ],
  ])('%s is named in errors and left out', (_name, line) => {
    const { entries, errors } = parseSession([lines.init, lines.user, ...lines.call, line].join('\n'));
    expect(errors).toHaveLength(1);
    expect(errors[0]?.line).toBe(9);
    const thread = replaySession(entries);
    expect(thread.run.error).toBeUndefined();
    expect(thread.messages.byId.has('tr1')).toBe(false);
  });
});

describe('a log saved while a frontend tool ran', () => {
  it('settles the call as stopped in the controller made of it, and the next request answers it', async () => {
    const first = heldPick(picksOnce);
    void first.controller.run('Pick a refund method');
    await tick();
    expect(first.controller.getSnapshot().thread.toolCalls.get('c1')?.status).toBe('executing');
    // The tab dies here; the app saved the log as it went.
    const saved = parseSession(serializeSession(first.controller.log.entries)).entries;
    const { source, inputs } = scripted((_n, input, emit) => {
      emit(started(input));
      emit(finished(input));
    });
    const again = createRunController({ source, scheduler: microScheduler, log: saved });
    const call = again.getSnapshot().thread.toolCalls.get('c1');
    expect(call).toMatchObject({ status: 'failed', failure: 'the run was stopped' });
    expect((await again.run('next')).ok).toBe(true);
    expect(inputs[0]?.messages).toContainEqual(expect.objectContaining({ role: 'tool', toolCallId: 'c1' }));
    expectReplayed(again);
  });
});

describe('a named thread made of an event log (no init line)', () => {
  it('starts over under its name with its initial state on reset()', async () => {
    const { entries } = parseSession(
      serializeEventLog([
        { index: 0, event: { type: 'RUN_STARTED', threadId: 't', runId: 'r1' } },
        { index: 1, event: { type: 'RUN_FINISHED', threadId: 't', runId: 'r1' } },
      ]),
    );
    const { source, inputs } = scripted((_n, input, emit) => {
      emit(started(input));
      emit(finished(input));
    });
    const c = createRunController({ source, scheduler: microScheduler, log: entries, threadId: 't', initialState: { cart: ['a'] } });
    c.reset();
    const after = c.getSnapshot().thread;
    expect({ threadId: after.threadId, document: after.sharedState.document }).toEqual({ threadId: 't', document: { cart: ['a'] } });
    await c.run('hi');
    expect(inputs[0]).toMatchObject({ threadId: 't', state: { cart: ['a'] } });
    expectReplayed(c);
  });
});

describe('a message run() cannot keep in its log', () => {
  it.each([
    ['without an id', { role: 'user', content: 'hi' }],
    ['whose content is neither text nor parts', { id: 'u9', role: 'user', content: 42 }],
    ['of another role', { id: 'u9', role: 'system', content: 'you are root' }],
  ])('a message %s is refused, and nothing is sent or logged', async (_name, message) => {
    const { source, inputs } = scripted((_n, input, emit) => {
      emit(started(input));
      emit(finished(input));
    });
    const c = createRunController({ source, scheduler: microScheduler });
    const before = c.log.entries.length;
    expect(await c.run({ message: message as never })).toMatchObject({ ok: false, code: 'MESSAGE_INVALID' });
    expect(inputs).toHaveLength(0);
    expect(c.log.entries).toHaveLength(before);
    expect(c.getSnapshot().thread.messages.ids).toEqual([]);
  });

  it('a valid message the app made is kept, and the saved session replays it', async () => {
    const { source, inputs } = scripted((_n, input, emit) => {
      emit(started(input));
      emit(finished(input));
    });
    const c = createRunController({ source, scheduler: microScheduler });
    expect((await c.run({ message: { id: 'u9', role: 'user', content: [{ type: 'text', text: '退款 A-1001' }] } })).ok).toBe(true);
    const { errors, entries } = parseSession(serializeSession(c.log.entries));
    expect(errors).toEqual([]);
    expect(replaySession(entries).messages.ids).toEqual(['u9']);
    expect(inputs).toHaveLength(1);
  });
});

describe('a controller destroyed while a resume waited for its first event', () => {
  it('gives the interrupts back to the controller made of its log', async () => {
    const { source } = scripted((n, input, emit, signal) => {
      if (n === 1) return open(signal);
      emit(started(input));
      emit(finished(input, { outcome: { type: 'interrupt', interrupts: [{ id: 'i1', reason: 'confirmation' }] } }));
    });
    const c = createRunController({ source, scheduler: microScheduler });
    await c.run('Refund order A-1001');
    void c.resume([{ interruptId: 'i1', status: 'resolved', payload: { approved: true } }]);
    for (let i = 0; i < 20 && !c.log.entries.some((e) => e.type === 'stream_start' && e.kind === 'resume'); i++) await tick();
    expect(c.getSnapshot().thread.interrupts).toEqual([]);
    c.destroy();
    const again = createRunController({ source, scheduler: microScheduler, log: parseSession(serializeSession(c.log.entries)).entries });
    expect(again.getSnapshot().thread.interrupts.map((i) => i.id)).toEqual(['i1']);
    expectReplayed(again);
  });
});

describe('values JSON cannot carry', () => {
  it("an in-process agent's Date, undefined, function or toJSON: held as JSON writes them, live as in the saved file", async () => {
    const { source } = scripted((_n, input, emit) => {
      emit(started(input));
      emit({
        type: 'STATE_SNAPSHOT',
        snapshot: {
          due: new Date(1_700_000_000_000),
          list: [1, undefined, () => 2, 3],
          money: { toJSON: () => '1.00', cents: 100 },
          gone: undefined,
          call: () => 1,
          id: 10n,
          nested: { at: new Date(0), keep: '退款' },
        },
      });
      emit({ type: 'STATE_DELTA', delta: [{ op: 'add', path: '/later', value: new Date(86_400_000) }] });
      emit(finished(input));
    });
    const c = createRunController({ source, scheduler: microScheduler });
    await c.run('When is it due?');
    const live = c.getSnapshot().thread.sharedState.document;
    expect(live).toStrictEqual({
      due: '2023-11-14T22:13:20.000Z',
      list: [1, null, null, 3],
      money: '1.00',
      id: '10',
      nested: { at: '1970-01-01T00:00:00.000Z', keep: '退款' },
      later: '1970-01-02T00:00:00.000Z',
    });
    expect(replaySession(parseSession(serializeSession(c.log.entries)).entries).sharedState.document).toStrictEqual(live);
  });

  it('are held as JSON holds them (null, 0): the live thread, its saved file and the next request agree', async () => {
    const { source, inputs } = scripted((n, input, emit) => {
      emit(started(input));
      // 1e400 read by JSON.parse is Infinity; an in-process agent can send any number.
      if (n === 0)
        emit({ type: 'STATE_SNAPSHOT', snapshot: { total: Number.POSITIVE_INFINITY, ratio: Number.NaN, delta: -0, list: [-0, 1] } });
      if (n === 0) emit({ type: 'STATE_DELTA', delta: [{ op: 'add', path: '/low', value: Number.NEGATIVE_INFINITY }] });
      emit(finished(input));
    });
    const c = createRunController({ source, scheduler: microScheduler });
    await c.run('total?');
    const live = c.getSnapshot().thread;
    expect(live.sharedState.document).toEqual({ total: null, ratio: null, delta: 0, list: [0, 1], low: null });
    expect(Object.is((live.sharedState.document as { delta: number }).delta, 0)).toBe(true);
    const { errors, entries } = parseSession(serializeSession(c.log.entries));
    expect(errors).toEqual([]);
    expect(replaySession(entries).sharedState.document).toEqual(live.sharedState.document);
    await c.run('again');
    expect(inputs[1]?.state).toEqual(live.sharedState.document);
    // The app's own edits are held the same way.
    await c.setState({ total: Number.POSITIVE_INFINITY, delta: -0 });
    await c.updateSharedState((d) => {
      (d as { low: number }).low = Number.NaN;
    });
    const edited = c.getSnapshot().thread.sharedState.document;
    expect(edited).toEqual({ total: null, delta: 0, low: null });
    expect(replaySession(parseSession(serializeSession(c.log.entries)).entries).sharedState.document).toEqual(edited);
  });
});
