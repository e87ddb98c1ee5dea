import {
  closeSync,
  copyFileSync,
  existsSync,
  fstatSync,
  fsync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { importJournal, JOURNAL_FILE } from '../journal.js';
import { isEffectRecord, isRunRecord, isThreadRecord } from './records.js';
import {
  cutOf,
  type EffectRecord,
  type EffectsPage,
  PRUNE_STEP,
  type RunRecord,
  type Storage,
  StorageUnavailable,
  type ThreadRecord,
} from './types.js';
import { rescueFromWal } from './walRescue.js';

export interface SqliteStorageOptions {
  /** The database's file name in the directory. Default `agent.db`. */
  file?: string;
  /**
   * How long a read or write waits for another process holding the database lock. Default 5 s. The wait is spent
   * off the event loop (tried again every few milliseconds): the server answers other requests meanwhile.
   */
  busyTimeoutMs?: number;
  /** The clock that names a file moved aside (`<name>.corrupt-<time>`). */
  now?: () => number;
  /**
   * For fault tests only: `<kind>:<n>:<phase>` kills the process with SIGKILL
   * at the n-th write of that kind (`run`, `event`, `effect`, or `any`), just
   * `before` its transaction, `inside` it (statements run, not committed) or
   * `after` its commit; `@<file>` reads the point from that file at every
   * write (writes are counted from when its text changed). Read from
   * `AGENT_FAULT_KILL_AT` when not given.
   */
  faultKillAt?: string;
}

/** 'agui': marks a database as this server's, so a foreign SQLite file is never taken for one. */
const APPLICATION_ID = 0x61677569;
const SCHEMA_VERSION = 1;

/**
 * A run's `startedAt`, from its record; NULL for a record that is no JSON or
 * has no number there, which is never pruned: what cannot be read is not judged.
 */
const STARTED_AT =
  "CASE WHEN json_valid(record) AND json_type(record, '$.startedAt') IN ('integer', 'real') THEN json_extract(record, '$.startedAt') END";

/**
 * Runs and threads are JSON records; a thread's version counts its accepted
 * runs. Events are the SSE frames of a run by index; an index is written once
 * (`INSERT OR IGNORE`). Effects are keyed by their idempotency key. STRICT
 * tables refuse a value of the wrong type, so only the JSON can be of the
 * wrong shape, and that is checked on every read. Runs are indexed by when
 * they started (`runs_by_start`), so pruning finds the old ones without
 * reading every record; a database of an earlier version gets the index as
 * it is opened, which reads each run's record once.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS runs (run_id TEXT PRIMARY KEY, record TEXT NOT NULL) STRICT;
CREATE INDEX IF NOT EXISTS runs_by_start ON runs (${STARTED_AT});
CREATE TABLE IF NOT EXISTS threads (thread_id TEXT PRIMARY KEY, version INTEGER NOT NULL, record TEXT NOT NULL) STRICT;
CREATE TABLE IF NOT EXISTS events (run_id TEXT NOT NULL, idx INTEGER NOT NULL, frame TEXT NOT NULL, PRIMARY KEY (run_id, idx)) STRICT, WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS effects (idempotency_key TEXT PRIMARY KEY, run_id TEXT NOT NULL, at REAL NOT NULL, record TEXT NOT NULL) STRICT;
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
CREATE TABLE IF NOT EXISTS reads (run_id TEXT PRIMARY KEY) STRICT, WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS producing (run_id TEXT PRIMARY KEY) STRICT, WITHOUT ROWID;
`;
/** The columns of each table, in order, as `pragma_table_info` lists them. */
const COLUMNS: Record<string, string> = {
  runs: 'run_id, record',
  threads: 'thread_id, version, record',
  events: 'run_id, idx, frame',
  effects: 'idempotency_key, run_id, at, record',
  meta: 'name, value',
  reads: 'run_id',
  producing: 'run_id',
};

/** The database is not one of ours, or is damaged: it is moved aside, never written. */
class Unusable extends Error {}

type WriteKind = 'run' | 'event' | 'effect' | 'read' | 'produced';
type Phase = 'before' | 'inside' | 'after';

/** A write waiting for the next group commit. */
interface PendingWrite {
  kind: WriteKind;
  body: () => unknown;
  at: (phase: Phase) => void;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  /** When a write kept out by another connection's lock is refused (`performance.now()` time). */
  deadline: number;
}

/** Whether a write of this kind is synced before it is answered (see `openSqliteStorage`): an event's frame is not, nor a run's end noted (`produced`: lost, the next start produces the run again, which changes nothing). */
function durable(kind: WriteKind): boolean {
  return kind !== 'event' && kind !== 'produced';
}

/** The most writes committed in one transaction: enough that a sync serves hundreds of requests, few enough to keep each commit short. */
const GROUP_COMMIT_MAX = 512;

/**
 * Opens (or creates) the SQLite storage in `dir`: one database file in WAL
 * mode. A run and a side effect are answered (and read by another request)
 * only once the WAL that holds their commit is synced, so what the server
 * reports done is on disk, with every write before it; the writes asked for
 * at once are committed together and synced once, off the event loop (see
 * `write`). A sync that fails refuses that write and then every request
 * (`StorageUnavailable`) until the storage is opened again: what it held is
 * committed, maybe not on disk. An event's frame commits with `NORMAL`
 * (written to the OS, synced with the next run or effect or at checkpoint):
 * a crash of the process loses nothing, and a power loss can only lose the
 * latest frames, which are computed again, byte for byte, from their run's
 * record (scenarios are pure functions of it), so a client reconnecting
 * still gets no gap and no duplicate; this keeps the thousands of frame
 * writes from each waiting for a sync. A write cut off by a crash (a torn
 * WAL frame, a transaction never committed) is rolled back whole when the
 * database is opened again.
 *
 * A side effect's record is one transaction (`INSERT OR IGNORE` by
 * idempotency key, then `SELECT`): two attempts at the same effect see one
 * record, and a write that fails (a full disk, an I/O error, a read-only
 * file) throws `StorageUnavailable` with nothing recorded.
 *
 * Opening reads no run (it checks the file with SQLite's `quick_check`):
 * records are read when asked for, and one of the
 * wrong shape is skipped and listed in `skipped`. A file that is not SQLite,
 * or not this server's database, or damaged, does not stop the start: it is
 * moved aside as `<name>.corrupt-<time>` (with its `-wal`), what can still be
 * read from a damaged one is copied into a new database, and both are listed
 * in `skipped`. A `journal.jsonl` of the earlier file-based server is imported
 * once and renamed `journal.jsonl.imported-<time>`.
 *
 * Throws `StorageUnavailable` when the directory or the file cannot be
 * opened or written at all (missing permission, a full disk).
 *
 * @example
 * const storage = openSqliteStorage('.agent-data');
 * await storage.performEffect(effect); // { record, fresh: true }, then fresh: false for the same key
 */
export function openSqliteStorage(dir: string, options: SqliteStorageOptions = {}): Storage {
  const now = options.now ?? Date.now;
  const skipped = new Skipped();
  const file = join(dir, options.file ?? 'agent.db');
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e) {
    throw unavailable(e, `Cannot create the data directory ${dir}`);
  }
  // An empty database file beside its WAL (a power cut before the first checkpoint): rebuilt from the WAL, which
  // SQLite would otherwise delete as it made a new database (walRescue.ts). One that cannot be is kept aside.
  const rescue = rescueFromWal(file);
  if (rescue === 'rebuilt') skipped.add(file, 'the database file was empty beside its WAL (a power cut): rebuilt from its WAL');
  if (rescue === 'unreadable')
    skipped.add(
      file,
      `the database file was empty beside a WAL with no valid commit of its header: moved aside to ${moveAside(file, now())}`,
    );
  let db: Database.Database;
  try {
    db = openDatabase(file, options.busyTimeoutMs ?? 5_000);
  } catch (e) {
    if (!(e instanceof Unusable || isCorruption(e))) throw unavailable(e, `Cannot open ${file}`);
    const aside = moveAside(file, now());
    skipped.add(file, `${e instanceof Error ? e.message : String(e)}: moved aside to ${aside}`);
    try {
      db = openDatabase(file, options.busyTimeoutMs ?? 5_000);
    } catch (again) {
      throw unavailable(again, `Cannot create ${file}`);
    }
    if (!(e instanceof Unusable && e.message.startsWith('foreign'))) salvage(aside, db, skipped);
  }
  const busyTimeoutMs = Math.max(0, Math.floor(options.busyTimeoutMs ?? 5_000));
  const storage = new SqliteStorage(db, file, skipped, faultHook(options.faultKillAt ?? process.env.AGENT_FAULT_KILL_AT), busyTimeoutMs);
  try {
    storage.importJournal(dir, now);
  } catch (e) {
    db.close();
    throw unavailable(e, `Cannot import ${join(dir, JOURNAL_FILE)}`);
  }
  // Opened and imported, SQLite no longer waits for a lock itself: its wait would block the event loop, every
  // request with it. A statement that finds the database locked fails at once and is tried again (`SqliteStorage.retry`).
  db.pragma('busy_timeout = 0');
  return storage;
}

