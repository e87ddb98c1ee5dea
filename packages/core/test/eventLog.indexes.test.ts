import { describe, expect, it } from 'vitest';
import { parseEventLog } from '../src/internal.js';

describe('parseEventLog: the index of a line that gives none, or one taken', () => {
  it('reads a 60,000-line log whose first half claims the indexes the second half would take, in linear time', () => {
    // 30,000 lines claim indexes 30,000..59,999; the next 30,000 carry none. A search for a free index that started
    // again from the count of entries for each of those would pass over every claimed index: 9e8 lookups.
    const M = 30_000;
    const lines: string[] = [];
    for (let i = 0; i < M; i++) lines.push(`{"index":${M + i},"event":1}`);
    for (let i = 0; i < M; i++) lines.push('{"event":1}');
    const text = lines.join('\n'); // ~1 MB
    const t0 = performance.now();
    const parsed = parseEventLog(text);
    const ms = performance.now() - t0;
    expect(parsed.entries).toHaveLength(2 * M);
    // A line without an index takes its position, or the first free index after it: here past the claimed ones.
    expect(parsed.entries.slice(M, M + 3).map((e) => e.index)).toEqual([2 * M, 2 * M + 1, 2 * M + 2]);
    expect(new Set(parsed.entries.map((e) => e.index)).size).toBe(2 * M);
    // Linear, it takes milliseconds; the search that started again took 7-11 s here.
    expect(ms).toBeLessThan(1500);
  }, 120_000);
});
