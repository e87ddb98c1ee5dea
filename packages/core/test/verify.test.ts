import { describe, expect, it } from 'vitest';
import { createVerifier } from '../src/engine.js';
import type { ExpandedEvent, VerifierOptions } from '../src/index.js';
import { run, text, toolCall } from './support/examples.js';

/** Runs the verifier over a list (and its end); returns `code@index` of every diagnostic. */
function verify(events: Record<string, unknown>[], options?: VerifierOptions, end = true): string[] {
  const v = createVerifier(options);
  const found = events.flatMap((e, i) => v.check(e as ExpandedEvent, i));
  if (end) found.push(...v.end(events.length));
  return found.map((d) => `${d.code}@${d.index}`);
}

describe('createVerifier: lifecycle', () => {
  it('is quiet on a conformant run', () => {
    expect(
      verify(
        run([
          ...text('m', 'a', 'b'),
          ...toolCall('c', 'n', ['{}'], 'm'),
          { type: 'TOOL_CALL_RESULT', messageId: 't', toolCallId: 'c', content: 'ok' },
        ]),
      ),
    ).toEqual([]);
  });

  it('requires RUN_STARTED (or RUN_ERROR) first', () => {
    expect(verify([{ type: 'TEXT_MESSAGE_START', messageId: 'm' }], undefined, false)).toEqual(['FIRST_EVENT_NOT_RUN_STARTED@0']);
    expect(verify([{ type: 'RUN_ERROR', message: 'x' }])).toEqual([]);
  });

  it('refuses a nested RUN_STARTED and a second RUN_STARTED for the same run id', () => {
    expect(
      verify(
        [
          { type: 'RUN_STARTED', threadId: 't', runId: 'a' },
          { type: 'RUN_STARTED', threadId: 't', runId: 'b' },
        ],
        undefined,
        false,
      ),
    ).toEqual(['NESTED_RUN_STARTED@1']);
    expect(verify([...run([], 'a'), ...run([], 'a')])).toEqual(['DUPLICATE_RUN_ID@2']);
  });

  it('accepts sequential runs and a new run after RUN_ERROR', () => {
    expect(verify([...run([], 'a'), ...run([], 'b')])).toEqual([]);
    expect(verify([{ type: 'RUN_STARTED', threadId: 't1', runId: 'a' }, { type: 'RUN_ERROR', message: 'x' }, ...run([], 'b')])).toEqual([]);
  });

  it('refuses events after the run ended, but lets a late RUN_ERROR through', () => {
    expect(verify([...run([]), { type: 'TEXT_MESSAGE_START', messageId: 'm' }], undefined, false)).toEqual(['EVENT_AFTER_RUN_END@2']);
    expect(verify([...run([]), { type: 'RUN_ERROR', message: 'late' }])).toEqual([]);
  });

  it('requires RUN_FINISHED to agree with the run and thread it closes', () => {
    expect(
      verify([
        { type: 'RUN_STARTED', threadId: 't', runId: 'a' },
        { type: 'RUN_FINISHED', threadId: 't', runId: 'b' },
      ]),
    ).toEqual(['RUN_ID_MISMATCH@1', 'STREAM_TRUNCATED@2']);
    expect(
      verify([
        { type: 'RUN_STARTED', threadId: 't', runId: 'a' },
        { type: 'RUN_FINISHED', threadId: 'u', runId: 'a' },
      ]),
    ).toEqual(['THREAD_MISMATCH@1', 'STREAM_TRUNCATED@2']);
    expect(verify([...run([], 'a', 't'), ...run([], 'b', 'other')])).toEqual(['THREAD_MISMATCH@2', 'THREAD_MISMATCH@3']);
    expect(verify(run([], 'a', 'x'), { threadId: 't' })).toEqual(['THREAD_MISMATCH@0', 'THREAD_MISMATCH@1']);
  });

  it('reports a RUN_FINISHED naming another run once: the open run goes on, and its own RUN_FINISHED closes it', () => {
    const events = [
      { type: 'RUN_STARTED', threadId: 't', runId: 'a' },
      { type: 'TEXT_MESSAGE_START', messageId: 'm' },
      {
        type: 'RUN_FINISHED',
        threadId: 't',
        runId: 'b',
        outcome: { type: 'interrupt', interrupts: [{ id: 'i', reason: 'confirmation' }] },
      },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'still run a' },
      { type: 'TEXT_MESSAGE_END', messageId: 'm' },
      { type: 'RUN_FINISHED', threadId: 't', runId: 'a' },
    ];
    expect(verify(events)).toEqual(['RUN_ID_MISMATCH@2']);
    // The other run's interrupts are not the thread's: a next run need not resume them.
    expect(verify([...events, ...run([], 'c', 't')])).toEqual(['RUN_ID_MISMATCH@2']);
    // Cut off after it, the open run is truncated.
    expect(verify(events.slice(0, 5))).toEqual(['RUN_ID_MISMATCH@2', 'STREAM_TRUNCATED@5']);
  });

  it('reports a RUN_FINISHED naming another thread than its run started in once: the run goes on to its own end', () => {
    const events = [
      { type: 'RUN_STARTED', threadId: 't', runId: 'a' },
      { type: 'RUN_FINISHED', threadId: 'u', runId: 'a' },
      ...text('m', 'still run a'),
      { type: 'RUN_FINISHED', threadId: 't', runId: 'a' },
    ];
    expect(verify(events)).toEqual(['THREAD_MISMATCH@1']);
    // A fork made after it goes on the same way.
    const v = createVerifier();
    for (const [i, e] of events.slice(0, 2).entries()) v.check(e as ExpandedEvent, i);
    const fork = v.fork();
    expect(events.slice(2).flatMap((e, i) => fork.check(e as ExpandedEvent, i + 2))).toEqual([]);
  });

  it('a RUN_STARTED told to be a run that ended sent again, inside the open run: reported, and the open run goes on to its own end', () => {
    const events = [
      { type: 'RUN_STARTED', threadId: 't', runId: 'b' },
      { type: 'RUN_STARTED', threadId: 't', runId: 'a' },
      { type: 'RUN_FINISHED', threadId: 't', runId: 'a' },
      ...text('m', 'run b'),
      { type: 'RUN_FINISHED', threadId: 't', runId: 'b' },
    ];
    const v = createVerifier();
    const found = events.flatMap((e, i) => v.check(e as ExpandedEvent, i, i === 1));
    expect([...found, ...v.end(events.length)].map((d) => `${d.code}@${d.index}`)).toEqual(['NESTED_RUN_STARTED@1', 'RUN_ID_MISMATCH@2']);
    // Not told so, the nested run replaces the open one, whose events then come after its end.
    expect(verify(events)).toEqual([
      'NESTED_RUN_STARTED@1',
      'EVENT_AFTER_RUN_END@3',
      'EVENT_AFTER_RUN_END@4',
      'EVENT_AFTER_RUN_END@5',
      'EVENT_AFTER_RUN_END@6',
    ]);
  });

  it('refuses RUN_FINISHED while messages, calls, reasoning or subagents are open', () => {
    expect(verify(run([{ type: 'TEXT_MESSAGE_START', messageId: 'm' }]))).toEqual(['OPEN_AT_RUN_FINISHED@2']);
    expect(verify(run([{ type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'n' }]))).toEqual(['OPEN_AT_RUN_FINISHED@2']);
    expect(verify(run([{ type: 'REASONING_MESSAGE_START', messageId: 'r', role: 'reasoning' }]))).toEqual(['OPEN_AT_RUN_FINISHED@2']);
    expect(verify(run([{ type: 'SUBAGENT_STARTED', subagentRunId: 's', name: 'n' }]))).toEqual(['SUBAGENT_STILL_ACTIVE@2']);
  });

  it('reports a stream that ends inside a run as truncated', () => {
    expect(verify([{ type: 'RUN_STARTED', threadId: 't', runId: 'a' }, ...text('m', 'x')])).toEqual(['STREAM_TRUNCATED@4']);
  });

  it('checks steps', () => {
    expect(verify(run([{ type: 'STEP_FINISHED', stepName: 's' }]))).toEqual(['STEP_NOT_STARTED@1']);
    expect(verify(run([{ type: 'STEP_STARTED', stepName: 's' }]))).toEqual(['STEP_STILL_ACTIVE@2']);
  });

  it('warns about protocol versions it cannot vouch for, and is quiet on 1.0 and 1.1', () => {
    const started = (protocolVersion: string) =>
      verify([
        { type: 'RUN_STARTED', threadId: 't', runId: 'r', protocolVersion },
        { type: 'RUN_FINISHED', threadId: 't', runId: 'r' },
      ]);
    expect(started('1.0')).toEqual([]);
    expect(started('1.1')).toEqual([]);
    expect(started('1.2')).toEqual(['PROTOCOL_VERSION_NEWER@0']);
    expect(started('2.0')).toEqual(['PROTOCOL_VERSION_NEWER@0']);
    expect(started('draft')).toEqual(['PROTOCOL_VERSION_UNREADABLE@0']);
  });
});