/** The frames one step of `prune` drops at most (with the rest of the run it is at): a long run's log holds tens of thousands. */
const PRUNE_STEP_EVENTS = 20_000;

/** SQLite's page cache for the server's connection, KiB. */
const PAGE_CACHE_KIB = 2048;

/** Opens `file`, checks it is this server's database (or a new one) and intact, and sets it up. */
function openDatabase(file: string, busyTimeoutMs: number): Database.Database {
  const db = new Database(file);
  try {
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
    // Read before anything is written: a foreign file must be left as it was found.
    const id = db.pragma('application_id', { simple: true }) as number;
    const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all() as string[];
    // Id 0 with none but our tables: a database whose set-up was cut off before the id was written.
    const unknown = tables.filter((t) => !Object.hasOwn(COLUMNS, t));
    if ((id !== APPLICATION_ID && id !== 0) || unknown.length) {
      throw new Unusable(`foreign database (application id ${id}, tables ${tables.join(', ') || 'none'})`);
    }
    for (const table of tables) {
      const columns = (db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all(table) as string[]).join(', ');
      if (columns !== COLUMNS[table]) throw new Unusable(`foreign database (table ${table} has columns ${columns})`);
    }
    const check = db.pragma('quick_check', { simple: true }) as string;
    if (check !== 'ok') throw new Unusable(`damaged database: ${check}`);
    // better-sqlite3 builds SQLite with a 16 MiB page cache per connection. The cache fills as runs are
    // written and streamed back and is never given back, so it would show as 16 MB of growth over a
    // server's first thousand runs. The server reads each run's events once, in order: 2 MiB (SQLite's
    // own default) is plenty, and the file is read through the cache, never mapped.
    db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
    db.pragma('mmap_size = 0');
    db.pragma('journal_mode = WAL');
    // FULL: the WAL is synced at every commit, so an effect reported done is on disk, not only in the page cache.
    db.pragma('synchronous = FULL');
    db.transaction(() => {
      db.exec(SCHEMA);
      db.pragma(`application_id = ${APPLICATION_ID}`);
      db.pragma(`user_version = ${SCHEMA_VERSION}`);
    })();
    return db;
  } catch (e) {
    db.close();
    throw e;
  }
}

