import { describe, expect, it } from 'vitest';
import { createThreadState, reduceThread, replayEvents } from '../src/engine.js';
import { type ToolCallRecord, toAgUiMessages } from '../src/index.js';
import { addToolResult, appendMessages, cancelRun } from '../src/internal.js';
import { requestMessages } from '../src/toAgUiMessages.js';
import { run, text, toolCall } from './support/examples.js';

const snapshot = (messages: unknown[]) => ({ type: 'MESSAGES_SNAPSHOT', messages });

describe('reduceThread: MESSAGES_SNAPSHOT', () => {
  it('replaces same-id messages, drops the ones it leaves out, appends new ones', () => {
    const s = replayEvents(
      run([
        ...text('a', 'draft'),
        ...text('b', 'gone'),
        snapshot([
          { id: 'a', role: 'assistant', content: 'final' },
          { id: 'c', role: 'user', content: 'new' },
        ]),
      ]),
    );
    expect(s.messages.ids).toEqual(['a', 'c']);
    expect(s.messages.byId.get('a')?.content).toBe('final');
    expect(s.messages.byId.has('b')).toBe(false);
  });

  it('restating the same history twice changes nothing: no duplicates, unchanged records keep identity', () => {
    const history = [
      { id: 'u', role: 'user', content: 'hi' },
      {
        id: 'a',
        role: 'assistant',
        content: 'hello',
        toolCalls: [{ id: 'c', type: 'function', function: { name: 'n', arguments: '{"x":1}' } }],
      },
      { id: 't', role: 'tool', toolCallId: 'c', content: 'ok' },
    ];
    const once = reduceThread(createThreadState(), snapshot(history) as never);
    const twice = reduceThread(once, snapshot(history) as never);
    expect(twice.messages.ids).toEqual(['u', 'a', 't']);
    for (const id of twice.messages.ids) expect(twice.messages.byId.get(id)).toBe(once.messages.byId.get(id));
    expect(twice.toolCalls.get('c')).toBe(once.toolCalls.get('c'));
    expect(twice.toolCalls.get('c')).toMatchObject({
      status: 'succeeded',
      args: { x: 1 },
      parentMessageId: 'a',
      result: { messageId: 't', content: 'ok' },
    });
  });

  it('keeps client-only activity and reasoning messages the snapshot does not carry', () => {
    const s = replayEvents(
      run([
        { type: 'ACTIVITY_SNAPSHOT', messageId: 'act', activityType: 'PLAN', content: {} },
        { type: 'REASONING_MESSAGE_START', messageId: 'r', role: 'reasoning' },
        { type: 'REASONING_MESSAGE_END', messageId: 'r' },
        snapshot([{ id: 'u', role: 'user', content: 'x' }]),
      ]),
    );
    expect(s.messages.ids).toEqual(['act', 'r', 'u']);
  });

  it('a failed tool message in a snapshot fails its call', () => {
    const s = reduceThread(
      createThreadState(),
      snapshot([
        { id: 'a', role: 'assistant', toolCalls: [{ id: 'c', type: 'function', function: { name: 'n', arguments: '' } }] },
        { id: 't', role: 'tool', toolCallId: 'c', content: '', error: 'timeout' },
      ]) as never,
    );
    expect(s.toolCalls.get('c')).toMatchObject({ status: 'failed', result: { error: 'timeout' } });
  });

  it("adds a run input's messages that the thread does not know yet", () => {
    const base = replayEvents(run(text('a', 'known')));
    const s = replayEvents(
      [
        {
          type: 'RUN_STARTED',
          threadId: 't1',
          runId: 'r2',
          input: {
            threadId: 't1',
            runId: 'r2',
            tools: [],
            context: [],
            messages: [
              { id: 'a', role: 'assistant', content: 'other' },
              { id: 'u2', role: 'user', content: 'next' },
            ],
          },
        },
        { type: 'RUN_FINISHED', threadId: 't1', runId: 'r2' },
      ],
      base,
    );
    expect(s.messages.ids).toEqual(['a', 'u2']);
    expect(s.messages.byId.get('a')?.content).toBe('known');
  });
});

