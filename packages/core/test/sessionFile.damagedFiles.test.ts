/**
 * Files on disk come torn, hostile or huge: each shape below is read without
 * throwing, in time that grows as the file does, and loses no more than its
 * bad line.
 */
import { describe, expect, it } from 'vitest';
import { type ParsedSession, parseSession } from '../src/index.js';

const event = (i: number) => ({ type: 'CUSTOM', name: `e${i}`, value: i });
const line = (i: number) => JSON.stringify({ type: 'event', at: 1, index: i, event: event(i) });
const good = (n: number) => Array.from({ length: n }, (_, i) => line(i));
const names = (entries: ParsedSession['entries']) => entries.map((e) => (e.type === 'event' ? (e.event as { name: string }).name : e.type));
const timed = <T>(read: () => T): { result: T; ms: number } => {
  const t0 = performance.now();
  const result = read();
  return { result, ms: performance.now() - t0 };
};

describe('parseSession: damaged files', () => {
  it('keeps every whole line of a file torn in its last line, naming that one', () => {
    const text = `${good(10).join('\n')}\n${line(10).slice(0, 25)}`;
    const { entries, errors } = parseSession(text);
    expect(entries).toHaveLength(10);
    expect(errors).toEqual([{ line: 11, code: 'NOT_JSON', message: expect.any(String) }]);
  });

  it('reads a file with a byte order mark and CRLF line ends as the same file without', () => {
    const plain = `${good(5).join('\n')}\n`;
    expect(parseSession(`\uFEFF${good(5).join('\r\n')}\r\n`)).toEqual(parseSession(plain));
    expect(parseSession(plain).entries).toHaveLength(5);
  });

  it('reads a file appended with its byte order mark (files joined) as a second session, not grafted onto the first', async () => {
    const first = `${JSON.stringify({ type: 'init', at: 1, threadId: 'a' })}\n${good(3).join('\n')}\n`;
    const run = { type: 'RUN_STARTED', threadId: 'b', runId: 'r' };
    const second = `${JSON.stringify({ type: 'init', at: 2, threadId: 'b' })}\n${JSON.stringify(run)}\n`;
    const joined = parseSession(`${first}\uFEFF${second}`);
    expect(joined).toEqual(parseSession(first + second));
    expect(names(joined.entries)).toEqual(['init', 'e0', 'e1', 'e2']);
    expect(joined.errors.map((e) => [e.line, e.code])).toEqual([
      [5, 'SECOND_SESSION'],
      [6, 'SECOND_SESSION'],
    ]);
    expect(await parseSession(new Blob([`${first}\uFEFF${second}`]))).toEqual(joined);
  });

  it('names a line of NUL bytes (a file zero-filled past a crash) and keeps the lines around it', () => {
    const text = `${good(3).join('\n')}\n${'\0'.repeat(4096)}\n${line(3)}\n${'\0'.repeat(1000)}`;
    const { entries, errors } = parseSession(text);
    expect(names(entries)).toEqual(['e0', 'e1', 'e2', 'e3']);
    expect(errors.map((e) => [e.line, e.code])).toEqual([
      [4, 'NOT_JSON'],
      [6, 'NOT_JSON'],
    ]);
  });

  it('names a line of `[` nested 1e6 deep among good lines, in well under 2 s', () => {
    const lines = good(4);
    lines.splice(2, 0, '['.repeat(1e6));
    const { result, ms } = timed(() => parseSession(lines.join('\n')));
    expect(result.entries).toHaveLength(4);
    expect(result.errors.map((e) => [e.line, e.code])).toEqual([[3, 'NOT_JSON']]);
    expect(ms).toBeLessThan(2000);
  });

  it('reads a file of one 100 MB line, an entry or not JSON, in well under 10 s', () => {
    const big = 'a'.repeat(100 * 2 ** 20);
    const entry = `{"type":"event","at":1,"index":0,"event":{"type":"CUSTOM","name":"big","value":"${big}"}}`;
    const read = timed(() => parseSession(entry));
    expect(read.result.errors).toEqual([]);
    expect(read.result.entries).toHaveLength(1);
    expect(read.ms).toBeLessThan(10_000);
    const torn = timed(() => parseSession(`${line(0)}\n${entry.slice(0, -3)}\n${line(1)}`));
    expect(names(torn.result.entries)).toEqual(['e0', 'e1']);
    expect(torn.result.errors.map((e) => [e.line, e.code])).toEqual([[2, 'NOT_JSON']]);
    expect(torn.ms).toBeLessThan(10_000);
    const object = timed(() => parseSession(`{"type":"event","at":1,"index":0,"event":{"a":"${big}"}\n${line(1)}`));
    expect(object.result.entries).toHaveLength(1);
    expect(object.ms).toBeLessThan(10_000);
  }, 60_000);

  it('takes `__proto__` keys as plain members, and neither the entry nor any object gains a prototype from them', () => {
    const text = [
      '{"type":"event","at":1,"index":0,"event":{"type":"CUSTOM","name":"p","value":1,"__proto__":{"polluted":true}}}',
      '{"__proto__":{"type":"reset","at":1}}',
      '{"type":"stop","at":2,"__proto__":{"type":"init"}}',
      line(1),
    ].join('\n');
    const { entries, errors } = parseSession(text);
    expect(names(entries)).toEqual(['p', 'stop', 'e1']);
    expect(errors.map((e) => [e.line, e.code])).toEqual([[2, 'NOT_AN_ENTRY']]);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(entries[0])).toBe(Object.prototype);
    expect(Object.getPrototypeOf((entries[0] as { event: object }).event)).toBe(Object.prototype);
  });

  it('reads a duplicate key as JSON.parse does, the last one', () => {
    const text = [line(0), '{"type":"event","type":"stop","at":2,"index":1,"event":{}}', line(1)].join('\n');
    const { entries, errors } = parseSession(text);
    expect(names(entries)).toEqual(['e0', 'stop', 'e1']);
    expect(errors).toEqual([]);
  });
});
