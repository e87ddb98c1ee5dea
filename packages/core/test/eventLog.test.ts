import { describe, expect, it } from 'vitest';
import { compactEvents, replayEvents } from '../src/engine.js';
import { parseSession, toAgUiMessages } from '../src/index.js';
import { createEventLog, parseEventLog, serializeEventLog } from '../src/internal.js';
import { run, text, toolCall } from './support/examples.js';

describe('event log', () => {
  it('records raw events (valid or not) with their arrival index and time', () => {
    const log = createEventLog();
    log.record({ type: 'RUN_STARTED', threadId: 't', runId: 'r' }, 1000);
    log.record('garbage');
    expect(log.entries).toEqual([
      { index: 0, receivedAt: 1000, event: { type: 'RUN_STARTED', threadId: 't', runId: 'r' } },
      { index: 1, event: 'garbage' },
    ]);
    expect(log.events()).toEqual([{ type: 'RUN_STARTED', threadId: 't', runId: 'r' }, 'garbage']);
  });

  it('round-trips through JSON lines', () => {
    const log = createEventLog();
    for (const e of run(text('m', 'line\nbreak', 'ünï'))) log.record(e, 5);
    const text1 = serializeEventLog(log.entries);
    expect(text1.split('\n').filter(Boolean)).toHaveLength(6);
    expect(parseEventLog(text1)).toEqual({ entries: log.entries, errors: [] });
    expect(serializeEventLog([])).toBe('');
  });

  it('reads what it can from a damaged log and says which lines it skipped', () => {
    const parsed = parseEventLog('{"index":0,"event":{"type":"RUN_STARTED"}}\r\nnot json\n[1,2]\n\n{"event":{"type":"CUSTOM"}}\n');
    expect(parsed.entries).toEqual([
      { index: 0, event: { type: 'RUN_STARTED' } },
      { index: 1, event: { type: 'CUSTOM' } },
    ]);
    expect(parsed.errors.map((e) => e.line)).toEqual([2, 3]);
  });
});

describe('an event log read as a session', () => {
  it('keeps every event whatever its time says (none, NaN written as null, a number past a double), each at a time a session can hold', () => {
    const event = { type: 'RUN_STARTED', threadId: 't', runId: 'r' };
    const lines = [
      serializeEventLog([{ index: 0, receivedAt: Number.NaN, event }]).trim(),
      `{"index":1,"receivedAt":1e400,"event":${JSON.stringify(event)}}`,
      `{"index":2,"receivedAt":"yesterday","event":${JSON.stringify(event)}}`,
      `{"index":3,"receivedAt":1700000000000,"event":${JSON.stringify(event)}}`,
    ];
    for (const line of lines) expect(parseEventLog(line).entries).toHaveLength(1);
    const { entries, errors } = parseSession(lines.join('\n'));
    expect(errors).toEqual([]);
    expect(entries.map((e) => e.at)).toEqual([0, 0, 0, 1700000000000]);
  });

  it('gives each event read an index of its own: one the file gives twice, negative or not whole is its position', () => {
    const event = JSON.stringify({ type: 'CUSTOM', name: 'n', value: 1 });
    const text = [0, 0, -3.5, '1e400', 7].map((index) => `{"index":${index},"event":${event}}`).join('\n');
    expect(parseEventLog(text).entries.map((e) => e.index)).toEqual([0, 1, 2, 3, 7]);
    // A position an earlier entry gave itself is taken: the next free one.
    const taken = [1, 1, undefined].map((index) => (index === undefined ? `{"event":${event}}` : `{"index":${index},"event":${event}}`));
    expect(parseEventLog(taken.join('\n')).entries.map((e) => e.index)).toEqual([1, 2, 3]);
  });
});