class SqliteStorage implements Storage {
  private closed = false;
  private sync = 'FULL';
  /** The writes waiting for the next group commit, in the order asked for. */
  private pending: PendingWrite[] = [];
  /** Settles when the writes waiting are committed or refused; undefined when none wait. */
  private committing: Promise<void> | undefined;
  /** Settles when the commit being synced is on disk; undefined when none is. */
  private syncing: Promise<void> | undefined;
  /** The WAL's descriptor, for `syncWal`. */
  private wal: number | undefined;
  /**
   * Why the storage refuses every request: a sync of the WAL failed. What it held is committed (readable) yet maybe
   * never on disk, and the OS may have dropped it (a later sync succeeding says nothing of it), so no request may read
   * it, nor be answered on top of it, until the storage is opened again (which reads the WAL as the disk has it).
   */
  private broken: StorageUnavailable | undefined;
  private readonly q;

  constructor(
    private readonly db: Database.Database,
    private readonly file: string,
    private readonly found: Skipped,
    private readonly fault: (kind: WriteKind) => (phase: Phase) => void,
    /** How long a statement that finds the database locked is tried again (see `retry`). */
    private readonly busyTimeoutMs: number,
  ) {
    this.q = {
      ping: db.prepare('SELECT count(*) FROM meta'),
      run: db.prepare<[string], { record: string }>('SELECT record FROM runs WHERE run_id = ?'),
      insertRun: db.prepare('INSERT INTO runs (run_id, record) VALUES (?, ?)'),
      thread: db.prepare<[string], { version: number; record: string }>('SELECT version, record FROM threads WHERE thread_id = ?'),
      putThread: db.prepare(
        'INSERT INTO threads (thread_id, version, record) VALUES (?, ?, ?) ON CONFLICT (thread_id) DO UPDATE SET version = excluded.version, record = excluded.record',
      ),
      appendEvent: db.prepare('INSERT OR IGNORE INTO events (run_id, idx, frame) VALUES (?, ?, ?)'),
      events: db.prepare<[string, number, number], { idx: number; frame: string }>(
        'SELECT idx, frame FROM events WHERE run_id = ? AND idx >= ? ORDER BY idx LIMIT ?',
      ),
      insertEffect: db.prepare('INSERT OR IGNORE INTO effects (idempotency_key, run_id, at, record) VALUES (?, ?, ?, ?)'),
      effect: db.prepare<[string], { run_id: string; at: number; record: string }>(
        'SELECT run_id, at, record FROM effects WHERE idempotency_key = ?',
      ),
      effects: db.prepare<[], { idempotency_key: string; record: string }>('SELECT idempotency_key, record FROM effects ORDER BY rowid'),
      latestEffects: db.prepare<[number], { idempotency_key: string; record: string }>(
        'SELECT idempotency_key, record FROM effects ORDER BY rowid DESC LIMIT ?',
      ),
      effectsAfter: db.prepare<[number, number], { row: number; idempotency_key: string; record: string }>(
        'SELECT rowid AS row, idempotency_key, record FROM effects WHERE rowid > ? ORDER BY rowid LIMIT ?',
      ),
      // Through the index `runs_by_start`: the oldest first, no record read.
      oldRuns: db.prepare<[number, number], string>(`SELECT run_id FROM runs WHERE ${STARTED_AT} < ? ORDER BY ${STARTED_AT} LIMIT ?`),
      markRead: db.prepare('INSERT OR IGNORE INTO reads (run_id) VALUES (?)'),
      producing: db.prepare('INSERT OR IGNORE INTO producing (run_id) VALUES (?)'),
      produced: db.prepare('DELETE FROM producing WHERE run_id = ?'),
      unfinished: db.prepare<[], { run_id: string; record: string }>(
        'SELECT runs.run_id, runs.record FROM producing JOIN runs ON runs.run_id = producing.run_id',
      ),
      wasRead: db.prepare<[string], number>('SELECT 1 FROM reads WHERE run_id = ?'),
      dropRead: db.prepare('DELETE FROM reads WHERE run_id = ?'),
      dropEvents: db.prepare('DELETE FROM events WHERE run_id = ?'),
      dropRun: db.prepare('DELETE FROM runs WHERE run_id = ?'),
    };
  }

