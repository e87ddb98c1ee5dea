import { describe, expect, it } from 'vitest';
import { reduceThread, replayEvents } from '../src/engine.js';
import { toAgUiMessages } from '../src/index.js';
import { codes, run, text, toolCall } from './support/examples.js';

const open = (events: Record<string, unknown>[]) =>
  replayEvents([{ type: 'RUN_STARTED', threadId: 't1', runId: 'r1' }, ...events], undefined, { open: true });

describe('reduceThread: tool-call lifecycle', () => {
  it('goes declared -> args_streaming -> ready, parsing the arguments once complete', () => {
    let s = open([{ type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'refund', parentMessageId: 'm' }]);
    expect(s.toolCalls.get('c')).toMatchObject({ status: 'declared', argsText: '', name: 'refund', parentMessageId: 'm' });
    s = reduceThread(s, { type: 'TOOL_CALL_ARGS', toolCallId: 'c', delta: '{"amount":' });
    expect(s.toolCalls.get('c')).toMatchObject({ status: 'args_streaming', argsText: '{"amount":' });
    expect(s.toolCalls.get('c')?.args).toBeUndefined();
    s = reduceThread(s, { type: 'TOOL_CALL_ARGS', toolCallId: 'c', delta: '42}' });
    s = reduceThread(s, { type: 'TOOL_CALL_END', toolCallId: 'c' });
    expect(s.toolCalls.get('c')).toMatchObject({ status: 'ready', argsText: '{"amount":42}', args: { amount: 42 } });
  });

  it('TOOL_CALL_END is not success: only a RESULT settles the call', () => {
    let s = open(toolCall('c', 'refund', ['{}']));
    expect(s.toolCalls.get('c')?.status).toBe('ready');
    s = reduceThread(s, { type: 'TOOL_CALL_RESULT', messageId: 't', toolCallId: 'c', content: 'done' });
    expect(s.toolCalls.get('c')).toMatchObject({ status: 'succeeded', result: { messageId: 't', content: 'done' } });
  });

  it('keeps arguments that are not JSON as text, with the parse error', () => {
    const s = open(toolCall('c', 'n', ['{not json']));
    expect(s.toolCalls.get('c')).toMatchObject({ status: 'ready', argsText: '{not json' });
    expect(s.toolCalls.get('c')?.argsError).toMatch(/JSON at position 1/);
    // What went wrong as a value, and the parser's own words without a sentence around them to repeat.
    expect(s.toolCalls.get('c')?.argsErrorCode).toBe('NOT_JSON');
    expect(s.toolCalls.get('c')?.argsError).not.toMatch(/arguments/);
  });

  it('treats empty arguments as an empty object', () => {
    expect(open(toolCall('c', 'n', [])).toolCalls.get('c')?.args).toEqual({});
  });

  it('attaches calls to their parent assistant message, creating it when no text made it', () => {
    const s = replayEvents(
      run([
        ...text('m', 'Looking.'),
        ...toolCall('c1', 'a', ['{}'], 'm'),
        ...toolCall('c2', 'b', ['{}'], 'm'),
        ...toolCall('c3', 'c', ['{}'], 'fresh'),
      ]),
    );
    expect(s.messages.ids).toEqual(['m', 'fresh']);
    expect(s.messages.byId.get('m')?.toolCallIds).toEqual(['c1', 'c2']);
    expect(s.messages.byId.get('fresh')).toMatchObject({ role: 'assistant', toolCallIds: ['c3'] });
  });

  it('gives a call without parent an assistant message of its own', () => {
    const s = replayEvents(run(toolCall('c', 'n', ['{}'])));
    expect(s.messages.byId.get('c')).toMatchObject({ role: 'assistant', toolCallIds: ['c'] });
    expect(s.toolCalls.get('c')?.parentMessageId).toBe('c');
  });

  it('mints the tool message after the calling message and its earlier results', () => {
    const s = replayEvents(
      run([
        ...toolCall('c1', 'a', ['{}'], 'm'),
        ...toolCall('c2', 'b', ['{}'], 'm'),
        ...text('later', 'after the calls'),
        { type: 'TOOL_CALL_RESULT', messageId: 't1', toolCallId: 'c1', content: 'one' },
        { type: 'TOOL_CALL_RESULT', messageId: 't2', toolCallId: 'c2', content: [{ type: 'text', text: 'two' }] },
      ]),
    );
    expect(s.messages.ids).toEqual(['m', 't1', 't2', 'later']);
    expect(s.messages.byId.get('t2')).toMatchObject({ role: 'tool', toolCallId: 'c2', content: [{ type: 'text', text: 'two' }] });
  });

  it('puts a result after its caller and its results even when a snapshot put a result of the same reply further down', () => {
    // The agent's history puts the first call's result after the user's next message; the second call's result still
    // goes right after the reply that made the call, as the official client places it.
    const s = replayEvents(
      run([
        {
          type: 'MESSAGES_SNAPSHOT',
          messages: [
            {
              id: 'm',
              role: 'assistant',
              toolCalls: [
                { id: 'c1', type: 'function', function: { name: 'a', arguments: '{}' } },
                { id: 'c2', type: 'function', function: { name: 'b', arguments: '{}' } },
              ],
            },
            { id: 'u', role: 'user', content: 'and?' },
            { id: 't1', role: 'tool', toolCallId: 'c1', content: 'one' },
          ],
        },
        { type: 'TOOL_CALL_RESULT', messageId: 't2', toolCallId: 'c2', content: 'two' },
      ]),
    );
    expect(s.messages.ids).toEqual(['m', 't2', 'u', 't1']);
  });

  it('puts a result after its caller when a snapshot moved a message between the caller and a result placed before it', () => {
    const calls = [
      { id: 'c1', type: 'function', function: { name: 'a', arguments: '{}' } },
      { id: 'c2', type: 'function', function: { name: 'b', arguments: '{}' } },
      { id: 'c3', type: 'function', function: { name: 'c', arguments: '{}' } },
    ];
    const s = replayEvents(
      run([
        { type: 'MESSAGES_SNAPSHOT', messages: [{ id: 'm', role: 'assistant', toolCalls: calls }] },
        { type: 'TOOL_CALL_RESULT', messageId: 't1', toolCallId: 'c1', content: 'one' },
        {
          type: 'MESSAGES_SNAPSHOT',
          messages: [
            { id: 'm', role: 'assistant', toolCalls: calls },
            { id: 'u', role: 'user', content: 'and?' },
            { id: 't1', role: 'tool', toolCallId: 'c1', content: 'one' },
          ],
        },
        { type: 'TOOL_CALL_RESULT', messageId: 't2', toolCallId: 'c2', content: 'two' },
        { type: 'TOOL_CALL_RESULT', messageId: 't3', toolCallId: 'c3', content: 'three' },
      ]),
    );
    expect(s.messages.ids).toEqual(['m', 't2', 't3', 'u', 't1']);
  });

  it('puts a result at the end when a snapshot restated its caller as another role, or without the call', () => {
    const restated = (m1: Record<string, unknown>) =>
      replayEvents(
        run([
          ...toolCall('c1', 'a', ['{}'], 'm1'),
          ...toolCall('c2', 'b', ['{}'], 'm1'),
          ...text('m2', 'Waiting.'),
          {
            type: 'MESSAGES_SNAPSHOT',
            messages: [
              { id: 'm1', ...m1 },
              { id: 'm2', role: 'assistant', content: 'Waiting.' },
            ],
          },
          { type: 'TOOL_CALL_RESULT', messageId: 't2', toolCallId: 'c2', content: 'two' },
        ]),
      ).messages.ids;
    expect(restated({ role: 'user', content: 'no calls here' })).toEqual(['m1', 'm2', 't2']);
    expect(restated({ role: 'assistant', content: 'No calls after all.' })).toEqual(['m1', 'm2', 't2']);
    // Still carrying the call, the reply takes its result right after it.
    const calls = [{ id: 'c2', type: 'function', function: { name: 'b', arguments: '{}' } }];
    expect(restated({ role: 'assistant', toolCalls: calls })).toEqual(['m1', 't2', 'm2']);
  });

  it('interleaves parallel calls by id without mixing their arguments', () => {
    const s = replayEvents(
      run([
        { type: 'TOOL_CALL_START', toolCallId: 'a', toolCallName: 'x', parentMessageId: 'm' },
        { type: 'TOOL_CALL_START', toolCallId: 'b', toolCallName: 'y', parentMessageId: 'm' },
        { type: 'TOOL_CALL_ARGS', toolCallId: 'a', delta: '{"n":' },
        { type: 'TOOL_CALL_ARGS', toolCallId: 'b', delta: '{"m":' },
        { type: 'TOOL_CALL_ARGS', toolCallId: 'b', delta: '2}' },
        { type: 'TOOL_CALL_ARGS', toolCallId: 'a', delta: '1}' },
        { type: 'TOOL_CALL_END', toolCallId: 'b' },
        { type: 'TOOL_CALL_END', toolCallId: 'a' },
      ]),
    );
    expect(s.toolCalls.get('a')?.args).toEqual({ n: 1 });
    expect(s.toolCalls.get('b')?.args).toEqual({ m: 2 });
    expect(codes(s)).toEqual([]);
  });

  it('keeps tool-call metadata on the call, not on the parent message', () => {
    const s = replayEvents(
      run([
        { type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'n', parentMessageId: 'm', metadata: { a: 1 } },
        { type: 'TOOL_CALL_ARGS', toolCallId: 'c', delta: '{}', metadata: { b: 2 } },
        { type: 'TOOL_CALL_END', toolCallId: 'c', metadata: { a: 3 } },
      ]),
    );
    expect(s.toolCalls.get('c')?.metadata).toEqual({ a: 3, b: 2 });
    expect(s.messages.byId.get('m')?.metadata).toBeUndefined();
    expect(toAgUiMessages(s)[0]).toMatchObject({ toolCalls: [{ id: 'c', metadata: { a: 3, b: 2 } }] });
  });

  it('keeps a RESULT for an unknown call as a tool message, and reports it', () => {
    const s = replayEvents(run([{ type: 'TOOL_CALL_RESULT', messageId: 't', toolCallId: 'ghost', content: 'x' }]));
    expect(s.messages.byId.get('t')).toMatchObject({ role: 'tool', toolCallId: 'ghost', content: 'x' });
    expect(s.toolCalls.get('ghost')).toBeUndefined();
    expect(codes(s)).toEqual(['RESULT_FOR_UNKNOWN_CALL']);
  });

  it('fails calls whose arguments never completed when the run ends', () => {
    const s = replayEvents(
      run([
        { type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'n' },
        { type: 'TOOL_CALL_ARGS', toolCallId: 'c', delta: '{"a' },
      ]),
    );
    expect(s.toolCalls.get('c')).toMatchObject({ status: 'failed', argsText: '{"a' });
    expect(s.toolCalls.get('c')).toMatchObject({
      failure: expect.stringMatching(/before the arguments were complete/),
      failureCode: 'ARGS_INCOMPLETE',
    });
  });

  it('a result that comes after a call failed wins: the call succeeded, and says no failure any more', () => {
    const s = replayEvents([
      ...run([
        { type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'n' },
        { type: 'TOOL_CALL_ARGS', toolCallId: 'c', delta: '{"a' },
      ]),
      { type: 'RUN_STARTED', threadId: 't', runId: 'r2' },
      { type: 'TOOL_CALL_RESULT', messageId: 'res', toolCallId: 'c', content: 'done after all' },
      { type: 'RUN_FINISHED', threadId: 't', runId: 'r2' },
    ]);
    const call = s.toolCalls.get('c');
    expect(call).toMatchObject({ status: 'succeeded', result: { content: 'done after all' } });
    expect(call?.failure).toBeUndefined();
    expect(call?.failureCode).toBeUndefined();
  });

  it('fails calls still waiting for a backend result when the run errors', () => {
    const s = replayEvents([
      { type: 'RUN_STARTED', threadId: 't', runId: 'r' },
      ...toolCall('c', 'n', ['{}']),
      { type: 'RUN_ERROR', message: 'upstream down' },
    ]);
    expect(s.toolCalls.get('c')).toMatchObject({
      status: 'failed',
      failure: 'the run failed before the tool returned: upstream down',
      failureCode: 'RUN_FAILED',
    });
  });

  it('creates a call for ARGS without START rather than dropping the arguments', () => {
    const s = replayEvents(
      run([
        { type: 'TOOL_CALL_ARGS', toolCallId: 'c', delta: '{}' },
        { type: 'TOOL_CALL_END', toolCallId: 'c' },
      ]),
    );
    expect(s.toolCalls.get('c')).toMatchObject({ argsText: '{}', status: 'ready' });
    expect(codes(s)).toEqual(['ARGS_WITHOUT_START', 'TOOL_END_WITHOUT_START']);
  });
});

