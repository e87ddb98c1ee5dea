import { describe, expect, it } from 'vitest';
import { createThreadState, reduceThread, replayEvents } from '../src/engine.js';
import { codes, run, text } from './support/examples.js';

describe('reduceThread: text messages', () => {
  it('accumulates deltas by message id (a delta never overwrites)', () => {
    const s = replayEvents(run([...text('m', 'Ship', 'ped', '.')]));
    expect(s.messages.byId.get('m')).toMatchObject({ role: 'assistant', content: 'Shipped.', streaming: false, runId: 'r1' });
  });

  it('is streaming between START and END only', () => {
    let s = replayEvents(
      [
        { type: 'RUN_STARTED', threadId: 't', runId: 'r' },
        { type: 'TEXT_MESSAGE_START', messageId: 'm' },
      ],
      undefined,
      { open: true },
    );
    expect(s.messages.byId.get('m')?.streaming).toBe(true);
    s = reduceThread(s, { type: 'TEXT_MESSAGE_END', messageId: 'm' });
    expect(s.messages.byId.get('m')?.streaming).toBe(false);
  });

  it('keeps messages in arrival order, interleaved streams included', () => {
    const s = replayEvents(
      run([
        { type: 'TEXT_MESSAGE_START', messageId: 'a' },
        { type: 'TEXT_MESSAGE_START', messageId: 'b', role: 'system' },
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'b', delta: 'B' },
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: 'A' },
        { type: 'TEXT_MESSAGE_END', messageId: 'a' },
        { type: 'TEXT_MESSAGE_END', messageId: 'b' },
      ]),
    );
    expect(s.messages.ids).toEqual(['a', 'b']);
    expect(s.messages.byId.get('b')).toMatchObject({ role: 'system', content: 'B' });
    expect(codes(s)).toEqual([]);
  });

  it('reopens a closed message and appends', () => {
    const s = replayEvents(run([...text('m', 'First.'), ...text('m', ' Second.')]));
    expect(s.messages.ids).toEqual(['m']);
    expect(s.messages.byId.get('m')?.content).toBe('First. Second.');
  });

  it('merges metadata per key, last write wins, without recursing', () => {
    const s = replayEvents(
      run([
        { type: 'TEXT_MESSAGE_START', messageId: 'm', metadata: { a: 1, b: 1, trace: ['one', 'two'], nested: { x: 1 } } },
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'x', metadata: { b: 2, c: null, trace: ['three'], nested: { y: 2 } } },
        { type: 'TEXT_MESSAGE_END', messageId: 'm', metadata: { d: 4 } },
      ]),
    );
    expect(s.messages.byId.get('m')?.metadata).toEqual({ a: 1, b: 2, c: null, d: 4, trace: ['three'], nested: { y: 2 } });
  });

  it('keeps the name and the subagent of a message', () => {
    const s = replayEvents(
      run([
        { type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'user', name: 'Ann', subagentRunId: 's' },
        { type: 'TEXT_MESSAGE_END', messageId: 'm' },
      ]),
    );
    expect(s.messages.byId.get('m')).toMatchObject({ role: 'user', name: 'Ann', subagentRunId: 's' });
  });

  it('keeps multi-byte text byte-exact across deltas (no normalisation, no trimming)', () => {
    const s = replayEvents(run(text('m', 'cafe', '\u0301', ' 👨', '\u200d👩', ' 日本語', ' مرحبا')));
    expect(s.messages.byId.get('m')?.content).toBe('cafe\u0301 👨\u200d👩 日本語 مرحبا');
  });

  it('accepts an empty delta without changing anything', () => {
    const before = replayEvents([{ type: 'RUN_STARTED', threadId: 't', runId: 'r' }, ...text('m', 'a').slice(0, 2)], undefined, {
      open: true,
    });
    const after = reduceThread(before, { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: '' });
    expect(after.messages).toBe(before.messages);
  });

  it('does not lose text that arrives without START: the message is created and the violation reported', () => {
    const s = replayEvents(run([{ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'orphan' }]));
    expect(s.messages.byId.get('m')).toMatchObject({ role: 'assistant', content: 'orphan', streaming: false });
    expect(codes(s)).toEqual(['CONTENT_WITHOUT_START']);
  });

  it('appends text to a message whose content is parts', () => {
    let s = reduceThread(createThreadState(), {
      type: 'MESSAGES_SNAPSHOT',
      messages: [{ id: 'u', role: 'user', content: [{ type: 'text', text: 'a' }] }],
    });
    s = reduceThread(s, { type: 'TEXT_MESSAGE_CONTENT', messageId: 'u', delta: 'b' });
    expect(s.messages.byId.get('u')?.content).toEqual([
      { type: 'text', text: 'a' },
      { type: 'text', text: 'b' },
    ]);
  });
});