describe('reduceThread: MESSAGES_SNAPSHOT order', () => {
  it('takes the snapshot’s order: it restates the history', () => {
    const s = replayEvents(
      run([
        ...text('a', 'A'),
        ...text('b', 'B'),
        snapshot([
          { id: 'b', role: 'assistant', content: 'B' },
          { id: 'x', role: 'user', content: 'X' },
          { id: 'a', role: 'assistant', content: 'A' },
        ]),
      ]),
    );
    expect(s.messages.ids).toEqual(['b', 'x', 'a']);
  });

  it('keeps a message the client added and the agent never restated right after the message it followed', () => {
    let s = replayEvents(run([...text('a', 'A'), ...text('b', 'B')]));
    s = appendMessages(s, [{ id: 'u', role: 'user', content: 'next' }]);
    s = replayEvents(
      [
        { type: 'RUN_STARTED', threadId: 't1', runId: 'r2' },
        snapshot([
          { id: 'z', role: 'user', content: 'Z' },
          { id: 'b', role: 'assistant', content: 'B' },
          { id: 'a', role: 'assistant', content: 'A' },
        ]),
        { type: 'RUN_FINISHED', threadId: 't1', runId: 'r2' },
      ],
      s,
    );
    expect(s.messages.ids).toEqual(['z', 'b', 'u', 'a']);
  });

  it('keeps a frontend tool result not yet sent, after its call’s message', () => {
    let s = replayEvents([
      { type: 'RUN_STARTED', threadId: 't1', runId: 'r1' },
      ...toolCall('c', 'pick_color', ['{}'], 'a'),
      { type: 'RUN_FINISHED', threadId: 't1', runId: 'r1', outcome: { type: 'success', pendingToolCallIds: ['c'] } },
    ]);
    s = addToolResult(s, { toolCallId: 'c', content: 'blue', messageId: 'res' });
    s = replayEvents(
      [
        { type: 'RUN_STARTED', threadId: 't1', runId: 'r2' },
        snapshot([
          { id: 'u0', role: 'user', content: 'Pick one' },
          { id: 'a', role: 'assistant', toolCalls: [{ id: 'c', type: 'function', function: { name: 'pick_color', arguments: '{}' } }] },
        ]),
        { type: 'RUN_FINISHED', threadId: 't1', runId: 'r2' },
      ],
      s,
    );
    expect(s.messages.ids).toEqual(['u0', 'a', 'res']);
    expect(s.toolCalls.get('c')?.status).toBe('succeeded');
  });

  it('drops what the client added once a run’s input restated it and a snapshot leaves it out', () => {
    let s = appendMessages(replayEvents(run(text('a', 'A'))), [{ id: 'u', role: 'user', content: 'hi' }]);
    s = replayEvents(
      [
        {
          type: 'RUN_STARTED',
          threadId: 't1',
          runId: 'r2',
          input: { threadId: 't1', runId: 'r2', tools: [], context: [], messages: [{ id: 'u', role: 'user', content: 'hi' }] },
        },
        snapshot([{ id: 'a', role: 'assistant', content: 'A' }]),
        { type: 'RUN_FINISHED', threadId: 't1', runId: 'r2' },
      ],
      s,
    );
    expect(s.messages.ids).toEqual(['a']);
  });

  it('places client-only activity and reasoning after the nearest message the snapshot also has, or first', () => {
    const s = replayEvents(
      run([
        { type: 'ACTIVITY_SNAPSHOT', messageId: 'act0', activityType: 'PLAN', content: {} },
        ...text('a', 'A'),
        { type: 'ACTIVITY_SNAPSHOT', messageId: 'act1', activityType: 'PLAN', content: {} },
        ...text('gone', 'dropped'),
        { type: 'REASONING_MESSAGE_START', messageId: 'r', role: 'reasoning' },
        { type: 'REASONING_MESSAGE_END', messageId: 'r' },
        snapshot([
          { id: 'n', role: 'user', content: 'new' },
          { id: 'a', role: 'assistant', content: 'A' },
        ]),
      ]),
    );
    expect(s.messages.ids).toEqual(['act0', 'n', 'a', 'act1', 'r']);
  });
});

describe('reduceThread: subagents', () => {
  it('tracks each subagent with its parent links and its end', () => {
    const s = replayEvents(
      run([
        { type: 'SUBAGENT_STARTED', subagentRunId: 'a', name: 'researcher', parentToolCallId: 'c' },
        { type: 'SUBAGENT_STARTED', subagentRunId: 'b', name: 'writer', parentSubagentRunId: 'a', description: 'writes' },
        ...text('m', 'found it').map((e) => ({ ...e, subagentRunId: 'b' })),
        { type: 'SUBAGENT_FINISHED', subagentRunId: 'b', result: { words: 2 } },
        { type: 'SUBAGENT_FINISHED', subagentRunId: 'a', outcome: { type: 'suspended', interruptIds: ['i'] } },
        { type: 'SUBAGENT_STARTED', subagentRunId: 'c', name: 'broken' },
        { type: 'SUBAGENT_ERROR', subagentRunId: 'c', message: 'no access', code: '403' },
      ]),
    );
    expect(s.subagents.a).toEqual({
      subagentRunId: 'a',
      name: 'researcher',
      parentToolCallId: 'c',
      status: 'suspended',
      interruptIds: ['i'],
    });
    expect(s.subagents.b).toEqual({
      subagentRunId: 'b',
      name: 'writer',
      parentSubagentRunId: 'a',
      description: 'writes',
      status: 'success',
      result: { words: 2 },
    });
    expect(s.subagents.c).toMatchObject({ status: 'error', error: { message: 'no access', code: '403' } });
    expect(s.messages.byId.get('m')?.subagentRunId).toBe('b');
  });

  it('attributes a call and its result to the subagent', () => {
    const s = replayEvents(
      run([
        ...toolCall('c', 'n', ['{}']).map((e) => ({ ...e, subagentRunId: 's' })),
        { type: 'TOOL_CALL_RESULT', messageId: 't', toolCallId: 'c', content: 'x', subagentRunId: 's' },
      ]),
    );
    expect(s.toolCalls.get('c')?.subagentRunId).toBe('s');
    expect(toAgUiMessages(s).map((m) => m.subagentRunId)).toEqual(['s', 's']);
  });
});

