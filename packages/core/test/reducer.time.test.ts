/**
 * When a message started and ended: the event's `timestamp` when it carries
 * one, else the time the pipeline received it (its `now` option, `Date.now`
 * by default). `reduceThread` itself reads no clock: given no time, it
 * records none.
 */
import { describe, expect, it } from 'vitest';
import { createEventPipeline, createThreadState, reduceThread, replayEvents } from '../src/engine.js';
import { appendMessages } from '../src/internal.js';

const started = { type: 'RUN_STARTED', threadId: 't', runId: 'r' };
const finished = { type: 'RUN_FINISHED', threadId: 't', runId: 'r' };

/** A clock that ticks once per reading: 1000, 1001, ... */
function ticking(from = 1000) {
  let t = from;
  return () => t++;
}

describe('message times', () => {
  it('takes startedAt and endedAt from the events’ timestamps', () => {
    const s = replayEvents([
      started,
      { type: 'TEXT_MESSAGE_START', messageId: 'm', timestamp: 100 },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'Hi', timestamp: 150 },
      { type: 'TEXT_MESSAGE_END', messageId: 'm', timestamp: 200 },
      finished,
    ]);
    expect(s.messages.byId.get('m')).toMatchObject({ startedAt: 100, endedAt: 200 });
  });

  it('takes the pipeline’s clock for events without a timestamp, so a replay given a clock is deterministic', () => {
    const events = [
      started,
      { type: 'TEXT_MESSAGE_START', messageId: 'm' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'Hi' },
      { type: 'TEXT_MESSAGE_END', messageId: 'm' },
      finished,
    ];
    const a = replayEvents(events, undefined, { now: ticking() });
    const b = replayEvents(events, undefined, { now: ticking() });
    // The clock is read for the events that need a time: not for a token into a message that exists.
    expect(a.messages.byId.get('m')).toMatchObject({ startedAt: 1001, endedAt: 1002 });
    expect(b.messages.byId.get('m')).toEqual(a.messages.byId.get('m'));
    expect(a.runs.r).toMatchObject({ startedAt: 1000, finishedAt: 1003 });
  });

  it('uses Date.now when no clock is given', () => {
    const before = Date.now();
    const s = replayEvents([started, { type: 'TEXT_MESSAGE_CHUNK', messageId: 'm', delta: 'x' }, finished]);
    const m = s.messages.byId.get('m');
    expect(m?.startedAt).toBeGreaterThanOrEqual(before);
    expect(m?.endedAt).toBeLessThanOrEqual(Date.now());
  });

  it('push takes the time an event was received, and a delta into a message that exists reads no clock', () => {
    let reads = 0;
    const p = createEventPipeline(createThreadState(), {
      now: () => {
        reads++;
        return 5;
      },
    });
    p.push(started, 1);
    p.push({ type: 'TEXT_MESSAGE_START', messageId: 'm' }, 2);
    for (let i = 0; i < 10; i++) p.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'x' });
    p.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'orphan', delta: 'x' });
    expect(reads).toBe(1);
    expect(p.state.messages.byId.get('m')?.startedAt).toBe(2);
    expect(p.state.messages.byId.get('orphan')?.startedAt).toBe(5);
  });

  it('reduceThread reads no clock: without a timestamp or a time given, it records none', () => {
    let s = reduceThread(createThreadState(), started as never);
    s = reduceThread(s, { type: 'TEXT_MESSAGE_START', messageId: 'm' });
    s = reduceThread(s, { type: 'TEXT_MESSAGE_END', messageId: 'm' });
    expect(s.messages.byId.get('m')?.startedAt).toBeUndefined();
    expect(s.messages.byId.get('m')?.endedAt).toBeUndefined();
    const timed = reduceThread(createThreadState(), { type: 'TEXT_MESSAGE_START', messageId: 'm' }, 0, 77);
    expect(timed.messages.byId.get('m')?.startedAt).toBe(77);
  });

  it('times the messages a tool call, its result, an activity and a snapshot make', () => {
    const p = createEventPipeline(createThreadState(), { now: () => 5 });
    for (const e of [
      started,
      { type: 'MESSAGES_SNAPSHOT', messages: [{ id: 'u', role: 'user', content: 'hi' }], timestamp: 40 },
      { type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'n', timestamp: 10 },
      { type: 'TOOL_CALL_END', toolCallId: 'c' },
      { type: 'TOOL_CALL_RESULT', messageId: 'tr', toolCallId: 'c', content: 'ok', timestamp: 20 },
      { type: 'ACTIVITY_SNAPSHOT', messageId: 'act', activityType: 'PLAN', content: {}, timestamp: 30 },
    ])
      p.push(e);
    const s = p.state;
    expect(s.messages.byId.get('c')).toMatchObject({ startedAt: 10, endedAt: 10 });
    expect(s.messages.byId.get('tr')).toMatchObject({ startedAt: 20, endedAt: 20 });
    expect(s.messages.byId.get('act')).toMatchObject({ startedAt: 30, endedAt: 30 });
    expect(s.messages.byId.get('u')).toMatchObject({ startedAt: 40, endedAt: 40 });
  });

  it('ends a message its run closed at the terminal event’s time, and leaves the end of a cut-off one unknown', () => {
    const closed = replayEvents([started, { type: 'TEXT_MESSAGE_START', messageId: 'm', timestamp: 1 }, { ...finished, timestamp: 9 }]);
    expect(closed.messages.byId.get('m')).toMatchObject({ streaming: false, startedAt: 1, endedAt: 9 });
    const cut = replayEvents([started, { type: 'TEXT_MESSAGE_START', messageId: 'm', timestamp: 1 }]);
    expect(cut.messages.byId.get('m')).toMatchObject({ streaming: false, startedAt: 1 });
    expect(cut.messages.byId.get('m')?.endedAt).toBeUndefined();
  });

  it('a reopened message keeps its start and ends again at its new END', () => {
    const s = replayEvents([
      started,
      { type: 'TEXT_MESSAGE_START', messageId: 'm', timestamp: 1 },
      { type: 'TEXT_MESSAGE_END', messageId: 'm', timestamp: 2 },
      { type: 'TEXT_MESSAGE_START', messageId: 'm', timestamp: 3 },
    ]);
    expect(s.messages.byId.get('m')).toMatchObject({ startedAt: 1 });
    const reopened = replayEvents(
      [
        started,
        { type: 'TEXT_MESSAGE_START', messageId: 'm', timestamp: 1 },
        { type: 'TEXT_MESSAGE_END', messageId: 'm', timestamp: 2 },
        { type: 'TEXT_MESSAGE_START', messageId: 'm', timestamp: 3 },
      ],
      undefined,
      { open: true },
    );
    expect(reopened.messages.byId.get('m')?.endedAt).toBeUndefined();
    const ended = reduceThread(reopened, { type: 'TEXT_MESSAGE_END', messageId: 'm', timestamp: 4 });
    expect(ended.messages.byId.get('m')).toMatchObject({ startedAt: 1, endedAt: 4 });
  });

  it('times the messages a client appends when it gives the time', () => {
    const s = appendMessages(createThreadState(), [{ id: 'u', role: 'user', content: 'hi' }], 123);
    expect(s.messages.byId.get('u')).toMatchObject({ startedAt: 123, endedAt: 123 });
  });
});
