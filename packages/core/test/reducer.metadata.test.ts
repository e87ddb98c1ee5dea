/**
 * Every event's `metadata` is kept, merged per key (last write wins) into the
 * record the event builds or updates: messages, tool calls, runs, steps, the
 * shared state, subagents, reasoning spans, activities, CUSTOM and RAW
 * records, and the message list a MESSAGES_SNAPSHOT restates.
 */
import { describe, expect, it } from 'vitest';
import { replayEvents } from '../src/engine.js';
import { codes, run } from './support/examples.js';

const started = { type: 'RUN_STARTED', threadId: 't', runId: 'r' };
const finished = { type: 'RUN_FINISHED', threadId: 't', runId: 'r' };

describe('metadata on chunks without a delta', () => {
  it('keeps the metadata of a TEXT_MESSAGE_CHUNK that carries no delta', () => {
    const s = replayEvents([
      started,
      { type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', delta: 'Hello' },
      { type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', metadata: { usage: { output: 340 } } },
      finished,
    ]);
    expect(s.messages.byId.get('m1')).toMatchObject({ content: 'Hello', metadata: { usage: { output: 340 } } });
    expect(codes(s)).toEqual([]);
  });

  it('keeps it on an id-less continuation and on the chunk that opens the stream', () => {
    const s = replayEvents([
      started,
      { type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', metadata: { model: 'x' } },
      { type: 'TEXT_MESSAGE_CHUNK', delta: 'Hi' },
      { type: 'TEXT_MESSAGE_CHUNK', metadata: { finish: 'stop' } },
      finished,
    ]);
    expect(s.messages.byId.get('m1')).toMatchObject({ content: 'Hi', metadata: { model: 'x', finish: 'stop' } });
  });

  it('keeps the metadata of a TOOL_CALL_CHUNK that carries no delta on the call', () => {
    const s = replayEvents([
      started,
      { type: 'TOOL_CALL_CHUNK', toolCallId: 'c1', toolCallName: 'lookup', delta: '{"a":1}' },
      { type: 'TOOL_CALL_CHUNK', toolCallId: 'c1', metadata: { latencyMs: 12 } },
      finished,
    ]);
    expect(s.toolCalls.get('c1')).toMatchObject({ argsText: '{"a":1}', status: 'ready', metadata: { latencyMs: 12 } });
    expect(codes(s)).toEqual([]);
  });

  it('keeps the metadata of a REASONING_MESSAGE_CHUNK that carries no delta', () => {
    const s = replayEvents([
      started,
      { type: 'REASONING_MESSAGE_CHUNK', messageId: 'rm', delta: 'hm' },
      { type: 'REASONING_MESSAGE_CHUNK', metadata: { tokens: 3 } },
      finished,
    ]);
    expect(s.messages.byId.get('rm')).toMatchObject({ content: 'hm', metadata: { tokens: 3 } });
  });
});

describe('metadata on activities', () => {
  const activity = { type: 'ACTIVITY_SNAPSHOT', messageId: 'a', activityType: 'PLAN', content: { steps: [] } };

  it('merges the metadata of an ACTIVITY_DELTA whose patch fails', () => {
    const s = replayEvents(
      run([
        { ...activity, metadata: { a: 1 } },
        {
          type: 'ACTIVITY_DELTA',
          messageId: 'a',
          activityType: 'PLAN',
          patch: [{ op: 'replace', path: '/nope/x', value: 1 }],
          metadata: { b: 2 },
        },
      ]),
    );
    expect(s.messages.byId.get('a')).toMatchObject({ content: { steps: [] }, metadata: { a: 1, b: 2 } });
    expect(codes(s)).toEqual(['ACTIVITY_PATCH_FAILED']);
  });

  it('merges the metadata of a snapshot that keeps the existing activity (replace: false)', () => {
    const s = replayEvents(run([activity, { ...activity, content: { steps: ['x'] }, replace: false, metadata: { seen: true } }]));
    expect(s.messages.byId.get('a')).toMatchObject({ content: { steps: [] }, metadata: { seen: true } });
  });
});

describe('metadata on every other record', () => {
  it('keeps run metadata from RUN_STARTED and RUN_FINISHED on the run and its summary', () => {
    const s = replayEvents([
      { ...started, metadata: { trace: 'a', region: 'eu' } },
      { ...finished, metadata: { trace: 'b' } },
    ]);
    expect(s.run.metadata).toEqual({ trace: 'b', region: 'eu' });
    expect(s.runs.r?.metadata).toEqual({ trace: 'b', region: 'eu' });
  });

  it('keeps the metadata of RUN_ERROR', () => {
    const s = replayEvents([
      { ...started, metadata: { a: 1 } },
      { type: 'RUN_ERROR', message: 'boom', metadata: { b: 2 } },
    ]);
    expect(s.run.metadata).toEqual({ a: 1, b: 2 });
    expect(s.runs.r?.metadata).toEqual({ a: 1, b: 2 });
  });

  it('keeps step metadata by step name, from STEP_STARTED and STEP_FINISHED', () => {
    const s = replayEvents(
      run([
        { type: 'STEP_STARTED', stepName: 'plan', metadata: { a: 1 } },
        { type: 'STEP_FINISHED', stepName: 'plan', metadata: { b: 2 } },
      ]),
    );
    expect(s.run.stepMetadata).toEqual({ plan: { a: 1, b: 2 } });
  });

  it('keeps state metadata from snapshots and deltas, failed deltas and deltas held while desynced included', () => {
    const s = replayEvents(
      run([
        { type: 'STATE_SNAPSHOT', snapshot: { n: 1 }, metadata: { source: 'db' } },
        { type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/n', value: 2 }], metadata: { rev: 2 } },
        { type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/missing', value: 3 }], metadata: { rev: 3 } },
        { type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/n', value: 4 }], metadata: { rev: 4, late: true } },
      ]),
    );
    expect(s.sharedState).toMatchObject({ document: { n: 2 }, sync: 'desynced', metadata: { source: 'db', rev: 4, late: true } });
  });

  it('keeps subagent metadata from its start and its end', () => {
    const s = replayEvents(
      run([
        { type: 'SUBAGENT_STARTED', subagentRunId: 'sa', name: 'researcher', metadata: { model: 'small' } },
        { type: 'SUBAGENT_FINISHED', subagentRunId: 'sa', metadata: { tokens: 9 } },
        { type: 'SUBAGENT_STARTED', subagentRunId: 'sb', name: 'writer' },
        { type: 'SUBAGENT_ERROR', subagentRunId: 'sb', message: 'no', metadata: { retry: false } },
      ]),
    );
    expect(s.subagents.sa?.metadata).toEqual({ model: 'small', tokens: 9 });
    expect(s.subagents.sb?.metadata).toEqual({ retry: false });
  });

  it('keeps reasoning-span metadata from REASONING_START and REASONING_END', () => {
    const s = replayEvents(
      run([
        { type: 'REASONING_START', messageId: 'span', metadata: { effort: 'high' } },
        { type: 'REASONING_END', messageId: 'span', metadata: { ms: 40 } },
      ]),
    );
    expect(s.reasoning.span?.metadata).toEqual({ effort: 'high', ms: 40 });
  });

  it('keeps the metadata of CUSTOM and RAW events on their records', () => {
    const s = replayEvents(
      run([
        { type: 'CUSTOM', name: 'progress', value: 1, metadata: { a: 1 } },
        { type: 'RAW', event: { x: 1 }, metadata: { b: 2 } },
      ]),
    );
    expect(s.custom).toEqual([{ name: 'progress', value: 1, metadata: { a: 1 } }]);
    expect(s.raw).toEqual([{ event: { x: 1 }, metadata: { b: 2 } }]);
  });

  it('keeps the metadata of MESSAGES_SNAPSHOT on the message list, merged per key', () => {
    const s = replayEvents(
      run([
        { type: 'MESSAGES_SNAPSHOT', messages: [{ id: 'u', role: 'user', content: 'hi' }], metadata: { a: 1, b: 1 } },
        { type: 'MESSAGES_SNAPSHOT', messages: [{ id: 'u', role: 'user', content: 'hi' }], metadata: { b: 2 } },
      ]),
    );
    expect(s.messages.metadata).toEqual({ a: 1, b: 2 });
    expect(s.messages.ids).toEqual(['u']);
  });

  it('keeps the title of a retired THINKING_START on its reasoning span', () => {
    const s = replayEvents(
      run([
        { type: 'THINKING_START', title: 'Checking the order' },
        { type: 'THINKING_TEXT_MESSAGE_START' },
        { type: 'THINKING_TEXT_MESSAGE_CONTENT', delta: 'Hmm.' },
        { type: 'THINKING_TEXT_MESSAGE_END' },
        { type: 'THINKING_END' },
      ]),
    );
    const spans = Object.values(s.reasoning);
    expect(spans).toHaveLength(1);
    expect(spans[0]).toMatchObject({ title: 'Checking the order', status: 'closed' });
  });
});

describe('links and results on the model records', () => {
  it('keeps a subagent’s parent links and result, and the subagent of an interrupt', () => {
    const s = replayEvents([
      started,
      { type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'delegate', parentMessageId: 'm' },
      { type: 'TOOL_CALL_END', toolCallId: 'c' },
      { type: 'SUBAGENT_STARTED', subagentRunId: 'sa', name: 'researcher', parentToolCallId: 'c', parentMessageId: 'm' },
      { type: 'SUBAGENT_FINISHED', subagentRunId: 'sa', result: { found: 3 } },
      {
        ...finished,
        result: { answer: 42 },
        usage: [{ model: 'm', totalTokens: 7 }],
        outcome: { type: 'interrupt', interrupts: [{ id: 'i', reason: 'confirmation', subagentRunId: 'sa' }] },
      },
    ]);
    expect(s.subagents.sa).toMatchObject({ parentToolCallId: 'c', parentMessageId: 'm', result: { found: 3 }, status: 'success' });
    expect(s.interrupts[0]?.subagentRunId).toBe('sa');
    expect(s.run).toMatchObject({ result: { answer: 42 }, usage: [{ model: 'm', totalTokens: 7 }] });
    expect(s.runs.r).toMatchObject({ result: { answer: 42 }, usage: [{ model: 'm', totalTokens: 7 }] });
  });

  it('keeps the result and usage of a run that a newer run replaced, on its summary', () => {
    const s = replayEvents(
      [
        { type: 'RUN_STARTED', threadId: 't', runId: 'old' },
        { type: 'RUN_STARTED', threadId: 't', runId: 'new' },
        { type: 'RUN_FINISHED', threadId: 't', runId: 'old', result: 'late', usage: [{ totalTokens: 1 }] },
      ],
      undefined,
      { open: true },
    );
    expect(s.run.runId).toBe('new');
    expect(s.runs.old).toMatchObject({ result: 'late', usage: [{ totalTokens: 1 }] });
  });

  it('keeps the usage of RUN_ERROR on the run and its summary', () => {
    const s = replayEvents([started, { type: 'RUN_ERROR', message: 'x', usage: [{ totalTokens: 5 }] }]);
    expect(s.run.usage).toEqual([{ totalTokens: 5 }]);
    expect(s.runs.r?.usage).toEqual([{ totalTokens: 5 }]);
  });
});