describe('reduceThread: pass-through events', () => {
  it('keeps CUSTOM, RAW and unknown events observable, bounded', () => {
    const s = replayEvents(
      run([
        { type: 'CUSTOM', name: 'progress', value: 0.5 },
        { type: 'RAW', event: { vendor: 1 }, source: 'openai' },
        { type: 'FUTURE_EVENT', hello: 'world' },
      ]),
    );
    expect(s.custom).toEqual([{ name: 'progress', value: 0.5 }]);
    expect(s.raw).toEqual([{ event: { vendor: 1 }, source: 'openai' }]);
    expect(s.unknownEvents).toEqual([{ type: 'FUTURE_EVENT', hello: 'world' }]);
    let many = s;
    for (let i = 0; i < 500; i++) many = reduceThread(many, { type: 'CUSTOM', name: 'tick', value: i });
    expect(many.custom.length).toBe(200);
    expect(many.custom.at(-1)).toEqual({ name: 'tick', value: 499 });
  });

  it('reports a chunk fed to the reducer unexpanded instead of guessing', () => {
    const s = reduceThread(createThreadState(), { type: 'TEXT_MESSAGE_CHUNK', messageId: 'm', delta: 'x' });
    expect(s.diagnostics[0]?.code).toBe('UNEXPANDED_CHUNK');
    expect(s.messages.ids).toEqual([]);
  });
});

describe('reduceThread: MESSAGES_SNAPSHOT restating the tool messages the client sent for its unanswered calls', () => {
  /** A run stopped while `c1`'s arguments streamed, and `c2` denied; then the history the next request sends, restated. */
  function restated() {
    const began = replayEvents(
      run([
        { type: 'TEXT_MESSAGE_START', messageId: 'a', role: 'assistant' },
        { type: 'TEXT_MESSAGE_END', messageId: 'a' },
        { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'refund_order', parentMessageId: 'a' },
        { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"orderId":"A-1001","amou' },
      ]).slice(0, -1),
      undefined,
      { open: true },
    );
    const stopped = cancelRun(began);
    const before = stopped.toolCalls.get('c1');
    // What the next request carries: the history with a tool message saying why c1 has no result.
    const history = requestMessages(stopped);
    expect(history.filter((m) => m.role === 'tool')).toHaveLength(1);
    const after = reduceThread(stopped, snapshot(history) as never, 10);
    return { before, after: after.toolCalls.get('c1'), history, state: after };
  }

  it("keeps what the client knew of the call: stopped, its arguments cut off (not 'invalid JSON'), no second error", () => {
    const { before, after } = restated();
    expect(before).toMatchObject({ status: 'failed', failureCode: 'STOPPED' });
    expect(before?.argsError).toBeUndefined();
    expect(after).toEqual(before);
  });

  it('a denied or cancelled call stays so, and the next request still sends its tool message once', () => {
    const state = replayEvents(
      run([
        { type: 'TEXT_MESSAGE_START', messageId: 'a', role: 'assistant' },
        { type: 'TEXT_MESSAGE_END', messageId: 'a' },
        ...toolCall('c2', 'refund_order', ['{"orderId":"A-1"}'], 'a'),
      ]),
    );
    const denied = {
      ...state,
      toolCalls: state.toolCalls.set('c2', { ...(state.toolCalls.get('c2') as ToolCallRecord), status: 'denied' }),
    };
    const history = requestMessages(denied as never);
    const after = reduceThread(denied as never, snapshot(history) as never, 10);
    expect(after.toolCalls.get('c2')?.status).toBe('denied');
    expect(requestMessages(after).filter((m) => m.role === 'tool')).toEqual(history.filter((m) => m.role === 'tool'));
  });

  it('a result the agent gives in place of the one the client sent settles the call as any result does', () => {
    const { history, state } = restated();
    const answered = history.map((m) => (m.role === 'tool' ? { ...m, id: 'agent-result', content: 'refunded', error: undefined } : m));
    const after = reduceThread(state, snapshot(answered) as never, 11).toolCalls.get('c1');
    expect(after).toMatchObject({ status: 'succeeded', result: { messageId: 'agent-result', content: 'refunded' } });
  });
});