  get skipped(): readonly { where: string; reason: string }[] {
    return this.found.list;
  }

  async beginRun(run: RunRecord, thread: ThreadRecord, expectedThreadVersion: number): Promise<'created' | 'exists' | 'conflict'> {
    return this.write('run', () => {
      // A run id stays taken even when its record cannot be read: what is stored is never overwritten.
      if (this.q.run.get(run.runId)) return 'exists';
      const version = this.q.thread.get(run.threadId)?.version ?? 0;
      if (version !== expectedThreadVersion) return 'conflict';
      this.q.insertRun.run(run.runId, JSON.stringify(run));
      this.q.putThread.run(run.threadId, version + 1, JSON.stringify(thread));
      this.q.producing.run(run.runId);
      return 'created';
    });
  }

  async unfinished(): Promise<RunRecord[]> {
    const rows = await this.read(() => this.q.unfinished.all());
    return rows.flatMap(({ run_id, record }) => {
      const run = this.parse(`runs '${run_id}'`, record, isRunRecord, 'not a run record');
      return run ? [run] : [];
    });
  }

  async produced(runId: string): Promise<void> {
    await this.write('produced', () => this.q.produced.run(runId));
  }

  async run(runId: string): Promise<RunRecord | undefined> {
    const row = await this.read(() => this.q.run.get(runId));
    return row && this.parse(`runs '${runId}'`, row.record, isRunRecord, 'not a run record');
  }

  async thread(threadId: string): Promise<{ record: ThreadRecord | undefined; version: number }> {
    const row = await this.read(() => this.q.thread.get(threadId));
    if (!row) return { record: undefined, version: 0 };
    // A record that cannot be read is replaced by the next run on the thread, at the version it is stored under.
    return { record: this.parse(`threads '${threadId}'`, row.record, isThreadRecord, 'not a thread record'), version: row.version };
  }

  async appendEvent(runId: string, index: number, frame: string): Promise<boolean> {
    if (!Number.isSafeInteger(index) || index < 0) throw new RangeError(`An event index is a count from 0, not ${index}.`);
    if (typeof frame !== 'string') throw new TypeError('An event frame is a string.');
    return this.write('event', () => this.q.appendEvent.run(runId, index, frame).changes === 1);
  }

  async events(runId: string, from: number, limit: number): Promise<string[]> {
    const first = Math.max(0, Math.floor(from));
    const count = Math.floor(limit);
    if (!(count > 0) || !Number.isSafeInteger(first)) return [];
    const rows = await this.read(() => this.q.events.all(runId, first, count));
    const frames: string[] = [];
    // In order from `from`, up to the first index not written yet.
    for (const row of rows) {
      if (row.idx !== first + frames.length) break;
      frames.push(row.frame);
    }
    return frames;
  }

  async performEffect(effect: EffectRecord): Promise<{ record: EffectRecord; fresh: boolean }> {
    const text = JSON.stringify(effect);
    const { fresh, row } = await this.write('effect', () => {
      const fresh = this.q.insertEffect.run(effect.idempotencyKey, effect.runId, effect.at, text).changes === 1;
      return { fresh, row: this.q.effect.get(effect.idempotencyKey) };
    });
    if (!row) throw new StorageUnavailable(`The effect ${effect.idempotencyKey} was not found right after it was recorded.`);
    const earlier = this.parse(`effects '${effect.idempotencyKey}'`, row.record, isEffectRecord, 'not an effect record');
    // The key is taken even when its record cannot be read: the effect was done before, and is not done again.
    return { record: earlier ?? { ...(JSON.parse(text) as EffectRecord), runId: row.run_id, at: row.at }, fresh };
  }

  async effects(): Promise<EffectRecord[]> {
    const rows = await this.read(() => this.q.effects.all());
    const records: EffectRecord[] = [];
    for (const row of rows) {
      const record = this.parse(`effects '${row.idempotency_key}'`, row.record, isEffectRecord, 'not an effect record');
      if (record) records.push(record);
    }
    return records;
  }

  async latestEffects(limit: number): Promise<EffectRecord[]> {
    // Backwards through the table's row ids, the order done: the newest `limit` rows and no other.
    const rows = await this.read(() => this.q.latestEffects.all(Math.max(0, limit)));
    const records: EffectRecord[] = [];
    for (const row of rows.reverse()) {
      const record = this.parse(`effects '${row.idempotency_key}'`, row.record, isEffectRecord, 'not an effect record');
      if (record) records.push(record);
    }
    return records;
  }

