/**
 * A saved session is a file from disk: whatever it holds, reading it reports
 * each bad line and keeps the rest, and replaying what was kept never throws.
 */
import { readFile } from 'node:fs/promises';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { replaySession } from '../src/engine.js';
import {
  createRecording,
  createRunController,
  loadEngine,
  type Message,
  parseSession,
  type SessionEntry,
  serializeSession,
} from '../src/index.js';
import { serializeEventLog } from '../src/internal.js';
import { CORPUS } from './support/conformance.js';

/** A run that starts and finishes, as a session logs it at times 3 to 6. */
const finishedRun = (threadId: string): SessionEntry[] => [
  { type: 'stream_start', kind: 'run', runId: 'r1', at: 3 },
  { type: 'event', index: 0, event: { type: 'RUN_STARTED', threadId, runId: 'r1' }, at: 4 },
  { type: 'event', index: 1, event: { type: 'RUN_FINISHED', threadId, runId: 'r1' }, at: 5 },
  { type: 'stream_end', open: false, at: 6 },
];

describe('parseSession', () => {
  it('keeps the good lines and names each bad one: not JSON, not an entry, a field of the wrong type', () => {
    const text = [
      JSON.stringify({ type: 'init', at: 1, threadId: 't' }),
      '{not json',
      JSON.stringify([1, 2]),
      JSON.stringify({ type: 'launch_missiles', at: 2 }),
      JSON.stringify({ type: 'user_message', at: 3, message: { role: 'user', content: 'no id' } }),
      JSON.stringify({ type: 'stream_start', at: 4, kind: 'run', runId: 'r' }),
      JSON.stringify({ type: 'event', at: 5, index: 99, event: { type: 'RUN_STARTED', threadId: 't', runId: 'r' } }),
      JSON.stringify({ type: 'event', at: 'soon', event: {} }),
      '',
    ].join('\n');
    const { entries, errors } = parseSession(text);
    expect(entries.map((e) => e.type)).toEqual(['init', 'stream_start', 'event']);
    expect(errors.map((e) => e.line)).toEqual([2, 3, 4, 5, 8]);
    expect(errors[0]?.message).toMatch(/^not JSON/);
    expect(errors.map((e) => e.code)).toEqual(['NOT_JSON', 'NOT_AN_ENTRY', 'NOT_AN_ENTRY', 'NOT_AN_ENTRY', 'NOT_AN_ENTRY']);
    // Indexes are the log's own, whatever the file said.
    expect(entries[2]).toMatchObject({ index: 0 });
    expect(replaySession(entries).run.status).toBe('running');
  });

  it('names a message whose tool calls or content the thread could not hold, in an init or a user_message entry', () => {
    const text = [
      JSON.stringify({ type: 'init', at: 1, threadId: 't', messages: [{ id: 'a', role: 'assistant', toolCalls: [{}] }] }),
      JSON.stringify({ type: 'init', at: 1, threadId: 't', messages: [{ id: 'a', role: 'tool', content: 'no call id' }] }),
      JSON.stringify({ type: 'user_message', at: 2, message: { id: 'u', role: 'user', content: 'hi', toolCalls: 'abc' } }),
      JSON.stringify({ type: 'user_message', at: 2, message: { id: 'u', role: 'user', content: [{ type: 'text' }] } }),
      JSON.stringify({ type: 'user_message', at: 2, message: { id: 'u', role: 'assistant', content: 'not the user' } }),
      JSON.stringify({ type: 'user_message', at: 3, message: { id: 'u2', role: 'user', content: [{ type: 'text', text: '你好' }] } }),
    ].join('\n');
    const { entries, errors } = parseSession(text);
    expect(errors.map((e) => e.line)).toEqual([1, 2, 3, 4, 5]);
    expect(errors[0]?.message).toMatch(/messages.*toolCalls/);
    expect(entries).toHaveLength(1);
    expect(() => replaySession(entries)).not.toThrow();
  });

  it('names a message whose id or role is only in a member named __proto__, where a null member is dropped for the check', () => {
    // JSON.parse makes `__proto__` an own member: a check that copies the message must copy it as one, not as a prototype.
    const text = [
      '{"type":"init","at":1,"threadId":"t","messages":[{"content":null,"__proto__":{"id":"u9","role":"user"}}]}',
      '{"type":"user_message","at":2,"message":{"role":"user","content":null,"__proto__":{"id":"u9"}}}',
      '{"type":"user_message","at":3,"message":{"id":"u1","role":"user","content":"hi","toolCalls":null,"__proto__":{"x":1}}}',
    ].join('\n');
    const { entries, errors } = parseSession(text);
    expect(errors.map((e) => e.line)).toEqual([1, 2]);
    expect(errors[0]?.message).toMatch(/messages\/0/);
    expect(entries.map((e) => e.type)).toEqual(['user_message']);
    expect(replaySession(entries).messages.ids).toEqual(['u1']);
  });

  it('keeps a history in the shape model APIs write it: an assistant message with null content and tool calls', async () => {
    await loadEngine();
    const initialMessages = [
      { id: 'u1', role: 'user', content: 'Refund A-1001' },
      {
        id: 'a1',
        role: 'assistant',
        content: null,
        toolCalls: [{ id: 'c1', type: 'function', function: { name: 'refund', arguments: '{"order":"A-1001"}' } }],
      },
      { id: 't1', role: 'tool', toolCallId: 'c1', content: 'done', toolCalls: null },
    ] as unknown as Message[];
    const controller = createRunController({ source: { run: () => (async function* () {})() }, initialMessages });
    const { entries, errors } = parseSession(serializeSession(controller.log.entries));
    expect(errors).toEqual([]);
    expect(replaySession(entries).messages.ids).toEqual(['u1', 'a1', 't1']);
  });

  it('refuses, as it is made, a controller given messages no saved session could hold', () => {
    const source = { run: () => (async function* () {})() };
    const bad = [{ id: 'a', role: 'assistant', toolCalls: [{}] }] as unknown as Message[];
    expect(() => createRunController({ source, initialMessages: bad })).toThrow(/initialMessages.*toolCalls/);
  });

  it.each([
    ['CRLF', '\r\n'],
    ['CR alone (an old Mac editor)', '\r'],
  ])('reads a file saved with a byte order mark, and %s line ends, from its first line', (_ends, end) => {
    const lines = [JSON.stringify({ type: 'init', at: 1, threadId: 't' }), JSON.stringify({ type: 'stop', at: 2 })];
    expect(parseSession(`\uFEFF${lines.join(end)}${end}`)).toEqual({
      entries: [
        { type: 'init', at: 1, threadId: 't' },
        { type: 'stop', at: 2 },
      ],
      errors: [],
    });
  });

  it('reads an event log of an earlier version as agent events', () => {
    const text = serializeEventLog([
      { index: 0, receivedAt: 10, event: { type: 'RUN_STARTED', threadId: 't', runId: 'r' } },
      { index: 1, event: { type: 'RUN_FINISHED', threadId: 't', runId: 'r' } },
    ]);
    const { entries, errors } = parseSession(text);
    expect(errors).toEqual([]);
    expect(entries.map((e) => [e.type, e.at])).toEqual([
      ['event', 10],
      ['event', 0],
    ]);
    expect(replaySession(entries).run.status).toBe('success');
  });

  it('reads a stream saved elsewhere: bare AG-UI events, one a line or in one JSON array, and an array of entries', () => {
    const events = [
      { type: 'RUN_STARTED', threadId: '5f0c2a8e-3b1d-4c6e-9a7f-1d2e3f4a5b6c', runId: 'r1', timestamp: 1_764_000_000_000 },
      { type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', delta: '退款已批准。' },
      { type: 'RUN_FINISHED', threadId: '5f0c2a8e-3b1d-4c6e-9a7f-1d2e3f4a5b6c', runId: 'r1' },
    ];
    const lines = parseSession(events.map((e) => JSON.stringify(e)).join('\n'));
    const array = parseSession(JSON.stringify(events, null, 2));
    for (const { entries, errors } of [lines, array]) {
      expect(errors).toEqual([]);
      expect(entries.map((e) => [e.type, e.at, e.type === 'event' ? e.index : -1])).toEqual([
        ['event', 1_764_000_000_000, 0],
        ['event', 0, 1],
        ['event', 0, 2],
      ]);
      const thread = replaySession(entries);
      expect(thread.run.status).toBe('success');
      expect(thread.messages.byId.get('m1')?.content).toBe('退款已批准。');
    }
    const saved = [
      { type: 'init', at: 1, threadId: 't' },
      { type: 'user_message', at: 2, message: { id: 'u1', role: 'user', content: 'hi' } },
    ];
    expect(parseSession(JSON.stringify(saved))).toEqual({ entries: saved, errors: [] });
    // An item that is neither is named by its place in the array.
    expect(parseSession(JSON.stringify([events[0], 42])).errors).toEqual([
      { line: 2, code: 'NOT_AN_ENTRY', message: 'item 2: not a log entry: expected an object' },
    ]);
    // A lower-case type is no AG-UI event: still not an entry.
    expect(parseSession('{"type":"run_started","at":0}').errors[0]?.message).toMatch(/unknown type "run_started"/);
  });

  it("reads a conformance fixture (one JSON object) as its stream's events; says of any other object that it is one object", async () => {
    const text = await readFile(`${CORPUS}streams/conformant-run-is-quiet.json`, 'utf8');
    const fixture = JSON.parse(text) as { stream: { type: string }[] };
    const { entries, errors } = parseSession(text);
    expect(errors).toEqual([]);
    expect(entries.map((e) => (e.type === 'event' ? (e.event as { type: string }).type : e.type))).toEqual(
      fixture.stream.map((e) => e.type),
    );
    expect(replaySession(entries).run.status).toBe('success');
    // Another object, written over many lines: one problem, said of the file, not a "not JSON" for each of its lines.
    const other = JSON.stringify(
      { threadId: '5f0c2a8e-3b1d-4c6e-9a7f-1d2e3f4a5b6c', messages: [{ id: 'm1', role: 'user', content: '退款' }] },
      null,
      2,
    );
    expect(parseSession(other)).toEqual({
      entries: [],
      errors: [
        {
          line: 1,
          code: 'NOT_A_SESSION',
          message: 'the file is one JSON object, not a saved session (one entry a line) nor a list of AG-UI events',
        },
      ],
      oneObject: true,
    });
    // An object whose stream is no list is that too; a one-line entry is still read as the entry it is.
    expect(parseSession('{"name":"x","stream":{}}').errors[0]?.message).toMatch(/^the file is one JSON object/);
    expect(parseSession('{"type":"init","at":1,"threadId":"t"}\n')).toEqual({
      entries: [{ type: 'init', at: 1, threadId: 't' }],
      errors: [],
    });
  });

  it('names an init that neither starts the file nor follows a reset: a reversed file, or two sessions in one, is not replayed as if whole', () => {
    const threadId = '5f0c2a8e-3b1d-4c6e-9a7f-1d2e3f4a5b6c';
    const session = [
      { type: 'init', threadId, messages: [], at: 1 },
      { type: 'user_message', message: { id: 'u1', role: 'user', content: '退款' }, at: 2 },
      ...finishedRun(threadId),
    ] as SessionEntry[];
    const lines = serializeSession(session).trimEnd().split('\n');
    const reversed = parseSession([...lines].reverse().join('\n'));
    expect(reversed.errors).toEqual([
      {
        line: 3,
        code: 'OUT_OF_ORDER',
        message: 'an event entry whose index 0 does not follow the one before it (1): a line repeated or out of order',
      },
      {
        line: 6,
        code: 'SECOND_SESSION',
        message: 'an init entry comes first, or right after a reset: this one follows 4 entries of the session',
      },
    ]);
    // Two sessions in one file: the second init is named, and so is every entry of its session (up to a reset), none
    // of which is grafted onto the first session: that one is read exactly as it was.
    const other = serializeSession(session.map((e) => (e.type === 'init' ? { ...e, threadId: 'another-thread' } : e)));
    const two = parseSession(serializeSession(session) + other);
    expect(two.errors).toEqual([
      {
        line: 7,
        code: 'SECOND_SESSION',
        message: 'an init entry comes first, or right after a reset: this one follows 6 entries of the session',
      },
      ...[8, 9, 10, 11, 12].map((line) => ({
        line,
        code: 'SECOND_SESSION',
        message: 'an entry of a second session (after an init that did not start the file): not read',
      })),
    ]);
    expect(two.entries).toEqual(parseSession(serializeSession(session)).entries);
    expect(replaySession(two.entries).threadId).toBe(threadId);
    // After a reset, an init is the thread starting again, as a live log writes it.
    const again = parseSession(serializeSession([...session, { type: 'reset', at: 7 }, { ...session[0], at: 8 } as SessionEntry]));
    expect(again.errors).toEqual([]);
    expect(again.entries).toHaveLength(8);
  });

  it("names an event line whose index does not follow the one before it: a line repeated or out of order changes nobody's reply", () => {
    const threadId = '5f0c2a8e-3b1d-4c6e-9a7f-1d2e3f4a5b6c';
    const session = [
      { type: 'init', threadId, messages: [], at: 1 },
      { type: 'stream_start', kind: 'run', runId: 'r1', at: 2 },
      { type: 'event', index: 0, event: { type: 'RUN_STARTED', threadId, runId: 'r1' }, at: 3 },
      { type: 'event', index: 1, event: { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' }, at: 3 },
      { type: 'event', index: 2, event: { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: '已退款' }, at: 3 },
      { type: 'event', index: 3, event: { type: 'TEXT_MESSAGE_END', messageId: 'm1' }, at: 3 },
      { type: 'event', index: 4, event: { type: 'RUN_FINISHED', threadId, runId: 'r1' }, at: 4 },
      { type: 'stream_end', open: false, at: 5 },
    ] as SessionEntry[];
    const lines = serializeSession(session).trimEnd().split('\n');
    const repeated = parseSession([...lines.slice(0, 5), lines[4], ...lines.slice(5)].join('\n'));
    expect(repeated.errors).toEqual([
      {
        line: 6,
        code: 'OUT_OF_ORDER',
        message: 'an event entry whose index 2 does not follow the one before it (2): a line repeated or out of order',
      },
    ]);
    expect(replaySession(repeated.entries).messages.byId.get('m1')?.content).toBe('已退款');
    const swapped = parseSession([...lines.slice(0, 4), lines[5], lines[4], ...lines.slice(6)].join('\n'));
    expect(swapped.errors).toEqual([
      {
        line: 6,
        code: 'OUT_OF_ORDER',
        message: 'an event entry whose index 2 does not follow the one before it (3): a line repeated or out of order',
      },
    ]);
    // A line missing (torn out, or named as bad) leaves a gap, which is no reason to refuse the lines after it.
    expect(parseSession([...lines.slice(0, 4), ...lines.slice(5)].join('\n')).errors).toEqual([]);
    // After a reset the indexes start again.
    expect(parseSession(serializeSession([...session, { type: 'reset', at: 6 }, ...session.slice(1)])).errors).toEqual([]);
    // An event log of an earlier version (its lines `{ index, receivedAt, event }`): the same rule.
    const logged = serializeEventLog(
      session.flatMap((e) => (e.type === 'event' ? [{ index: e.index, receivedAt: e.at, event: e.event }] : [])),
    )
      .trimEnd()
      .split('\n');
    const again = parseSession([...logged.slice(0, 3), logged[2], ...logged.slice(3)].join('\n'));
    expect(again.errors).toEqual([
      {
        line: 4,
        code: 'OUT_OF_ORDER',
        message: 'an event entry whose index 2 does not follow the one before it (2): a line repeated or out of order',
      },
    ]);
    expect(replaySession(again.entries).messages.byId.get('m1')?.content).toBe('已退款');
  });

  it('names a user_message line whose message id the session already holds: a line repeated is not one message said once', () => {
    const threadId = '5f0c2a8e-3b1d-4c6e-9a7f-1d2e3f4a5b6c';
    const asked = { type: 'user_message', message: { id: 'u-7c1e', role: 'user', content: '我的茶壶碎了' }, at: 2 };
    const session = [
      { type: 'init', threadId, messages: [{ id: 'seed-1', role: 'user', content: 'earlier' }], at: 1 },
      asked,
      ...finishedRun(threadId),
    ] as SessionEntry[];
    const lines = serializeSession(session).trimEnd().split('\n');
    const repeated = parseSession([...lines, lines[1]].join('\n'));
    expect(repeated.errors).toEqual([
      {
        line: 7,
        code: 'REPEATED',
        message: 'a user_message entry under message id "u-7c1e", which the session already holds: a line repeated',
      },
    ]);
    expect(repeated.entries).toEqual(parseSession(lines.join('\n')).entries);
    // An id the init's messages hold is taken too.
    const seeded = parseSession([...lines, JSON.stringify({ ...asked, message: { ...asked.message, id: 'seed-1' }, at: 7 })].join('\n'));
    expect(seeded.errors.map((e) => e.line)).toEqual([7]);
    // After a reset the thread starts again, and so do its ids.
    const again = parseSession(serializeSession([...session, { type: 'reset', at: 7 }, { ...asked, at: 8 } as SessionEntry]));
    expect(again.errors).toEqual([]);
    expect(replaySession(again.entries).messages.byId.get('u-7c1e')?.content).toBe('我的茶壶碎了');
  });

  it('reads a session pretty-printed value after value (as `jq .` writes it), naming a value that is no entry by its first line', () => {
    const threadId = '5f0c2a8e-3b1d-4c6e-9a7f-1d2e3f4a5b6c';
    const session = [
      { type: 'init', threadId, messages: [], at: 1 },
      { type: 'user_message', message: { id: 'u1', role: 'user', content: '退款 {"not": "a brace"} \\ ' }, at: 2 },
      ...finishedRun(threadId),
    ] as SessionEntry[];
    const pretty = session.map((e) => JSON.stringify(e, null, 2)).join('\n');
    expect(parseSession(pretty)).toEqual({ entries: session, errors: [] });
    // A value that is no entry is named by the line it starts on; the rest are kept.
    const withBad = [
      JSON.stringify(session[0], null, 2),
      JSON.stringify({ type: 'nope', at: 1 }, null, 2),
      JSON.stringify(session[1], null, 2),
    ];
    const read = parseSession(withBad.join('\n'));
    expect(read.entries).toEqual(session.slice(0, 2));
    expect(read.errors).toEqual([{ line: 7, code: 'NOT_AN_ENTRY', message: 'not a log entry: unknown type "nope"' }]);
    // Text between the values is named by its line.
    expect(parseSession(`${withBad[0]}\nnot json\n${withBad[2]}`).errors).toEqual([
      { line: 7, code: 'NOT_JSON', message: 'not JSON: text between values' },
    ]);
    // Cut off inside a value (a torn write): the values before it are kept, the cut one named.
    const torn = parseSession(pretty.slice(0, pretty.length - 10));
    expect(torn.entries).toEqual(session.slice(0, 5));
    expect(torn.errors).toHaveLength(1);
    expect(torn.errors[0]?.message).toMatch(/^not JSON: /);
  });

  it('reads an array pretty-printed (JSON.stringify(x, null, 2)) cut off inside its last item: the whole items kept, the cut one named once', () => {
    const threadId = '5f0c2a8e-3b1d-4c6e-9a7f-1d2e3f4a5b6c';
    const session = [
      { type: 'init', threadId, messages: [], at: 1 },
      { type: 'user_message', message: { id: 'u1', role: 'user', content: '退款 [{"not": "a bracket"}], \\ ' }, at: 2 },
      ...finishedRun(threadId),
    ] as SessionEntry[];
    const pretty = JSON.stringify(session, null, 2);
    // Whole, it is read as before.
    expect(parseSession(pretty)).toEqual({ entries: session, errors: [] });
    const torn = parseSession(pretty.slice(0, pretty.length - 20));
    expect(torn.entries).toEqual(session.slice(0, -1));
    expect(torn.errors).toHaveLength(1);
    expect(torn.errors[0]?.code).toBe('NOT_JSON');
    // Named by the line the cut item starts on.
    expect(torn.errors[0]?.line).toBe(pretty.split('\n').findIndex((l, i, all) => l === '  {' && !all.slice(i + 1).includes('  {')) + 1);
    // Agent events alone, as an event log: the same.
    const events = session.flatMap((e) => (e.type === 'event' ? [e.event] : []));
    const eventsText = JSON.stringify(events, null, 2);
    const tornEvents = parseSession(eventsText.slice(0, eventsText.length - 15));
    expect(tornEvents.entries.map((e) => (e.type === 'event' ? e.event : e))).toEqual(events.slice(0, -1));
    expect(tornEvents.errors).toHaveLength(1);
  });

  it("writes every entry a live log can hold: an event with a cycle or a BigInt (an in-process agent's) does not stop the rest", () => {
    const cyclic: Record<string, unknown> = { type: 'CUSTOM', name: 'loop' };
    cyclic.value = cyclic;
    const entries = [
      { type: 'init', at: 1, threadId: 't' },
      { type: 'event', at: 2, index: 0, event: cyclic },
      { type: 'event', at: 3, index: 1, event: { type: 'CUSTOM', name: 'big', value: { n: 12345678901234567890n } } },
      { type: 'user_message', at: 4, message: { id: 'u1', role: 'user', content: '你好' } },
    ] as unknown as Parameters<typeof serializeSession>[0];
    const text = serializeSession(entries);
    const parsed = parseSession(text);
    expect(parsed.errors).toEqual([]);
    expect(parsed.entries.map((e) => e.type)).toEqual(['init', 'event', 'event', 'user_message']);
    // A BigInt is written as its digits, a cycle cut short (replayed, it is refused as too deep, as it was live).
    expect((parsed.entries[2] as { event: { value: unknown } }).event.value).toEqual({ n: '12345678901234567890' });
    const thread = replaySession(parsed.entries);
    expect(thread.diagnostics.map((d) => d.code)).toContain('TOO_DEEP');
    expect(thread.messages.ids).toEqual(['u1']);
  });

  it('keeps the items of a JSON array written one a line and cut off (a tool that died writing it), naming only the cut one', () => {
    const events = [
      { type: 'RUN_STARTED', threadId: 't', runId: 'r1' },
      { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: '退款已批准。' },
      { type: 'TEXT_MESSAGE_END', messageId: 'm1' },
      { type: 'RUN_FINISHED', threadId: 't', runId: 'r1' },
    ];
    const whole = `[\n${events.map((e) => JSON.stringify(e)).join(',\n')}\n]\n`;
    const torn = whole.slice(0, whole.indexOf('"RUN_FINISHED"') + 5);
    const { entries, errors } = parseSession(torn);
    expect(entries.map((e) => (e.type === 'event' ? (e.event as { type: string }).type : e.type))).toEqual(
      events.slice(0, 4).map((e) => e.type),
    );
    expect(errors.map((e) => e.line)).toEqual([6]);
    expect(replaySession(entries).messages.byId.get('m1')?.content).toBe('退款已批准。');
    // A first line that is a whole JSON array is judged as that array, as anywhere else in the file.
    const first = parseSession(`[1,2]\n${JSON.stringify({ type: 'init', at: 1, threadId: 't' })}`);
    expect(first.entries.map((e) => e.type)).toEqual(['init']);
    expect(first.errors).toEqual([{ line: 1, code: 'NOT_AN_ENTRY', message: expect.not.stringMatching(/^not JSON/) }]);
  });

  it('names an entry whose time no Date can hold (nanoseconds, by another tool), and reads a foreign event so timed at 0', () => {
    const event = { type: 'RUN_STARTED', threadId: 't', runId: 'r' };
    const text = [
      JSON.stringify({ type: 'init', at: 1_764_000_000_000, threadId: 't' }),
      JSON.stringify({ type: 'user_message', at: 1_764_000_000_000_000_000, message: { id: 'u1', role: 'user', content: 'hi' } }),
      JSON.stringify({ type: 'reset', at: -8.7e15 }),
      JSON.stringify({ ...event, timestamp: 1_764_000_000_000_000_000 }),
      JSON.stringify({ event, receivedAt: 1_764_000_000_000_000_000 }),
      JSON.stringify({ type: 'reset', at: 8.64e15 }),
    ].join('\n');
    const { entries, errors } = parseSession(text);
    expect(errors.map((e) => e.line)).toEqual([2, 3]);
    expect(errors[0]?.message).toMatch(/`at`/);
    expect(entries.map((e) => [e.type, e.at])).toEqual([
      ['init', 1_764_000_000_000],
      ['event', 0],
      ['event', 0],
      ['reset', 8.64e15],
    ]);
  });

  it('round-trips what it serializes', () => {
    const entries = [
      { type: 'init' as const, at: 1, threadId: 't', state: { a: [1, 'two'] } },
      { type: 'state_edit' as const, at: 2, delta: [{ op: 'add' as const, path: '/b', value: null }] },
    ];
    expect(parseSession(serializeSession(entries))).toEqual({ entries, errors: [] });
  });

  it('never throws on any file, and replaying what it kept never throws', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.json(),
            fc.string(),
            fc.constant('{"type":"event","at":0,"event":{"type":"STATE_DELTA","delta":[{"op":"add","path":"/__proto__/x","value":1}]}}'),
          ),
        ),
        (lines) => {
          const { entries } = parseSession(lines.join('\n'));
          expect(() => replaySession(entries)).not.toThrow();
          expect(({} as Record<string, unknown>).x).toBeUndefined();
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('a saved entry of a known type whose fields hold anything', () => {
  const value = fc.jsonValue();
  const message = fc.oneof(
    value,
    fc.record(
      {
        id: fc.oneof(fc.string(), value),
        role: fc.oneof(fc.constantFrom('user', 'assistant', 'tool', 'system'), value),
        content: value,
        toolCallId: fc.oneof(fc.string(), value),
        toolCalls: fc.oneof(value, fc.array(fc.oneof(value, fc.record({ id: fc.string(), function: value })), { maxLength: 2 })),
      },
      { requiredKeys: ['id', 'role', 'content'] },
    ),
  );
  const resume = fc.oneof(
    value,
    fc.record({
      interruptId: fc.oneof(fc.string(), value),
      status: fc.oneof(fc.constantFrom('resolved', 'cancelled'), value),
      payload: value,
    }),
  );
  const entry = fc.oneof(
    fc.record(
      { type: fc.constant('init'), threadId: fc.string(), messages: fc.array(message, { maxLength: 3 }), state: value },
      { requiredKeys: ['type', 'threadId'] },
    ),
    fc.record({ type: fc.constant('user_message'), message }),
    fc.record({ type: fc.constant('stream_start'), kind: fc.constantFrom('run', 'resume'), runId: fc.string(), reconnect: value }),
    fc.record({ type: fc.constant('stream_end'), open: fc.boolean() }),
    fc.record({ type: fc.constant('state_edit'), delta: fc.array(value, { maxLength: 3 }) }),
    fc.record({ type: fc.constant('state_set'), document: value }),
    fc.record({ type: fc.constant('tool_started'), toolCallId: fc.string() }),
    fc.record({
      type: fc.constant('tool_result'),
      toolCallId: fc.string(),
      messageId: fc.string(),
      content: fc.oneof(fc.string(), fc.array(value, { maxLength: 3 })),
      error: value,
    }),
    fc.record({ type: fc.constant('resume'), runId: fc.string(), resume: fc.array(resume, { maxLength: 3 }) }),
    fc.record({
      type: fc.constant('failed'),
      failure: fc.dictionary(fc.constantFrom('code', 'message', 'status', 'retryable', 'eventsReceived'), value),
    }),
    fc.constant({ type: 'resume_taken' }),
    fc.constant({ type: 'stop' }),
    fc.constant({ type: 'reset' }),
    fc.constant({ type: 'event', event: { type: 'RUN_STARTED', threadId: 't', runId: 'r' } }),
  );

  it('is kept or named as bad; replaying what was kept, or making a controller of it, never throws', async () => {
    await loadEngine();
    const silent = { run: () => (async function* () {})() };
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 8 }), (entries) => {
        const text = entries.map((e) => JSON.stringify({ ...e, at: 1 })).join('\n');
        const { entries: kept, errors } = parseSession(text);
        expect(kept.length + errors.length).toBe(entries.length);
        expect(() => replaySession(kept)).not.toThrow();
        expect(() => createRunController({ source: silent, log: kept }).destroy()).not.toThrow();
      }),
      { numRuns: 500 },
    );
  });
});

describe('a controller made from a saved session', () => {
  const midRun = () =>
    parseSession(
      [
        { type: 'init', at: 1, threadId: 't' },
        { type: 'user_message', at: 2, message: { id: 'u1', role: 'user', content: 'Count' } },
        { type: 'stream_start', at: 3, kind: 'run', runId: 'r' },
        { type: 'event', at: 4, event: { type: 'RUN_STARTED', threadId: 't', runId: 'r' } },
        { type: 'event', at: 5, event: { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' } },
        { type: 'event', at: 6, event: { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: '1 2 3' } },
      ]
        .map((e) => JSON.stringify(e))
        .join('\n'),
    ).entries;
  const silent = { run: () => (async function* () {})() };

  it('lists its agent events with when each was received, as the live log did (from entries, a file and a recording)', async () => {
    await loadEngine();
    const entries = midRun();
    const received = (log: { events: readonly { index: number; receivedAt?: number }[] }) => log.events.map((e) => [e.index, e.receivedAt]);
    const want = [
      [0, 4],
      [1, 5],
      [2, 6],
    ];
    expect(received(createRunController({ source: silent, log: entries, asRecorded: true }).log)).toEqual(want);
    expect(received(createRunController({ source: silent, log: createRecording(entries).until(99), asRecorded: true }).log)).toEqual(want);
    // And once saved again, no second copy of the time in the file.
    const again = createRunController({ source: silent, log: entries, asRecorded: true });
    expect(serializeSession(again.log.entries)).not.toContain('receivedAt');
  });

  it('ends a stream left open as cut off: the run it resumes from is unknown', async () => {
    await loadEngine();
    const thread = createRunController({ source: silent, log: midRun() }).getSnapshot().thread;
    expect(thread.run.status).toBe('unknown');
    expect(thread.diagnostics.map((d) => d.code)).toContain('STREAM_TRUNCATED');
  });

  it('as recorded, shows the session as it was at its last entry: the run still running, nothing said of a cut', async () => {
    await loadEngine();
    const entries = midRun();
    const controller = createRunController({ source: silent, log: entries, asRecorded: true });
    const { thread, inFlight } = controller.getSnapshot();
    expect(thread).toEqual(replaySession(entries));
    expect([thread.run.status, thread.diagnostics, inFlight]).toEqual(['running', [], undefined]);
    expect(controller.log.entries.map((e) => e.type)).toEqual(entries.map((e) => e.type));
  });

  describe('stopped while a resume waited for its first event', () => {
    /** A run that asked to confirm, the answer sent, then (`tail`) what the log says of the resume's request. */
    const answeredThen = (tail: object[]) =>
      parseSession(
        [
          { type: 'init', at: 1, threadId: 't' },
          { type: 'stream_start', at: 2, kind: 'run', runId: 'r1' },
          { type: 'event', at: 3, event: { type: 'RUN_STARTED', threadId: 't', runId: 'r1' } },
          {
            type: 'event',
            at: 4,
            event: {
              type: 'RUN_FINISHED',
              threadId: 't',
              runId: 'r1',
              outcome: { type: 'interrupt', interrupts: [{ id: 'i1', reason: 'confirmation', message: 'Refund 42?' }] },
            },
          },
          { type: 'stream_end', at: 5, open: false },
          { type: 'resume', at: 6, runId: 'r2', resume: [{ interruptId: 'i1', status: 'resolved', payload: { approved: true } }] },
          { type: 'stream_start', at: 7, kind: 'resume', runId: 'r2' },
          ...tail,
        ]
          .map((e) => JSON.stringify(e))
          .join('\n'),
      );
    const open = (entries: ReturnType<typeof answeredThen>['entries']) => replaySession(entries).interrupts.map((it) => it.id);

    it.each([
      [
        'a resume_taken entry',
        [
          { type: 'resume_taken', at: 8 },
          { type: 'stop', at: 9 },
        ],
      ],
      ["an earlier version's stop that says it (answered)", [{ type: 'stop', at: 9, answered: true }]],
    ])('keeps the answers the agent took, as %s says', async (_how, tail) => {
      await loadEngine();
      const { entries, errors } = answeredThen(tail);
      expect(errors).toEqual([]);
      expect(open(entries)).toEqual([]);
      expect(
        createRunController({ source: silent, log: entries })
          .getSnapshot()
          .thread.answers.map((a) => a.interruptId),
      ).toEqual(['i1']);
    });

    it('gives them back when nothing says the agent answered', async () => {
      await loadEngine();
      expect(open(answeredThen([{ type: 'stop', at: 9 }]).entries)).toEqual(['i1']);
      // Left open (a reload before the agent answered): the controller made from it stops it, and gives them back too.
      const { entries } = answeredThen([]);
      expect(
        createRunController({ source: silent, log: entries })
          .getSnapshot()
          .thread.interrupts.map((it) => it.id),
      ).toEqual(['i1']);
    });
  });
});
