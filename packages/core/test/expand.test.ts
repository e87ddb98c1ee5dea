import { describe, expect, it } from 'vitest';
import { createExpander } from '../src/engine.js';
import type { ValidatedEvent } from '../src/index.js';

/** Expands a list and returns the events (type and id) plus diagnostic codes. */
function expandAll(events: Record<string, unknown>[]) {
  const expander = createExpander();
  const out: Record<string, unknown>[] = [];
  const codes: string[] = [];
  events.forEach((e, i) => {
    const r = expander.push(e as ValidatedEvent, i);
    out.push(...(r.events as Record<string, unknown>[]));
    codes.push(...r.diagnostics.map((d) => d.code));
  });
  return { out, types: out.map((e) => e.type), codes };
}

describe('createExpander: TEXT_MESSAGE_CHUNK', () => {
  it('expands an opener and an id-less continuation into one START/CONTENT/END, closed by the run terminal', () => {
    const { out, codes } = expandAll([
      { type: 'RUN_STARTED', threadId: 't', runId: 'r' },
      { type: 'TEXT_MESSAGE_CHUNK', messageId: 'm', role: 'assistant', delta: 'a' },
      { type: 'TEXT_MESSAGE_CHUNK', delta: 'b' },
      { type: 'RUN_FINISHED', threadId: 't', runId: 'r' },
    ]);
    expect(out).toEqual([
      { type: 'RUN_STARTED', threadId: 't', runId: 'r' },
      { type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'a' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'b' },
      { type: 'TEXT_MESSAGE_END', messageId: 'm' },
      { type: 'RUN_FINISHED', threadId: 't', runId: 'r' },
    ]);
    expect(codes).toEqual([]);
  });

  it('defaults the role to assistant and closes the previous stream when a new id opens', () => {
    const { out } = expandAll([
      { type: 'TEXT_MESSAGE_CHUNK', messageId: 'a', delta: '1' },
      { type: 'TEXT_MESSAGE_CHUNK', messageId: 'b', delta: '2' },
    ]);
    expect(out.map((e) => `${e.type}:${e.messageId}`)).toEqual([
      'TEXT_MESSAGE_START:a',
      'TEXT_MESSAGE_CONTENT:a',
      'TEXT_MESSAGE_END:a',
      'TEXT_MESSAGE_START:b',
      'TEXT_MESSAGE_CONTENT:b',
    ]);
    expect(out[0]).toMatchObject({ role: 'assistant' });
  });

  it('closes the open stream on any other event of its lane, but not on RAW', () => {
    expect(
      expandAll([
        { type: 'TEXT_MESSAGE_CHUNK', messageId: 'm', delta: 'a' },
        { type: 'RAW', event: {} },
        { type: 'TEXT_MESSAGE_CHUNK', delta: 'b' },
      ]).codes,
    ).toEqual([]);
    const closed = expandAll([
      { type: 'TEXT_MESSAGE_CHUNK', messageId: 'm', delta: 'a' },
      { type: 'CUSTOM', name: 'x', value: 1 },
      { type: 'TEXT_MESSAGE_CHUNK', delta: 'b' },
    ]);
    expect(closed.types).toEqual(['TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_END', 'CUSTOM']);
    expect(closed.codes).toEqual(['CHUNK_WITHOUT_ID']);
  });

  it('lets activity, encrypted reasoning and a subagent start pass an open stream, as RAW does', () => {
    const between = [
      { type: 'ACTIVITY_SNAPSHOT', messageId: 'act-1', activityType: 'PLAN', content: { steps: [] } },
      { type: 'ACTIVITY_DELTA', messageId: 'act-1', activityType: 'PLAN', patch: [] },
      { type: 'REASONING_ENCRYPTED_VALUE', subtype: 'message', entityId: 'r1', encryptedValue: 'opaque' },
      { type: 'SUBAGENT_STARTED', subagentRunId: 'sub-1', name: 'researcher' },
    ];
    for (const event of between) {
      const { types, codes } = expandAll([
        { type: 'TOOL_CALL_CHUNK', toolCallId: 'tc-1', toolCallName: 'search', delta: '{"q":' },
        event,
        { type: 'TOOL_CALL_CHUNK', delta: '"北京"}' },
        { type: 'RUN_FINISHED', threadId: 't', runId: 'r' },
      ]);
      expect(codes, event.type).toEqual([]);
      expect(types, event.type).toEqual([
        'TOOL_CALL_START',
        'TOOL_CALL_ARGS',
        event.type,
        'TOOL_CALL_ARGS',
        'TOOL_CALL_END',
        'RUN_FINISHED',
      ]);
    }
  });

  it('closes every lane, subagent lanes too, on a MESSAGES_SNAPSHOT', () => {
    const { out } = expandAll([
      { type: 'TEXT_MESSAGE_CHUNK', messageId: 'main', delta: 'm' },
      { type: 'TEXT_MESSAGE_CHUNK', messageId: 'sub', delta: 's', subagentRunId: 'sub-1' },
      { type: 'MESSAGES_SNAPSHOT', messages: [] },
    ]);
    expect(out.filter((e) => e.type === 'TEXT_MESSAGE_END').map((e) => e.messageId)).toEqual(['main', 'sub']);
    expect(out.at(-1)?.type).toBe('MESSAGES_SNAPSHOT');
  });

  it('does not emit a second END when the stream closes with its own explicit END', () => {
    const { types } = expandAll([
      { type: 'TEXT_MESSAGE_CHUNK', messageId: 'm', delta: 'a' },
      { type: 'TEXT_MESSAGE_END', messageId: 'm' },
      { type: 'CUSTOM', name: 'x', value: 1 },
    ]);
    expect(types).toEqual(['TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_END', 'CUSTOM']);
  });

  it('keeps one stream per subagent lane; a subagent terminal closes its own lane only', () => {
    const { out, codes } = expandAll([
      { type: 'TEXT_MESSAGE_CHUNK', messageId: 'main', delta: 'm' },
      { type: 'TEXT_MESSAGE_CHUNK', messageId: 'sub', delta: 's', subagentRunId: 'S' },
      { type: 'TEXT_MESSAGE_CHUNK', delta: '2', subagentRunId: 'S' },
      { type: 'SUBAGENT_FINISHED', subagentRunId: 'S' },
      { type: 'TEXT_MESSAGE_CHUNK', delta: 'M' },
    ]);
    expect(codes).toEqual([]);
    expect(out.map((e) => `${e.type}:${e.messageId ?? e.subagentRunId}`)).toEqual([
      'TEXT_MESSAGE_START:main',
      'TEXT_MESSAGE_CONTENT:main',
      'TEXT_MESSAGE_START:sub',
      'TEXT_MESSAGE_CONTENT:sub',
      'TEXT_MESSAGE_CONTENT:sub',
      'TEXT_MESSAGE_END:sub',
      'SUBAGENT_FINISHED:S',
      'TEXT_MESSAGE_CONTENT:main',
    ]);
    expect(out[5]).toMatchObject({ subagentRunId: 'S' });
  });

  it('reports a conflicting role on a continuation and keeps its text', () => {
    const { out, codes } = expandAll([
      { type: 'TEXT_MESSAGE_CHUNK', messageId: 'm', role: 'assistant', delta: 'a' },
      { type: 'TEXT_MESSAGE_CHUNK', messageId: 'm', role: 'user', delta: 'b' },
    ]);
    expect(codes).toEqual(['CHUNK_CONFLICT']);
    expect(out.filter((e) => e.type === 'TEXT_MESSAGE_CONTENT').map((e) => e.delta)).toEqual(['a', 'b']);
  });

  it('opens with no CONTENT when the opener carries no delta', () => {
    expect(expandAll([{ type: 'TEXT_MESSAGE_CHUNK', messageId: 'm' }]).types).toEqual(['TEXT_MESSAGE_START']);
  });
});

