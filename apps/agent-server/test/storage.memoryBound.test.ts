/**
 * Memory storage (a server on which SQLite could not be loaded) holds its
 * runs and their logs within a bound: past it, the runs finished longest ago
 * are dropped, never one being produced, and the server says so in its log.
 */
import { describe, expect, it } from 'vitest';
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
      await storage.beginRun(runRecord(runId, `thread-${n}`, { startedAt }), threadRecord(`thread-${n}`), 0);
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

  it('refuses a maxMemoryRunBytes that is no whole number of bytes', async () => {
    await expect(startServer({ maxMemoryRunBytes: 0 })).rejects.toThrow(RangeError);
    await expect(startServer({ maxMemoryRunBytes: 1.5 })).rejects.toThrow(RangeError);
  });
});
