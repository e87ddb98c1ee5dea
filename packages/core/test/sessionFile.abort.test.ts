/**
 * `parseSession(file, { signal })`: an abort cancels the read at once (no
 * chunk is pulled after it, the stream is cancelled with the signal's reason
 * and let go) and the promise rejects with that reason; a signal aborted
 * before the call reads nothing; one aborted after the read has no effect.
 */
import { describe, expect, it, vi } from 'vitest';
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
});
