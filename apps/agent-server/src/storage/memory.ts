import { type EffectRecord, PRUNE_STEP, type RunRecord, type Storage, StorageUnavailable, type ThreadRecord } from './types.js';

/**
 * `Storage` in this process's memory, kept until the process stops: for
 * tests, and for a server (or a page) that needs no durability. It keeps the
 * same contract as the SQLite and Redis storages (the same contract tests run
 * on all three); records are copied in and out, so a caller changing an
 * object it passed or got back changes nothing stored.
 *
 * @example
 * const storage = openMemoryStorage();
 * await storage.beginRun(run, thread, 0); // 'created'
 */
export function openMemoryStorage(): Storage {
  const runs = new Map<string, RunRecord>();
  const threads = new Map<string, { record: ThreadRecord; version: number }>();
  const frames = new Map<string, string[]>();
  const effects = new Map<string, EffectRecord>();
  const read = new Set<string>();
  /** Runs begun and not yet produced to their end. */
  const producing = new Set<string>();
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
      runs.set(run.runId, structuredClone(run));
      threads.set(run.threadId, { record: structuredClone(thread), version: version + 1 });
      producing.add(run.runId);
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
    async prune(before, limit = PRUNE_STEP) {
      open();
      let dropped = 0;
      for (const [runId, run] of runs) {
        if (dropped >= limit) break;
        if (run.startedAt >= before) continue;
        runs.delete(runId);
        frames.delete(runId);
        read.delete(runId);
        producing.delete(runId);
        dropped++;
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
