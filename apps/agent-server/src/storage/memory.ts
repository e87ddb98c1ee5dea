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
  /**
   * The most bytes threads and side-effect records may hold, counted as runs
   * are (the UTF-16 size of their JSON). Past it, the threads written longest
   * ago are dropped (a client that goes on with one starts it anew: its
   * version is 0 again, and the answers it remembered for retried resumes are
   * gone), never one with an open interrupt nor one whose latest run is being
   * produced or in use (`inUse`); then the effects of runs no longer held
   * (dropped for room or pruned), the oldest first (a later run of their
   * thread that asks for the same action does it again), never the effects of
   * a run held, which a retry or a reconnect could produce again. When what
   * is held can all not be dropped, a new thread, a thread that would grow, or
   * a new effect is refused with `StorageUnavailable`, nothing of it stored, as
   * a full disk refuses it. Default unbounded (tests); the server bounds it
   * (`AgentServerOptions.maxMemoryRecordBytes`).
   */
  maxRecordBytes?: number;
  /** Told, after threads or effects were dropped to stay under `maxRecordBytes`, how many of each and the bytes left. */
  onRecordDrop?: (threads: number, effects: number, bytes: number) => void;
}

/**
 * `Storage` in this process's memory, kept until the process stops: for
 * tests, and for a server (or a page) that needs no durability. It keeps the
 * same contract as the SQLite and Redis storages (the same contract tests run
 * on all three); records are copied in and out, so a caller changing an
 * object it passed or got back changes nothing stored. With `maxRunBytes`,
 * the oldest finished runs are dropped to stay under it (a reconnect to one
 * gets 404, as to a run pruned). With `maxRecordBytes`, threads and side
 * effects are held within it too (see `MemoryStorageOptions`).
 *
 * @example
 * const storage = openMemoryStorage({ maxRunBytes: 64 * 1024 * 1024 });
 * await storage.beginRun(run, thread, 0); // 'created'
 */