describe('reduceThread: reasoning', () => {
  it('makes a reasoning message before the answer, grouped in its span', () => {
    const s = replayEvents(
      run([
        { type: 'REASONING_START', messageId: 'span' },
        { type: 'REASONING_MESSAGE_START', messageId: 'r', role: 'reasoning' },
        { type: 'REASONING_MESSAGE_CONTENT', messageId: 'r', delta: 'Let me check.' },
        { type: 'REASONING_MESSAGE_END', messageId: 'r' },
        { type: 'REASONING_END', messageId: 'span' },
        ...text('a', 'Checked.'),
      ]),
    );
    expect(s.messages.ids).toEqual(['r', 'a']);
    expect(s.messages.byId.get('r')).toMatchObject({ role: 'reasoning', content: 'Let me check.', streaming: false });
    expect(s.reasoning.span).toEqual({ id: 'span', status: 'closed', messageIds: ['r'] });
  });

  it('reads retired THINKING_* events as reasoning', () => {
    const s = replayEvents(
      run([
        { type: 'THINKING_START' },
        { type: 'THINKING_TEXT_MESSAGE_START' },
        { type: 'THINKING_TEXT_MESSAGE_CONTENT', delta: 'Hmm.' },
        { type: 'THINKING_TEXT_MESSAGE_END' },
        { type: 'THINKING_END' },
      ]),
    );
    const [id] = s.messages.ids;
    expect(s.messages.byId.get(id ?? '')).toMatchObject({ role: 'reasoning', content: 'Hmm.' });
    expect(new Set(codes(s))).toEqual(new Set(['RETIRED_EVENT']));
  });

  it('attaches an encrypted value to its message, span or call, and invents nothing for an unknown entity', () => {
    const s = replayEvents(
      run([
        ...text('m', 'x'),
        { type: 'REASONING_ENCRYPTED_VALUE', subtype: 'message', entityId: 'm', encryptedValue: 'E1' },
        { type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'n' },
        { type: 'TOOL_CALL_END', toolCallId: 'c' },
        { type: 'REASONING_ENCRYPTED_VALUE', subtype: 'tool-call', entityId: 'c', encryptedValue: 'E2' },
        { type: 'REASONING_ENCRYPTED_VALUE', subtype: 'message', entityId: 'ghost', encryptedValue: 'E3' },
      ]),
    );
    expect(s.messages.byId.get('m')?.encryptedValue).toBe('E1');
    expect(s.toolCalls.get('c')?.encryptedValue).toBe('E2');
    expect(s.messages.ids).toEqual(['m', 'c']);
    expect(codes(s)).toEqual(['ENCRYPTED_VALUE_UNKNOWN_ENTITY']);
  });
});

describe('reduceThread: a message id another kind of message holds', () => {
  const plan = { type: 'ACTIVITY_SNAPSHOT', messageId: 'plan', activityType: 'plan', content: { steps: ['look up', 'refund'] } };

  it("text streamed under an activity's id leaves the activity as it was, and says so", () => {
    const s = replayEvents(run([plan, ...text('plan', 'hello')]));
    expect(s.messages.byId.get('plan')).toMatchObject({ role: 'activity', content: { steps: ['look up', 'refund'] } });
    expect(codes(s).filter((c) => c === 'MESSAGE_ID_CONFLICT')).toHaveLength(3);
    expect(s.messages.ids).toEqual(['plan']);
  });

  it("a tool result under the calling reply's own id gets an id of its own; the reply keeps its text and its call", () => {
    const s = replayEvents(
      run([
        { type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant' },
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'Looking it up.' },
        { type: 'TEXT_MESSAGE_END', messageId: 'm' },
        { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'lookup', parentMessageId: 'm' },
        { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{}' },
        { type: 'TOOL_CALL_END', toolCallId: 'c1' },
        { type: 'TOOL_CALL_RESULT', messageId: 'm', toolCallId: 'c1', content: 'found' },
      ]),
    );
    expect(s.messages.byId.get('m')).toMatchObject({ role: 'assistant', content: 'Looking it up.', toolCallIds: ['c1'] });
    const call = s.toolCalls.get('c1');
    expect(call).toMatchObject({ status: 'succeeded', parentMessageId: 'm' });
    const result = s.messages.byId.get(call?.result?.messageId ?? '');
    expect(result).toMatchObject({ role: 'tool', toolCallId: 'c1', content: 'found' });
    expect(result?.id).not.toBe('m');
    expect(s.messages.ids).toEqual(['m', result?.id]);
    expect(codes(s)).toContain('MESSAGE_ID_CONFLICT');
  });

  it('text reopening a reply of its own role, and a result restated under its own id, are no conflict', () => {
    const s = replayEvents(
      run([
        ...text('m', 'Part one.'),
        ...text('m', ' Part two.'),
        ...toolCallWith('c1', 'm'),
        { type: 'TOOL_CALL_RESULT', messageId: 't1', toolCallId: 'c1', content: 'first' },
        { type: 'TOOL_CALL_RESULT', messageId: 't1', toolCallId: 'c1', content: 'again' },
      ]),
    );
    expect(s.messages.byId.get('m')?.content).toBe('Part one. Part two.');
    expect(s.messages.byId.get('t1')?.content).toBe('again');
    expect(codes(s)).not.toContain('MESSAGE_ID_CONFLICT');
  });
});

function toolCallWith(id: string, parentMessageId: string) {
  return [
    { type: 'TOOL_CALL_START', toolCallId: id, toolCallName: 'lookup', parentMessageId },
    { type: 'TOOL_CALL_ARGS', toolCallId: id, delta: '{}' },
    { type: 'TOOL_CALL_END', toolCallId: id },
  ];
}
