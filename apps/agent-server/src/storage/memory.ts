import { cutOf, type EffectRecord, PRUNE_STEP, type RunRecord, type Storage, StorageUnavailable, type ThreadRecord } from './types.js';

export interface MemoryStorageOptions {
  /**
   * The most bytes the runs and their event logs may hold, counted as the
   * UTF-16 size of their frames and records (what the strings take in memory).
   * Past it, the runs produced to their end longest ago are dropped, with
   * their logs, until the rest fits: never a run being produced, nor one in
   * use (`inUse`). Frames written for a run no record holds (dropped after a
   * stream of it looked it up) are dropped first. Default
   * unbounded (tests); the server bounds it (`AgentServerOptions.maxMemoryRunBytes`).
   */
  maxRunBytes?: number;
  /** Told, after runs were dropped to stay under `maxRunBytes`, how many and the bytes left. */
  onDrop?: (dropped: number, bytes: number) => void;
  /**
   * Whether a run is in use (a client reads it, or the server produces it again): such a run is not dropped for
   * room while it is, however long ago it finished. Default none.
   */
  inUse?: (runId: string) => boolean;
}

/**
 * `Storage` in this process's memory, kept until the process stops: for
 * tests, and for a server (or a page) that needs no durability. It keeps the
 * same contract as the SQLite and Redis storages (the same contract tests run
 * on all three); records are copied in and out, so a caller changing an
 * object it passed or got back changes nothing stored. With `maxRunBytes`,
 * the oldest finished runs are dropped to stay under it (a reconnect to one
 * gets 404, as to a run pruned); threads and side effects are kept.
 *
 * @example
 * const storage = openMemoryStorage({ maxRunBytes: 64 * 1024 * 1024 });
 * await storage.beginRun(run, thread, 0); // 'created'
 */