describe('createVerifier: text and reasoning messages', () => {
  it('allows CONTENT only between START and END of its message', () => {
    expect(verify(run([{ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'x' }]))).toEqual(['CONTENT_WITHOUT_START@1']);
    expect(verify(run([...text('m', 'a'), { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'x' }]))).toEqual([
      'CONTENT_WITHOUT_START@4',
    ]);
    expect(verify(run([{ type: 'REASONING_MESSAGE_CONTENT', messageId: 'r', delta: 'x' }]))).toEqual(['CONTENT_WITHOUT_START@1']);
  });

  it('counts a message left open by a run that ended as closed in the next run', () => {
    const content = { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'x' };
    expect(
      verify([
        { type: 'RUN_STARTED', threadId: 't', runId: 'a' },
        { type: 'TEXT_MESSAGE_START', messageId: 'm' },
        content,
        { type: 'RUN_ERROR', message: 'boom' },
        { type: 'RUN_STARTED', threadId: 't', runId: 'b' },
        content,
        { type: 'RUN_FINISHED', threadId: 't', runId: 'b' },
      ]),
    ).toEqual(['CONTENT_WITHOUT_START@5']);
  });

  it('refuses START twice without END, and END twice', () => {
    expect(verify(run([{ type: 'TEXT_MESSAGE_START', messageId: 'm' }, ...text('m')]))).toEqual(['DUPLICATE_START@2']);
    expect(verify(run([...text('m', 'a'), { type: 'TEXT_MESSAGE_END', messageId: 'm' }]))).toEqual(['END_WITHOUT_START@4']);
  });

  it('accepts reopening a closed message', () => {
    expect(verify(run([...text('m', 'a'), ...text('m', 'b')]))).toEqual([]);
  });

  it('refuses a continuation attributed to another subagent than its opener', () => {
    expect(
      verify(
        run([
          { type: 'TEXT_MESSAGE_START', messageId: 'm', subagentRunId: 'a' },
          { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'x', subagentRunId: 'b' },
          { type: 'TEXT_MESSAGE_END', messageId: 'm' },
        ]),
      ),
    ).toEqual(['ATTRIBUTION_MISMATCH@2']);
  });
});

