/**
 * Storage that fails for a moment while a run is produced (a full disk, a
 * Redis failing over): the run accepted is still produced to its end, its
 * side effects done, once storage is back, whether or not its client returns.
 */
import { describe, expect, it } from 'vitest';
import { openMemoryStorage } from '../src/storage/memory.js';
import { type Storage, StorageUnavailable } from '../src/storage/types.js';
import { interruptsOf, parseFrames, post, readEvents, startServer, userInput } from './support.js';

/** Memory storage whose disk is full, for the events of run `runId`, until `free()`. */
function fullFor(runId: string): { storage: Storage; inner: Storage; free: () => void; refusals: () => number } {
  const inner = openMemoryStorage();
  let full = true;
  let refusals = 0;
  const storage: Storage = Object.create(inner);
  const refuse = (id: string) => {
    if (!full || id !== runId) return;
    refusals++;
    throw new StorageUnavailable('ENOSPC: no space left on device');
  };
  storage.appendEvent = async (id, index, frame) => {
    refuse(id);
    return inner.appendEvent(id, index, frame);
  };
  // Its log cannot be read either meanwhile (SQLite refuses a read that needs the WAL to grow).
  storage.events = async (id, from, limit) => {
    refuse(id);
    return inner.events(id, from, limit);
  };
  return {
    storage,
    inner,
    free: () => {
      full = false;
    },
    refusals: () => refusals,
  };
}

/** The refund asked for in run r1 (its approval interrupt opens), and the input of run r2 that approves it. */
async function approvalOf(server: Awaited<ReturnType<typeof startServer>>) {
  const first = await readEvents(await post(server, '/agents/refund?speed=0', userInput('t', 'r1')));
  const id = interruptsOf(first)[0]?.id ?? '';
  return { ...userInput('t', 'r2'), messages: [], resume: [{ interruptId: id, status: 'resolved', payload: { approved: true } }] };
}

describe('storage that fails while a run is produced', () => {
  it('an approval cut short by a full disk is produced to its end once space is freed, its refund made once, though its client never comes back', async () => {
    const { storage, inner, free, refusals } = fullFor('r2');
    const server = await startServer({ storage });
    const approval = await approvalOf(server);
    const response = await post(server, '/agents/refund?speed=0', approval);
    // The approval was taken (200): the stream ends short, before the refund, and its client goes.
    expect(response.status).toBe(200);
    expect((await readEvents(response)).some((e) => e.event.type === 'TOOL_CALL_RESULT')).toBe(false);
    expect(await inner.effects()).toEqual([]);
    const refused = refusals();
    expect(refused).toBeGreaterThan(0);
    // The disk stays full a while: the run is tried again, and fails again, and is tried again.
    await expect.poll(refusals, { timeout: 5_000 }).toBeGreaterThanOrEqual(refused + 2);
    free();
    await expect.poll(async () => (await inner.unfinished()).length, { timeout: 20_000, interval: 100 }).toBe(0);
    expect((await inner.events('r2', 0, 1_000)).at(-1)).toContain('"RUN_FINISHED"');
    expect((await inner.effects()).filter((e) => e.kind === 'refund')).toHaveLength(1);
    expect(server.effects()).toHaveLength(1);
    // The client that comes back reads it whole, and nothing is done twice.
    const back = await readEvents(await post(server, '/agents/refund?speed=0', approval));
    expect(back.at(-1)?.event.type).toBe('RUN_FINISHED');
    expect(await inner.effects()).toHaveLength(1);
  }, 30_000);
});

