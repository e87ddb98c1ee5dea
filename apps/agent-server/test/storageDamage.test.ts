/**
 * SQLite storage after what a failing machine leaves: the unsynced tail of a
 * run's frames lost to a power cut, and a record overwritten with garbage
 * between restarts.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunAgentInput } from '@aguikit/core';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { interruptsOf, post, readEvents, startServer, stopServer, userInput } from './support.js';

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'agent-damage-'));
  dirs.push(d);
  return d;
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function approval(threadId: string, runId: string, interruptId: string): RunAgentInput {
  return {
    threadId,
    runId,
    messages: [],
    tools: [],
    context: [],
    resume: [{ interruptId, status: 'resolved', payload: { approved: true } }],
  };
}

describe('SQLite: power loss loses the unsynced tail of event frames (synchronous=NORMAL)', () => {
  it('lets a client that received a frame lost by the power cut reconnect with its Last-Event-ID and get the rest', async () => {
    const dataDir = tempDir();
    const input = userInput('pl-thread', 'pl-1');
    let server = await startServer({ dataDir });
    const whole = await readEvents(await post(server, '/agents/refund?speed=0', input));
    expect(whole.at(-1)?.event.type).toBe('RUN_FINISHED');
    await stopServer(server);
    const n = whole.length;
    // A power cut after the last FULL commit: the last 4 frames (committed with NORMAL, never synced) are gone,
    // exactly as sqlite.ts:75-80 says can happen. The client had received up to frame n-3 before the cut.
    const db = new Database(join(dataDir, 'agent.db'));
    db.prepare('DELETE FROM events WHERE run_id = ? AND idx >= ?').run('pl-1', n - 4);
    db.close();
    server = await startServer({ dataDir });
    const lastSeen = whole[n - 3]?.id as string;
    const response = await post(server, '/agents/refund?speed=0', input, { 'Last-Event-ID': lastSeen });
    // The frames lost are made again from the run's record: the client gets no gap and no duplicate.
    expect({ status: response.status, body: response.status === 200 ? '' : await response.text() }).toEqual({ status: 200, body: '' });
    expect(await readEvents(response)).toEqual(whole.slice(n - 2));
  });
});

describe('SQLite: a run record overwritten with garbage between restarts (quick_check cannot see it)', () => {
  it('answers the retry of that run with a final refusal, not a 503 BUSY to retry for ever', async () => {
    const dataDir = tempDir();
    let server = await startServer({ dataDir });
    const first = await readEvents(await post(server, '/agents/refund?speed=0', userInput('gb-thread', 'gb-first')));
    // The approval run is the one whose record is damaged; its retry (same body) is accepted by the thread again.
    const input = approval('gb-thread', 'gb-run', interruptsOf(first)[0]?.id as string);
    await readEvents(await post(server, '/agents/refund?speed=0', input));
    await stopServer(server);
    // Overwrite the first byte of every copy of the run record's JSON in the file (same length: the page stays valid).
    const file = join(dataDir, 'agent.db');
    const bytes = readFileSync(file);
    const needle = Buffer.from('{"runId":"gb-run","threadId"');
    let hits = 0;
    for (let at = bytes.indexOf(needle); at >= 0; at = bytes.indexOf(needle, at + 1)) {
      bytes[at] = 0x23; // '#'
      hits++;
    }
    expect(hits).toBeGreaterThan(0);
    writeFileSync(file, bytes);
    server = await startServer({ dataDir });
    const started = performance.now();
    const retry = await post(server, '/agents/refund?speed=0', input);
    const body = (await retry.json()) as { error?: { code?: string } };
    // Not 503 BUSY ("try again"), which no retry would ever get past.
    expect({ status: retry.status, code: body.error?.code }).toEqual({ status: 409, code: 'RUN_EXISTS' });
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe('SQLite: the database file empty after a power cut, its WAL whole (nothing checkpointed yet)', () => {
  it('is rebuilt from its WAL: the runs, the thread and the refund are kept, and the repair is reported', async () => {
    const live = tempDir();
    const server = await startServer({ dataDir: live });
    const first = await readEvents(await post(server, '/agents/refund?speed=0', userInput('wal-thread', 'wal-first')));
    const approved = await readEvents(
      await post(server, '/agents/refund?speed=0', approval('wal-thread', 'wal-ok', interruptsOf(first)[0]?.id as string)),
    );
    expect(server.effects()).toHaveLength(1);
    // The files as a power cut leaves them while the server runs: every commit is in the synced WAL, none checkpointed
    // into the database file, whose own first write (its header) never reached the disk.
    const dataDir = tempDir();
    const wal = readFileSync(join(live, 'agent.db-wal'));
    expect(wal.length).toBeGreaterThan(32);
    writeFileSync(join(dataDir, 'agent.db-wal'), wal);
    writeFileSync(join(dataDir, 'agent.db'), '');
    await stopServer(server);
    const log: string[] = [];
    const again = await startServer({ dataDir, logLevel: 'warn', logStream: { write: (line: string) => log.push(line) } });
    // The refund is known: an approval retried is the run it was, not a second refund, nor a thread started over.
    expect(again.effects()).toHaveLength(1);
    const retried = await readEvents(
      await post(again, '/agents/refund?speed=0', approval('wal-thread', 'wal-ok', interruptsOf(first)[0]?.id as string)),
    );
    expect(retried.map((e) => e.id)).toEqual(approved.map((e) => e.id));
    expect(log.join('\n')).toMatch(/rebuilt from its WAL/u);
  });

  it('rebuilds from the commits before a torn last frame; a WAL whose header is damaged is kept aside, never deleted', async () => {
    const live = tempDir();
    const server = await startServer({ dataDir: live });
    const first = await readEvents(await post(server, '/agents/refund?speed=0', userInput('torn-thread', 'torn-first')));
    const wal = readFileSync(join(live, 'agent.db-wal'));
    await stopServer(server);
    // The last frame half written: the commits before it stand.
    const torn = tempDir();
    writeFileSync(join(torn, 'agent.db-wal'), wal.subarray(0, wal.length - 1000));
    writeFileSync(join(torn, 'agent.db'), '');
    const rebuilt = await startServer({ dataDir: torn });
    // The run is the one stored (its interrupt id carries its secret), not a new one made under its id.
    const retried = await readEvents(await post(rebuilt, '/agents/refund?speed=0', userInput('torn-thread', 'torn-first')));
    expect(interruptsOf(retried)[0]?.id).toBe(interruptsOf(first)[0]?.id);
    await stopServer(rebuilt);
    // A WAL whose header's checksum fails: both files are moved aside, as any damaged database is, and the server starts.
    const damaged = tempDir();
    const bad = Buffer.from(wal);
    bad[25] = (bad[25] as number) ^ 0xff;
    writeFileSync(join(damaged, 'agent.db-wal'), bad);
    writeFileSync(join(damaged, 'agent.db'), '');
    const log: string[] = [];
    const fresh = await startServer({ dataDir: damaged, logLevel: 'warn', logStream: { write: (line: string) => log.push(line) } });
    expect(fresh.effects()).toEqual([]);
    expect(readdirSync(damaged).filter((f) => /^agent\.db\.corrupt-.*-wal$/u.test(f))).toHaveLength(1);
    expect(log.join('\n')).toMatch(/moved aside/u);
  });
});
