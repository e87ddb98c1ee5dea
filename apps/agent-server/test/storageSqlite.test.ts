/**
 * What only the SQLite storage does: keep everything across a reopen, make a
 * commit atomic when its WAL is torn, refuse a write it cannot make with
 * nothing recorded, and start on records and files it cannot use (wrong
 * shapes, a truncated database, a file that is not SQLite, another
 * program's database, the earlier server's journal) without losing them.
 */
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { effectIdempotencyKey } from '../src/storage/idempotency.js';
import { openSqliteStorage } from '../src/storage/sqlite.js';
import type { EffectRecord, Storage } from '../src/storage/types.js';
import { effectRecord, runRecord, threadRecord } from './storageContract.js';

const dirs: string[] = [];
const opened: Storage[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'aguikit-sqlite-'));
  dirs.push(dir);
  return dir;
}
function open(dir: string): Storage {
  const storage = openSqliteStorage(dir, { now: () => Date.parse('2026-11-30T12:00:00Z') });
  opened.push(storage);
  return storage;
}
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Writes rows straight into the database file, as another program (or a bug, or a hand) would. */
function raw(dir: string, body: (db: Database.Database) => void): void {
  const db = new Database(join(dir, 'agent.db'));
  try {
    body(db);
  } finally {
    db.close();
  }
}

const asideFiles = (dir: string) => readdirSync(dir).filter((f) => f.startsWith('agent.db.corrupt-') && !/-(wal|shm)$/.test(f));