describe('reduceThread: a tool call id reused by a later run', () => {
  const first = [
    { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'lookup' },
    { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"a": 1}' },
    { type: 'TOOL_CALL_END', toolCallId: 'c1' },
    { type: 'TOOL_CALL_RESULT', messageId: 'tr1', toolCallId: 'c1', content: 'found' },
  ];
  const second = [
    { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'get_weather' },
    { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"city": "NYC"}' },
    { type: 'TOOL_CALL_END', toolCallId: 'c1' },
  ];

  it('gives the later call its own record and leaves the earlier one as it was, reachable', () => {
    const afterFirst = replayEvents(run(first, 'r1', 't'));
    const earlier = afterFirst.toolCalls.get('c1');
    const s = replayEvents(run(second, 'r2', 't'), afterFirst);
    expect(s.toolCalls.get('c1')).toMatchObject({ name: 'get_weather', argsText: '{"city": "NYC"}', args: { city: 'NYC' }, runId: 'r2' });
    expect(s.toolCalls.get('c1#r1')).toBe(earlier);
    expect(earlier).toMatchObject({ id: 'c1', name: 'lookup', argsText: '{"a": 1}', status: 'succeeded', runId: 'r1' });
    expect(codes(s)).toEqual(['DUPLICATE_TOOL_CALL_START']);
  });

  it('keeps each run’s message with its own call, and sends the history back as the agent sent it', () => {
    const s = replayEvents(run(second, 'r2', 't'), replayEvents(run(first, 'r1', 't')));
    expect(s.messages.ids).toEqual(['c1', 'tr1', 'c1#r2']);
    expect(s.messages.byId.get('c1')?.toolCallIds).toEqual(['c1#r1']);
    expect(s.messages.byId.get('c1#r2')?.toolCallIds).toEqual(['c1']);
    expect(s.toolCalls.get('c1')?.parentMessageId).toBe('c1#r2');
    expect(toAgUiMessages(s).map((m) => (m.role === 'assistant' ? m.toolCalls : m.content))).toEqual([
      [{ id: 'c1', type: 'function', function: { name: 'lookup', arguments: '{"a": 1}' } }],
      'found',
      [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city": "NYC"}' } }],
    ]);
  });

  it('gives a later run’s result its own message when its id is an earlier run’s', () => {
    const s = replayEvents(
      run([...second, { type: 'TOOL_CALL_RESULT', messageId: 'tr1', toolCallId: 'c1', content: 'sunny' }], 'r2', 't'),
      replayEvents(run(first, 'r1', 't')),
    );
    expect(s.messages.byId.get('tr1')).toMatchObject({ content: 'found', runId: 'r1' });
    expect(s.messages.byId.get('tr1#r2')).toMatchObject({ content: 'sunny', toolCallId: 'c1', runId: 'r2' });
    expect(s.toolCalls.get('c1')).toMatchObject({ status: 'succeeded', result: { messageId: 'tr1#r2', content: 'sunny' } });
    expect(s.toolCalls.get('c1#r1')).toMatchObject({ result: { messageId: 'tr1', content: 'found' } });
  });

  it('a call restarted within its own run is still one record', () => {
    const s = replayEvents(run([...first.slice(0, 3), { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'lookup' }]));
    expect([...s.toolCalls].map((c) => c.id)).toEqual(['c1']);
  });
});

describe('a call set aside by a later run of the same id, still half-sent when that run ends', () => {
  it('fails where it was set aside, and the later call keeps its own record', () => {
    const state = replayEvents([
      { type: 'RUN_STARTED', threadId: 't', runId: 'run2' },
      { type: 'RUN_FINISHED', threadId: 't', runId: 'run2' },
      // Arguments of a call never started, after its run ended: a half-sent call of run2.
      { type: 'TOOL_CALL_ARGS', toolCallId: 'c2', delta: '' },
      { type: 'RUN_STARTED', threadId: 't', runId: 'run3' },
      { type: 'TOOL_CALL_START', toolCallId: 'c2', toolCallName: 'search', parentMessageId: 'm3' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'c2', delta: '{}' },
      { type: 'TOOL_CALL_END', toolCallId: 'c2' },
      { type: 'TOOL_CALL_RESULT', messageId: 'tr2', toolCallId: 'c2', content: '找到 3 条' },
      { type: 'RUN_FINISHED', threadId: 't', runId: 'run3' },
    ]);
    expect(state.toolCalls.get('c2')).toMatchObject({ id: 'c2', runId: 'run3', name: 'search', status: 'succeeded' });
    expect(state.toolCalls.get('c2#run2')).toMatchObject({ id: 'c2', runId: 'run2', status: 'failed' });
    expect(state.toolCalls.size).toBe(2);
  });
});
