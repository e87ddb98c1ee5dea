/**
 * Memory storage (a server on which SQLite could not be loaded) holds its
 * runs and their logs within a bound: past it, the runs finished longest ago
 * are dropped, never one being produced, and the server says so in its log.
 */
import { describe, expect, it, vi } from 'vitest';
import { memoryFullWarning } from '../src/server.js';
import { openMemoryStorage } from '../src/storage/memory.js';
import { runRecord, threadRecord } from './storageContract.js';
import { post, readEvents, startServer, userInput } from './support.js';

/** A frame of about `chars` characters (2 bytes each in memory). */
const frame = (runId: string, index: number, chars: number) => `id: ${runId}:${index}\ndata: ${'x'.repeat(chars)}\n\n`;

describe('memory storage with maxRunBytes', () => {
  it('drops the runs finished longest ago once its runs hold more, and keeps the ones being produced', async () => {
    const drops: { dropped: number; bytes: number }[] = [];
    const storage = openMemoryStorage({ maxRunBytes: 100_000, onDrop: (dropped, bytes) => drops.push({ dropped, bytes }) });
    // Ten runs of 20 frames of 1,000 characters (40 KB each): two and a half fit.
    for (let n = 0; n < 10; n++) {
      const runId = `run-${n}`;
      expect(await storage.beginRun(runRecord(runId, `thread-${n}`), threadRecord(`thread-${n}`), 0)).toBe('created');
      for (let i = 0; i < 20; i++) await storage.appendEvent(runId, i, frame(runId, i, 1_000));
      // The first run is never finished: it is being produced, and is kept whatever it holds.
      if (n > 0) await storage.produced(runId);
    }
    const kept = [];
    for (let n = 0; n < 10; n++) if (await storage.run(`run-${n}`)) kept.push(n);
    // run-0 (being produced), and the runs finished last that fit beside it.
    expect(kept).toEqual([0, 9]);
    expect(await storage.events('run-0', 0, 100)).toHaveLength(20);
    expect(await storage.events('run-9', 0, 100)).toHaveLength(20);
    expect(await storage.events('run-1', 0, 100)).toEqual([]);
    // A run dropped is no longer unfinished, and its id is free again; threads stay.
    expect((await storage.unfinished()).map((r) => r.runId)).toEqual(['run-0']);
    expect((await storage.thread('thread-1')).version).toBe(1);
    expect(drops.reduce((sum, d) => sum + d.dropped, 0)).toBe(8);
    expect(Math.max(...drops.map((d) => d.bytes))).toBeLessThanOrEqual(100_000);
    // Memory held by the frames of the first run alone past the bound: it is still kept while being produced.
    for (let i = 20; i < 80; i++) await storage.appendEvent('run-0', i, frame('run-0', i, 1_000));
    expect(await storage.events('run-0', 0, 100)).toHaveLength(80);
    expect(await storage.run('run-9')).toBeUndefined();
    await storage.close();
  });

  it('keeps that the end of a run dropped for room was read, until the run is past the retention', async () => {
    const storage = openMemoryStorage({ maxRunBytes: 50_000 });
    // The run raised interrupts, and its client read its end: its thread waits for answers someone saw.
    for (const [n, startedAt] of [
      [0, 1_000],
      [1, 2_000],
    ] as const) {
      const runId = `run-${n}`;
      const thread = { ...threadRecord(`thread-${n}`, [`it-${n}`]), raisedBy: runId };
      await storage.beginRun(runRecord(runId, `thread-${n}`, { startedAt }), thread, 0);
      for (let i = 0; i < 20; i++) await storage.appendEvent(runId, i, frame(runId, i, 1_000));
      await storage.produced(runId);
      await storage.markRead(runId);
    }
    // run-1 needed the room: run-0 is gone, what was read of it is not.
    expect(await storage.run('run-0')).toBeUndefined();
    expect(await storage.wasRead('run-0')).toBe(true);
    // Pruned past its start, it is forgotten as a run pruned is.
    await storage.prune(1_500);
    expect(await storage.wasRead('run-0')).toBe(false);
    expect(await storage.wasRead('run-1')).toBe(true);
    await storage.close();
  });

  it('counts the frames written for a run dropped for room among what may be dropped, and a run begun again under its id starts with an empty log', async () => {
    const storage = openMemoryStorage({ maxRunBytes: 100_000 });
    for (let n = 0; n < 3; n++) {
      const runId = `run-${n}`;
      await storage.beginRun(runRecord(runId, `thread-${n}`), threadRecord(`thread-${n}`), 0);
      for (let i = 0; i < 20; i++) await storage.appendEvent(runId, i, frame(runId, i, 1_000));
      await storage.produced(runId);
    }
    expect(await storage.run('run-0')).toBeUndefined();
    // A stream that looked run-0 up before it was dropped makes its events again: 120 KB for a run no record holds.
    for (let i = 0; i < 60; i++) await storage.appendEvent('run-0', i, frame('run-0', i, 1_000));
    // They are dropped first: the runs a reconnect can read are kept.
    expect(await storage.run('run-1')).toBeDefined();
    expect(await storage.events('run-2', 0, 100)).toHaveLength(20);
    // A small run produced now fits: what those frames held was given back, not counted for ever.
    await storage.beginRun(runRecord('small', 'thread-small'), threadRecord('thread-small'), 0);
    await storage.appendEvent('small', 0, frame('small', 0, 100));
    await storage.produced('small');
    expect(await storage.run('small')).toBeDefined();
    // run-0 begun again (its id is free) does not read another run's frames as its own.
    expect(await storage.beginRun(runRecord('run-0', 'thread-0'), threadRecord('thread-0'), 1)).toBe('created');
    expect(await storage.events('run-0', 0, 100)).toEqual([]);
    expect(await storage.appendEvent('run-0', 0, 'new')).toBe(true);
    expect(await storage.events('run-0', 0, 100)).toEqual(['new']);
    await storage.close();
  });

  it('refuses a bound that is no number of bytes above 0', () => {
    expect(() => openMemoryStorage({ maxRunBytes: 0 })).toThrow(RangeError);
    expect(() => openMemoryStorage({ maxRunBytes: Number.NaN })).toThrow(RangeError);
  });
});

