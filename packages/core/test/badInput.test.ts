import { describe, expect, it } from 'vitest';
import { replayEvents } from '../src/engine.js';
import { MAX_JSON_DEPTH } from '../src/internal.js';
import { expectConsistent } from './support/consistency.js';
import { codes, run, text, toolCall } from './support/examples.js';

type Raw = Record<string, unknown> | unknown;
/** A JSON value nested `depth` arrays deep, as `JSON.parse` makes it from `[[[...]]]`. */
const nested = (depth: number): unknown => JSON.parse('['.repeat(depth) + ']'.repeat(depth));
const kept = text('kept', 'still ', 'here');

/** Each case: a stream with one kind of bad input around a message that must survive, and the diagnostic it yields. */
const cases: [string, Raw[], string][] = [
  ['a non-object frame', [null, 'data: {"type"', 42, [1]], 'NOT_AN_OBJECT'],
  ['an event without type', [{ messageId: 'x' }], 'MISSING_TYPE'],
  ['a missing required field', [{ type: 'TEXT_MESSAGE_CONTENT', messageId: 'x' }], 'MISSING_FIELD'],
  ['a wrongly typed field', [{ type: 'TEXT_MESSAGE_CONTENT', messageId: 'x', delta: 5 }], 'INVALID_FIELD'],
  [
    'CONTENT before START',
    [{ type: 'TEXT_MESSAGE_CONTENT', messageId: 'early', delta: 'x' }, ...text('early', 'y')],
    'CONTENT_WITHOUT_START',
  ],
  ['a duplicate START', [{ type: 'TEXT_MESSAGE_START', messageId: 'dup' }, ...text('dup', 'x')], 'DUPLICATE_START'],
  ['END twice', [...text('twice', 'x'), { type: 'TEXT_MESSAGE_END', messageId: 'twice' }], 'END_WITHOUT_START'],
  [
    'a RESULT for an unknown call',
    [{ type: 'TOOL_CALL_RESULT', messageId: 'tr', toolCallId: 'nobody', content: 'x' }],
    'RESULT_FOR_UNKNOWN_CALL',
  ],
  ['ARGS after END', [...toolCall('c', 'n', ['{}']), { type: 'TOOL_CALL_ARGS', toolCallId: 'c', delta: 'x' }], 'ARGS_WITHOUT_START'],
  [
    'a replace on a missing path',
    [
      { type: 'STATE_SNAPSHOT', snapshot: {} },
      { type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/a/b', value: 1 }] },
    ],
    'PATCH_FAILED',
  ],
  ['a /__proto__/ path', [{ type: 'STATE_DELTA', delta: [{ op: 'add', path: '/__proto__/admin', value: true }] }], 'PATCH_FAILED'],
  [
    'a 10 MB delta',
    [
      { type: 'TEXT_MESSAGE_START', messageId: 'big' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'big', delta: 'x'.repeat(10 * 1024 * 1024) },
      { type: 'TEXT_MESSAGE_END', messageId: 'big' },
    ],
    'LARGE_DELTA',
  ],
  ['a snapshot nested 5,000 deep', [{ type: 'STATE_SNAPSHOT', snapshot: nested(5000) }], 'TOO_DEEP'],
  [
    'a delta whose value is nested 5,000 deep',
    [{ type: 'STATE_DELTA', delta: [{ op: 'add', path: '/x', value: nested(5000) }] }],
    'TOO_DEEP',
  ],
  [
    'a message snapshot nested 5,000 deep',
    [{ type: 'ACTIVITY_SNAPSHOT', messageId: 'act', activityType: 'plan', content: { steps: nested(5000) } }],
    'TOO_DEEP',
  ],
  [
    'a message snapshot whose user message carries tool calls that are not calls',
    [
      {
        type: 'MESSAGES_SNAPSHOT',
        messages: [
          { id: 'kept', role: 'assistant', content: 'still here' },
          { id: 'u', role: 'user', content: 'x', toolCalls: 'abc' },
        ],
      },
    ],
    'INVALID_FIELD',
  ],
  ['an unknown event type', [{ type: 'FUTURE_EVENT' }], 'UNKNOWN_EVENT_TYPE'],
  ['a chunk without id', [{ type: 'TEXT_MESSAGE_CHUNK', delta: 'x' }], 'CHUNK_WITHOUT_ID'],
];

describe('bad input yields a diagnostic and a consistent state, losing nothing', () => {
  it.each(cases)('%s', (_what, bad, code) => {
    const s = replayEvents(run([...kept, ...(bad as Record<string, unknown>[])]));
    expect(codes(s)).toContain(code);
    expect(s.messages.byId.get('kept')?.content).toBe('still here');
    expect(s.run.status).toBe('success');
    expectConsistent(s);
  });

  it('keeps every byte of a 10 MB delta', () => {
    const s = replayEvents(
      run([
        { type: 'TEXT_MESSAGE_START', messageId: 'big' },
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'big', delta: 'y'.repeat(10 * 1024 * 1024) },
        { type: 'TEXT_MESSAGE_END', messageId: 'big' },
      ]),
    );
    expect(s.messages.byId.get('big')?.content).toHaveLength(10 * 1024 * 1024);
  });

  it('interrupts without ids are kept answerable under generated ids', () => {
    const s = replayEvents([
      ...run(kept).slice(0, -1),
      {
        type: 'RUN_FINISHED',
        threadId: 't1',
        runId: 'r1',
        outcome: { type: 'interrupt', interrupts: [{ reason: 'confirmation' }, { id: '', reason: 'confirmation' }] },
      },
    ]);
    expect(codes(s)).toEqual(['INTERRUPT_WITHOUT_ID', 'INTERRUPT_WITHOUT_ID']);
    expect(s.interrupts.map((i) => i.id)).toEqual(['r1-interrupt-0', 'r1-interrupt-1']);
    expect(s.run.status).toBe('interrupted');
    expectConsistent(s);
  });

  it('mismatched run ids are reported and the run is not called a success', () => {
    const s = replayEvents([
      { type: 'RUN_STARTED', threadId: 't1', runId: 'r1' },
      ...kept,
      { type: 'RUN_FINISHED', threadId: 't1', runId: 'r2' },
    ]);
    expect(codes(s)).toEqual(['RUN_ID_MISMATCH', 'STREAM_TRUNCATED']);
    expect(s.run).toMatchObject({ runId: 'r1', status: 'unknown' });
    expect(s.messages.byId.get('kept')?.content).toBe('still here');
    expectConsistent(s);
  });

  it('a truncated stream leaves the run unknown, with what arrived kept', () => {
    const s = replayEvents([
      { type: 'RUN_STARTED', threadId: 't1', runId: 'r1' },
      ...kept,
      { type: 'TEXT_MESSAGE_START', messageId: 'cut' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'cut', delta: 'half a sent' },
    ]);
    expect(codes(s)).toEqual(['STREAM_TRUNCATED']);
    expect(s.run.status).toBe('unknown');
    expect(s.messages.byId.get('cut')?.content).toBe('half a sent');
    expectConsistent(s);
  });

  it.each([MAX_JSON_DEPTH + 3, MAX_JSON_DEPTH + 100, 5000])(
    'a delta holding a value %i deep is refused whole and desyncs the state, as one a level past the limit does',
    (depth) => {
      const s = replayEvents(
        run([
          { type: 'STATE_SNAPSHOT', snapshot: { n: 0 } },
          {
            type: 'STATE_DELTA',
            delta: [
              { op: 'replace', path: '/n', value: 1 },
              { op: 'add', path: '/deep', value: nested(depth) },
            ],
          },
          { type: 'STATE_DELTA', delta: [{ op: 'add', path: '/after', value: true }] },
        ]),
      );
      expect(s.sharedState).toMatchObject({ sync: 'desynced', document: { n: 0 } });
      expect(s.sharedState.failure).toMatchObject({ index: 2, code: 'TOO_DEEP', operation: { op: 'add', path: '/deep' } });
      // What the failure keeps of the operation is not the value too deep to keep.
      expect(JSON.stringify(s.sharedState.failure).length).toBeLessThan(1000);
      expect(codes(s)).toContain('DELTA_WHILE_DESYNCED');
      expectConsistent(s);
    },
  );

  it('a delta refused for its metadata alone desyncs the state and names none of its operations', () => {
    const s = replayEvents(
      run([
        { type: 'STATE_SNAPSHOT', snapshot: { a: 1 } },
        { type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/a', value: 2 }], metadata: { trace: nested(600) } },
      ]),
    );
    expect(s.sharedState).toMatchObject({ sync: 'desynced', document: { a: 1 }, failure: { code: 'TOO_DEEP' } });
    expect(s.sharedState.failure?.operation).toBeUndefined();
  });

  it('a value nested past the limit is refused whole, the document before it kept, and one at the limit is taken', () => {
    const s = replayEvents(
      run([
        { type: 'STATE_SNAPSHOT', snapshot: { a: 1 } },
        { type: 'STATE_SNAPSHOT', snapshot: { deep: nested(MAX_JSON_DEPTH + 20) } },
        { type: 'STATE_DELTA', delta: [{ op: 'add', path: '/b', value: 2 }] },
      ]),
    );
    expect(codes(s)).toEqual(['TOO_DEEP', 'DELTA_WHILE_DESYNCED']);
    expect(s.diagnostics[0]?.message).toMatch(/STATE_SNAPSHOT.*nested deeper than 512/);
    // The agent's document is not the one kept: later deltas, made against the agent's, wait for a snapshot.
    expect(s.sharedState).toMatchObject({ sync: 'desynced', document: { a: 1 }, failure: { index: 2, code: 'TOO_DEEP' } });
    // At the limit, wherever the value travels: a snapshot's document, a delta's value, a run input's state.
    const fits = replayEvents([
      {
        type: 'RUN_STARTED',
        threadId: 't1',
        runId: 'r1',
        input: { threadId: 't1', runId: 'r1', state: nested(MAX_JSON_DEPTH), messages: [], tools: [], context: [] },
      },
      { type: 'STATE_SNAPSHOT', snapshot: nested(MAX_JSON_DEPTH) },
      { type: 'STATE_DELTA', delta: [{ op: 'replace', path: '', value: nested(MAX_JSON_DEPTH) }] },
      { type: 'STATE_DELTA', delta: [{ op: 'replace', path: '', value: { deep: nested(MAX_JSON_DEPTH - 1) } }] },
      { type: 'RUN_FINISHED', threadId: 't1', runId: 'r1' },
    ]);
    expect(codes(fits)).toEqual([]);
    expect(fits.sharedState.sync).toBe('in-sync');
  });

  it('a run that ends with a result nested past the limit still ends as it did: the result is dropped, with a warning', () => {
    const s = replayEvents(
      run(kept)
        .slice(0, -1)
        .concat({ type: 'RUN_FINISHED', threadId: 't1', runId: 'r1', result: { data: nested(5000) } }),
    );
    expect(s.run.status).toBe('success');
    expect(s.run.result).toBeUndefined();
    expect(s.diagnostics.map((d) => [d.code, d.severity])).toEqual([['TOO_DEEP', 'warning']]);
    expect(s.diagnostics[0]?.message).toMatch(/^RUN_FINISHED: result nested deeper than 512/);
  });

  it.each([
    ['responseSchema', MAX_JSON_DEPTH + 20],
    ['responseSchema', 5000],
    ['metadata', 5000],
  ])(
    'a run that ends waiting on an interrupt whose %s is nested %i deep still waits on it: that field is dropped, with a warning',
    (field, depth) => {
      const s = replayEvents(
        run(kept)
          .slice(0, -1)
          .concat({
            type: 'RUN_FINISHED',
            threadId: 't1',
            runId: 'r1',
            outcome: {
              type: 'interrupt',
              interrupts: [
                { id: 'i1', reason: 'confirmation', message: 'Refund 42 EUR?', [field]: { type: 'object', default: nested(depth) } },
                { id: 'i2', reason: 'confirmation', message: 'And ship it?' },
              ],
            },
          }),
      );
      expect(s.run.status).toBe('interrupted');
      expect(s.interrupts.map((it) => it.id)).toEqual(['i1', 'i2']);
      expect(s.interrupts[0]).toMatchObject({ message: 'Refund 42 EUR?' });
      expect((s.interrupts[0] as unknown as Record<string, unknown>)[field]).toBeUndefined();
      expect(s.diagnostics.map((d) => [d.code, d.severity])).toEqual([['TOO_DEEP', 'warning']]);
      expect(s.diagnostics[0]?.message).toMatch(new RegExp(`^RUN_FINISHED: outcome.interrupts\\[0\\].${field} nested deeper than 512`));
      expectConsistent(s);
    },
  );

  it('tool arguments nested past the limit are kept as text, and the call says why they are not used', () => {
    const args = `{"steps":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    const s = replayEvents(run(toolCall('deep', 'plan', [args])));
    expect(s.toolCalls.get('deep')).toMatchObject({
      status: 'ready',
      argsErrorCode: 'TOO_DEEP',
      argsError: expect.stringMatching(/^nested deeper than 512/),
    });
    expect(s.toolCalls.get('deep')?.args).toBeUndefined();
    expect(s.toolCalls.get('deep')?.argsText).toBe(args);
  });

  it('a hostile STATE_SNAPSHOT with a __proto__ key does not pollute prototypes', () => {
    const s = replayEvents(
      run([
        JSON.parse('{"type":"STATE_SNAPSHOT","snapshot":{"__proto__":{"polluted":true},"ok":1}}') as Record<string, unknown>,
        { type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/ok', value: 2 }] },
      ]),
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((s.sharedState.document as { ok: number }).ok).toBe(2);
  });
});
