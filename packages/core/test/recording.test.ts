/**
 * A recording: time travel over a session log at any position in time
 * bounded by the spacing of its checkpoints, not by the position. Each
 * checkpoint is a copy of the machine (thread, stream pipeline, expander and
 * verifier) that nothing applies entries to again: a thread read at any
 * entry, in any order, is the thread a replay of the log up to it gives, and
 * a controller made from it goes on as one made from that prefix does.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { replaySession } from '../src/engine.js';
import { type AgentSource, createRecording, createRunController, loadEngine, type SessionEntry } from '../src/index.js';
import { command, play, view } from './support/sessions.js';

const silent: AgentSource = { run: () => (async function* () {})() };

/** A source whose every request is a run that says one thing and finishes, under the request's run id. */
const finishing: AgentSource = {
  async *run(input) {
    yield { type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId };
    yield { type: 'TEXT_MESSAGE_CHUNK', messageId: `${input.runId}-after`, role: 'assistant', delta: 'after' };
    yield { type: 'RUN_FINISHED', threadId: input.threadId, runId: input.runId };
  },
};

/** `value` as JSON with the ids the controller made (a new run's, its user message's) numbered in order of appearance. */
function withIdsNumbered(value: unknown): string {
  const seen = new Map<string, string>();
  return JSON.stringify(value).replace(/(run|msg)-[0-9a-f-]{36}/g, (id) => {
    if (!seen.has(id)) seen.set(id, `#${seen.size}`);
    return seen.get(id) as string;
  });
}

/** The positions -1 (before the first entry) to past the last, shuffled by `order`. */
function positions(length: number, order: readonly number[]): number[] {
  const all = Array.from({ length: length + 2 }, (_, i) => i - 1);
  return all
    .map((p, i) => ({ p, k: order[i % Math.max(order.length, 1)] ?? 0 }))
    .sort((a, b) => a.k - b.k)
    .map(({ p }) => p);
}

const expectEveryPosition = (recording: ReturnType<typeof createRecording>, entries: readonly SessionEntry[], order: readonly number[]) => {
  for (const i of positions(entries.length, order))
    expect(view(recording.stateAt(i))).toEqual(view(replaySession(entries.slice(0, Math.max(0, i + 1)))));
};

describe('a recording reads the thread at any entry', () => {
  it('stateAt(i) is the replay of the entries up to i, read in any order, for 300 random sessions and spacings', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(command, { maxLength: 10 }),
        fc.constantFrom(1, 2, 3, 7),
        fc.array(fc.nat(), { minLength: 1, maxLength: 40 }),
        async (commands, every, order) => {
          const controller = await play(commands);
          const entries = controller.log.entries;
          const recording = createRecording(entries, { every });
          expectEveryPosition(recording, entries, order);
          // Read again after the later ones: a checkpoint is never applied to twice.
          expectEveryPosition(recording, entries, [...order].reverse());
          controller.destroy();
        },
      ),
      { numRuns: 300 },
    );
  }, 120_000);

  it('a controller made from recording.until(i) is the one made from the first i+1 entries, and going on from it changes no checkpoint', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { maxLength: 10 }), fc.constantFrom(1, 2, 5), fc.nat(), async (commands, every, pick) => {
        const played = await play(commands);
        const entries = played.log.entries;
        const recording = createRecording(entries, { every });
        const i = pick % entries.length;
        const prefix = entries.slice(0, i + 1);
        for (const asRecorded of [true, false]) {
          const fromRecording = createRunController({ source: finishing, log: recording.until(i), asRecorded, now: () => 2_000 });
          const fromEntries = createRunController({ source: finishing, log: prefix, asRecorded, now: () => 2_000 });
          const a = fromRecording.getSnapshot();
          const b = fromEntries.getSnapshot();
          expect(view(a.thread)).toEqual(view(b.thread));
          expect([a.eventCount, a.logLength, a.resets]).toEqual([b.eventCount, b.logLength, b.resets]);
          expect(fromRecording.log.entries).toEqual(fromEntries.log.entries);
          expect(view(fromRecording.stateAt(Math.floor(i / 2)))).toEqual(view(fromEntries.stateAt(Math.floor(i / 2))));
          // Going on: a stream cut off is reconnected (its pipeline goes on), else a new run is sent.
          const go = async (c: typeof fromRecording) => {
            const status = c.getSnapshot().thread.run.status;
            await (status === 'unknown' ? c.reconnect() : status === 'interrupted' ? c.cancelInterrupts() : c.run('more'));
            await new Promise((r) => setTimeout(r, 0));
          };
          await go(fromRecording);
          await go(fromEntries);
          expect(withIdsNumbered(view(fromRecording.getSnapshot().thread))).toBe(withIdsNumbered(view(fromEntries.getSnapshot().thread)));
          fromRecording.destroy();
          fromEntries.destroy();
        }
        expectEveryPosition(recording, entries, [pick]);
        played.destroy();
      }),
      { numRuns: 200 },
    );
  }, 120_000);

  it('reads the entries as they are, refuses what is no position, and one made over a growing log reads what was appended', async () => {
    const played = await play([{ kind: 'run', message: 'hi', steps: [], ending: 'finish' }]);
    const entries = [...played.log.entries];
    const recording = createRecording(entries, { every: 2 });
    expect(() => recording.stateAt(Number.NaN)).toThrow(RangeError);
    expect(() => recording.stateAt('2' as unknown as number)).toThrow(RangeError);
    expect(() => recording.until(Number.NaN)).toThrow(RangeError);
    expect(recording.until(entries.length + 5).entries).toEqual(entries);
    expect(recording.until(-3).entries).toEqual([]);
    expect(() => createRecording(entries, { every: 0 })).toThrow(RangeError);
    expect(() => createRecording(entries, { every: 1.5 })).toThrow(RangeError);
    const last = recording.stateAt(entries.length - 1);
    entries.push({ type: 'user_message', message: { id: 'u-late', role: 'user', content: 'late' }, at: 5 });
    expect(view(recording.stateAt(entries.length - 2))).toEqual(view(last));
    expect(recording.stateAt(entries.length - 1).messages.byId.get('u-late')).toBeDefined();
    played.destroy();
  });
});

