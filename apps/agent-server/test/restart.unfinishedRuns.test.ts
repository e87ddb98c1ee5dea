/**
 * The runs a server finds unfinished as it starts (its last process was
 * killed while it produced them) are produced within the same room as the
 * runs its clients start: `maxRuns` holds them all.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import type { AgentServer } from '../src/server.js';
import { openMemoryStorage } from '../src/storage/memory.js';
import type { RunRecord, Storage } from '../src/storage/types.js';
import { NOW, post, readEvents, startServer, userInput } from './support.js';

const health = async (server: AgentServer) => (await (await fetch(`${server.url}/health`)).json()) as { runs: number };

/** Storage whose event writes wait until `open()` is called: the runs being produced stay so until then. */
function gatedStorage(inner: Storage): { storage: Storage; open: () => void } {
  let open = () => {};
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const storage: Storage = Object.create(inner);
  storage.appendEvent = async (runId, index, frame) => {
    await gate;
    return inner.appendEvent(runId, index, frame);
  };
  return { storage, open };
}

/** Runs begun by a process that was killed before it produced any of their events. */
async function leftUnfinished(storage: Storage, count: number, junkBytes = 0): Promise<RunRecord[]> {
  const runs: RunRecord[] = [];
  for (let n = 0; n < count; n++) {
    const forwardedProps = { tokens: 20, tokenDelayMs: 500, ...(junkBytes > 0 ? { junk: 'x'.repeat(junkBytes) } : {}) };
    const input = { ...userInput(`left-${n}`, `left-${n}`), forwardedProps };
    const run: RunRecord = { runId: input.runId, threadId: input.threadId, scenarioId: 'fast-stream', input, startedAt: NOW, nonce: 'n' };
    expect(await storage.beginRun(run, { threadId: run.threadId, open: [], answered: {} }, 0)).toBe('created');
    runs.push(run);
  }
  return runs;
}

describe('runs left unfinished by a process that was killed', () => {
  it('are finished as the server starts within maxRuns: no more are produced at once, a new run is refused 503 while they hold the room, and each is finished', async () => {
    const inner = openMemoryStorage();
    const runs = await leftUnfinished(inner, 3);
    const { storage, open } = gatedStorage(inner);
    const server = await startServer({ storage, maxRuns: 2 });
    // A failed expectation still lets the runs end, so that the server closes.
    onTestFinished(open);
    // Two are being produced (their writes held); the third waits its turn.
    await expect.poll(async () => (await health(server)).runs).toBe(2);
    await new Promise((r) => setTimeout(r, 100));
    expect((await health(server)).runs).toBe(2);
    const refused = await post(server, '/agents/refund?speed=0', userInput('new', 'new'));
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/u);
    expect(await refused.json()).toMatchObject({ error: { code: 'TOO_MANY_RUNS' } });
    open();
    await expect.poll(async () => (await inner.unfinished()).length).toBe(0);
    for (const run of runs) expect((await inner.events(run.runId, 0, 1_000)).at(-1), run.runId).toContain('"RUN_FINISHED"');
    await expect.poll(async () => (await health(server)).runs).toBe(0);
    const taken = await post(server, '/agents/refund?speed=0', userInput('new', 'new'));
    expect(taken.status).toBe(200);
    expect((await readEvents(taken)).at(-1)?.event.type).toBe('RUN_FINISHED');
  });

  it('hold their input among the bytes the runs being produced may hold: past maxRunInputBytes, one waits for the other', async () => {
    const inner = openMemoryStorage();
    const runs = await leftUnfinished(inner, 2, 600_000);
    const { storage, open } = gatedStorage(inner);
    const server = await startServer({ storage, maxRunInputBytes: 1_000_000 });
    onTestFinished(open);
    await expect.poll(async () => (await health(server)).runs).toBe(1);
    await new Promise((r) => setTimeout(r, 100));
    expect((await health(server)).runs).toBe(1);
    const refused = await post(server, '/agents/refund?speed=0', userInput('new', 'new'));
    expect(refused.status).toBe(503);
    open();
    await expect.poll(async () => (await inner.unfinished()).length).toBe(0);
    for (const run of runs) expect((await inner.events(run.runId, 0, 1_000)).at(-1), run.runId).toContain('"RUN_FINISHED"');
  });
});

describe('a run left unfinished that a client comes back for', () => {
  it('is produced for the client within maxRuns, as a new run is: past it, the retry is refused 503, and a new run is refused while it is produced; a retry that only reads a whole log is taken', async () => {
    const inner = openMemoryStorage();
    const runs = await leftUnfinished(inner, 2);
    // As on Redis, whose instances cannot tell one that died from one producing: the server finishes none as it starts.
    const storage: Storage = Object.create(inner);
    storage.unfinished = async () => [];
    const server = await startServer({ storage, maxRuns: 1 });
    const [first, second] = runs as [RunRecord, RunRecord];
    const done = userInput('done', 'done');
    expect((await readEvents(await post(server, '/agents/refund?speed=0', done))).at(-1)?.event.type).toBe('RUN_FINISHED');
    // Its client retries the first and reads it, paced.
    const retried = await post(server, '/agents/fast-stream', first.input);
    expect(retried.status).toBe(200);
    onTestFinished(() => retried.body?.cancel());
    await expect.poll(async () => (await health(server)).runs).toBe(1);
    const refusals = [
      await post(server, '/agents/fast-stream', second.input),
      await post(server, '/agents/fast-stream', second.input, { 'Last-Event-ID': `${second.runId}:0` }),
      await post(server, '/agents/refund?speed=0', userInput('new', 'new')),
    ];
    for (const refused of refusals) {
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/u);
      expect(await refused.json()).toMatchObject({ error: { code: 'TOO_MANY_RUNS' } });
    }
    expect((await health(server)).runs).toBe(1);
    // A retry of a run its log holds to its end makes nothing: it is read whatever the room.
    const again = await post(server, '/agents/refund?speed=0', done);
    expect(again.status).toBe(200);
    expect((await readEvents(again)).at(-1)?.event.type).toBe('RUN_FINISHED');
    // Its client goes: the rest is produced at once, and the room is free for the second.
    await retried.body?.cancel();
    await expect.poll(async () => (await health(server)).runs).toBe(0);
    const events = await readEvents(await post(server, '/agents/fast-stream?speed=0', second.input));
    expect(events.at(-1)?.event.type).toBe('RUN_FINISHED');
  });
});