  async effectsPage(after: number, limit: number): Promise<EffectsPage> {
    // Through the table's own order (its row ids, which grow as effects are recorded and are never reused: no effect
    // is deleted), one more row than asked for to tell whether there are more.
    const rows = await this.read(() => this.q.effectsAfter.all(after, limit + 1));
    const effects: EffectRecord[] = [];
    let next = after;
    for (const row of rows.slice(0, limit)) {
      next = row.row;
      const record = this.parse(`effects '${row.idempotency_key}'`, row.record, isEffectRecord, 'not an effect record');
      if (record) effects.push(record);
    }
    return { effects, next, more: rows.length > limit };
  }

  async markRead(runId: string): Promise<void> {
    await this.write('read', () => this.q.markRead.run(runId));
  }

  async wasRead(runId: string): Promise<boolean> {
    return (await this.read(() => this.q.wasRead.pluck().get(runId))) !== undefined;
  }

  async prune(at: number | (() => number), limit = PRUNE_STEP): Promise<number> {
    // Looked for first: with nothing to drop (the usual answer), nothing is written.
    if ((await this.read(() => this.q.oldRuns.pluck().all(cutOf(at), 1))).length === 0) return 0;
    return this.write('run', () => {
      // The cut as it is once the lock is taken (the write may have waited for another process to release it): a run
      // that began being produced meanwhile moved it.
      const before = cutOf(at);
      let dropped = 0;
      let events = 0;
      for (const runId of this.q.oldRuns.pluck().all(before, Math.max(1, Math.floor(limit))) as string[]) {
        events += this.q.dropEvents.run(runId).changes;
        this.q.dropRun.run(runId);
        this.q.dropRead.run(runId);
        this.q.produced.run(runId);
        dropped++;
        // A long run's log is tens of thousands of frames: a step stops at this many, whatever its limit.
        if (events >= PRUNE_STEP_EVENTS) break;
      }
      return dropped;
    });
  }

  async ping(): Promise<void> {
    // Not behind the writes waiting: whether the database answers a read, even while another process keeps them out.
    this.open();
    await this.retry(() => this.q.ping.get(), `Cannot read ${this.file}`);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    // The writes already asked for are committed (or refused) first, as they would have been had each been made at once.
    await this.settled();
    if (this.closed) return;
    this.closed = true;
    this.db.close();
    if (this.wal !== undefined) closeSync(this.wal);
  }

  /** Imports the earlier server's journal once: its runs, the threads they left, and its effects, in one transaction. */
  importJournal(dir: string, now: () => number): void {
    const journal = join(dir, JOURNAL_FILE);
    if (!existsSync(journal)) return;
    const done = this.db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE name = ?').get('journal');
    if (!done) {
      const imported = importJournal(journal);
      for (const s of imported.skipped) this.found.add(s.where, s.reason);
      const at = this.fault('run');
      at('before');
      this.writeNow(
        'run',
        () => {
          for (const run of imported.runs)
            this.db.prepare('INSERT OR IGNORE INTO runs (run_id, record) VALUES (?, ?)').run(run.runId, JSON.stringify(run));
          for (const { record, version } of imported.threads) this.q.putThread.run(record.threadId, version, JSON.stringify(record));
          for (const e of imported.effects) this.q.insertEffect.run(e.idempotencyKey, e.runId, e.at, JSON.stringify(e));
          this.db
            .prepare('INSERT INTO meta (name, value) VALUES (?, ?)')
            .run('journal', `${imported.runs.length} runs, ${imported.effects.length} effects, ${imported.skipped.length} lines skipped`);
        },
        at,
      );
      at('after');
    }
    // Kept, renamed: the import is done, and the file is there to read.
    renameSync(journal, `${journal}.imported-${stamp(now())}`);
  }

  /**
   * `body` in the next group commit: the writes asked for while the event loop runs (many requests at once) are
   * committed in one transaction, each in a savepoint of its own, with one sync for all of them, and each caller is
   * answered only once that commit returned (nothing is acknowledged before it is on disk; a process killed before
   * has acknowledged none of them). One sync per write had stopped the event loop for seconds under 400 runs posted
   * at once; see `commitPending`.
   */
  private write<T>(kind: WriteKind, body: () => T): Promise<T> {
    try {
      this.open();
    } catch (e) {
      return Promise.reject(e);
    }
    const at = this.fault(kind);
    at('before');
    return new Promise<T>((resolve, reject) => {
      this.pending.push({
        kind,
        body,
        at,
        resolve: resolve as (value: unknown) => void,
        reject,
        deadline: performance.now() + this.busyTimeoutMs,
      });
      if (!this.committing) {
        this.committing = new Promise<void>((done) => setImmediate(() => void this.commitPending().finally(done)));
      }
    });
  }

