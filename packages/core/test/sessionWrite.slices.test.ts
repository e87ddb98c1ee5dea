/**
 * A long session written for a download: in slices of a few milliseconds,
 * the page free between them, giving the very parts the one-go write gives.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type SessionEntry, serializeSession } from '../src/index.js';
import { command, play } from './support/sessions.js';

/** A session of `n` text deltas after its start. */
function longSession(n: number): SessionEntry[] {
  const entries: SessionEntry[] = [
    { type: 'init', threadId: 't', messages: [], state: { 你好: '😀' }, at: 1 },
    { type: 'stream_start', kind: 'run', runId: 'r', at: 2 },
    { type: 'event', index: 0, event: { type: 'RUN_STARTED', threadId: 't', runId: 'r' }, at: 3 },
  ];
  for (let i = 0; i < n; i++)
    entries.push({ type: 'event', index: i + 1, event: { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: `δ${i} ` }, at: 4 + i });
  return entries;
}

describe('serializeSession in slices', () => {
  it('lets the page go on while it writes 200,000 entries, and writes what the one-go write does', async () => {
    const entries = longSession(200_000);
    // The longest the page waits for a turn while the session is written.
    let ticks = 0;
    let last = performance.now();
    let longest = 0;
    const timer = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
      ticks++;
    }, 0);
    const started = performance.now();
    const atOnce = serializeSession(entries, { parts: true });
    const once = performance.now() - started;
    const written = serializeSession(entries, { parts: true, inSlices: true });
    // Nothing is written before the caller goes on: the first slice comes after this task.
    expect(written).toBeInstanceOf(Promise);
    longest = 0;
    last = performance.now();
    const parts = await written;
    clearInterval(timer);
    // Written at once, the page waits for all of it; in slices, for a small part of it at most.
    expect(ticks).toBeGreaterThan(1);
    expect(longest).toBeLessThan(once / 3);
    expect(parts).toEqual(atOnce);
    expect(parts.join('')).toBe(serializeSession(entries));
  }, 60_000);

  it('writes the entries the log held when asked, not the ones appended while it writes', async () => {
    const entries = longSession(50_000);
    const before = serializeSession(entries);
    const written = serializeSession(entries, { parts: true, inSlices: true });
    entries.push({ type: 'stop', at: 9 });
    expect((await written).join('')).toBe(before);
  });

  it('stops between two slices when its signal aborts, rejecting with the reason', async () => {
    const stop = new AbortController();
    const written = serializeSession(longSession(200_000), { parts: true, inSlices: true, signal: stop.signal });
    stop.abort(new Error('closed'));
    await expect(written).rejects.toThrow('closed');
  });

  it("rejects at once with a signal aborted before it or in the caller's task, however short the session", async () => {
    const short = longSession(3);
    await expect(serializeSession(short, { parts: true, inSlices: true, signal: AbortSignal.abort(new Error('gone')) })).rejects.toThrow(
      'gone',
    );
    const stop = new AbortController();
    const written = serializeSession(short, { parts: true, inSlices: true, signal: stop.signal });
    stop.abort(new Error('closed'));
    await expect(written).rejects.toThrow('closed');
  });

  it('writes every kind of entry a controller logs as the one-go write does, for random sessions', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { maxLength: 10 }), async (commands) => {
        const controller = await play(commands);
        const entries = controller.log.entries;
        expect(await serializeSession(entries, { parts: true, inSlices: true })).toEqual(serializeSession(entries, { parts: true }));
        controller.destroy();
      }),
      { numRuns: 200 },
    );
  }, 60_000);

  it('gives no part for an empty session', async () => {
    expect(await serializeSession([], { parts: true, inSlices: true })).toEqual([]);
  });
});