describe('storage that fails under a run, with every room taken', () => {
  it('the run keeps its room among the runs being produced while it waits to be tried again: a new paced run cannot take it, and the run is produced within seconds of storage coming back', async () => {
    const { storage, inner, free, refusals } = fullFor('r2');
    const server = await startServer({ storage, maxRuns: 1 });
    const approval = await approvalOf(server);
    const cut = await post(server, '/agents/refund?speed=0', approval);
    expect(cut.status).toBe(200);
    expect((await readEvents(cut)).some((e) => e.event.type === 'TOOL_CALL_RESULT')).toBe(false);
    const refused = refusals();
    await expect.poll(refusals, { timeout: 5_000 }).toBeGreaterThan(refused);
    // A run that would play for 1,000 s to the client reading it: had it the room, the approval would wait for its end.
    const paced = await post(server, '/agents/fast-stream', {
      ...userInput('t-paced', 'paced'),
      forwardedProps: { tokens: 100, tokenDelayMs: 10_000 },
    });
    // Had it been taken, its client leaves: the run is then produced at once, and the approval waits for that alone.
    if (paced.status === 200) await paced.body?.cancel();
    expect(paced.status).toBe(503);
    // The room is kept for a run storage failed under: the client is told that storage is what it waits for.
    expect(await paced.json()).toMatchObject({ error: { code: 'STORAGE_UNAVAILABLE' } });
    free();
    const freed = performance.now();
    // Tried again after at most the longest pause so far (a few seconds here), not after a paced run's end.
    await expect.poll(async () => (await inner.unfinished()).length, { timeout: 10_000, interval: 100 }).toBe(0);
    console.info(
      `a run storage failed under, every room taken: produced ${Math.round(performance.now() - freed)} ms after storage came back`,
    );
    expect((await inner.effects()).filter((e) => e.kind === 'refund')).toHaveLength(1);
    // Produced, it gives its room back.
    const next = await post(server, '/agents/refund?speed=0', userInput('t-next', 'next'));
    expect(next.status).toBe(200);
    await readEvents(next);
  }, 30_000);
});

describe('storage that fails under a run, and its client comes back while it waits to be tried again', () => {
  it('with maxRuns 1, the client that comes back has the run produced with the room the run kept: not 503 until the next try', async () => {
    const { storage, inner, free, refusals } = fullFor('r2');
    const server = await startServer({ storage, maxRuns: 1 });
    const approval = await approvalOf(server);
    const cut = await post(server, '/agents/refund?speed=0', approval);
    expect(cut.status).toBe(200);
    await readEvents(cut);
    // Tried again twice and failed (after 0.5 s, then 1 s): the next try is 2 s away.
    const refused = refusals();
    await expect.poll(refusals, { timeout: 5_000, interval: 20 }).toBeGreaterThanOrEqual(refused + 2);
    free();
    // Its client comes back (the same request again) as soon as storage is: it is the run's own, and has it produced.
    const back = await post(server, '/agents/refund?speed=0', approval);
    expect(back.status).toBe(200);
    expect((await readEvents(back)).at(-1)?.event.type).toBe('RUN_FINISHED');
    expect((await inner.effects()).filter((e) => e.kind === 'refund')).toHaveLength(1);
    // Produced, the run holds no room: the next run is taken at once.
    const next = await post(server, '/agents/refund?speed=0', userInput('t-next', 'next'));
    expect(next.status).toBe(200);
    await readEvents(next);
  }, 30_000);

  it('/health counts the run waiting to be tried again, which holds the room a new run is refused for', async () => {
    const { storage, inner, free, refusals } = fullFor('r2');
    const server = await startServer({ storage, maxRuns: 1 });
    const health = async () => (await (await fetch(`${server.url}/health`)).json()) as { runs: number; retrying: number };
    const approval = await approvalOf(server);
    await readEvents(await post(server, '/agents/refund?speed=0', approval));
    const refused = refusals();
    await expect.poll(refusals, { timeout: 5_000, interval: 20 }).toBeGreaterThan(refused);
    const refusedRun = await post(server, '/agents/refund?speed=0', userInput('t-new', 'new'));
    expect(refusedRun.status).toBe(503);
    await refusedRun.body?.cancel();
    expect(await health()).toMatchObject({ runs: 0, retrying: 1 });
    free();
    await expect.poll(async () => (await inner.unfinished()).length, { timeout: 10_000, interval: 100 }).toBe(0);
    await expect.poll(health).toMatchObject({ runs: 0, retrying: 0 });
  }, 30_000);

  it('with maxRuns 2, the run and its returning client hold one room between them: another run is taken meanwhile', async () => {
    const { storage, free, refusals } = fullFor('r2');
    const server = await startServer({ storage, maxRuns: 2 });
    const approval = await approvalOf(server);
    await readEvents(await post(server, '/agents/refund?speed=0', approval));
    const refused = refusals();
    await expect.poll(refusals, { timeout: 5_000, interval: 20 }).toBeGreaterThanOrEqual(refused + 2);
    free();
    // The client comes back and reads the run at its pace (it holds its producer for a few seconds).
    const back = await post(server, '/agents/refund?speed=0.5', approval);
    expect(back.status).toBe(200);
    const reader = back.body?.getReader();
    await reader?.read();
    const other = await post(server, '/agents/refund?speed=0', userInput('t-other', 'other'));
    expect(other.status).toBe(200);
    await readEvents(other);
    await reader?.cancel();
  }, 30_000);
});