  /**
   * Commits the writes waiting, at most `GROUP_COMMIT_MAX` in a transaction, the event loop let run between two
   * transactions. A transaction refused for a lock another connection holds (`SQLITE_BUSY`) has written nothing and
   * is tried again (with the writes asked for meanwhile) after a pause, each wait a timer, until a write's
   * `busyTimeoutMs` is over: that write is then refused. A write whose statements fail is rolled back to its
   * savepoint and refused alone; a failure that ends the transaction (a full disk, an I/O error, the commit itself)
   * refuses every write in it, with nothing of them recorded.
   */
  private async commitPending(): Promise<void> {
    let pause = 2;
    while (this.pending.length > 0) {
      if (this.closed || this.broken) {
        const refusal = this.broken ?? new StorageUnavailable(`The storage at ${this.file} is closed.`);
        for (const job of this.pending.splice(0)) job.reject(refusal);
        break;
      }
      const batch = this.pending.slice(0, GROUP_COMMIT_MAX);
      const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
      try {
        this.commitNow(batch, outcomes);
      } catch (e) {
        if (isBusy(e)) {
          const now = performance.now();
          this.pending = this.pending.filter((job) => {
            if (job.deadline > now) return true;
            job.reject(unavailable(e, `Cannot write to ${this.file}`));
            return false;
          });
          if (this.pending.length === 0) break;
          await sleep(
            Math.min(
              pause,
              Math.max(1, this.pending.reduce((first, job) => Math.min(first, job.deadline), Number.POSITIVE_INFINITY) - now),
            ),
          );
          pause = Math.min(BUSY_PAUSE_MAX_MS, pause * 2);
          continue;
        }
        this.pending.splice(0, batch.length);
        for (const job of batch) job.reject(unavailable(e, `Cannot write to ${this.file}`));
        pause = 2;
        await new Promise((resolve) => setImmediate(resolve));
        continue;
      }
      this.pending.splice(0, batch.length);
      pause = 2;
      // Committed; synced (off the event loop) when any of them asks for it, with every commit before it.
      if (batch.some((job, i) => outcomes[i]?.ok && durable(job.kind))) {
        try {
          await this.syncWal();
        } catch (e) {
          // The storage is refusing everything now (`broken`), the writes waiting included.
          for (const job of batch) job.reject(this.broken ?? unavailable(e, `Cannot sync ${this.file}-wal`));
          continue;
        }
      }
      // Each write's fault point after it, then the answers.
      batch.forEach((job, i) => {
        if (outcomes[i]?.ok) job.at('after');
      });
      batch.forEach((job, i) => {
        const outcome = outcomes[i];
        if (outcome?.ok) job.resolve(outcome.value);
        else job.reject(unavailable(outcome?.error, `Cannot write to ${this.file}`));
      });
      if (this.pending.length > 0) await new Promise((resolve) => setImmediate(resolve));
    }
    this.committing = undefined;
  }

  /** One transaction of `batch`, each write in a savepoint; its outcomes in `outcomes`. Throws when the transaction fails whole. */
  private commitNow(batch: readonly PendingWrite[], outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[]): void {
    this.open();
    outcomes.length = 0;
    // Committed with `NORMAL` (written to the OS), then synced by `syncWal` off the event loop when a write in it
    // asks for it; `FULL` (synced by SQLite, on the event loop) only when the WAL cannot be opened for that.
    const sync = batch.some((job) => durable(job.kind)) && this.walFd() === undefined ? 'FULL' : 'NORMAL';
    if (sync !== this.sync) {
      this.db.pragma(`synchronous = ${sync}`);
      this.sync = sync;
    }
    this.db
      .transaction(() => {
        for (const job of batch) {
          try {
            outcomes.push({ ok: true, value: this.db.transaction(job.body)() });
          } catch (error) {
            // A failure SQLite ended the whole transaction for: none of the batch is written.
            if (!this.db.inTransaction) throw error;
            outcomes.push({ ok: false, error });
            continue;
          }
          job.at('inside');
        }
      })
      .immediate();
  }

  /**
   * Syncs the WAL, and with it every commit made so far, on libuv's thread pool: the event loop answers other requests
   * meanwhile, and the writes asked for meanwhile wait for the next commit. Nothing when SQLite synced it itself (`FULL`).
   */
  private async syncWal(): Promise<void> {
    if (this.sync === 'FULL') return;
    const fd = this.walFd();
    if (fd === undefined) throw new StorageUnavailable(`The WAL of ${this.file} cannot be opened to sync it.`);
    // A failure marks the storage broken at once, before a read waiting for the sync (`read`) goes on.
    const syncing = new Promise<void>((resolve) =>
      fsync(fd, (e) => {
        if (e && !this.broken) {
          this.broken = unavailable(
            e,
            `Cannot sync ${this.file}-wal (every request is refused until the storage is opened again)`,
          ) as StorageUnavailable;
        }
        resolve();
      }),
    );
    this.syncing = syncing;
    try {
      await syncing;
    } finally {
      this.syncing = undefined;
    }
    if (this.broken) throw this.broken;
  }

