import {
  cutOf,
  type EffectRecord,
  PRUNE_STEP,
  type RunRecord,
  type Storage,
  StorageUnavailable,
  type ThreadRecord,
  WaitingShareFull,
} from './types.js';

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
   * gone), never one that waits on an open interrupt (one whose open
   * interrupts have all expired, by `now`, waits no more) nor one whose latest
   * run is being produced or in use (`inUse`). An effect is dropped with its
   * thread, never before it: while the thread is held, it takes a retry of the
   * run that did the effect (it remembers the answer), and the run produced
   * again must find the effect done. Then the effects of no thread held whose
   * runs are no longer held either (dropped for room or pruned), the oldest
   * first (a later run of a thread begun anew that asks for the same action
   * does it again). When what is held can all not be dropped, a new thread, a
   * thread that would grow, or a new effect is refused with
   * `StorageUnavailable`, nothing of it stored, as a full disk refuses it.
   * Default unbounded (tests); the server bounds it
   * (`AgentServerOptions.maxMemoryRecordBytes`).
   */
  maxRecordBytes?: number;
  /** Told, after threads or effects were dropped to stay under `maxRecordBytes`, how many of each and the bytes left. */
  onRecordDrop?: (threads: number, effects: number, bytes: number) => void;
  /** The clock an interrupt's `expiresAt` is read by. Default `Date.now`. */
  now?: () => number;
  /**
   * Who begins run `runId` (the server: the client's address), asked as it is
   * begun: the threads it leaves waiting on open interrupts are its own, and
   * hold at most `maxWaitingBytesPerOwner` (a thread that waits is never
   * dropped for room, so one owner could otherwise fill `maxRecordBytes` and
   * have every other's new thread refused). Default none (no owner).
   */
  ownerOf?: (runId: string) => string | undefined;
  /**
   * The most bytes the threads one owner left waiting may hold: past it, its
   * run that would leave one more waiting (or a waiting one larger) is refused
   * with `WaitingShareFull`, nothing of it stored, once its threads whose
   * interrupts have all expired are dropped. Default unbounded.
   */
  maxWaitingBytesPerOwner?: number;
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
  const maxWaitingBytes = options.maxWaitingBytesPerOwner ?? Number.POSITIVE_INFINITY;
  if (!(maxWaitingBytes > 0)) throw new RangeError(`maxWaitingBytesPerOwner must be a number of bytes above 0, not ${maxWaitingBytes}.`);
  const now = options.now ?? Date.now;
  const runs = new Map<string, RunRecord>();
  /**
   * A thread held: its record and version, the bytes its record holds (`size`), the effects its runs did (dropped with
   * it, see `dropThread`) and their bytes, its latest run, and who left it waiting (`ownerOf`).
   */
  type HeldThread = {
    record: ThreadRecord;
    version: number;
    size: number;
    effectKeys: Set<string>;
    effectBytes: number;
    lastRun: string;
    owner?: string | undefined;
  };
  /** Each thread held, the one written longest ago first. */
  const threads = new Map<string, HeldThread>();
  /** The bytes of the threads (and their effects) each owner left with open interrupts (`maxWaitingBytesPerOwner`), expired or not. */
  const waitingBytes = new Map<string, number>();
  const tally = (t: HeldThread, sign: 1 | -1) => {
    if (t.owner === undefined || t.record.open.length === 0) return;
    const left = (waitingBytes.get(t.owner) ?? 0) + sign * (t.size + t.effectBytes);
    if (left > 0) waitingBytes.set(t.owner, left);
    else waitingBytes.delete(t.owner);
  };
  /** Whether a thread waits on an answer: an interrupt is open and not expired (one without `expiresAt` never does). */
  const waits = (record: ThreadRecord) => {
    const at = now();
    return record.open.some((it) => it.expiresAt === undefined || !(at >= Date.parse(it.expiresAt)));
  };
  /**
   * Each effect under its key with a cursor of its own (`effectsPage`), the bytes it holds and the thread held that it
   * belongs to, in the order done.
   */
  const effects = new Map<string, { record: EffectRecord; at: number; bytes: number; threadId?: string | undefined }>();
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
  /** The threads whose latest run is being produced. */
  const busyThreads = () => {
    const busy = new Set<string>();
    for (const runId of producing) {
      const threadId = runs.get(runId)?.threadId;
      if (threadId !== undefined) busy.add(threadId);
    }
    return busy;
  };
  /** Whether thread `threadId` may be dropped for room now (`maxRecordBytes`). */
  const droppable = (threadId: string, t: HeldThread, busy: Set<string>, keep?: string) =>
    threadId !== keep && !waits(t.record) && !busy.has(threadId) && !options.inUse?.(t.lastRun);
  /**
   * Drops thread `threadId` and the effects of its runs no longer held (a retry of such a run, which the thread would
   * take as it remembers its answers, finds them done); those of a run held stay, dropped once it is not. Answers how
   * many effects it dropped.
   */
  const dropThread = (threadId: string, t: HeldThread): number => {
    threads.delete(threadId);
    tally(t, -1);
    recordBytes -= t.size;
    let dropped = 0;
    for (const key of t.effectKeys) {
      const e = effects.get(key);
      if (!e) continue;
      if (runs.has(e.record.runId)) e.threadId = undefined;
      else {
        effects.delete(key);
        recordBytes -= e.bytes;
        dropped++;
      }
    }
    return dropped;
  };
  /**
   * Drops threads (with their effects), then effects of no thread held, that may be dropped (see `maxRecordBytes`)
   * until `need` more bytes fit, never thread `keep`; answers whether they fit.
   */
  const makeRecordRoom = (need: number, keep?: string): boolean => {
    if (recordBytes + need <= maxRecordBytes) return true;
    const busy = busyThreads();
    let droppedThreads = 0;
    let droppedEffects = 0;
    for (const [threadId, t] of threads) {
      if (recordBytes + need <= maxRecordBytes) break;
      if (!droppable(threadId, t, busy, keep)) continue;
      droppedEffects += dropThread(threadId, t);
      droppedThreads++;
    }
    for (const [key, e] of effects) {
      if (recordBytes + need <= maxRecordBytes) break;
      if (runs.has(e.record.runId) || e.threadId !== undefined) continue;
      effects.delete(key);
      recordBytes -= e.bytes;
      droppedEffects++;
    }
    if (droppedThreads || droppedEffects) options.onRecordDrop?.(droppedThreads, droppedEffects, recordBytes);
    return recordBytes + need <= maxRecordBytes;
  };
  /**
   * Refuses (`WaitingShareFull`) a thread of `bytes` that `owner` would leave waiting past its share, once its threads
   * that wait no more (their interrupts expired) are dropped; thread `threadId` (held as `before`) is replaced by it.
   */
  const checkShare = (owner: string, bytes: number, threadId: string, before: HeldThread | undefined) => {
    const replaced = before?.owner === owner && before.record.open.length > 0 ? before.size + before.effectBytes : 0;
    const fits = () => (waitingBytes.get(owner) ?? 0) - replaced + bytes <= maxWaitingBytes;
    if (fits()) return;
    const busy = busyThreads();
    let dropped = 0;
    let droppedEffects = 0;
    for (const [id, t] of threads) {
      if (fits()) break;
      if (t.owner !== owner || t.record.open.length === 0 || !droppable(id, t, busy, threadId)) continue;
      droppedEffects += dropThread(id, t);
      dropped++;
    }
    if (dropped) options.onRecordDrop?.(dropped, droppedEffects, recordBytes);
    if (!fits()) throw new WaitingShareFull(maxWaitingBytes);
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
      const owner = thread.open.length > 0 ? options.ownerOf?.(run.runId) : undefined;
      // Checked before anything is written: a run refused for want of room, or past its owner's share, leaves no trace.
      if (owner !== undefined) checkShare(owner, threadBytes + (before?.effectBytes ?? 0), run.threadId, before);
      const grows = threadBytes - (before?.size ?? 0);
      if (grows > 0 && !makeRecordRoom(grows, run.threadId)) throw full();
      // Frames left under a free id (written for a run dropped meanwhile) are no part of this run.
      drop(run.runId);
      runs.set(run.runId, structuredClone(run));
      // That the run which raised the interrupts this one closes was read is asked no more (`drop`).
      const previous = before?.record.raisedBy;
      if (previous !== undefined && previous !== thread.raisedBy && readOfDropped.delete(previous)) read.delete(previous);
      // Written last of all threads now: the last one dropped for room.
      if (before) {
        tally(before, -1);
        threads.delete(run.threadId);
      }
      const held: HeldThread = {
        record: structuredClone(thread),
        version: version + 1,
        size: threadBytes,
        effectKeys: before?.effectKeys ?? new Set(),
        effectBytes: before?.effectBytes ?? 0,
        lastRun: run.runId,
        owner,
      };
      threads.set(run.threadId, held);
      tally(held, 1);
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
      const threadId = runs.get(effect.runId)?.threadId;
      if (!makeRecordRoom(bytes, threadId)) throw full();
      // Counted with its thread (as long as the thread is held, a retry of its run may come): dropped with it.
      const thread = threadId === undefined ? undefined : threads.get(threadId);
      effects.set(effect.idempotencyKey, { record: structuredClone(effect), at: ++cursor, bytes, threadId: thread && threadId });
      if (thread) {
        tally(thread, -1);
        thread.effectKeys.add(effect.idempotencyKey);
        thread.effectBytes += bytes;
        tally(thread, 1);
      }
      recordBytes += bytes;
      return { record: structuredClone(effect), fresh: true };
    },
    async effects() {
      open();
      return [...effects.values()].map((e) => structuredClone(e.record));
    },
    async latestEffects(limit) {
      open();
      return limit >= 1 ? [...effects.values()].slice(-limit).map((e) => structuredClone(e.record)) : [];
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
