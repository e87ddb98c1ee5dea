import { describe, expect, it } from 'vitest';
import { createThreadState, reduceThread, replayEvents } from '../src/engine.js';
import { EVENT_TYPES, type MessageRecord, type ThreadState } from '../src/index.js';
import { copyMessage, withDiagnostics } from '../src/reducer/eventHelpers.js';
import { copyThread } from '../src/reducer/helpers.js';
import { run, text, toolCall, VALID_EXAMPLES } from './support/examples.js';

function thread(messages: number): ThreadState {
  const events: Record<string, unknown>[] = [{ type: 'RUN_STARTED', threadId: 't', runId: 'r' }];
  for (let i = 0; i < messages; i++) events.push(...text(`m${i}`, `message ${i}`));
  events.push(...toolCall('c', 'n', ['{}'], `m${messages - 1}`));
  events.push({ type: 'TEXT_MESSAGE_START', messageId: 'live' });
  return replayEvents(events, undefined, { open: true });
}

describe('reduceThread: structural sharing', () => {
  const before = thread(50);
  const after = reduceThread(before, { type: 'TEXT_MESSAGE_CONTENT', messageId: 'live', delta: 'token' });

  it('a token changes its message and nothing else', () => {
    expect(after.messages.byId.get('live')).not.toBe(before.messages.byId.get('live'));
    expect(after.messages.byId.get('live')?.content).toBe('token');
    expect(after.messages.ids).toBe(before.messages.ids);
    for (const id of before.messages.ids) if (id !== 'live') expect(after.messages.byId.get(id)).toBe(before.messages.byId.get(id));
    expect(after.toolCalls).toBe(before.toolCalls);
    expect(after.sharedState).toBe(before.sharedState);
    expect(after.run).toBe(before.run);
    expect(after.interrupts).toBe(before.interrupts);
    expect(after.diagnostics).toBe(before.diagnostics);
  });

  it('an argument delta changes its call and nothing else', () => {
    const open = reduceThread(before, { type: 'TOOL_CALL_START', toolCallId: 'd', toolCallName: 'x', parentMessageId: 'live' });
    const next = reduceThread(open, { type: 'TOOL_CALL_ARGS', toolCallId: 'd', delta: '{' });
    expect(next.toolCalls.get('d')).not.toBe(open.toolCalls.get('d'));
    expect(next.toolCalls.get('c')).toBe(open.toolCalls.get('c'));
    expect(next.messages).toBe(open.messages);
  });

  it('never mutates the state it is given', () => {
    const frozenCopy = JSON.stringify({ ids: before.messages.ids, live: before.messages.byId.get('live') });
    reduceThread(before, { type: 'TEXT_MESSAGE_CONTENT', messageId: 'live', delta: 'more' });
    reduceThread(before, { type: 'STATE_SNAPSHOT', snapshot: { x: 1 } });
    expect(JSON.stringify({ ids: before.messages.ids, live: before.messages.byId.get('live') })).toBe(frozenCopy);
    expect(before.sharedState.document).toEqual({});
  });

  it('does not scan the history per token: the ordered id list is not even read', () => {
    const big = thread(2000);
    let reads = 0;
    const ids = new Proxy(big.messages.ids as string[], {
      get(target, key, receiver) {
        reads++;
        return Reflect.get(target, key, receiver);
      },
    });
    const watched: ThreadState = { ...big, messages: { ...big.messages, ids } };
    let s = watched;
    for (let i = 0; i < 100; i++) s = reduceThread(s, { type: 'TEXT_MESSAGE_CONTENT', messageId: 'live', delta: 'x' });
    for (let i = 0; i < 100; i++) s = reduceThread(s, { type: 'TOOL_CALL_ARGS', toolCallId: 'c', delta: ' ' });
    expect(reads).toBe(0);
    expect(s.messages.byId.get('live')?.content).toBe('x'.repeat(100));
  });
});

describe('reduceThread: total over every event type', () => {
  it.each(EVENT_TYPES)('handles %s without throwing, counting the event', (type) => {
    const base = replayEvents(run([...text('m1', 'x'), ...toolCall('c1', 'lookup', ['{}'], 'm1')]), createThreadState());
    const s = reduceThread(base, VALID_EXAMPLES[type] as never);
    expect(s.eventCount).toBe(base.eventCount + 1);
    expect(s).not.toBe(base);
  });
});

describe('the copies the reducer makes on every event', () => {
  const every: MessageRecord = {
    id: 'm',
    role: 'assistant',
    content: 'a',
    streaming: true,
    name: 'n',
    toolCallIds: ['c'],
    toolCallId: 't',
    error: 'e',
    activityType: 'x',
    encryptedValue: 'v',
    subagentRunId: 's',
    runId: 'r',
    metadata: { k: 1 },
    startedAt: 1,
    endedAt: 2,
    source: 'client',
  };

  it('copyMessage keeps every field of a message record', () => {
    const copy = copyMessage(every);
    expect(copy).not.toBe(every);
    expect(copy).toStrictEqual(every);
    expect(copyMessage({ id: 'm', role: 'user', content: '', streaming: false })).toStrictEqual({
      id: 'm',
      role: 'user',
      content: '',
      streaming: false,
    });
  });

  it('copyThread keeps every field of the thread state', () => {
    const state = withDiagnostics(replayEvents(run(text('m1', 'x')), createThreadState({ threadId: 't' })), [
      { index: 0, code: 'X', message: 'x', severity: 'warning' },
    ]);
    const copy = copyThread(state);
    expect(copy).not.toBe(state);
    expect(copy).toStrictEqual(state);
    expect(Object.keys(copy).sort()).toEqual(Object.keys(state).sort());
    expect('threadId' in copyThread(createThreadState())).toBe(false);
  });

  it('a token keeps every other field of its message', () => {
    const state = reduceThread(createThreadState(), { type: 'TEXT_MESSAGE_START', messageId: 'm' });
    const seeded = { ...state, messages: { ids: state.messages.ids, byId: state.messages.byId.set('m', every) } };
    const after = reduceThread(seeded, { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'b' });
    expect(after.messages.byId.get('m')).toStrictEqual({ ...every, content: 'ab' });
  });
});