  /**
   * A descriptor of the database's WAL, opened once it exists and kept: the file stays while the database is open
   * (SQLite removes it only as the last connection closes), and is rewritten in place, never replaced.
   */
  private walFd(): number | undefined {
    if (this.wal === undefined) {
      try {
        this.wal = openSync(`${this.file}-wal`, 'r');
      } catch {
        return undefined;
      }
    }
    return this.wal;
  }

  /** Resolves once the writes asked for so far are settled (committed or refused). */
  private async settled(): Promise<void> {
    while (this.committing) await this.committing;
  }

  /**
   * Runs `body` in one immediate transaction; a failure rolls it back whole and becomes `StorageUnavailable`. Its
   * `BEGIN IMMEDIATE` takes the write lock before any statement runs: one refused for a lock held elsewhere
   * (`SQLITE_BUSY`) has written nothing, and is tried again whole.
   */
  private writeNow<T>(kind: WriteKind, body: () => T, at: (phase: Phase) => void): T {
    this.open();
    // See `openSqliteStorage`: an event's commit is not synced on its own, a run's and an effect's are (with all before them).
    // A run's end noted (`produced`) and lost makes the next start produce it again, which changes nothing: not synced either.
    const sync = kind === 'event' || kind === 'produced' ? 'NORMAL' : 'FULL';
    if (sync !== this.sync) {
      this.db.pragma(`synchronous = ${sync}`);
      this.sync = sync;
    }
    return this.db
      .transaction(() => {
        const r = body();
        at('inside');
        return r;
      })
      .immediate();
  }

  /**
   * `body`, tried again while the database is locked; once the commit being synced is (a read answers nothing that is
   * not on disk yet). Writes still waiting for their commit are not waited for, as none would be while another
   * process holds the lock.
   */
  private async read<T>(body: () => T): Promise<T> {
    this.open();
    while (this.syncing) await this.syncing;
    return this.retry(body, `Cannot read ${this.file}`);
  }

  /**
   * `attempt` until it does not find the database locked by another connection (`SQLITE_BUSY`), for up to
   * `busyTimeoutMs`, each wait a timer (requests are answered meanwhile); then, or on any other failure, the
   * failure as `StorageUnavailable`.
   */
  private async retry<T>(attempt: () => T, what: string): Promise<T> {
    const deadline = performance.now() + this.busyTimeoutMs;
    for (let pause = 2; ; pause = Math.min(BUSY_PAUSE_MAX_MS, pause * 2)) {
      try {
        this.open();
        return attempt();
      } catch (e) {
        const left = deadline - performance.now();
        if (!isBusy(e) || left <= 0) throw unavailable(e, what);
        await sleep(Math.min(pause, left));
      }
    }
  }

  private open(): void {
    if (this.closed) throw new StorageUnavailable(`The storage at ${this.file} is closed.`);
    if (this.broken) throw this.broken;
  }

  /** A stored JSON record, or undefined (and listed in `skipped`) when it cannot be read or is of the wrong shape. */
  private parse<T>(where: string, text: string, is: (v: unknown) => v is T, shape: string): T | undefined {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.found.add(`${this.file}: ${where}`, 'not JSON');
      return undefined;
    }
    if (is(value)) return value;
    this.found.add(`${this.file}: ${where}`, shape);
    return undefined;
  }
}

/** What was skipped, each place once. */
class Skipped {
  private readonly byWhere = new Map<string, { where: string; reason: string }>();
  list: readonly { where: string; reason: string }[] = [];

  add(where: string, reason: string): void {
    if (this.byWhere.has(`${where}\n${reason}`)) return;
    this.byWhere.set(`${where}\n${reason}`, { where, reason });
    this.list = [...this.byWhere.values()];
  }
}

/** The longest pause between two tries of a statement that found the database locked. */
const BUSY_PAUSE_MAX_MS = 25;