describe('createVerifier: tool calls', () => {
  it('requires START -> ARGS* -> END', () => {
    expect(verify(run([{ type: 'TOOL_CALL_ARGS', toolCallId: 'c', delta: '{' }]))).toEqual(['ARGS_WITHOUT_START@1']);
    expect(verify(run([...toolCall('c', 'n', []), { type: 'TOOL_CALL_ARGS', toolCallId: 'c', delta: '{' }]))).toEqual([
      'ARGS_WITHOUT_START@3',
    ]);
    expect(verify(run([...toolCall('c', 'n', []), { type: 'TOOL_CALL_END', toolCallId: 'c' }]))).toEqual(['TOOL_END_WITHOUT_START@3']);
    expect(verify(run([...toolCall('c', 'n', []), ...toolCall('c', 'n', [])]))).toEqual(['DUPLICATE_TOOL_CALL_START@3']);
  });

  it("knows the calls a RUN_STARTED's input restates, as it knows a MESSAGES_SNAPSHOT's", () => {
    const call = { id: 'call_0b6f9c1e', type: 'function', function: { name: 'lookup', arguments: '{}' } };
    const input = { threadId: 't', runId: 'r', messages: [{ id: 'a1', role: 'assistant', toolCalls: [call] }] };
    expect(
      verify([
        { type: 'RUN_STARTED', threadId: 't', runId: 'r', input },
        { type: 'TOOL_CALL_RESULT', messageId: 'tm1', toolCallId: 'call_0b6f9c1e', content: '42' },
        { type: 'RUN_FINISHED', threadId: 't', runId: 'r' },
      ]),
    ).toEqual([]);
  });

  it('requires a RESULT to name a known, ended call', () => {
    expect(verify(run([{ type: 'TOOL_CALL_RESULT', messageId: 't', toolCallId: 'ghost', content: '' }]))).toEqual([
      'RESULT_FOR_UNKNOWN_CALL@1',
    ]);
    expect(
      verify(
        run([
          { type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'n' },
          { type: 'TOOL_CALL_RESULT', messageId: 't', toolCallId: 'c', content: '' },
          { type: 'TOOL_CALL_END', toolCallId: 'c' },
        ]),
      ),
    ).toEqual(['RESULT_BEFORE_END@2']);
    expect(
      verify(run([{ type: 'TOOL_CALL_RESULT', messageId: 't', toolCallId: 'old', content: '' }]), { knownToolCallIds: ['old'] }),
    ).toEqual([]);
  });

  it('learns calls from a MESSAGES_SNAPSHOT', () => {
    const snapshot = {
      type: 'MESSAGES_SNAPSHOT',
      messages: [{ id: 'a', role: 'assistant', toolCalls: [{ id: 'c', type: 'function', function: { name: 'n', arguments: '{}' } }] }],
    };
    expect(verify(run([snapshot, { type: 'TOOL_CALL_RESULT', messageId: 't', toolCallId: 'c', content: '' }]))).toEqual([]);
  });
});

