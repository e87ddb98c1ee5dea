/**
 * `parseSession(file, { signal })`: an abort cancels the read at once (no
 * chunk is pulled after it, the stream is cancelled with the signal's reason
 * and let go) and the promise rejects with that reason; a signal aborted
 * before the call reads nothing; one aborted after the read has no effect.
 * The read and the parse go in slices, the page free between them: an abort
 * stops a file read whole while it is parsed, and one read line by line
 * whose chunks come with no task between them.
 */
import { describe, expect, it, vi } from 'vitest';
import { readSession } from '../src/controller/sessionFile.js';
import { parseSession, type SessionEntry, serializeSession } from '../src/index.js';

const entries: SessionEntry[] = [
  { type: 'init', at: 1, threadId: 't' },
  ...Array.from(
    { length: 2000 },
    (_, i): SessionEntry => ({ type: 'event', at: 2, index: i, event: { type: 'CUSTOM', name: 'n', value: 'x'.repeat(40) } }),
  ),
];
const bytes = new TextEncoder().encode(serializeSession(entries));

/** A file's bytes as a stream pulled one chunk of 256 bytes at a time, each a macrotask later: its pulls and its cancel counted. */
function counted() {
  const seen = { pulls: 0, cancelled: [] as unknown[] };
  let at = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (at >= bytes.length) return controller.close();
        seen.pulls++;
        await new Promise((resolve) => setTimeout(resolve, 0));
        controller.enqueue(bytes.slice(at, at + 256));
        at += 256;
      },
      cancel(reason) {
        seen.cancelled.push(reason);
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, seen };
}
const chunks = Math.ceil(bytes.length / 256);
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('parseSession of a stream, with a signal', () => {
  it('stops pulling chunks once the signal aborts, cancels the stream, and rejects with the reason', async () => {
    expect(chunks).toBeGreaterThan(100);
    const { stream, seen } = counted();
    const abort = new AbortController();
    const reason = new Error('another file was picked');
    const read = parseSession(stream, { signal: abort.signal });
    const outcome = read.then(
      () => 'read to its end',
      (e: unknown) => e,
    );
    await vi.waitFor(() => expect(seen.pulls).toBeGreaterThanOrEqual(3));
    abort.abort(reason);
    const at = seen.pulls;
    expect(await outcome).toBe(reason);
    await settle();
    expect(seen.pulls).toBe(at);
    expect(seen.cancelled).toEqual([reason]);
    expect(stream.locked).toBe(false);
  });

  it('reads nothing of a stream when the signal is aborted already', async () => {
    const { stream, seen } = counted();
    const reason = new Error('left the replay');
    await expect(parseSession(stream, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    await settle();
    expect(seen.pulls).toBe(0);
    expect(seen.cancelled).toEqual([reason]);
    expect(stream.locked).toBe(false);
  });

  it('reads nothing of a Blob when the signal is aborted already, and rejects with the default AbortError', async () => {
    const pulled = vi.fn();
    const file = new Blob([bytes]);
    file.stream = () => {
      pulled();
      return Blob.prototype.stream.call(file);
    };
    const abort = new AbortController();
    abort.abort();
    await expect(parseSession(file, { signal: abort.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(pulled).not.toHaveBeenCalled();
  });

  it('is not changed by an abort after the read has ended', async () => {
    const { stream, seen } = counted();
    const abort = new AbortController();
    const read = await parseSession(stream, { signal: abort.signal });
    abort.abort(new Error('too late'));
    await settle();
    expect(read).toEqual(parseSession(serializeSession(entries)));
    expect(read.entries).toHaveLength(entries.length);
    expect(seen.pulls).toBe(chunks);
    expect(seen.cancelled).toEqual([]);
  });

  it('stops reading a Blob (a file picked) when the signal aborts partway', async () => {
    const { stream, seen } = counted();
    const file = new Blob([bytes]);
    file.stream = () => stream as ReadableStream<Uint8Array<ArrayBuffer>>;
    const abort = new AbortController();
    const reason = new Error('another file was picked');
    const read = parseSession(file, { signal: abort.signal });
    await vi.waitFor(() => expect(seen.pulls).toBeGreaterThanOrEqual(3));
    abort.abort(reason);
    const at = seen.pulls;
    await expect(read).rejects.toBe(reason);
    await settle();
    expect(seen.pulls).toBe(at);
    expect(seen.cancelled).toEqual([reason]);
  });

  it('stops parsing a file read whole (under 16 M characters) when the signal aborts, and lets the page go on', async () => {
    // 15 M characters of short lines: half a second or more to parse in one go.
    const line = `${JSON.stringify({ type: 'event', at: 1, event: { type: 'CUSTOM', name: 'e', value: 1 } })}\n`;
    const chunk = new TextEncoder().encode(line.repeat(Math.floor(15e6 / line.length)));
    const abort = new AbortController();
    const reason = new Error('another file was picked');
    let abortedAt = 0;
    // The abort comes in a task of the page queued as the read ends: while the file is parsed.
    let sent = false;
    const stream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          if (sent) {
            controller.close();
            setTimeout(() => {
              abortedAt = performance.now();
              abort.abort(reason);
            }, 0);
          } else controller.enqueue(chunk);
          sent = true;
        },
      },
      { highWaterMark: 0 },
    );
    const read = parseSession(stream, { signal: abort.signal });
    await expect(read).rejects.toBe(reason);
    expect(abortedAt).toBeGreaterThan(0);
    expect(performance.now() - abortedAt).toBeLessThan(100);
  }, 30_000);

  it('reads a file read whole in slices to the same session as its text', async () => {
    const text = serializeSession(entries).repeat(3);
    const controller = new AbortController();
    expect(await parseSession(new Blob([text]), { signal: controller.signal })).toEqual(parseSession(text));
  });

  it('reads a file of each shape parsed over many slices to the same session as its text', async () => {
    // About 4 MB each: tens of milliseconds to parse, so the parse yields to the page many times over.
    const n = 30_000;
    const event = (index: number) => ({ type: 'event', at: 2, index, event: { type: 'CUSTOM', name: 'n', value: 'x'.repeat(40) } });
    const lines = Array.from({ length: n }, (_, i) => JSON.stringify(event(i)));
    // Now and then a run of far lines, a line repeated, a line that is no JSON, a joined file's byte order mark.
    for (let i = n - 1000; i > 0; i -= 1000)
      lines.splice(
        i,
        0,
        JSON.stringify(event(1e15 + i)),
        JSON.stringify(event(2e15 + i)),
        lines[i - 1] as string,
        '{"type":',
        `\uFEFF${lines[i]}`,
      );
    const values = Array.from({ length: n / 2 }, (_, i) => JSON.stringify(event(i), null, 2));
    const shapes = {
      lines: lines.join('\n'),
      crlf: lines.join('\r\n'),
      pretty: values.join('\n'),
      array: JSON.stringify(Array.from({ length: n }, (_, i) => event(i))),
      cutArray: `[\n${lines.slice(0, -1).join(',\n')}`,
      fixture: JSON.stringify({ stream: Array.from({ length: n }, (_, i) => event(i).event) }),
    };
    const Channel = MessageChannel;
    let yields = 0;
    vi.stubGlobal(
      'MessageChannel',
      class extends Channel {
        constructor() {
          super();
          yields++;
        }
      },
    );
    // A clock that moves 3 ms at each reading: the parse meets the ends of its slices on a machine of any speed.
    let clock = 0;
    const now = vi.spyOn(performance, 'now').mockImplementation(() => (clock += 3));
    try {
      for (const [shape, text] of Object.entries(shapes)) {
        yields = 0;
        const read = await parseSession(new Blob([text]), { signal: new AbortController().signal });
        expect({ shape, yields: yields > 1 }).toEqual({ shape, yields: true });
        expect({ shape, read }).toEqual({ shape, read: parseSession(text) });
      }
    } finally {
      now.mockRestore();
      vi.unstubAllGlobals();
    }
  }, 60_000);

  it.each([
    ['240 chunks of 64 KB, all queued (no task between them)', 240, 2 ** 16],
    ['one chunk of 15 MB (a Blob in memory, as Node reads it)', 1, 15 * 2 ** 20],
  ])(
    'stops reading a file line by line when the signal aborts: %s',
    async (_name, chunks, size) => {
      const line = `${JSON.stringify({ type: 'event', at: 1, event: { type: 'CUSTOM', name: 'e', value: 1 } })}\n`;
      const chunk = new TextEncoder().encode(line.repeat(Math.floor(size / line.length)));
      /** ms from the abort to the read's end, the read rejected with the abort's reason. */
      const stopping = async () => {
        const stream = new ReadableStream<Uint8Array>({
          start(controller) {
            for (let i = 0; i < chunks; i++) controller.enqueue(chunk);
            controller.close();
          },
        });
        const abort = new AbortController();
        const reason = new Error('another file was picked');
        let abortedAt = 0;
        // Read line by line (the 16 M characters under which a file is read whole stood in for by 0).
        const read = readSession(stream, 0, abort.signal);
        setTimeout(() => {
          abortedAt = performance.now();
          abort.abort(reason);
        }, 0);
        await expect(read).rejects.toBe(reason);
        expect(abortedAt).toBeGreaterThan(0);
        return performance.now() - abortedAt;
      };
      // A busy machine (a collection, another process) delays one read's stop now and then, a read that goes on past
      // the abort is late every time: up to three reads, the quickest stop kept.
      let quickest = await stopping();
      for (let tries = 1; tries < 3 && quickest >= 100; tries++) quickest = Math.min(quickest, await stopping());
      expect(quickest).toBeLessThan(100);
    },
    30_000,
  );

  it('lets the page go on while it cuts a chunk of 15 MB into lines', async () => {
    const line = `${JSON.stringify({ type: 'event', at: 1, event: { type: 'CUSTOM', name: 'e', value: 1 } })}\n`;
    const chunk = new TextEncoder().encode(line.repeat(Math.floor((15 * 2 ** 20) / line.length)));
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(chunk);
        controller.close();
      },
    });
    const started = performance.now();
    const ticks = [started];
    const ticking = setInterval(() => ticks.push(performance.now()), 1);
    const read = await readSession(stream, 0);
    clearInterval(ticking);
    ticks.push(performance.now());
    expect(read.entries.length).toBeGreaterThan(100_000);
    // Cut in one go, the page would wait for nearly all of it at once.
    const longest = Math.max(...ticks.slice(1).map((t, i) => t - (ticks[i] as number)));
    expect(longest).toBeLessThan((performance.now() - started) / 3);
  }, 30_000);
});
