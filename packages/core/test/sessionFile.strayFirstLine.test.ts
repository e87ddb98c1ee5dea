/**
 * A file of JSON lines whose first line is a brace alone (`{`, a line torn or
 * typed by hand) is still JSON lines: that line is named, and every entry
 * after it is read. Only a first line that opens an object whose next line
 * goes on with a key (`jq .`, `JSON.stringify(x, null, 2)`) starts values
 * pretty-printed one after another.
 */
import { describe, expect, it } from 'vitest';
import { parseSession, type SessionEntry } from '../src/index.js';

const session: SessionEntry[] = [
  { type: 'init', at: 1, threadId: 't' },
  { type: 'event', at: 2, index: 0, event: { type: 'RUN_STARTED', threadId: 't', runId: 'r' } },
  { type: 'event', at: 3, index: 1, event: { type: 'RUN_FINISHED', threadId: 't', runId: 'r' } },
];
const lines = session.map((e) => JSON.stringify(e));

describe('parseSession: a first line that opens an object and no more', () => {
  for (const [name, first] of [
    ['a brace alone', '{'],
    ['a brace and spaces', '{  '],
    ['a brace with a blank line after it', '{\n'],
  ] as const)
    it(`names ${name} and reads every line after it`, () => {
      for (const eol of ['\n', '\r\n']) {
        const { entries, errors } = parseSession(`${first}${eol}${lines.join(eol)}${eol}`);
        expect(entries).toEqual(session);
        expect(errors).toEqual([{ line: 1, code: 'NOT_JSON', message: expect.any(String) }]);
      }
    });

  it('names a bracket and a brace alone before the lines of an array, and reads its items', () => {
    const { entries, errors } = parseSession(`[\n{\n${lines.join(',\n')}\n]\n`);
    expect(entries).toEqual(session);
    expect(errors.map((e) => [e.line, e.code])).toEqual([[2, 'NOT_JSON']]);
  });

  it('still reads values pretty-printed one after another, and an array so printed and cut off', () => {
    const pretty = session.map((e) => JSON.stringify(e, null, 2)).join('\n');
    expect(parseSession(pretty)).toEqual({ entries: session, errors: [] });
    expect(parseSession(`\ufeff${pretty.replaceAll('\n', '\r\n')}`)).toEqual({ entries: session, errors: [] });
    const array = JSON.stringify(session, null, 2);
    expect(parseSession(array.slice(0, array.lastIndexOf('}'))).entries).toEqual(session.slice(0, 2));
  });
});