describe('createExpander: TOOL_CALL_CHUNK and REASONING_MESSAGE_CHUNK', () => {
  it('expands tool chunks into START/ARGS/END with the name and parent of the opener', () => {
    const { out, codes } = expandAll([
      { type: 'TOOL_CALL_CHUNK', toolCallId: 'c', toolCallName: 'search', parentMessageId: 'p', delta: '{"q":' },
      { type: 'TOOL_CALL_CHUNK', toolCallId: 'c', toolCallName: 'search', parentMessageId: 'p', delta: '1}' },
      { type: 'RUN_FINISHED', threadId: 't', runId: 'r' },
    ]);
    expect(codes).toEqual([]);
    expect(out).toEqual([
      { type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'search', parentMessageId: 'p' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'c', delta: '{"q":' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'c', delta: '1}' },
      { type: 'TOOL_CALL_END', toolCallId: 'c' },
      { type: 'RUN_FINISHED', threadId: 't', runId: 'r' },
    ]);
  });

  it('refuses a first tool chunk without a name, and a continuation with another name', () => {
    expect(expandAll([{ type: 'TOOL_CALL_CHUNK', toolCallId: 'c', delta: '{}' }]).codes).toEqual(['CHUNK_WITHOUT_NAME']);
    expect(
      expandAll([
        { type: 'TOOL_CALL_CHUNK', toolCallId: 'c', toolCallName: 'a' },
        { type: 'TOOL_CALL_CHUNK', toolCallId: 'c', toolCallName: 'b' },
      ]).codes,
    ).toEqual(['CHUNK_CONFLICT']);
  });

  it('a refused first tool chunk leaves the text stream open as it was: the next text chunk goes on with it', () => {
    const { types, codes } = expandAll([
      { type: 'TEXT_MESSAGE_CHUNK', messageId: 'm', delta: 'Looking ' },
      { type: 'TOOL_CALL_CHUNK', toolCallId: 'c', delta: '{}' },
      { type: 'TEXT_MESSAGE_CHUNK', delta: 'it up.' },
    ]);
    expect(codes).toEqual(['CHUNK_WITHOUT_NAME']);
    expect(types).toEqual(['TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_CONTENT']);
  });

  it('a tool chunk closes an open text chunk stream of the same lane', () => {
    const { types } = expandAll([
      { type: 'TEXT_MESSAGE_CHUNK', messageId: 'm', delta: 'a' },
      { type: 'TOOL_CALL_CHUNK', toolCallId: 'c', toolCallName: 'n', parentMessageId: 'm' },
    ]);
    expect(types).toEqual(['TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_END', 'TOOL_CALL_START']);
  });

  it('expands reasoning chunks with role reasoning', () => {
    const { out } = expandAll([
      { type: 'REASONING_MESSAGE_CHUNK', messageId: 'r', delta: 'hm' },
      { type: 'REASONING_MESSAGE_CHUNK', delta: '.' },
    ]);
    expect(out).toEqual([
      { type: 'REASONING_MESSAGE_START', messageId: 'r', role: 'reasoning' },
      { type: 'REASONING_MESSAGE_CONTENT', messageId: 'r', delta: 'hm' },
      { type: 'REASONING_MESSAGE_CONTENT', messageId: 'r', delta: '.' },
    ]);
  });
});