describe('time travel over a long recording', () => {
  /** One run of 2,000 messages of 98 deltas each: 200,006 entries. */
  function longSession(): SessionEntry[] {
    const entries: SessionEntry[] = [];
    let index = 0;
    const at = 1_700_000_000_000;
    const event = (e: Record<string, unknown>) => entries.push({ type: 'event', event: e, index: index++, at });
    entries.push({ type: 'init', threadId: 't', at });
    entries.push({ type: 'user_message', message: { id: 'u1', role: 'user', content: 'Write a lot.' }, at });
    entries.push({ type: 'stream_start', kind: 'run', runId: 'r1', at });
    event({ type: 'RUN_STARTED', threadId: 't', runId: 'r1' });
    for (let m = 0; m < 2000; m++) {
      event({ type: 'TEXT_MESSAGE_START', messageId: `m${m}`, role: 'assistant' });
      for (let d = 0; d < 98; d++) event({ type: 'TEXT_MESSAGE_CONTENT', messageId: `m${m}`, delta: '写 ' });
      event({ type: 'TEXT_MESSAGE_END', messageId: `m${m}` });
    }
    event({ type: 'RUN_FINISHED', threadId: 't', runId: 'r1' });
    entries.push({ type: 'stream_end', open: false, at });
    return entries;
  }

  it('once read to its end, the thread and a controller at an entry of 200,000 take a few milliseconds, not a replay', async () => {
    await loadEngine();
    const entries = longSession();
    const recording = createRecording(entries);
    // The first read goes through the whole log once, as a replay does.
    expect(recording.stateAt(entries.length - 1).messages.ids).toHaveLength(2001);
    const took = { state: [] as number[], controller: [] as number[] };
    for (const i of [100_000, 150_000, 12_345, 199_999, 3, 77_777, 180_001, 50_000, 120_000]) {
      let t = performance.now();
      const state = recording.stateAt(i);
      took.state.push(performance.now() - t);
      // Entry i is event i - 3: message m of 100 events starts at event 1 + 100m.
      expect(state.messages.ids).toHaveLength(1 + Math.floor((i - 4) / 100) + 1);
      t = performance.now();
      const controller = createRunController({ source: silent, log: recording.until(i), asRecorded: true });
      expect(controller.getSnapshot().thread).toBeDefined();
      expect(controller.getSnapshot().logLength).toBe(i + 1);
      took.controller.push(performance.now() - t);
      controller.destroy();
    }
    // A replay of 100,000 entries takes 140 ms and more on this machine; a checkpoint's 1,024 entries about 1 ms, a
    // controller 15 ms or so at 200,000 (its log starts as one copy of the entries; appended one by one, 26-45 ms). The median: a collection of the large heap may land in any one of them on a busy machine.
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
    expect(median(took.state)).toBeLessThan(20);
    expect(median(took.controller)).toBeLessThan(30);
  }, 60_000);

  it('controllers made at two entries of one recording list the same event entries: a step makes no object per event', async () => {
    await loadEngine();
    const entries = longSession();
    const recording = createRecording(entries);
    const a = createRunController({ source: silent, log: recording.until(150_000), asRecorded: true });
    const b = createRunController({ source: silent, log: recording.until(199_999), asRecorded: true });
    // A scrubber makes a controller per step: 200,000 fresh objects each (one per event listed) were 8 MB for the
    // young generation to copy, a collection of 45-85 ms in Chromium at a step.
    expect(a.log.events).toHaveLength(149_998);
    expect(b.log.events).toHaveLength(199_997);
    for (const i of [0, 1, 777, 99_999, 149_996]) expect(b.log.events[i]).toBe(a.log.events[i]);
    // Listed as a timeline reads them: with the index and the time each was received.
    expect(b.log.events[777]).toMatchObject({
      index: 777,
      receivedAt: 1_700_000_000_000,
      event: (entries[780] as { event: unknown }).event,
    });
    a.destroy();
    b.destroy();
  });

  it('prepare reads it through in slices, the page free between them, and a read after it applies a checkpoint at most', async () => {
    const entries = longSession();
    /** A fresh recording of `entries` read through, with when the page got a turn (a timer ran) while it read, and what it said of its progress. */
    const readThrough = async () => {
      const recording = createRecording(entries);
      const turns: number[] = [];
      const heard: { read: number; of: number; at: number }[] = [];
      let reading = true;
      const tick = () => {
        turns.push(performance.now());
        if (reading) setTimeout(tick, 0);
      };
      setTimeout(tick, 0);
      const began = performance.now();
      await recording.prepare({ onProgress: (read, of) => heard.push({ read, of, at: performance.now() }) });
      reading = false;
      const whole = performance.now() - began;
      const stretches = [began, ...turns.filter((t) => t < began + whole)].map((t, i, all) => (all[i + 1] ?? began + whole) - t);
      return { recording, turns, heard, whole, longest: Math.max(...stretches) };
    };
    // The page had turns all along: no stretch without one is longer than a slice and a checkpoint. A busy machine
    // (a collection, another process) lengthens one read's stretch now and then, a slice too long lengthens every
    // read's: up to five reads, the one with the shortest longest stretch kept.
    let best = await readThrough();
    for (let tries = 1; tries < 5 && best.longest >= 100; tries++) {
      const next = await readThrough();
      if (next.longest < best.longest) best = next;
    }
    const { recording, turns, heard, whole } = best;
    expect(turns.length).toBeGreaterThan(5);
    expect(best.longest).toBeLessThan(100);
    // Progress grows to the whole log, and ends there.
    expect(heard.length).toBeGreaterThan(2);
    expect(heard.every(({ of }) => of === entries.length)).toBe(true);
    expect(heard.map(({ read }) => read)).toEqual([...heard.map(({ read }) => read)].sort((a, b) => a - b));
    expect(heard.at(-1)?.read).toBe(entries.length);
    // Read through: the last entry is a checkpoint's entries away, not a replay's.
    const t = performance.now();
    expect(recording.stateAt(entries.length - 1).messages.ids).toHaveLength(2001);
    expect(performance.now() - t).toBeLessThan(whole / 5);
    expect(view(recording.stateAt(150_000))).toEqual(view(replaySession(entries.slice(0, 150_001))));
  }, 60_000);

  it('prepare stops between slices when its signal aborts, and what it read stays right', async () => {
    const entries = longSession();
    const recording = createRecording(entries);
    const stop = new AbortController();
    let calls = 0;
    const prepared = recording.prepare({
      signal: stop.signal,
      onProgress: (read) => {
        calls++;
        if (read >= 50_000) stop.abort(new Error('the reader closed the file'));
      },
    });
    await expect(prepared).rejects.toThrow('the reader closed the file');
    const after = calls;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls).toBe(after);
    // Already aborted: nothing is read.
    await expect(recording.until(10).prepare({ signal: stop.signal })).rejects.toThrow('the reader closed the file');
    expect(view(recording.stateAt(199_999))).toEqual(view(replaySession(entries.slice(0, 200_000))));
    // A view prepares up to its own end only.
    const half = recording.until(99_999);
    const read: number[] = [];
    await half.prepare({ onProgress: (n, of) => read.push(n, of) });
    expect(read.slice(-2)).toEqual([100_000, 100_000]);
  }, 60_000);
});