/** Another connection holds the lock the statement needs. */
function isBusy(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return e instanceof Database.SqliteError && typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

function isCorruption(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return e instanceof Database.SqliteError && typeof code === 'string' && /^SQLITE_(NOTADB|CORRUPT)/.test(code);
}

/** A storage failure as `StorageUnavailable`, with the cause kept; a mistake in the caller's input is thrown as it is. */
function unavailable(e: unknown, what: string): Error {
  if (e instanceof StorageUnavailable || e instanceof RangeError || (e instanceof TypeError && !isDatabaseClosed(e))) return e;
  const code = (e as { code?: unknown } | null)?.code;
  const error = new StorageUnavailable(
    `${what}: ${e instanceof Error ? e.message : String(e)}${typeof code === 'string' ? ` (${code})` : ''}`,
  );
  error.cause = e;
  return error;
}

function isDatabaseClosed(e: TypeError): boolean {
  return /database connection is not open/i.test(e.message);
}

function stamp(time: number): string {
  return new Date(time).toISOString().replace(/[:.]/g, '-');
}

/** Renames the database and its WAL and shared-memory files to `<name>.corrupt-<time>`; returns the new name. */
function moveAside(file: string, time: number): string {
  let aside = `${file}.corrupt-${stamp(time)}`;
  for (let n = 2; existsSync(aside); n++) aside = `${file}.corrupt-${stamp(time)}-${n}`;
  try {
    // The WAL first: the database without it would be read as it was before its last commits.
    for (const suffix of ['-wal', '-shm']) if (existsSync(file + suffix)) renameSync(file + suffix, aside + suffix);
    renameSync(file, aside);
  } catch (e) {
    throw unavailable(e, `Cannot move ${file} aside`);
  }
  return aside;
}

/** Copies what can still be read from a damaged database into the new one, table by table, effects first. */
function salvage(aside: string, db: Database.Database, skipped: Skipped): void {
  let old: Database.Database | undefined;
  // Read from a copy, so the file moved aside stays as it was found.
  const copy = `${aside}.salvage`;
  try {
    copyFileSync(aside, copy);
    if (existsSync(`${aside}-wal`)) copyFileSync(`${aside}-wal`, `${copy}-wal`);
    padToHeaderSize(copy);
    old = new Database(copy, { readonly: true, fileMustExist: true });
    const tables = old.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").pluck().all() as string[];
    for (const table of ['effects', 'runs', 'threads', 'events']) {
      if (!tables.includes(table)) continue;
      let copied = 0;
      try {
        // An effect keeps its row id, the cursor of `effectsPage`: renumbered past a torn row, a cursor from before would skip one.
        const columns = [...(table === 'effects' ? ['rowid'] : []), ...(COLUMNS[table] ?? '').split(', ')];
        const insert = db.prepare(`INSERT OR IGNORE INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
        const rows = old
          .prepare(`SELECT ${columns.join(', ')} FROM ${table}`)
          .raw()
          .iterate() as IterableIterator<unknown[]>;
        let stopped: unknown;
        db.transaction(() => {
          try {
            for (const row of rows) {
              // A row on a page cut short reads the missing bytes as zeros: no id, record or frame holds a NUL
              // (ids refuse control characters, JSON writes it escaped), so one that does is torn, and left behind.
              if (row.some((value) => typeof value === 'string' && value.includes('\u0000'))) continue;
              try {
                copied += insert.run(...row).changes;
              } catch {
                // A row whose values do not fit the table: left in the file moved aside.
              }
            }
          } catch (e) {
            // A damaged page: what was read before it is kept.
            stopped = e;
          }
        })();
        if (stopped) throw stopped;
      } catch (e) {
        skipped.add(`${aside}: ${table}`, `${copied} rows copied, then reading stopped: ${e instanceof Error ? e.message : String(e)}`);
        continue;
      }
      if (copied) skipped.add(`${aside}: ${table}`, `${copied} rows copied into the new database`);
    }
  } catch (e) {
    skipped.add(aside, `nothing could be copied: ${e instanceof Error ? e.message : String(e)}`);
  } finally {
    old?.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(copy + suffix, { force: true });
  }
}

/**
 * Extends a database cut short to the size its header gives, with zeros:
 * SQLite refuses a file shorter than its header says, even to read the pages
 * it still has; the missing pages then read as damaged, the others as they were.
 */
function padToHeaderSize(file: string): void {
  const header = Buffer.alloc(100);
  const fd = openSync(file, 'r+');
  try {
    if (readSync(fd, header, 0, 100, 0) < 100) return;
    const raw = header.readUInt16BE(16);
    const pageSize = raw === 1 ? 65_536 : raw;
    const pages = header.readUInt32BE(28);
    const size = fstatSync(fd).size;
    if (pageSize >= 512 && pages > 0 && pages * pageSize > size && pages * pageSize <= size * 64) ftruncateSync(fd, pages * pageSize);
  } finally {
    closeSync(fd);
  }
}

/**
 * The fault hook: kills the process with SIGKILL at a fault point
 * `<kind>:<n>:<phase>`, or does nothing. `@<file>` reads the point from that
 * file at every write instead, counting writes from when its text changed,
 * so one process can serve many fault points one after another.
 */
function faultHook(spec: string | undefined): (kind: WriteKind) => (phase: Phase) => void {
  const none = () => () => {};
  if (!spec) return none;
  const file = spec.startsWith('@') ? spec.slice(1) : undefined;
  let current = file ? '' : spec;
  let counts = new Map<string, number>();
  return (kind) => {
    if (file) {
      let text = '';
      try {
        text = readFileSync(file, 'utf8').trim();
      } catch {
        // No file: no fault point.
      }
      if (text !== current) {
        current = text;
        counts = new Map();
      }
    }
    const m = /^(run|event|effect|read|any):(\d+):(before|inside|after)$/.exec(current);
    if (!m) return () => {};
    const [, target, n, when] = m;
    const count = (counts.get(kind) ?? 0) + 1;
    counts.set(kind, count);
    const any = (counts.get('any') ?? 0) + 1;
    counts.set('any', any);
    const hit = (target === 'any' ? any : target === kind ? count : -1) === Number(n);
    return (phase) => {
      if (hit && phase === when) process.kill(process.pid, 'SIGKILL');
    };
  };
}