describe('createExpander: retired THINKING_* events', () => {
  it('maps them to REASONING_* with generated ids and one warning per retired type', () => {
    const { out, codes } = expandAll([
      { type: 'RUN_STARTED', threadId: 't', runId: 'r9' },
      { type: 'THINKING_START', title: 'Working' },
      { type: 'THINKING_TEXT_MESSAGE_START' },
      { type: 'THINKING_TEXT_MESSAGE_CONTENT', delta: 'Let me ' },
      { type: 'THINKING_TEXT_MESSAGE_CONTENT', delta: 'check.' },
      { type: 'THINKING_TEXT_MESSAGE_END' },
      { type: 'THINKING_END' },
    ]);
    expect(out.map((e) => e.type)).toEqual([
      'RUN_STARTED',
      'REASONING_START',
      'REASONING_MESSAGE_START',
      'REASONING_MESSAGE_CONTENT',
      'REASONING_MESSAGE_CONTENT',
      'REASONING_MESSAGE_END',
      'REASONING_END',
    ]);
    const messageIds = new Set(out.slice(2, 6).map((e) => e.messageId));
    expect(messageIds.size).toBe(1);
    expect([...messageIds][0]).toMatch(/^r9-thinking-/);
    expect(out[1]?.messageId).toBe(out[6]?.messageId);
    expect(codes).toEqual(['RETIRED_EVENT', 'RETIRED_EVENT', 'RETIRED_EVENT', 'RETIRED_EVENT', 'RETIRED_EVENT']);
  });
});

describe('createExpander: passes', () => {
  it('says an event passes exactly when push would give it back alone', () => {
    const expander = createExpander();
    const e = (event: Record<string, unknown>) => event as ValidatedEvent;
    const content = e({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'a' });
    expect(expander.passes(content)).toBe(true);
    expect(expander.passes(e({ type: 'SOMETHING_NEW' }))).toBe(true);
    for (const type of ['RUN_STARTED', 'TEXT_MESSAGE_CHUNK', 'TOOL_CALL_CHUNK', 'REASONING_MESSAGE_CHUNK', 'THINKING_START'])
      expect(expander.passes(e({ type }))).toBe(false);
    expander.push(e({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'c1', delta: 'x' }), 0);
    // A chunk stream is open: the next event of the lane closes it.
    expect(expander.passes(content)).toBe(false);
    expect(expander.push(content, 1).events.map((x) => x.type)).toEqual(['TEXT_MESSAGE_END', 'TEXT_MESSAGE_CONTENT']);
    expect(expander.passes(content)).toBe(true);
    expect(expander.push(content, 2).events).toEqual([content]);
  });
});
