/**
 * An event line of a saved session whose index is a whole number far ahead of
 * the lines after it (`1e15` among lines indexed 0..100) is the one line out
 * of place: it alone is refused, and the lines after it, which follow the one
 * before it, are all kept. A jump that the next event line goes on from is a
 * gap (lines lost), kept as before.
 */
import { describe, expect, it } from 'vitest';
import { readSession } from '../src/controller/sessionFile.js';
import { parseSession } from '../src/index.js';
import { MAX_NAMED_LINES } from '../src/jsonLines.js';

const event = (i: number) => ({ type: 'CUSTOM', name: `e${i}`, value: i });
const line = (index: number | string, i: number) => `{"type":"event","at":1,"index":${index},"event":${JSON.stringify(event(i))}}`;
const names = (text: string) => parseSession(text).entries.map((e) => (e.type === 'event' ? (e.event as { name: string }).name : e.type));

describe('parseSession: an event index far ahead of the lines after it', () => {
  it('refuses a line indexed 1e15 among lines indexed 0..100 alone and keeps every line after it', () => {
    const lines = Array.from({ length: 101 }, (_, i) => line(i, i));
    lines.splice(50, 0, line('1e15', 999));
    const { entries, errors } = parseSession(lines.join('\n'));
    expect(entries).toHaveLength(101);
    expect(names(lines.join('\n'))).toEqual(Array.from({ length: 101 }, (_, i) => `e${i}`));
    expect(entries.map((e) => (e.type === 'event' ? e.index : -1))).toEqual(Array.from({ length: 101 }, (_, i) => i));
    expect(errors).toEqual([{ line: 51, code: 'OUT_OF_ORDER', message: expect.stringContaining('1000000000000000') }]);
  });

  it('refuses it when client entries stand between it and the next event line', () => {
    const lines = [line(0, 0), line(9e15, 1), '{"type":"stop","at":2}', line(1, 2), line(2, 3)];
    const { entries, errors } = parseSession(lines.join('\n'));
    expect(names(lines.join('\n'))).toEqual(['e0', 'stop', 'e2', 'e3']);
    expect(entries.map((e) => (e.type === 'event' ? e.index : -1))).toEqual([0, -1, 1, 2]);
    expect(errors.map((e) => [e.line, e.code])).toEqual([[2, 'OUT_OF_ORDER']]);
  });

  it('names the lines refused in the order of the file', () => {
    const lines = [line(0, 0), line(500, 1), 'not json', line(1, 2)];
    expect(parseSession(lines.join('\n')).errors.map((e) => [e.line, e.code])).toEqual([
      [2, 'OUT_OF_ORDER'],
      [3, 'NOT_JSON'],
    ]);
  });

  it('names a far line among the first hundred refused when more than a hundred bad lines follow it', async () => {
    const lines = [line(0, 0), line(1e15, 1), ...Array.from({ length: MAX_NAMED_LINES + 50 }, () => 'not json'), line(1, 2)];
    const text = lines.join('\n');
    const { errors, refused } = parseSession(text);
    expect(refused).toBe(MAX_NAMED_LINES + 51);
    expect(errors).toHaveLength(MAX_NAMED_LINES);
    expect(errors.map((e) => e.line)).toEqual(Array.from({ length: MAX_NAMED_LINES }, (_, i) => i + 2));
    expect(errors[0]).toMatchObject({ line: 2, code: 'OUT_OF_ORDER' });
    expect(await readSession(new Blob([text]), 0)).toEqual(parseSession(text));
  });

  it('keeps a gap that the next event line goes on from (lines lost), and a jump at the end of the file', () => {
    const gap = [line(0, 0), line(1, 1), line(40, 2), line(41, 3)].join('\n');
    expect(parseSession(gap)).toEqual({ entries: expect.any(Array), errors: [] });
    expect(names(gap)).toEqual(['e0', 'e1', 'e2', 'e3']);
    const last = [line(0, 0), line(1e15, 1)].join('\n');
    expect(names(last)).toEqual(['e0', 'e1']);
  });

  it('refuses a line moved far ahead alone, and the second of two lines swapped, as before', () => {
    const moved = [0, 1, 5, 2, 3, 4].map((index, i) => line(index, i)).join('\n');
    expect(parseSession(moved).errors.map((e) => [e.line, e.code])).toEqual([[3, 'OUT_OF_ORDER']]);
    expect(names(moved)).toEqual(['e0', 'e1', 'e3', 'e4', 'e5']);
    const swapped = [0, 1, 3, 2, 4].map((index, i) => line(index, i)).join('\n');
    expect(parseSession(swapped).errors.map((e) => [e.line, e.code])).toEqual([[4, 'OUT_OF_ORDER']]);
  });

  it('still refuses a line repeated (its index not after the last one kept)', () => {
    const lines = [line(0, 0), line(1, 1), line(2, 2), line(1, 3), line(3, 4)];
    const { errors } = parseSession(lines.join('\n'));
    expect(names(lines.join('\n'))).toEqual(['e0', 'e1', 'e2', 'e4']);
    expect(errors.map((e) => [e.line, e.code])).toEqual([[4, 'OUT_OF_ORDER']]);
  });

  it('judges each far index apart: a reset between it and the next event line keeps it', () => {
    const lines = [line(0, 0), line(70, 1), '{"type":"reset","at":2}', line(0, 2)];
    expect(parseSession(lines.join('\n')).errors).toEqual([]);
    expect(names(lines.join('\n'))).toEqual(['e0', 'e1', 'reset', 'e2']);
  });

  it('names a far item of a fixture or an array as it names its other items', () => {
    const stream = [0, 1e15, 1, 1].map((index, i) => ({ index, receivedAt: 1, event: event(i) }));
    for (const text of [JSON.stringify({ stream }), JSON.stringify(stream)])
      expect(parseSession(text).errors.map((e) => e.message.slice(0, 8))).toEqual(['item 2: ', 'item 4: ']);
  });

  it('refuses far indexes in the items of a conformance fixture the same way', () => {
    const stream = [0, 1e15, 1, 2].map((index, i) => ({ index, receivedAt: 1, event: event(i) }));
    const { entries, errors } = parseSession(JSON.stringify({ stream }));
    expect(entries).toHaveLength(3);
    expect(errors.map((e) => [e.line, e.code])).toEqual([[2, 'OUT_OF_ORDER']]);
  });

  it('refuses a run of far lines (1e15, then 2e15, among lines indexed 0..100) and keeps every line after it', async () => {
    const lines = Array.from({ length: 101 }, (_, i) => line(i, i));
    lines.splice(51, 0, line('1e15', 998), line('2e15', 999));
    const text = lines.join('\n');
    const { entries, errors } = parseSession(text);
    expect(names(text)).toEqual(Array.from({ length: 101 }, (_, i) => `e${i}`));
    expect(entries.map((e) => (e.type === 'event' ? e.index : -1))).toEqual(Array.from({ length: 101 }, (_, i) => i));
    expect(errors.map((e) => [e.line, e.code])).toEqual([
      [52, 'OUT_OF_ORDER'],
      [53, 'OUT_OF_ORDER'],
    ]);
    expect(await readSession(new Blob([text]), 0)).toEqual(parseSession(text));
  });

  it('keeps the lines of a run that the next line goes on after, and refuses the rest', () => {
    const lines = [0, 1, 5, 1e15, 9e15, 6, 7].map((index, i) => line(index, i));
    lines.splice(4, 0, '{"type":"stop","at":2}');
    const text = lines.join('\n');
    expect(names(text)).toEqual(['e0', 'e1', 'e2', 'stop', 'e5', 'e6']);
    expect(parseSession(text).entries.map((e) => (e.type === 'event' ? e.index : -1))).toEqual([0, 1, 2, -1, 3, 4]);
    expect(parseSession(text).errors.map((e) => [e.line, e.code])).toEqual([
      [4, 'OUT_OF_ORDER'],
      [6, 'OUT_OF_ORDER'],
    ]);
  });

  it('keeps lines that each jump ahead (every other line lost) over one line repeated after them', () => {
    const lines = Array.from({ length: 40 }, (_, i) => line(i * 10, i));
    lines.push(line(3, 40), line(400, 41));
    const text = lines.join('\n');
    expect(parseSession(text).entries).toHaveLength(41);
    expect(parseSession(text).errors.map((e) => [e.line, e.code])).toEqual([[41, 'OUT_OF_ORDER']]);
  });

  it('reads a file of far lines, each refused by a line after it, about as fast as one in order', () => {
    const n = 10_000;
    // Lines each far ahead, client entries, then as many lines that go back: each of them refuses the last far line left.
    const far = Array.from({ length: n }, (_, i) => line(1e12 * (i + 1), i));
    const back = Array.from({ length: n }, (_, i) => line(1e12 * (n - i - 1) + 1, i));
    const client = Array.from({ length: n }, () => '{"type":"stop","at":2}');
    const hostile = [line(0, 0), ...far, ...client, ...back].join('\n');
    const plain = [line(0, 0), ...far.map((_, i) => line(i + 1, i)), ...client, ...back.map((_, i) => line(n + i + 1, i))].join('\n');
    const time = (text: string) =>
      Math.min(
        ...[0, 1, 2].map(() => {
          const t0 = performance.now();
          parseSession(text);
          return performance.now() - t0;
        }),
      );
    expect(time(hostile)).toBeLessThan(3 * time(plain) + 20);
  });
});
