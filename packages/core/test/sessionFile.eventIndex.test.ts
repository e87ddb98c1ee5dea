/**
 * An event line of a saved session whose index is no whole number of the log
 * (`1e400`, read as Infinity; `1.5`; `-1`; a text) is refused alone: the
 * lines after it keep their order check against the last good index, and
 * nothing after it is lost.
 */
import { describe, expect, it } from 'vitest';
import { parseSession } from '../src/index.js';

const events = [
  { type: 'RUN_STARTED', threadId: 't', runId: 'r' },
  { type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant' },
  { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'hi' },
  { type: 'TEXT_MESSAGE_END', messageId: 'm' },
  { type: 'RUN_FINISHED', threadId: 't', runId: 'r' },
];
const line = (index: number, event: unknown) => JSON.stringify({ type: 'event', at: 1, index, event });
/** The events, one a line, with a line whose index is `bad` (written as is) after the first. */
const withBadIndex = (bad: string, asLogLine = false) => {
  const lines = events.map((event, i) => (asLogLine ? JSON.stringify({ index: i, receivedAt: 1, event }) : line(i, event)));
  const event = { type: 'CUSTOM', name: 'stray', value: 1 };
  const stray = asLogLine
    ? `{"index":${bad},"receivedAt":1,"event":${JSON.stringify(event)}}`
    : `{"type":"event","at":1,"index":${bad},"event":${JSON.stringify(event)}}`;
  lines.splice(1, 0, stray);
  return `${lines.join('\n')}\n`;
};
const types = (text: string) => parseSession(text).entries.map((e) => (e.type === 'event' ? (e.event as { type: string }).type : e.type));

describe('parseSession: an event line with an index that is no whole number', () => {
  for (const bad of ['1e400', '1e300', '9007199254740993', '1.5', '-1', '"3"', 'null', 'true']) {
    for (const asLogLine of [false, true]) {
      it(`refuses ${bad} alone in ${asLogLine ? 'an event log line' : 'a session entry'} and keeps every line after it`, () => {
        const { entries, errors } = parseSession(withBadIndex(bad, asLogLine));
        expect(types(withBadIndex(bad, asLogLine))).toEqual(events.map((e) => e.type));
        expect(entries.map((e) => (e.type === 'event' ? e.index : -1))).toEqual([0, 1, 2, 3, 4]);
        expect(errors).toEqual([{ line: 2, code: 'NOT_AN_ENTRY', message: expect.stringContaining('index') }]);
      });
    }
  }

  it('still refuses a line repeated after a bad one: the order check goes on from the last good index', () => {
    const lines = events.map((event, i) => line(i, event));
    lines.splice(2, 0, '{"type":"event","at":1,"index":1e400,"event":{"type":"CUSTOM","name":"x","value":1}}', lines[1] as string);
    const { entries, errors } = parseSession(lines.join('\n'));
    expect(entries).toHaveLength(5);
    expect(errors.map((e) => [e.line, e.code])).toEqual([
      [3, 'NOT_AN_ENTRY'],
      [4, 'OUT_OF_ORDER'],
    ]);
  });

  it('reads an event entry that gives no index at all, as a hand-written session does', () => {
    const text = events.map((event) => JSON.stringify({ type: 'event', at: 1, event })).join('\n');
    expect(parseSession(text)).toEqual({ entries: expect.any(Array), errors: [] });
    expect(types(text)).toEqual(events.map((e) => e.type));
  });
});