describe('storage that keeps failing under one run (a key of its own damaged), with maxRuns 1', () => {
  it('the run gives its room back once it has failed for the longest pause: other runs are taken again, not refused for good', async () => {
    // Never freed: every try of r2 fails, as on a Redis whose key of r2's log is of another type.
    const { storage, refusals } = fullFor('r2');
    const server = await startServer({ storage, maxRuns: 1 });
    const approval = await approvalOf(server);
    await readEvents(await post(server, '/agents/refund?speed=0', approval));
    const failed = performance.now();
    let taken: Response | undefined;
    for (let n = 0; !taken && performance.now() - failed < 45_000; n++) {
      const response = await post(server, '/agents/refund?speed=0', userInput(`t-${n}`, `other-${n}`));
      if (response.status === 200) taken = response;
      else {
        expect(response.status).toBe(503);
        await response.body?.cancel();
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
    const ms = Math.round(performance.now() - failed);
    console.info(
      `a run storage keeps failing under, maxRuns 1: another run taken ${ms} ms after its first failure, ${refusals()} refusals`,
    );
    expect(taken?.status).toBe(200);
    expect((await readEvents(taken as Response)).at(-1)?.event.type).toBe('RUN_FINISHED');
    // The six tries of 0.5 s to 16 s pauses: about 32 s, while an outage that short keeps the room.
    expect(ms).toBeGreaterThan(30_000);
  }, 60_000);
});

describe('storage that fails under a run another client follows', () => {
  it('the follower is not counted as having read the run’s end: the approval the run raises once produced again is unseen, and a new message cancels it', async () => {
    const inner = openMemoryStorage();
    let full = false;
    const storage: Storage = Object.create(inner);
    storage.appendEvent = async (id, index, frame) => {
      if (full) throw new StorageUnavailable('ENOSPC: no space left on device');
      return inner.appendEvent(id, index, frame);
    };
    const server = await startServer({ storage });
    const thread = 't-followed';
    // The run's own client, and a second one that reconnects to it and follows it (a second tab); paced slowly, so
    // that the run is still being produced when the disk fills.
    const own = await post(server, '/agents/refund?speed=0.2', userInput(thread, 'r1'));
    const reader = own.body?.getReader();
    const first = parseFrames(new TextDecoder().decode((await reader?.read())?.value)).find((f) => f.id !== undefined);
    const follower = await post(server, '/agents/refund?speed=0.2', userInput(thread, 'r1'), { 'Last-Event-ID': first?.id ?? '' });
    expect(follower.status).toBe(200);
    await expect.poll(async () => ((await (await fetch(`${server.url}/health`)).json()) as { streams: number }).streams).toBe(2);
    // The disk fills before the run's end: both streams end short, neither with the run's end.
    full = true;
    expect((await readEvents(follower)).some((e) => e.event.type === 'RUN_FINISHED')).toBe(false);
    await reader?.cancel();
    full = false;
    // Produced again without a client: its approval is raised, and no client saw it.
    await expect.poll(async () => (await inner.unfinished()).length, { timeout: 20_000, interval: 100 }).toBe(0);
    expect((await inner.events('r1', 0, 1_000)).at(-1)).toContain('"RUN_FINISHED"');
    const next = await post(server, '/agents/refund?speed=0', userInput(thread, 'r2', 'Never mind: what is your return policy?'));
    expect(next.status).toBe(200);
    expect((await readEvents(next)).at(-1)?.event.type).toBe('RUN_FINISHED');
  }, 30_000);
});

describe('a full disk (every write refused, reads answered) while the run it cut waits to be tried again, with maxRuns 1', () => {
  it('a new run is told storage is unavailable (503 STORAGE_UNAVAILABLE, Retry-After), not that the server is busy with runs', async () => {
    const inner = openMemoryStorage();
    let full = false;
    let writes = 0;
    const storage: Storage = Object.create(inner);
    const refuse = () => {
      if (!full) return;
      writes++;
      throw new StorageUnavailable('ENOSPC: no space left on device');
    };
    storage.beginRun = async (run, ...rest) => {
      refuse();
      const outcome = await inner.beginRun(run, ...rest);
      // The disk fills as the approval is taken: its refund and its events cannot be written.
      if (run.runId === 'r2') full = true;
      return outcome;
    };
    storage.appendEvent = async (...args) => {
      refuse();
      return inner.appendEvent(...args);
    };
    storage.performEffect = async (...args) => {
      refuse();
      return inner.performEffect(...args);
    };
    const server = await startServer({ storage, maxRuns: 1 });
    const approval = await approvalOf(server);
    await readEvents(await post(server, '/agents/refund?speed=0', approval));
    const refused = writes;
    await expect.poll(() => writes, { timeout: 5_000, interval: 20 }).toBeGreaterThan(refused);
    const fresh = await post(server, '/agents/refund?speed=0', userInput('t-new', 'new'));
    expect(fresh.status).toBe(503);
    expect(Number(fresh.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await fresh.json()).toMatchObject({ error: { code: 'STORAGE_UNAVAILABLE' } });
    full = false;
    await expect.poll(async () => (await inner.unfinished()).length, { timeout: 10_000, interval: 100 }).toBe(0);
    expect((await inner.effects()).filter((e) => e.kind === 'refund')).toHaveLength(1);
    const next = await post(server, '/agents/refund?speed=0', userInput('t-next', 'next'));
    expect(next.status).toBe(200);
    await readEvents(next);
  }, 30_000);
});

describe('room taken by runs storage failed under and by runs being produced at once', () => {
  /** The run r2 cut by a full disk, waiting to be tried again with its room kept; then a run paced for 1,000 s, read by its client. */
  async function heldAndPaced(options: { maxRuns: number; maxRunInputBytes?: number; pad?: number }) {
    const { storage, free, refusals } = fullFor('r2');
    const server = await startServer({ storage, ...options });
    const approval = await approvalOf(server);
    await readEvents(await post(server, '/agents/refund?speed=0', approval));
    const refused = refusals();
    await expect.poll(refusals, { timeout: 5_000, interval: 20 }).toBeGreaterThan(refused);
    const paced = await post(server, '/agents/fast-stream', {
      ...userInput('t-paced', 'paced', 'x'.repeat(options.pad ?? 0)),
      forwardedProps: { tokens: 100, tokenDelayMs: 10_000 },
    });
    expect(paced.status).toBe(200);
    return { server, free, paced };
  }

  it('with maxRuns 2, one room kept by a run storage failed under and the other by a paced run, a new run is told TOO_MANY_RUNS: the paced run’s end frees room whether or not storage comes back', async () => {
    const { server, free, paced } = await heldAndPaced({ maxRuns: 2 });
    const fresh = await post(server, '/agents/refund?speed=0', userInput('t-new', 'new'));
    expect(fresh.status).toBe(503);
    expect(await fresh.json()).toMatchObject({ error: { code: 'TOO_MANY_RUNS' } });
    await paced.body?.cancel();
    free();
  }, 30_000);

  it('with the request bodies’ bytes taken by a paced run, a new run refused for bytes is told TOO_MANY_RUNS, though a run storage failed under holds a few of them', async () => {
    // The paced run's body holds about 60 KB of the 64 KB; the run cut by the disk holds well under 1 KB.
    const { server, free, paced } = await heldAndPaced({ maxRuns: 10, maxRunInputBytes: 64 * 1024, pad: 60_000 });
    const fresh = await post(server, '/agents/refund?speed=0', userInput('t-new', 'new', 'y'.repeat(8_000)));
    expect(fresh.status).toBe(503);
    expect(await fresh.json()).toMatchObject({ error: { code: 'TOO_MANY_RUNS' } });
    await paced.body?.cancel();
    free();
  }, 30_000);
});

describe('storage that fails under a run, and its client comes back while it waits to be tried again, with maxRunsPerAddress', () => {
  it('with maxRunsPerAddress 1, the client that comes back has the run produced in the room the run kept: not refused 429 for its own run', async () => {
    const { storage, inner, free, refusals } = fullFor('r2');
    const server = await startServer({ storage, maxRuns: 10, maxRunsPerAddress: 1 });
    const approval = await approvalOf(server);
    await readEvents(await post(server, '/agents/refund?speed=0', approval));
    // Tried again twice and failed (after 0.5 s, then 1 s): the next try is 2 s away.
    const refused = refusals();
    await expect.poll(refusals, { timeout: 5_000, interval: 20 }).toBeGreaterThanOrEqual(refused + 2);
    free();
    const back = await post(server, '/agents/refund?speed=0', approval);
    if (back.status !== 200) console.info(`its client come back: ${back.status} ${await back.clone().text()}`);
    expect(back.status).toBe(200);
    expect((await readEvents(back)).at(-1)?.event.type).toBe('RUN_FINISHED');
    expect((await inner.effects()).filter((e) => e.kind === 'refund')).toHaveLength(1);
    // Produced, the run no longer counts for the address: its next run is taken.
    const next = await post(server, '/agents/refund?speed=0', userInput('t-next', 'next'));
    expect(next.status).toBe(200);
    await readEvents(next);
  }, 30_000);

  it('with maxRunsPerAddress 2, the run its client came back for counts once for the address: another run of the address is taken meanwhile', async () => {
    const { storage, free, refusals } = fullFor('r2');
    const server = await startServer({ storage, maxRuns: 10, maxRunsPerAddress: 2 });
    const approval = await approvalOf(server);
    await readEvents(await post(server, '/agents/refund?speed=0', approval));
    const refused = refusals();
    await expect.poll(refusals, { timeout: 5_000, interval: 20 }).toBeGreaterThanOrEqual(refused + 2);
    free();
    // The client comes back and reads the run at its pace (it holds its producer for a few seconds).
    const back = await post(server, '/agents/refund?speed=0.5', approval);
    expect(back.status).toBe(200);
    const reader = back.body?.getReader();
    await reader?.read();
    const other = await post(server, '/agents/refund?speed=0', userInput('t-other', 'other'));
    if (other.status !== 200) console.info(`another run of the address: ${other.status} ${await other.clone().text()}`);
    expect(other.status).toBe(200);
    await readEvents(other);
    await reader?.cancel();
  }, 30_000);
});