describe('createVerifier: interrupts and resume', () => {
  const interrupted = (interrupts: unknown[], runId = 'r1') => ({
    type: 'RUN_FINISHED',
    threadId: 't1',
    runId,
    outcome: { type: 'interrupt', interrupts },
  });
  const start = (runId: string, resume?: unknown[]) => ({
    type: 'RUN_STARTED',
    threadId: 't1',
    runId,
    input: { threadId: 't1', runId, messages: [], tools: [], context: [], ...(resume ? { resume } : {}) },
  });

  it('requires a non-empty interrupt outcome whose interrupts have unique non-empty ids', () => {
    expect(verify([start('r1'), interrupted([])])).toEqual(['INTERRUPT_OUTCOME_EMPTY@1']);
    expect(verify([start('r1'), interrupted([{ reason: 'confirmation' }])])).toEqual(['INTERRUPT_WITHOUT_ID@1']);
    expect(verify([start('r1'), interrupted([{ id: '', reason: 'confirmation' }])])).toEqual(['INTERRUPT_WITHOUT_ID@1']);
    expect(
      verify([
        start('r1'),
        interrupted([
          { id: 'i', reason: 'confirmation' },
          { id: 'i', reason: 'confirmation' },
        ]),
      ]),
    ).toEqual(['DUPLICATE_INTERRUPT_ID@1']);
  });

  it('warns about a tool_call interrupt that points at no known call', () => {
    expect(verify([start('r1'), interrupted([{ id: 'i', reason: 'tool_call' }])])).toEqual(['INTERRUPT_WITHOUT_TOOL_CALL@1']);
    expect(verify([start('r1'), interrupted([{ id: 'i', reason: 'tool_call', toolCallId: 'x' }])])).toEqual([
      'INTERRUPT_UNKNOWN_TOOL_CALL@1',
    ]);
  });

  it('requires the next run to resume every open interrupt', () => {
    const open = [
      start('r1'),
      interrupted([
        { id: 'a', reason: 'confirmation' },
        { id: 'b', reason: 'confirmation' },
      ]),
    ];
    const finish = (runId: string) => ({ type: 'RUN_FINISHED', threadId: 't1', runId });
    expect(verify([...open, start('r2', [{ interruptId: 'a', status: 'resolved' }]), finish('r2')])).toEqual(['RESUME_INCOMPLETE@2']);
    expect(verify([...open, start('r2'), finish('r2')])).toEqual(['RESUME_INCOMPLETE@2']);
    expect(
      verify([
        ...open,
        start('r2', [
          { interruptId: 'a', status: 'resolved' },
          { interruptId: 'b', status: 'cancelled' },
        ]),
        finish('r2'),
      ]),
    ).toEqual([]);
    expect(verify([start('r2', [{ interruptId: 'z', status: 'resolved' }]), finish('r2')])).toEqual(['RESUME_UNKNOWN_INTERRUPT@0']);
  });

  it('accepts a resume the client recorded before sending it, restated by the run that carries it', () => {
    const finish = (runId: string) => ({ type: 'RUN_FINISHED', threadId: 't1', runId });
    const answered = { answeredInterrupts: [{ interruptId: 'a', runId: 'r2' }] };
    expect(verify([start('r2', [{ interruptId: 'a', status: 'resolved' }]), finish('r2')], answered)).toEqual([]);
    // Restated by another run, it is still an answer to an interrupt that is not open.
    expect(verify([start('r3', [{ interruptId: 'a', status: 'resolved' }]), finish('r3')], answered)).toEqual([
      'RESUME_UNKNOWN_INTERRUPT@0',
    ]);
  });

  it('knows interrupts that were open before the stream', () => {
    expect(verify([start('r2'), { type: 'RUN_FINISHED', threadId: 't1', runId: 'r2' }], { openInterruptIds: ['a'] })).toEqual([
      'RESUME_INCOMPLETE@0',
    ]);
  });
});

