/**
 * `parseSession(file)` reads a Blob or a stream of bytes chunk by chunk: a
 * file of JSON lines a line at a time (so a file longer than a string holds
 * is read too), each line cut wherever the chunks are, inside a multi-byte
 * UTF-8 character or a CRLF too; what it reads equals `parseSession` of the
 * file's text. The 16 M characters under which a file is read whole are stood
 * in for by 0 here: a file past them is too heavy for a test.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { readSession } from '../src/controller/sessionFile.js';
import { parseSession, type SessionEntry, serializeSession } from '../src/index.js';
import { MAX_NAMED_LINES, Refusals, readJsonLineStream } from '../src/jsonLines.js';

const session: SessionEntry[] = [
  { type: 'init', at: 1, threadId: 't' },
  { type: 'event', at: 2, index: 0, event: { type: 'RUN_STARTED', threadId: 't', runId: 'r' } },
  { type: 'event', at: 3, index: 1, event: { type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant' } },
  ...['héllo ', '日本語 ', '😀 emoji', ' ünïcödé'].map(
    (delta, i): SessionEntry => ({ type: 'event', at: 4, index: i + 2, event: { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta } }),
  ),
  { type: 'event', at: 5, index: 6, event: { type: 'TEXT_MESSAGE_END', messageId: 'm' } },
  { type: 'event', at: 6, index: 7, event: { type: 'RUN_FINISHED', threadId: 't', runId: 'r' } },
];
const text = serializeSession(session);
/** The same file damaged: a line not JSON, an index far ahead, a line repeated, a torn last line, CRLF line ends. */
const lines = text.trimEnd().split('\n');
const damaged = [
  lines[0],
  lines[1],
  'nöt JSON',
  lines[2],
  lines[3]?.replace('"index":2', '"index":1e15'),
  lines[4],
  lines[4],
  ...lines.slice(5),
  lines[2]?.slice(0, 30),
].join('\r\n');

/** A stream of `bytes` in chunks of `size` bytes (the last shorter), counting the chunks pulled. */
function chunked(bytes: Uint8Array, size: number, pulled = { count: 0 }): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      pulled.count++;
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
}
const utf8 = (s: string) => new TextEncoder().encode(s);

describe('parseSession of a stream of bytes', () => {
  for (const [name, file] of [
    ['a saved session', text],
    ['a damaged session with CRLF line ends', damaged],
  ] as const) {
    it(`reads ${name} cut at every byte, and in chunks of 2 to 64 bytes, as parseSession reads its text`, async () => {
      const want = parseSession(file);
      expect(want.entries.length).toBeGreaterThan(5);
      const bytes = utf8(file);
      for (let size = 1; size <= 64; size++) expect(await readSession(chunked(bytes, size), 0)).toEqual(want);
    });
  }

  it('reads every line of the file as it comes, before the stream has ended', async () => {
    const pulled = { count: 0 };
    const seen: number[] = [];
    const bytes = utf8(text);
    const refused = new Refusals<string>(MAX_NAMED_LINES);
    const whole = await readJsonLineStream(
      chunked(bytes, 16, pulled),
      (_value, line) => {
        seen.push(pulled.count);
        expect(line).toBe(seen.length);
        return undefined;
      },
      refused,
      0,
      () => false,
    );
    expect(whole).toBeUndefined();
    expect(seen).toHaveLength(session.length);
    expect(seen[0]).toBeLessThan(10);
    expect(Math.ceil(bytes.length / 16) - (seen[0] as number)).toBeGreaterThan(40);
  });

  it('reads a Blob, whole or line by line, as its text', async () => {
    expect(await parseSession(new Blob([damaged]))).toEqual(parseSession(damaged));
    expect(await readSession(new Blob([damaged]), 0)).toEqual(parseSession(damaged));
    expect(await parseSession(new Blob([]))).toEqual({ entries: [], errors: [] });
  });

  it('reads a file saved as UTF-16 (little or big endian, after its byte order mark), and one with a UTF-8 byte order mark', async () => {
    const le = new Uint8Array(Buffer.from(`\uFEFF${damaged}`, 'utf16le'));
    const be = le.slice();
    for (let i = 0; i + 1 < be.length; i += 2) [be[i], be[i + 1]] = [le[i + 1] as number, le[i] as number];
    const want = parseSession(damaged);
    for (const bytes of [le, be, utf8(`\uFEFF${damaged}`)])
      for (const size of [1, 3, 1000]) {
        expect(await readSession(chunked(bytes, size), 0)).toEqual(want);
        expect(await readSession(chunked(bytes, size), 1 << 24)).toEqual(want);
      }
  });

  it('reads a file that is not JSON lines (an array, values pretty-printed, a fixture) whole, as its text', async () => {
    const fixture = JSON.stringify({ stream: session.filter((e) => e.type === 'event').map((e) => e.event) });
    const files = [
      JSON.stringify(session),
      JSON.stringify(session, null, 2),
      session.map((e) => JSON.stringify(e, null, 2)).join('\n'),
      fixture,
      `${fixture}\n`,
      '{"a":1}',
    ];
    for (const file of files) {
      const want = parseSession(file);
      expect(await readSession(chunked(utf8(file), 7), 0)).toEqual(want);
    }
    expect((await readSession(chunked(utf8(files[3] as string), 7), 0)).entries).toHaveLength(session.length - 1);
  });
});