describe('the SQLite storage on disk', () => {
  it('keeps runs, threads, events and effects across a reopen, in WAL mode', async () => {
    const dir = tempDir();
    const first = open(dir);
    await first.beginRun(runRecord('run-1'), threadRecord('thread-1', ['i-1']), 0);
    for (let i = 0; i < 3; i++) await first.appendEvent('run-1', i, `frame ${i}`);
    const effect = effectRecord('i-1');
    await first.performEffect(effect);
    await first.close();

    const again = open(dir);
    expect(again.skipped).toEqual([]);
    expect(await again.run('run-1')).toEqual(runRecord('run-1'));
    expect(await again.thread('thread-1')).toEqual({ record: threadRecord('thread-1', ['i-1']), version: 1 });
    expect(await again.events('run-1', 0, 10)).toEqual(['frame 0', 'frame 1', 'frame 2']);
    expect(await again.performEffect({ ...effect, at: 99 })).toEqual({ record: effect, fresh: false });
    raw(dir, (db) => {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.pragma('application_id', { simple: true })).toBe(0x61677569);
    });
  });

  it("bounds SQLite's page cache to 2 MiB (better-sqlite3 builds SQLite with 16 MiB a connection)", () => {
    // The cache fills as runs are written and streamed back, and stays: with 16 MiB the server's RSS
    // grew by 17 MB over its first 1,000 runs (pnpm bench:server). The setting is per connection and
    // not stored in the file, so it is read from the storage's own connection.
    const storage = open(tempDir());
    const db = (storage as unknown as { db: Database.Database }).db;
    expect(db.pragma('cache_size', { simple: true })).toBe(-2048);
    expect(db.pragma('mmap_size', { simple: true })).toBe(0);
  });

  it('indexes the runs of a database of the earlier version as it opens: the old ones are pruned, one it cannot read never is', async () => {
    const dir = tempDir();
    await open(dir).close();
    const start = 1_764_504_000_000;
    raw(dir, (db) => {
      // The earlier version had no index of runs by when they started.
      db.exec('DROP INDEX runs_by_start');
      const run = db.prepare('INSERT INTO runs (run_id, record) VALUES (?, ?)');
      for (const n of [1, 2, 3]) run.run(`old-${n}`, JSON.stringify(runRecord(`old-${n}`, 'thread-1', { startedAt: start + n })));
      run.run('new', JSON.stringify(runRecord('new', 'thread-1', { startedAt: start + 10_000 })));
      run.run('torn', '{"runId":"torn","startedAt":1');
      run.run('odd', JSON.stringify({ ...runRecord('odd'), startedAt: String(start) }));
    });
    const storage = open(dir);
    raw(dir, (db) =>
      expect(db.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND name = 'runs_by_start'").pluck().get()).toBe(
        'runs_by_start',
      ),
    );
    expect(await storage.prune(start + 5_000, 2)).toBe(2);
    expect(await storage.prune(start + 5_000, 2)).toBe(1);
    expect(await storage.prune(start + 5_000, 2)).toBe(0);
    raw(dir, (db) => expect(db.prepare('SELECT run_id FROM runs ORDER BY run_id').pluck().all()).toEqual(['new', 'odd', 'torn']));
  });

  it('throws StorageUnavailable and records nothing when a write cannot be made', async () => {
    const dir = tempDir();
    const storage = openSqliteStorage(dir, { busyTimeoutMs: 0 });
    opened.push(storage);
    // Another process holds the write lock and does not let go: the write fails as a full disk's would, whole.
    const other = new Database(join(dir, 'agent.db'));
    other.exec('BEGIN IMMEDIATE');
    try {
      await expect(storage.performEffect(effectRecord('i-1'))).rejects.toMatchObject({ code: 'STORAGE_UNAVAILABLE', name: 'Error' });
      await expect(storage.beginRun(runRecord('run-1'), threadRecord(), 0)).rejects.toMatchObject({ code: 'STORAGE_UNAVAILABLE' });
      await expect(storage.appendEvent('run-1', 0, 'x')).rejects.toMatchObject({ code: 'STORAGE_UNAVAILABLE' });
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    expect(await storage.effects()).toEqual([]);
    expect(await storage.run('run-1')).toBeUndefined();
    // Once the lock is gone the same effect is done, once.
    expect((await storage.performEffect(effectRecord('i-1'))).fresh).toBe(true);
  });

  it('commits a transaction whole or not at all when the WAL is torn at any byte', async () => {
    const dir = tempDir();
    const storage = open(dir);
    await storage.beginRun(runRecord('run-1'), threadRecord('thread-1', ['i-1']), 0);
    const wal = join(dir, 'agent.db-wal');
    const before = statSync(wal).size;
    // One transaction writing two tables: the run and its thread's new state.
    await storage.beginRun(runRecord('run-2'), threadRecord('thread-1', ['i-2']), 1);
    const after = statSync(wal).size;
    expect(after).toBeGreaterThan(before);
    const seen = new Set<string>();
    // Cuts across the second transaction's frames, the way a crash mid-write leaves them.
    for (let k = 0; k <= 16; k++) {
      const cut = before + Math.floor(((after - before) * k) / 16);
      const copy = tempDir();
      copyFileSync(join(dir, 'agent.db'), join(copy, 'agent.db'));
      copyFileSync(wal, join(copy, 'agent.db-wal'));
      truncateSync(join(copy, 'agent.db-wal'), cut);
      const torn = open(copy);
      const run2 = await torn.run('run-2');
      const thread = await torn.thread('thread-1');
      // Both or neither: never a run without its thread's state, nor the state without the run.
      if (run2) expect(thread).toEqual({ record: threadRecord('thread-1', ['i-2']), version: 2 });
      else expect(thread).toEqual({ record: threadRecord('thread-1', ['i-1']), version: 1 });
      expect(await torn.run('run-1')).toEqual(runRecord('run-1'));
      seen.add(run2 ? 'committed' : 'rolled back');
    }
    expect([...seen].sort()).toEqual(['committed', 'rolled back']);
  });
});

