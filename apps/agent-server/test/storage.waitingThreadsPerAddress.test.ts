/**
 * On memory storage, a thread whose interrupts wait for an answer is not
 * dropped for room: one client address that starts approval after approval
 * and never answers would otherwise fill the bound, and every other client's
 * new thread would be refused. An address's waiting threads hold at most its
 * share of the bound (429 past it, to that address alone), and a thread whose
 * interrupts have all expired, by the server's clock, waits no more.
 */
import { request } from 'node:http';
import type { RunAgentInput } from '@aguikit/core';
import { describe, expect, it } from 'vitest';
import type { AgentServer } from '../src/server.js';
import { openMemoryStorage } from '../src/storage/memory.js';
import { StorageUnavailable, type ThreadRecord } from '../src/storage/types.js';
import { runRecord, threadRecord } from './storageContract.js';
import { interruptsOf, NOW, parseFrames, startServer, userInput } from './support.js';

/** POSTs a refund run from `localAddress` (a loopback address of its own: another client) and reads it to its end. */
function refundFrom(
  server: AgentServer,
  localAddress: string,
  id: string,
  input: RunAgentInput = userInput(`${localAddress}-${id}`, `${localAddress}-${id}`),
): Promise<{ status: number; code?: string; text: string; retryAfter?: string | undefined }> {
  const { hostname, port } = new URL(server.url);
  const body = JSON.stringify(input);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: hostname,
        port: Number(port),
        localAddress,
        method: 'POST',
        path: '/agents/refund?speed=0',
        headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          if (status === 200) resolve({ status, text });
          else
            resolve({
              status,
              text,
              retryAfter: res.headers['retry-after'],
              code: (JSON.parse(text) as { error: { code: string } }).error.code,
            });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Starts refund after refund from `address`, none answered, until one is refused (at most `most`). */
async function fill(server: AgentServer, address: string, most: number) {
  let first = '';
  for (let n = 0; n < most; n++) {
    const answer = await refundFrom(server, address, `t-${n}`);
    if (answer.status !== 200) return { taken: n, refused: answer, first };
    if (n === 0) first = answer.text;
    expect(answer.text).toContain('RUN_FINISHED');
  }
  throw new Error(`${address} was refused none of ${most} threads`);
}

describe('a server on memory storage, one address holding threads that wait on an answer', () => {
  it('refuses that address 429 past its share, while another address still starts threads', async () => {
    const server = await startServer({ maxMemoryRecordBytes: 200_000, maxRunsPerAddress: 64 });
    const hostile = await fill(server, '127.0.0.1', 1_000);
    expect(hostile.taken).toBeGreaterThan(0);
    expect(hostile.refused).toMatchObject({ status: 429, code: 'TOO_MANY_WAITING_THREADS' });
    // Another client is not locked out: its new threads are taken, each waiting on its approval too.
    for (let n = 0; n < 5; n++) expect((await refundFrom(server, '127.0.0.2', `t-${n}`)).status).toBe(200);
    // The refused address is refused still; a thread that waits on nothing is not what it is refused.
    expect((await refundFrom(server, '127.0.0.1', 'again')).code).toBe('TOO_MANY_WAITING_THREADS');
  });

  it('refuses a run on a new thread 503 with Retry-After once threads of many addresses, each waiting, fill the bound', async () => {
    const server = await startServer({ maxMemoryRecordBytes: 48_000, maxRunsPerAddress: 64 });
    let refused: Awaited<ReturnType<typeof refundFrom>> | undefined;
    let taken = 0;
    let first = '';
    for (let a = 10; a < 60 && !refused; a++) {
      const answer = await fill(server, `127.0.0.${a}`, 1_000);
      taken += answer.taken;
      if (a === 10) first = answer.first;
      if (answer.refused.status !== 429) refused = answer.refused;
    }
    expect(taken).toBeGreaterThan(0);
    expect(refused).toMatchObject({ status: 503, code: 'STORAGE_UNAVAILABLE', retryAfter: '5' });
    // A thread held goes on: its interrupt is answered.
    const events = parseFrames(first).flatMap((f) => (f.data === undefined ? [] : [{ id: f.id ?? '', event: JSON.parse(f.data) }]));
    const interruptId = interruptsOf(events)[0]?.id ?? '';
    expect(interruptId).not.toBe('');
    const resume = { ...userInput('127.0.0.10-t-0', 'answer'), resume: [{ interruptId, status: 'cancelled' as const }] };
    expect((await refundFrom(server, '127.0.0.10', 'answer', resume)).text).toContain('RUN_FINISHED');
  });

  it('gives no share to an address when clients are not told apart by address (no maxRunsPerAddress: loopback, a proxy): the bound is all of theirs', async () => {
    const server = await startServer({ maxMemoryRecordBytes: 48_000 });
    const one = await fill(server, '127.0.0.1', 1_000);
    // One address is every client here: refusing it an eighth of the bound would refuse them all at an eighth.
    expect(one.refused).toMatchObject({ status: 503, code: 'STORAGE_UNAVAILABLE' });
    const shared = await startServer({ maxMemoryRecordBytes: 48_000, maxRunsPerAddress: 64 });
    const counted = await fill(shared, '127.0.0.1', 1_000);
    expect(counted.refused.status).toBe(429);
    expect(one.taken).toBeGreaterThan(4 * counted.taken);
  });

  it('takes an address that held its share again once the interrupts it left have expired', async () => {
    let now = NOW;
    const server = await startServer({ maxMemoryRecordBytes: 200_000, maxRunsPerAddress: 64, now: () => now });
    const first = await fill(server, '127.0.0.1', 1_000);
    expect(first.refused.status).toBe(429);
    // The refund's approval window (2 minutes unless the client asks for another) is over.
    now += 3 * 60_000;
    expect((await refundFrom(server, '127.0.0.1', 'after-expiry')).status).toBe(200);
  });
});

describe('memory storage: threads whose open interrupts have all expired', () => {
  const expiring = (threadId: string, expiresAt: number | undefined): ThreadRecord => ({
    ...threadRecord(threadId, [`it-${threadId}`]),
    open: [
      {
        id: `it-${threadId}`,
        reason: 'tool_call',
        message: 'Approve?',
        ...(expiresAt === undefined ? {} : { expiresAt: new Date(expiresAt).toISOString() }),
      },
    ],
  });

  it('are dropped for room, by the clock the storage is given; those still open are kept', async () => {
    let now = NOW;
    const storage = openMemoryStorage({ maxRecordBytes: 4_000, now: () => now });
    let n = 0;
    for (; ; n++) {
      try {
        await storage.beginRun(runRecord(`run-${n}`, `t-${n}`), expiring(`t-${n}`, NOW + 60_000), 0);
      } catch (e) {
        expect(e).toBeInstanceOf(StorageUnavailable);
        break;
      }
      await storage.produced(`run-${n}`);
      expect(n).toBeLessThan(100);
    }
    now = NOW + 60_000;
    await storage.beginRun(runRecord('run-late', 'late'), expiring('late', undefined), 0);
    expect((await storage.thread('late')).version).toBe(1);
    expect((await storage.thread('t-0')).version).toBe(0);
    // A thread whose interrupt never expires is kept however long it waits.
    now += 86_400_000;
    for (let i = 0; i < n; i++)
      await storage.beginRun(runRecord(`run-more-${i}`, `more-${i}`), expiring(`more-${i}`, now + 1), 0).catch(() => {});
    expect((await storage.thread('late')).version).toBe(1);
    await storage.close();
  });
});