describe('parseSession of a large stream', () => {
  it('reads a chunk cut a slice of 2^20 characters at a time with a CRLF or a character of two halves across the cut', async () => {
    const slice = 2 ** 20;
    const event = (index: number, name: string) =>
      JSON.stringify({ type: 'event', at: 1, index, event: { type: 'CUSTOM', name, value: 1 } });
    for (const [sep, across] of [
      ['\r\n', 'crlf'],
      ['\n', 'pair'],
      ['\r\n', 'pair'],
      ['\r', 'cr'],
    ] as const) {
      const lines: string[] = [];
      let length = 0;
      while (length < slice - 500) {
        lines.push(event(lines.length, 'e'));
        length += (lines[lines.length - 1] as string).length + sep.length;
      }
      // The next line padded so that the cut falls between its CR and LF, or between the two halves of an emoji.
      const bare = event(lines.length, 'e');
      const pad = across === 'pair' ? slice - 1 - length - (bare.indexOf('"name":"e') + 9) : slice - 1 - length - bare.length;
      lines.push(event(lines.length, `e${'x'.repeat(pad)}${across === 'pair' ? '😀' : ''}`));
      lines.push('nöt JSON', event(lines.length, 'after'), event(lines.length + 1, 'last'));
      const file = lines.join(sep);
      expect(file.charCodeAt(slice - 1)).toBe(across === 'pair' ? 0xd83d : 0x0d);
      const want = parseSession(file);
      expect(want.errors.map((e) => [e.line, e.code])).toEqual([[lines.length - 2, 'NOT_JSON']]);
      // One chunk of the whole file: cut into slices of 2^20 characters, one after another.
      expect(await readSession(chunked(utf8(file), 1 << 24), 0)).toEqual(want);
    }
  }, 60_000);

  it('reads 64 MB of JSON lines line by line in time near what parseSession of its text takes', async () => {
    const line = `${JSON.stringify({ type: 'event', at: 1, event: { type: 'CUSTOM', name: 'é', value: 'x'.repeat(200) } })}\n`;
    const text = line.repeat(Math.floor((64 * 2 ** 20) / line.length));
    const bytes = utf8(text);
    let t0 = performance.now();
    const want = parseSession(text);
    const whole = performance.now() - t0;
    t0 = performance.now();
    const got = await readSession(chunked(bytes, 65536), 0);
    const streamed = performance.now() - t0;
    expect(got.entries).toHaveLength(want.entries.length);
    expect(got.errors).toEqual([]);
    expect(streamed).toBeLessThan(whole * 4 + 500);
  }, 60_000);

  it('holds no more of a file read line by line than its lines, once past the part it looks at first', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const heap = () => {
      gc();
      return process.memoryUsage().heapUsed / 2 ** 20;
    };
    // 60 MB of lines that are no entries (nothing kept for them), the first 8 M characters looked at before any is read.
    const chunk = utf8(`${JSON.stringify({ type: 'stop', at: 1, answered: 'x'.repeat(80) })}\n`.repeat(1000));
    const chunks = 600;
    let pulled = 0;
    const heaps: number[] = [];
    const stream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          if (pulled === chunks) return controller.close();
          if (pulled >= chunks / 2 && pulled % 50 === 0) heaps.push(heap());
          pulled++;
          controller.enqueue(chunk);
        },
      },
      { highWaterMark: 0 },
    );
    const before = heap();
    const read = await readSession(stream, 2 ** 23);
    expect(read.refused).toBe(chunks * 1000);
    expect(Math.max(...heaps) - before).toBeLessThan(4);
  }, 60_000);
});
