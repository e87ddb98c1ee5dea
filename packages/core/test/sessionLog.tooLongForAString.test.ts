/**
 * A session longer than the longest string the engine holds (about 512 M
 * characters in V8) cannot be one text: `serializeSession` says so with a
 * RangeError that names the way that works, and writes any length as parts a
 * Blob takes (`{ parts: true }`). The limits are stood in for by small ones
 * here: a session of 512 M characters is too heavy for a test.
 */
import { describe, expect, it } from 'vitest';
import { writeSession } from '../src/controller/sessionWrite.js';
import { parseSession, type SessionEntry, serializeSession } from '../src/index.js';

const delta = (i: number, text: string): SessionEntry => ({
  type: 'event',
  at: 5,
  index: i + 1,
  event: { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: text },
});
const session: SessionEntry[] = [
  { type: 'init', at: 1, threadId: 't' },
  { type: 'event', at: 2, index: 0, event: { type: 'RUN_STARTED', threadId: 't', runId: 'r' } },
  ...['a', 'b'.repeat(500), 'c', 'd', 'e'.repeat(80), 'f'].map((text, i) => delta(i, text)),
  { type: 'event', at: 9, index: 7, event: { type: 'RUN_FINISHED', threadId: 't', runId: 'r' } },
];

describe('serializeSession: a session longer than a string holds', () => {
  it('writes it as parts, each no longer than a part may be, that join to the same JSON lines', () => {
    const text = serializeSession(session);
    const parts = writeSession(session, { parts: true }, 300, 1000) as string[];
    expect(parts.join('')).toBe(text);
    expect(parts.length).toBeGreaterThan(3);
    // A line longer than a part is a part of its own, its line end another.
    for (const part of parts) expect(part.length <= 300 || (!part.includes('\n') && text.includes(`${part}\n`))).toBe(true);
    expect(parseSession(parts.join(''))).toEqual({ entries: session, errors: [] });
  });

  it('throws a RangeError naming the parts when the text would pass the longest string, as parts never', () => {
    expect(() => writeSession(session, {}, 1 << 24, 1000)).toThrow(RangeError);
    expect(() => writeSession(session, {}, 1 << 24, 1000)).toThrow(/longer than .*string.*\{ parts: true \}/);
    expect((writeSession(session, { parts: true }, 1 << 24, 1000) as string[]).join('')).toBe(serializeSession(session));
    expect(writeSession(session, {}, 1 << 24, 1 << 20)).toBe(serializeSession(session));
  });

  it('gives the parts through the public call, as a Blob takes them', async () => {
    const parts: string[] = serializeSession(session, { parts: true });
    expect(parts.every((part) => typeof part === 'string')).toBe(true);
    expect(await new Blob(parts).text()).toBe(serializeSession(session));
    expect(serializeSession([], { parts: true })).toEqual([]);
    expect(serializeSession([])).toBe('');
  });
});
