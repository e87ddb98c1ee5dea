/**
 * A session pretty-printed value after value (`jq .`) with one bad stretch in
 * it loses that stretch alone: a stray quote between two values does not
 * turn the values after it into a string, and a value cut off in the middle
 * of the file (a copy torn, then more written after it) does not take in the
 * values after it.
 */
import { describe, expect, it } from 'vitest';
import { parseSession, type SessionEntry } from '../src/index.js';

const session: SessionEntry[] = [
  { type: 'init', at: 1, threadId: 't' },
  { type: 'event', at: 2, index: 0, event: { type: 'RUN_STARTED', threadId: 't', runId: 'r' } },
  { type: 'event', at: 3, index: 1, event: { type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant' } },
  { type: 'event', at: 3, index: 2, event: { type: 'TEXT_MESSAGE_END', messageId: 'm' } },
  { type: 'event', at: 4, index: 3, event: { type: 'RUN_FINISHED', threadId: 't', runId: 'r' } },
];
const pretty = session.map((e) => JSON.stringify(e, null, 2));
/** The line (from 1) that the `n`th value of `parts` starts on. */
/** What entries hold, their indexes aside (the log's own: renumbered from 0 as they are read). */
const held = (entries: SessionEntry[]) => entries.map((e) => (e.type === 'event' ? e.event : e.type));
const lineOf = (parts: string[], n: number) => parts.slice(0, n).join('\n').split('\n').length + 1;

describe('parseSession: values pretty-printed one after another, one of them bad', () => {
  it('names text with a quote in it between two values, and reads every value after it', () => {
    for (const stray of ['oops"', '"', '"a" "b', 'x"y"z"']) {
      const parts = [pretty[0], pretty[1], stray, ...pretty.slice(2)] as string[];
      const { entries, errors } = parseSession(parts.join('\n'));
      expect(entries).toEqual(session);
      expect(errors).toEqual([{ line: lineOf(parts, 2), code: 'NOT_JSON', message: 'not JSON: text between values' }]);
    }
  });

  it('names a value cut off in the middle of the file, where it starts, and reads every value after it', () => {
    const text = pretty[1] as string;
    // Cut inside a key, inside a string value, after a comma, and inside the nested event.
    for (const cut of [text.indexOf('"at"') + 2, text.indexOf('RUN_STARTED') + 3, text.indexOf(',') + 1, text.indexOf('threadId')]) {
      const parts = [pretty[0], text.slice(0, cut), ...pretty.slice(2)] as string[];
      const { entries, errors } = parseSession(parts.join('\n'));
      expect(held(entries)).toEqual(held([session[0], ...session.slice(2)] as SessionEntry[]));
      expect(errors.map((e) => [e.line, e.code])).toEqual([[lineOf(parts, 1), 'NOT_JSON']]);
    }
  });

  it('names an item cut off in the middle of an array pretty-printed and itself cut off, and reads the items after it', () => {
    const items = pretty.map((value) => value.replaceAll('\n', '\n  '));
    const cut = (items[1] as string).slice(0, (items[1] as string).indexOf('"at"'));
    const text = `[\n  ${[items[0], cut, ...items.slice(2, 4)].join(',\n  ')},\n  ${(items[4] as string).slice(0, 10)}`;
    const { entries, errors } = parseSession(text);
    expect(held(entries)).toEqual(held([session[0], session[2], session[3]] as SessionEntry[]));
    expect(errors.map((e) => e.code)).toEqual(['NOT_JSON', 'NOT_JSON']);
  });

  it('reads files pretty-printed and joined (each with its byte order mark) with no line refused', async () => {
    const first = pretty.slice(0, 3).join('\n');
    const second = pretty.slice(3).join('\n');
    for (const joined of [
      `\uFEFF${first}\n\uFEFF${second}\n`,
      `${first}\n\uFEFF${second}`,
      `${first}\n\uFEFF${pretty[3]}\n\uFEFF${pretty[4]}`,
    ]) {
      expect(parseSession(joined)).toEqual({ entries: session, errors: [] });
      expect(await parseSession(new Blob([joined]))).toEqual({ entries: session, errors: [] });
    }
  });

  it('names a value cut off by a joined file that starts with its byte order mark, and reads that file', () => {
    const cut = (pretty[2] as string).slice(0, (pretty[2] as string).indexOf('"event"'));
    const parts = [pretty[0], pretty[1], cut, `\uFEFF${pretty[3]}`, pretty[4]] as string[];
    const { entries, errors } = parseSession(parts.join('\n'));
    expect(held(entries)).toEqual(held([session[0], session[1], session[3], session[4]] as SessionEntry[]));
    expect(errors.map((e) => [e.line, e.code])).toEqual([[lineOf(parts, 2), 'NOT_JSON']]);
  });

  it('still reads a value whose nested objects start lines deeper than it', () => {
    const nested = JSON.stringify({ type: 'state_set', at: 5, document: { a: [{ b: { c: 1 } }, {}] } }, null, 2);
    expect(parseSession([...pretty, nested].join('\n')).errors).toEqual([]);
    expect(parseSession([...pretty, nested].join('\n')).entries).toHaveLength(6);
  });
});