describe('compactEvents', () => {
  const events = run([
    { type: 'STATE_SNAPSHOT', snapshot: { n: 0, items: [] } },
    { type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/n', value: 1 }] },
    { type: 'STATE_DELTA', delta: [{ op: 'add', path: '/items/-', value: 'a' }] },
    ...text('m', 'He', 'll', 'o'),
    ...toolCall('c', 'n', ['{"a"', ':', '1}'], 'm'),
    { type: 'TOOL_CALL_RESULT', messageId: 't', toolCallId: 'c', content: 'ok' },
  ]);

  it('joins adjacent deltas and folds a snapshot with its deltas', () => {
    const small = compactEvents(events);
    expect(small).toEqual(
      run([
        { type: 'STATE_SNAPSHOT', snapshot: { n: 1, items: ['a'] } },
        { type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant' },
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'Hello' },
        { type: 'TEXT_MESSAGE_END', messageId: 'm' },
        { type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'n', parentMessageId: 'm' },
        { type: 'TOOL_CALL_ARGS', toolCallId: 'c', delta: '{"a":1}' },
        { type: 'TOOL_CALL_END', toolCallId: 'c' },
        { type: 'TOOL_CALL_RESULT', messageId: 't', toolCallId: 'c', content: 'ok' },
      ]),
    );
  });

  it('leads to the same state as the full log', () => {
    const full = replayEvents(events);
    const compact = replayEvents(compactEvents(events));
    expect(toAgUiMessages(compact)).toEqual(toAgUiMessages(full));
    expect(compact.sharedState.document).toEqual(full.sharedState.document);
    expect(compact.run).toEqual(full.run);
    expect([...compact.toolCalls]).toEqual([...full.toolCalls]);
  });

  it('keeps a failing delta and everything unusual as it is', () => {
    const tricky = [
      { type: 'STATE_SNAPSHOT', snapshot: { n: 0 } },
      { type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/n', value: 1 }] },
      { type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/missing', value: 1 }] },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'a', metadata: { k: 1 } },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'b' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'other', delta: 'c' },
    ];
    expect(compactEvents(tricky)).toEqual([{ type: 'STATE_SNAPSHOT', snapshot: { n: 1 } }, ...tricky.slice(2)]);
    expect(replayEvents(compactEvents(tricky)).sharedState).toMatchObject({ document: { n: 1 }, sync: 'desynced' });
  });

  it('keeps a snapshot the reducer refuses as too deep as it is, with the deltas after it', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 600; i++) deep = { a: deep };
    // The snapshot is refused (TOO_DEEP) and desyncs the state, so the delta after it waits for a snapshot: folding
    // the delta into the snapshot would make one that applies, a document the agent's events never gave.
    const events = [
      { type: 'STATE_SNAPSHOT', snapshot: { n: 0 } },
      { type: 'STATE_SNAPSHOT', snapshot: { big: deep } },
      { type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/big', value: 1 }] },
    ];
    const full = replayEvents(events).sharedState;
    expect(full).toMatchObject({ document: { n: 0 }, sync: 'desynced' });
    expect(replayEvents(compactEvents(events)).sharedState).toMatchObject({ document: full.document, sync: full.sync });
    expect(compactEvents(events)).toEqual(events);
  });

  // Each snapshot was walked for its depth, whether or not a delta came to fold into it: 2.5 s for these.
  it('compacts 1,000 snapshots of 10,000 keys with no delta to fold without walking them', () => {
    const snapshot: Record<string, unknown> = {};
    for (let i = 0; i < 10_000; i++) snapshot[`k${i}`] = { v: i, w: [i] };
    const events = Array.from({ length: 1000 }, (_, i) => ({ type: 'STATE_SNAPSHOT', snapshot: i ? snapshot : { n: 0 } }));
    const started = performance.now();
    const compacted = compactEvents(events);
    expect(performance.now() - started).toBeLessThan(250);
    expect(compacted).toEqual(events);
  });

  it('does not join deltas of different subagent lanes', () => {
    const lanes = [
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'a', subagentRunId: 's1' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'b', subagentRunId: 's2' },
    ];
    expect(compactEvents(lanes)).toEqual(lanes);
  });
});
