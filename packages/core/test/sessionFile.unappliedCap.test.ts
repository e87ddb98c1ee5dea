/**
 * The warnings of client entries a hand-edited log holds that the thread
 * cannot take (`LOG_ENTRY_NOT_APPLIED`) are diagnostics like the others: the
 * thread keeps at most 1,000 and counts the rest in `droppedDiagnostics`, so
 * a file of many such lines does not grow the thread without end.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { replaySession } from '../src/engine.js';
import { createRecording, loadEngine, parseSession } from '../src/index.js';

beforeAll(() => loadEngine());

const lines = (n: number) =>
  [
    { type: 'init', at: 1, threadId: 't', state: { a: 1 } },
    ...Array.from({ length: n }, (_, i) =>
      i % 2 === 0
        ? { type: 'tool_started', at: 2 + i, toolCallId: `nope-${i}` }
        : { type: 'state_edit', at: 2 + i, delta: [{ op: 'remove', path: `/missing-${i}` }] },
    ),
  ]
    .map((e) => JSON.stringify(e))
    .join('\n');

describe('many client entries the thread cannot take', () => {
  it('keep 1,000 warnings and count the rest as dropped, in a replay and at any entry of a recording', () => {
    const { entries, errors } = parseSession(lines(1_050));
    expect(errors).toEqual([]);
    const thread = replaySession(entries);
    expect(thread.diagnostics).toHaveLength(1_000);
    expect(thread.droppedDiagnostics).toBe(50);
    expect(thread.sharedState.document).toEqual({ a: 1 });
    const at = createRecording(entries).stateAt(entries.length - 1);
    expect(at.diagnostics).toHaveLength(1_000);
    expect(at.droppedDiagnostics).toBe(50);
  });
});