export function openMemoryStorage(options: MemoryStorageOptions = {}): Storage {
  const maxRunBytes = options.maxRunBytes ?? Number.POSITIVE_INFINITY;
  if (!(maxRunBytes > 0)) throw new RangeError(`maxRunBytes must be a number of bytes above 0, not ${maxRunBytes}.`);
  const runs = new Map<string, RunRecord>();
  const threads = new Map<string, { record: ThreadRecord; version: number }>();
  const frames = new Map<string, string[]>();
  const read = new Set<string>();
  /** Runs begun and not yet produced to their end. */
  const producing = new Set<string>();
  /** The bytes each run holds (its record and its frames), and their sum. */
  const sizes = new Map<string, number>();
  let bytes = 0;
  /** Runs produced to their end, in the order they ended: the first is the first dropped for room. */
  const finished = new Set<string>();
  /** Runs no record holds that frames were written for (dropped after a stream of them looked them up): dropped first. */
  const orphans = new Set<string>();
  const grow = (runId: string, by: number) => {
    sizes.set(runId, (sizes.get(runId) ?? 0) + by);
    bytes += by;
  };
  /**
   * That a client read the end of a run dropped for room, kept until the run is past the retention (`prune`), by
   * when it started: its thread may still wait on the interrupts it raised, which were seen (see `wasRead`).
   */
  const readOfDropped = new Map<string, number>();
  const drop = (runId: string, forRoom = false) => {
    const startedAt = runs.get(runId)?.startedAt;
    bytes -= sizes.get(runId) ?? 0;
    sizes.delete(runId);
    runs.delete(runId);
    frames.delete(runId);
    if (!forRoom) {
      read.delete(runId);
      readOfDropped.delete(runId);
    } else if (startedAt !== undefined && read.has(runId)) readOfDropped.set(runId, startedAt);
    producing.delete(runId);
    finished.delete(runId);
    orphans.delete(runId);
  };
  /** Drops the runs finished longest ago until the rest fits (runs being produced or in use are kept, whatever they hold). */
  const makeRoom = () => {
    if (bytes <= maxRunBytes) return;
    let dropped = 0;
    for (const order of [orphans, finished])
      for (const runId of order) {
        if (bytes <= maxRunBytes) break;
        if (options.inUse?.(runId)) continue;
        if (runs.has(runId)) dropped++;
        drop(runId, true);
      }
    if (dropped) options.onDrop?.(dropped, bytes);
  };
  const effects = new Map<string, EffectRecord>();
  let closed = false;
  const open = () => {
    if (closed) throw new StorageUnavailable('The memory storage is closed.');
  };

  return {
    skipped: [],
    async beginRun(run, thread, expectedThreadVersion) {
      open();
      if (runs.has(run.runId)) return 'exists';
      const version = threads.get(run.threadId)?.version ?? 0;
      if (version !== expectedThreadVersion) return 'conflict';
      // Frames left under a free id (written for a run dropped meanwhile) are no part of this run.
      drop(run.runId);
      runs.set(run.runId, structuredClone(run));
      threads.set(run.threadId, { record: structuredClone(thread), version: version + 1 });
      producing.add(run.runId);
      grow(run.runId, 2 * JSON.stringify(run).length);
      makeRoom();
      return 'created';
    },
    async unfinished() {
      open();
      return [...producing].flatMap((runId) => {
        const run = runs.get(runId);
        return run ? [structuredClone(run)] : [];
      });
    },
    async produced(runId) {
      open();
      producing.delete(runId);
      if (runs.has(runId)) {
        finished.delete(runId);
        finished.add(runId);
      }
      makeRoom();
    },
    async run(runId) {
      open();
      const run = runs.get(runId);
      return run && structuredClone(run);
    },
    async thread(threadId) {
      open();
      const t = threads.get(threadId);
      return t ? { record: structuredClone(t.record), version: t.version } : { record: undefined, version: 0 };
    },
    async appendEvent(runId, index, frame) {
      open();
      checkIndex(index);
      let list = frames.get(runId);
      if (!list) {
        list = [];
        frames.set(runId, list);
      }
      // A sparse array: an index already written keeps its first frame.
      if (list[index] !== undefined) return false;
      list[index] = frame;
      grow(runId, 2 * frame.length);
      // Frames of a run no record holds (dropped after a stream of it looked it up): no reconnect reads them.
      if (!runs.has(runId)) orphans.add(runId);
      makeRoom();
      return true;
    },
    async events(runId, from, limit) {
      open();
      const list = frames.get(runId) ?? [];
      const out: string[] = [];
      // In order from `from`, up to the first index not written yet.
      for (let i = Math.max(0, Math.floor(from)); out.length < limit && i < list.length; i++) {
        const frame = list[i];
        if (frame === undefined) break;
        out.push(frame);
      }
      return out;
    },
    async performEffect(effect) {
      open();
      const earlier = effects.get(effect.idempotencyKey);
      if (earlier) return { record: structuredClone(earlier), fresh: false };
      effects.set(effect.idempotencyKey, structuredClone(effect));
      return { record: structuredClone(effect), fresh: true };
    },
    async effects() {
      open();
      return [...effects.values()].map((e) => structuredClone(e));
    },
    async effectsPage(after, limit) {
      open();
      // A Map keeps the order its keys were set in, and no effect is ever deleted: a position is a cursor.
      const page = [...effects.values()].slice(after, after + limit).map((e) => structuredClone(e));
      const next = after + page.length;
      return { effects: page, next, more: next < effects.size };
    },
    async markRead(runId) {
      open();
      read.add(runId);
    },
    async wasRead(runId) {
      open();
      return read.has(runId);
    },
    async prune(at, limit = PRUNE_STEP) {
      open();
      const before = cutOf(at);
      let dropped = 0;
      for (const [runId, run] of runs) {
        if (dropped >= limit) break;
        if (run.startedAt >= before) continue;
        drop(runId);
        dropped++;
      }
      for (const [runId, startedAt] of readOfDropped) {
        if (startedAt >= before) continue;
        readOfDropped.delete(runId);
        read.delete(runId);
      }
      return dropped;
    },
    async ping() {
      open();
    },
    async close() {
      closed = true;
    },
  };
}

/** An event index is a count from 0. */
export function checkIndex(index: number): void {
  if (!Number.isSafeInteger(index) || index < 0) throw new RangeError(`An event index is a count from 0, not ${index}.`);
}
