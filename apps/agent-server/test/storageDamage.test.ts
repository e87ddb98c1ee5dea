/**
 * SQLite storage after what a failing machine leaves: the unsynced tail of a
 * run's frames lost to a power cut, and a record overwritten with garbage
 * between restarts.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