export function openMemoryStorage(options: MemoryStorageOptions = {}): Storage {
  const maxRunBytes = options.maxRunBytes ?? Number.POSITIVE_INFINITY;
  if (!(maxRunBytes > 0)) throw new RangeError(`maxRunBytes must be a number of bytes above 0, not ${maxRunBytes}.`);
  const maxRecordBytes = options.maxRecordBytes ?? Number.POSITIVE_INFINITY;
  if (!(maxRecordBytes > 0)) throw new RangeError(`maxRecordBytes must be a number of bytes above 0, not ${maxRecordBytes}.`);
  const runs = new Map<string, RunRecord>();
  /** Each thread with its version, the bytes it holds and its latest run, the one written longest ago first. */
  const threads = new Map<string, { record: ThreadRecord; version: number; bytes: number; lastRun: string }>();
  /** Each effect under its key with a cursor of its own (`effectsPage`) and the bytes it holds, in the order done. */
  const effects = new Map<string, { record: EffectRecord; at: number; bytes: number }>();
  /** The effects' cursors: the last one given. */
  let cursor = 0;
  /** The bytes threads and effects hold. */
  let recordBytes = 0;
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
   * when it started: its thread may still wait on the interrupts it raised, which were seen (see `wasRead`). Kept only
   * for a run whose thread waits on the interrupts it raised, until they are answered: a client reading run after run
   * holds nothing here for each.
   */
  const readOfDropped = new Map<string, number>();
  const drop = (runId: string, forRoom = false) => {
    const run = runs.get(runId);
    const startedAt = run?.startedAt;
    // Asked only of the run that raised a thread's open interrupts (`raisedBy`): for any other it is dropped with it.
    const thread = run && threads.get(run.threadId)?.record;
    const waitedOn = thread?.raisedBy === runId && thread.open.length > 0;
    bytes -= sizes.get(runId) ?? 0;
    sizes.delete(runId);
    runs.delete(runId);
    frames.delete(runId);
    if (!forRoom) {
      read.delete(runId);
      readOfDropped.delete(runId);
    } else if (startedAt !== undefined && read.has(runId) && waitedOn) readOfDropped.set(runId, startedAt);
    else read.delete(runId);
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
  /**
   * Drops threads, then effects, that may be dropped (see `maxRecordBytes`) until `need` more bytes fit, never
   * thread `keep`; answers whether they fit.
   */
  const makeRecordRoom = (need: number, keep?: string): boolean => {
    if (recordBytes + need <= maxRecordBytes) return true;
    const busy = new Set<string>();
    for (const runId of producing) {
      const threadId = runs.get(runId)?.threadId;
      if (threadId !== undefined) busy.add(threadId);
    }
    let droppedThreads = 0;
    let droppedEffects = 0;
    for (const [threadId, t] of threads) {
      if (recordBytes + need <= maxRecordBytes) break;
      if (threadId === keep || t.record.open.length > 0 || busy.has(threadId) || options.inUse?.(t.lastRun)) continue;
      threads.delete(threadId);
      recordBytes -= t.bytes;
      droppedThreads++;
    }
    for (const [key, e] of effects) {
      if (recordBytes + need <= maxRecordBytes) break;
      if (runs.has(e.record.runId)) continue;
      effects.delete(key);
      recordBytes -= e.bytes;
      droppedEffects++;
    }
    if (droppedThreads || droppedEffects) options.onRecordDrop?.(droppedThreads, droppedEffects, recordBytes);
    return recordBytes + need <= maxRecordBytes;
  };
  /** What stops a thread or effect that does not fit. */
  const full = () =>
    new StorageUnavailable('The memory storage is full: its threads and side effects hold as much as it takes (maxRecordBytes).');
  let closed = false;
  const open = () => {
    if (closed) throw new StorageUnavailable('The memory storage is closed.');
  };

  return {
    skipped: [],
    async beginRun(run, thread, expectedThreadVersion) {
      open();
      if (runs.has(run.runId)) return 'exists';
      const before = threads.get(run.threadId);
      const version = before?.version ?? 0;
      if (version !== expectedThreadVersion) return 'conflict';
      const threadBytes = 2 * JSON.stringify(thread).length;
      const grows = threadBytes - (before?.bytes ?? 0);
      // Checked before anything is written: a run refused for want of room leaves no trace.
      if (grows > 0 && !makeRecordRoom(grows, run.threadId)) throw full();
      // Frames left under a free id (written for a run dropped meanwhile) are no part of this run.
      drop(run.runId);
      runs.set(run.runId, structuredClone(run));
      // That the run which raised the interrupts this one closes was read is asked no more (`drop`).
      const previous = before?.record.raisedBy;
      if (previous !== undefined && previous !== thread.raisedBy && readOfDropped.delete(previous)) read.delete(previous);
      // Written last of all threads now: the last one dropped for room.
      threads.delete(run.threadId);
      threads.set(run.threadId, { record: structuredClone(thread), version: version + 1, bytes: threadBytes, lastRun: run.runId });
      recordBytes += grows;
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
      if (earlier) return { record: structuredClone(earlier.record), fresh: false };
      const bytes = 2 * JSON.stringify(effect).length;
      if (!makeRecordRoom(bytes)) throw full();
      effects.set(effect.idempotencyKey, { record: structuredClone(effect), at: ++cursor, bytes });
      recordBytes += bytes;
      return { record: structuredClone(effect), fresh: true };
    },
    async effects() {
      open();
      return [...effects.values()].map((e) => structuredClone(e.record));
    },
    async effectsPage(after, limit) {
      open();
      // A Map keeps the order its keys were set in, each effect with a cursor past the ones before: one dropped for room
      // moves no other's.
      const page: EffectRecord[] = [];
      let next = after;
      let more = false;
      for (const e of effects.values()) {
        if (e.at <= after) continue;
        if (page.length >= limit) {
          more = true;
          break;
        }
        page.push(structuredClone(e.record));
        next = e.at;
      }
      return { effects: page, next, more };
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