describe('createVerifier: subagents', () => {
  it('requires a subagent terminal to name an announced subagent', () => {
    expect(verify(run([{ type: 'SUBAGENT_FINISHED', subagentRunId: 's' }]))).toEqual(['SUBAGENT_NOT_STARTED@1']);
    expect(verify(run([{ type: 'SUBAGENT_ERROR', subagentRunId: 's', message: 'x' }]))).toEqual(['SUBAGENT_NOT_STARTED@1']);
    expect(
      verify(
        run([
          { type: 'SUBAGENT_STARTED', subagentRunId: 's', name: 'n' },
          { type: 'SUBAGENT_STARTED', subagentRunId: 's', name: 'n' },
          { type: 'SUBAGENT_FINISHED', subagentRunId: 's' },
        ]),
      ),
    ).toEqual(['DUPLICATE_SUBAGENT@2']);
  });

  it('accepts events attributed to an unannounced subagent', () => {
    expect(verify(run(text('m', 'x').map((e) => ({ ...e, subagentRunId: 's' }))))).toEqual([]);
  });
});

describe('a thread whose runs reused a tool call id', () => {
  it("knows the earlier call by its id, never by the key it was set aside under (`c1#run-1` is no call's id)", async () => {
    const { replayEvents } = await import('../src/engine.js');
    const call = (id: string) => [
      { type: 'TOOL_CALL_START', toolCallId: id, toolCallName: 'lookup_order' },
      { type: 'TOOL_CALL_ARGS', toolCallId: id, delta: '{}' },
      { type: 'TOOL_CALL_END', toolCallId: id },
    ];
    const ran = (runId: string, body: unknown[]) => [
      { type: 'RUN_STARTED', threadId: 't', runId },
      ...body,
      { type: 'RUN_FINISHED', threadId: 't', runId },
    ];
    let thread = replayEvents(ran('run-1', call('c1')));
    thread = replayEvents(ran('run-2', call('c1')), thread);
    expect(thread.toolCalls.has('c1#run-1')).toBe(true);
    const before = thread.diagnostics.length;
    const result = replayEvents(
      ran('run-3', [{ type: 'TOOL_CALL_RESULT', messageId: 'm9', toolCallId: 'c1#run-1', content: 'x' }]),
      thread,
    );
    expect(result.diagnostics.slice(before).map((d) => d.code)).toEqual(['RESULT_FOR_UNKNOWN_CALL']);
    const started = replayEvents(ran('run-3', call('c1#run-1')), thread);
    expect(started.diagnostics.slice(before).map((d) => d.code)).toEqual([]);
    // The id itself is known: a result for the latest c1 is no unknown call.
    const known = replayEvents(ran('run-3', [{ type: 'TOOL_CALL_RESULT', messageId: 'm10', toolCallId: 'c1', content: 'ok' }]), thread);
    expect(known.diagnostics.slice(before).map((d) => d.code)).not.toContain('RESULT_FOR_UNKNOWN_CALL');
  });
});