describe('a server on memory storage', () => {
  it('keeps its runs and logs under maxMemoryRunBytes, dropping the oldest finished, and logs it', async () => {
    const lines: string[] = [];
    const server = await startServer({ maxMemoryRunBytes: 60_000, logLevel: 'warn', logStream: { write: (line) => lines.push(line) } });
    const inputs = Array.from({ length: 12 }, (_, n) => userInput(`t${n}`, `r${n}`));
    for (const input of inputs) {
      const events = await readEvents(await post(server, '/agents/refund?speed=0', input));
      expect(events.at(-1)?.event.type).toBe('RUN_FINISHED');
    }
    // The first run is gone: its reconnect is told 404, as one pruned; the last is read whole.
    const first = await post(server, '/agents/refund?speed=0', inputs[0], { 'Last-Event-ID': 'r0:0' });
    expect(first.status).toBe(404);
    await first.body?.cancel();
    const last = await readEvents(await post(server, '/agents/refund?speed=0', inputs[11], { 'Last-Event-ID': 'r11:0' }));
    expect(last.at(-1)?.event.type).toBe('RUN_FINISHED');
    const warnings = lines.map((l) => JSON.parse(l) as { msg: string; dropped?: number; maxRunBytes?: number });
    const full = warnings.filter((w) => w.msg.startsWith('memory storage full'));
    // Once a minute at most: the first drop is said at once.
    expect(full).toHaveLength(1);
    expect(full[0]).toMatchObject({ maxRunBytes: 60_000 });
    expect(full[0]?.dropped).toBeGreaterThan(0);
  });

  it('keeps a run finished longest ago while a client reads it, and that client reads it to its end', async () => {
    const server = await startServer({ maxMemoryRunBytes: 600_000 });
    // 600 tokens (more frames than one page of the log), produced at once once its client goes: a client that comes
    // back reads each token when due, 5 ms apart.
    const long = (n: number, tokenDelayMs: number) => ({
      ...userInput(`long-${n}`, `long-${n}`),
      forwardedProps: { tokens: 600, tokenDelayMs },
    });
    const left = await post(server, '/agents/fast-stream?speed=1', long(0, 5));
    await left.body?.cancel();
    const health = async () => ((await (await fetch(`${server.url}/health`)).json()) as { runs: number }).runs;
    await expect.poll(health, { timeout: 10_000 }).toBe(0);
    const back = await post(server, '/agents/fast-stream?speed=1', long(0, 5), { 'Last-Event-ID': 'long-0:0' });
    expect(back.status).toBe(200);
    const reading = readEvents(back);
    // Meanwhile other runs fill the memory: long-0, finished longest ago, is the first to go, but for its reader.
    for (let n = 1; n <= 4; n++) await readEvents(await post(server, '/agents/fast-stream?speed=0', long(n, 0)));
    const events = await reading;
    expect(events.at(-1)?.event.type).toBe('RUN_FINISHED');
    expect(events[0]?.id).toBe('long-0:1');
    // The room was made of the runs no one read: long-1, finished after it, went in its place.
    const dropped = await post(server, '/agents/fast-stream?speed=0', long(1, 0), { 'Last-Event-ID': 'long-1:0' });
    expect(dropped.status).toBe(404);
    await dropped.body?.cancel();
  });

  it('refuses a maxMemoryRunBytes that is no whole number of bytes', async () => {
    await expect(startServer({ maxMemoryRunBytes: 0 })).rejects.toThrow(RangeError);
    await expect(startServer({ maxMemoryRunBytes: 1.5 })).rejects.toThrow(RangeError);
  });
});

describe('the warning that memory storage dropped runs', () => {
  it('is logged at most once a minute, and the runs dropped within that minute are logged once it is over', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      const said: { dropped: number; bytes: number; maxRunBytes: number }[] = [];
      const dropped = memoryFullWarning(1_000, (detail) => said.push(detail));
      dropped(1, 900);
      expect(said).toEqual([{ dropped: 1, bytes: 900, maxRunBytes: 1_000 }]);
      // A burst: more dropped within the minute, then none.
      vi.advanceTimersByTime(1_000);
      dropped(2, 950);
      vi.advanceTimersByTime(1_000);
      dropped(3, 800);
      expect(said).toHaveLength(1);
      vi.advanceTimersByTime(58_000);
      expect(said).toEqual([
        { dropped: 1, bytes: 900, maxRunBytes: 1_000 },
        { dropped: 5, bytes: 800, maxRunBytes: 1_000 },
      ]);
      // Nothing more dropped: nothing more logged.
      vi.advanceTimersByTime(120_000);
      expect(said).toHaveLength(2);
      dropped(1, 700);
      expect(said.at(-1)).toEqual({ dropped: 1, bytes: 700, maxRunBytes: 1_000 });
    } finally {
      vi.useRealTimers();
    }
  });
});