describe('records and files the SQLite storage cannot use', () => {
  it('skips rows of the wrong shape, reports each, and still starts and works', async () => {
    const dir = tempDir();
    const good = open(dir);
    await good.beginRun(runRecord('run-ok'), threadRecord('thread-ok'), 0);
    await good.performEffect(effectRecord('ok'));
    await good.close();
    const noMessages = runRecord('run-no-messages');
    const { messages: _dropped, ...inputWithoutMessages } = noMessages.input;
    raw(dir, (db) => {
      const run = db.prepare('INSERT INTO runs (run_id, record) VALUES (?, ?)');
      run.run('run-null', 'null');
      run.run('run-torn', '{"runId":"run-torn","thr');
      run.run('run-no-messages', JSON.stringify({ ...noMessages, input: inputWithoutMessages }));
      db.prepare('INSERT INTO threads (thread_id, version, record) VALUES (?, ?, ?)').run('thread-bad', 4, '{"type":"thread"}');
      db.prepare('INSERT INTO effects (idempotency_key, run_id, at, record) VALUES (?, ?, ?, ?)').run(
        effectRecord('bad').idempotencyKey,
        'run-x',
        5,
        '{"type":"effect"}',
      );
    });

    const storage = open(dir);
    expect(await storage.run('run-ok')).toEqual(runRecord('run-ok'));
    for (const id of ['run-null', 'run-torn', 'run-no-messages']) expect(await storage.run(id)).toBeUndefined();
    // A thread record that cannot be read: no record, its version kept so the next run replaces it.
    expect(await storage.thread('thread-bad')).toEqual({ record: undefined, version: 4 });
    expect(await storage.beginRun(runRecord('run-new', 'thread-bad'), threadRecord('thread-bad'), 4)).toBe('created');
    expect(await storage.thread('thread-bad')).toEqual({ record: threadRecord('thread-bad'), version: 5 });
    // The unreadable effect is left out of the list, and its key stays taken: it is never done again.
    expect(await storage.effects()).toEqual([effectRecord('ok')]);
    const attempt = await storage.performEffect(effectRecord('bad', { at: 77 }));
    expect(attempt.fresh).toBe(false);
    expect(attempt.record).toMatchObject({ kind: 'refund', key: 'bad', runId: 'run-x', at: 5 });
    // A taken run id stays taken, even unreadable: nothing stored is overwritten.
    expect(await storage.beginRun(runRecord('run-null'), threadRecord(), 0)).toBe('exists');

    const reasons = storage.skipped.map((s) => `${s.where.replace(`${join(dir, 'agent.db')}: `, '')} | ${s.reason}`);
    expect(reasons.sort()).toEqual(
      [
        "runs 'run-null' | not a run record",
        "runs 'run-torn' | not JSON",
        "runs 'run-no-messages' | not a run record",
        "threads 'thread-bad' | not a thread record",
        `effects '${effectRecord('bad').idempotencyKey}' | not an effect record`,
      ].sort(),
    );
  });

  it('moves a file that is not SQLite aside, keeps it byte for byte, and starts fresh', async () => {
    const dir = tempDir();
    const junk = 'this is not a database\n'.repeat(100);
    writeFileSync(join(dir, 'agent.db'), junk);
    const storage = open(dir);
    const [aside] = asideFiles(dir);
    expect(aside).toBe('agent.db.corrupt-2026-11-30T12-00-00-000Z');
    expect(readFileSync(join(dir, aside as string), 'utf8')).toBe(junk);
    expect(storage.skipped).toEqual([
      { where: join(dir, 'agent.db'), reason: expect.stringMatching(/not a database.*moved aside to .*agent\.db\.corrupt-2026/) },
      expect.objectContaining({ where: join(dir, aside as string), reason: expect.stringMatching(/^nothing could be copied/) }),
    ]);
    expect(await storage.beginRun(runRecord('run-1'), threadRecord(), 0)).toBe('created');
  });

  it("moves another program's SQLite database aside untouched", async () => {
    const dir = tempDir();
    raw(dir, (db) => {
      db.exec("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('keep me')");
    });
    const bytes = readFileSync(join(dir, 'agent.db'));
    const storage = open(dir);
    const [aside] = asideFiles(dir);
    expect(readFileSync(join(dir, aside as string))).toEqual(bytes);
    expect(storage.skipped).toHaveLength(1);
    expect(storage.skipped[0]?.reason).toMatch(/^foreign database \(application id 0, tables notes\): moved aside/);
    expect(await storage.effects()).toEqual([]);
  });

  it('moves a truncated database aside and copies what can still be read, effects first', async () => {
    const dir = tempDir();
    const first = open(dir);
    const effect = effectRecord('i-1');
    await first.performEffect(effect);
    await first.beginRun(runRecord('run-1'), threadRecord(), 0);
    // Enough events for the file to run over many pages.
    for (let i = 0; i < 400; i++) await first.appendEvent('run-1', i, `frame ${i} ${'x'.repeat(500)}`);
    await first.close();
    const file = join(dir, 'agent.db');
    expect(existsSync(`${file}-wal`)).toBe(false);
    // Cut inside a page (4 KiB pages): the rest of that page reads as zeros, and its rows are torn.
    truncateSync(file, Math.floor(statSync(file).size / 2 / 4096) * 4096 + 2048);

    const storage = open(dir);
    expect(asideFiles(dir)).toHaveLength(1);
    expect(storage.skipped[0]?.reason).toMatch(/damaged database|malformed|corrupt/i);
    // The effect survived the move: the same approval never refunds again.
    expect(await storage.performEffect(effect)).toEqual({ record: effect, fresh: false });
    expect(storage.skipped.some((s) => /effects$/.test(s.where) && /^1 rows copied/.test(s.reason))).toBe(true);
    // The events up to the first damaged page are copied too, none of a torn row.
    const copied = await storage.events('run-1', 0, 1_000);
    expect(copied.length).toBeGreaterThan(0);
    expect(copied.length).toBeLessThan(400);
    expect(copied).toEqual(Array.from({ length: copied.length }, (_, i) => `frame ${i} ${'x'.repeat(500)}`));
  });

  it('keeps each effect at its place in the order done as it copies a damaged database: a page cursor from before reads on from where it was', async () => {
    const dir = tempDir();
    const first = open(dir);
    const [a, b, c] = ['a', 'b', 'c'].map((key) => effectRecord(key));
    await first.performEffect(a as EffectRecord);
    await first.performEffect(b as EffectRecord);
    await first.performEffect(c as EffectRecord);
    await first.beginRun(runRecord('run-1'), threadRecord(), 0);
    for (let i = 0; i < 400; i++) await first.appendEvent('run-1', i, `frame ${i} ${'x'.repeat(500)}`);
    // A client read the first two effects, and holds the cursor that page answered.
    const read = await first.effectsPage(0, 2);
    expect(read.effects).toEqual([a, b]);
    await first.close();
    // The second effect's row torn (bytes read as zeros), then the file cut short: the database is copied.
    raw(dir, (db) => db.prepare('UPDATE effects SET record = ? WHERE idempotency_key = ?').run(`{"torn\u0000`, b?.idempotencyKey));
    const file = join(dir, 'agent.db');
    truncateSync(file, Math.floor(statSync(file).size / 2 / 4096) * 4096 + 2048);
    const storage = open(dir);
    expect(asideFiles(dir)).toHaveLength(1);
    expect((await storage.effects()).map((e) => e.key)).toEqual(['a', 'c']);
    // Read on from the cursor: the third effect, not skipped for taking the torn one's place.
    expect((await storage.effectsPage(read.next, 10)).effects).toEqual([c]);
  });

  it('imports the journal of the earlier server once, skipping and reporting the lines it cannot read', async () => {
    const dir = tempDir();
    const now = Date.parse('2026-11-30T12:00:00Z');
    const input = {
      threadId: 'old-thread',
      runId: 'old-1',
      messages: [{ id: 'm1', role: 'user', content: 'A refund?' }],
      tools: [],
      context: [],
    };
    const resume = {
      ...input,
      runId: 'old-2',
      messages: [],
      resume: [{ interruptId: 'old-1-refund-approval', status: 'resolved', payload: { approved: true } }],
    };
    const effect = { kind: 'refund', key: 'old-1-refund-approval', detail: { refundId: 'RF-1', orderId: 'A-1001', amount: 42 } };
    const lines = [
      JSON.stringify({ type: 'run', scenarioId: 'refund', input, now }),
      'null',
      JSON.stringify({ type: 'effect' }),
      JSON.stringify({ type: 'run', scenarioId: 'refund', input: { ...input, runId: 'no-messages', messages: undefined }, now }),
      JSON.stringify({ type: 'run', scenarioId: 'refund', input: resume, now }),
      JSON.stringify({ type: 'effect', effect, at: now + 1, runId: 'old-2' }),
      '{"type":"run","scenarioId":"refund","inp',
    ];
    writeFileSync(join(dir, 'journal.jsonl'), lines.join('\n'));

    const storage = open(dir);
    expect(storage.skipped.map((s) => [s.where.replace(`${dir}/`, ''), s.reason])).toEqual([
      ['journal.jsonl:2', 'not a run or effect record'],
      ['journal.jsonl:3', 'not a run or effect record'],
      ['journal.jsonl:4', 'not a run or effect record'],
      ['journal.jsonl:7', 'a last line cut off mid-write'],
    ]);
    expect(await storage.run('old-1')).toMatchObject({ runId: 'old-1', threadId: 'old-thread', scenarioId: 'refund', nonce: '' });
    // The approval closed the interrupt: the thread has none open, and the answer on record.
    const thread = await storage.thread('old-thread');
    expect(thread.version).toBe(2);
    expect(thread.record?.open).toEqual([]);
    expect(thread.record?.answered['old-1-refund-approval']).toEqual({ status: 'resolved', payload: '{"approved":true}' });
    const key = effectIdempotencyKey('old-thread', effect);
    expect(await storage.effects()).toEqual([{ ...effect, idempotencyKey: key, runId: 'old-2', at: now + 1 }]);
    expect(existsSync(join(dir, 'journal.jsonl'))).toBe(false);
    expect(readdirSync(dir).filter((f) => f.startsWith('journal.jsonl.imported-'))).toHaveLength(1);
    await storage.close();

    // Once: a reopen imports nothing again, and the kept file is left alone.
    const again = open(dir);
    expect(again.skipped).toEqual([]);
    expect(await again.effects()).toHaveLength(1);
  });

  it('imports a record the earlier server appended onto a line a crash had cut off (that server never repaired a torn end)', async () => {
    const dir = tempDir();
    const now = Date.parse('2026-11-30T12:00:00Z');
    const input = {
      threadId: 'old-thread',
      runId: 'old-1',
      messages: [{ id: 'm1', role: 'user', content: 'A refund?' }],
      tools: [],
      context: [],
    };
    const resume = {
      ...input,
      runId: 'old-2',
      messages: [],
      resume: [{ interruptId: 'old-1-refund-approval', status: 'resolved', payload: { approved: true } }],
    };
    const effect = JSON.stringify({
      type: 'effect',
      effect: {
        kind: 'refund',
        key: 'old-1-refund-approval',
        detail: { refundId: 'RF-x', orderId: 'A-1001', amount: 42, currency: 'USD' },
      },
      at: now + 1,
      runId: 'old-2',
    });
    const lines = [
      JSON.stringify({ type: 'run', scenarioId: 'refund', input, now }),
      JSON.stringify({ type: 'run', scenarioId: 'refund', input: resume, now }),
      // The first write of the refund was cut at 40 bytes; the retry after the restart went on the same line.
      effect.slice(0, 40) + effect,
      '',
    ];
    writeFileSync(join(dir, 'journal.jsonl'), lines.join('\n'));
    const storage = open(dir);
    expect(await storage.effects()).toEqual([expect.objectContaining({ key: 'old-1-refund-approval', runId: 'old-2' })]);
    expect(storage.skipped.map((s) => [s.where.replace(`${dir}/`, ''), s.reason])).toEqual([
      ['journal.jsonl:3', 'a record cut off mid-write, with the next record written after it on its line: the next one was read'],
    ]);
    await storage.close();
  });

  it('refuses to start, naming the file, only when the directory cannot be used at all', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'not-a-dir'), 'x');
    expect(() => openSqliteStorage(join(dir, 'not-a-dir', 'data'))).toThrow(/Cannot create the data directory .*not-a-dir/);
  });
});
