/**
 * A hostile event log of millions of bad lines is read as a saved session is:
 * the first MAX_NAMED_LINES bad lines are named, each, the rest counted, so
 * what parseEventLog keeps does not grow with the bad lines.
 */
import { describe, expect, it } from 'vitest';
import { parseEventLog } from '../src/internal.js';
import { MAX_NAMED_LINES } from '../src/jsonLines.js';

const logLine = (index: number) => JSON.stringify({ index, receivedAt: 1, event: { type: 'CUSTOM', name: 'e', value: index } });

describe('parseEventLog: millions of bad lines', () => {
  it('names the first 100 bad lines of a million and counts them all', () => {
    const bad = 1_000_000;
    const text = `${logLine(0)}\n${'{"x":1}\nnot json\n'.repeat(bad / 2)}${logLine(1)}\n`;
    const { entries, errors, refused } = parseEventLog(text);
    expect(entries.map((e) => e.index)).toEqual([0, 1]);
    expect(errors).toHaveLength(MAX_NAMED_LINES);
    expect(errors[0]).toEqual({ line: 2, code: 'NOT_AN_ENTRY', message: expect.any(String) });
    expect(errors[1]).toEqual({ line: 3, code: 'NOT_JSON', message: expect.any(String) });
    expect(refused).toBe(bad);
  });

  it('names each bad line, and gives no count, when there are no more than it names', () => {
    const text = `${logLine(0)}\n${'{"x":1}\n'.repeat(MAX_NAMED_LINES)}`;
    const parsed = parseEventLog(text);
    expect(parsed.errors).toHaveLength(MAX_NAMED_LINES);
    expect(parsed).not.toHaveProperty('refused');
  });
});
