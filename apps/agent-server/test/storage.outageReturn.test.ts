/**
 * A client that comes back for its own run while storage keeps failing under it: it is the run's own, so it produces
 * the run in the room the run kept, and its return neither pushes the run's tries back nor makes it give its room
 * up sooner. A 503 it is told says when the run is tried next.
 */
import { describe, expect, it } from 'vitest';
import { openMemoryStorage } from '../src/storage/memory.js';
import { type Storage, StorageUnavailable } from '../src/storage/types.js';
import { interruptsOf, post, readEvents, startServer, userInput } from './support.js';

type Server = Awaited<ReturnType<typeof startServer>>;

const health = async (server: Server) => (await (await fetch(`${server.url}/health`)).json()) as { runs: number; retrying: number };

/**
 * The run `paced`, paced for 20 s, produced to its end ahead of its pace (its client read its first event and went),
 * its log's events from `KEPT` on acknowledged and lost (a Redis failover: the server keeps the run's pace). Its
 * later writes of them are refused while `full`.
 */
async function producedAheadTailLost(options: { maxRunInputBytes?: (bytes: number) => number } = {}) {
  const inner = openMemoryStorage();
  const state = { mode: 'dropping' as 'dropping' | 'full' | 'unread' | 'ok' };
  const storage: Storage = Object.create(inner);
  // `unread`: pages of its log cannot be read (a single event can).
  storage.events = async (id, from, limit) => {
    if (id === 'paced' && limit > 1 && state.mode === 'unread') throw new StorageUnavailable('ENOSPC: no space left on device');
    return inner.events(id, from, limit);
  };
  storage.appendEvent = async (id, index, frame) => {
    if (id === 'paced' && index >= KEPT && state.mode === 'dropping') return true;
    if (id === 'paced' && index >= KEPT && state.mode === 'full') throw new StorageUnavailable('ENOSPC: no space left on device');
    return inner.appendEvent(id, index, frame);
  };
  const input = { ...userInput('t-paced', 'paced'), forwardedProps: { tokens: 20, tokenDelayMs: 1_000 } };
  const bytes = Buffer.byteLength(JSON.stringify(input));
  const server = await startServer({ storage, ...(options.maxRunInputBytes ? { maxRunInputBytes: options.maxRunInputBytes(bytes) } : {}) });
  const own = await post(server, '/agents/fast-stream', input);
  const reader = own.body?.getReader();
  await reader?.read();
  await reader?.cancel();
  await expect.poll(async () => (await health(server)).runs, { timeout: 5_000, interval: 20 }).toBe(0);
  expect(await inner.events('paced', 0, 100)).toHaveLength(KEPT);
  state.mode = 'ok';
  return { server, inner, input, state };
}

const KEPT = 3;

describe('a run produced ahead of its pace whose log lost its tail (a Redis failover)', () => {
  it('its client, reconnecting from an event the log holds, has the rest made again: it reads the run’s end, and the log holds it', async () => {
    const { server, inner, input } = await producedAheadTailLost();
    const back = await post(server, '/agents/fast-stream?speed=0', input, { 'Last-Event-ID': 'paced:0' });
    expect(back.status).toBe(200);
    const events = await readEvents(back);
    console.info(`reconnected from paced:0 to a log of ${KEPT} events: read ${events.length}, the last ${events.at(-1)?.event.type}`);
    expect(events.at(-1)?.event.type).toBe('RUN_FINISHED');
    expect((await inner.events('paced', 0, 100)).at(-1)).toContain('RUN_FINISHED');
  }, 30_000);

  it('its client, sending the run again, has the rest made again: it reads the run to its end', async () => {
    const { server, input } = await producedAheadTailLost();
    const again = await readEvents(await post(server, '/agents/fast-stream?speed=0', input));
    expect(again[0]?.id).toBe('paced:0');
    expect(again.at(-1)?.event.type).toBe('RUN_FINISHED');
  }, 30_000);

  it('storage failing before the first byte as its client has the rest made again, the client is told 503 with Retry-After the time to the run’s first try', async () => {
    const { server, inner, input, state } = await producedAheadTailLost();
    state.mode = 'unread';
    const again = await post(server, '/agents/fast-stream?speed=0', input);
    expect(again.status).toBe(503);
    expect(await again.json()).toMatchObject({ error: { code: 'STORAGE_UNAVAILABLE' } });
    console.info(`storage failing before the first byte: 503, Retry-After ${again.headers.get('retry-after')}`);
    // Tried again after 0.5 s.
    expect(again.headers.get('retry-after')).toBe('1');
    state.mode = 'ok';
    await expect
      .poll(async () => (await inner.events('paced', 0, 100)).at(-1), { timeout: 10_000, interval: 50 })
      .toContain('RUN_FINISHED');
  }, 30_000);

  it('storage failing as the run is made again, its client, come back while it waits to be tried again, takes the room the run kept: not refused for its own run’s bytes', async () => {
    // Room for one body of the run, not two.
    const { server, inner, input, state } = await producedAheadTailLost({ maxRunInputBytes: (bytes) => Math.floor(bytes * 1.5) });
    // The client reconnects past what the log holds: the run is made again from its start, and storage fails under it.
    state.mode = 'full';
    const cut = await post(server, '/agents/fast-stream', input, { 'Last-Event-ID': 'paced:10' });
    expect(cut.status).toBe(200);
    await cut.text();
    expect(await health(server)).toMatchObject({ runs: 0, retrying: 1 });
    // It comes back from the last event it has, before the run's next try: the run's own, in the room the run kept.
    const back = await post(server, '/agents/fast-stream', input, { 'Last-Event-ID': 'paced:0' });
    if (back.status !== 200) console.info(`its client come back: ${back.status} ${await back.text()}`);
    expect(back.status).toBe(200);
    await back.text();
    state.mode = 'ok';
    await expect
      .poll(async () => (await inner.events('paced', 0, 100)).at(-1), { timeout: 10_000, interval: 50 })
      .toContain('RUN_FINISHED');
  }, 30_000);
});

/** Memory storage whose disk is full for run r2 (its writes refused, reads answered) from its beginning on, until `free()`. */
function fullDisk(): { storage: Storage; inner: Storage; free: () => void; writes: () => number } {
  const inner = openMemoryStorage();
  let full = false;
  let writes = 0;
  const storage: Storage = Object.create(inner);
  const refuse = (runId: string) => {
    if (!full || runId !== 'r2') return;
    writes++;
    throw new StorageUnavailable('ENOSPC: no space left on device');
  };
  storage.beginRun = async (run, ...rest) => {
    const outcome = await inner.beginRun(run, ...rest);
    if (run.runId === 'r2') full = true;
    return outcome;
  };
  storage.appendEvent = async (runId, ...rest) => {
    refuse(runId);
    return inner.appendEvent(runId, ...rest);
  };
  storage.performEffect = async (effect) => {
    refuse(effect.runId);
    return inner.performEffect(effect);
  };
  return {
    storage,
    inner,
    free: () => {
      full = false;
    },
    writes: () => writes,
  };
}

/** The refund asked for in run r1, and run r2 that approves it, cut by a full disk (its client gone); maxRuns 1. */
async function approvalCut(source: { storage: Storage }) {
  const server = await startServer({ storage: source.storage, maxRuns: 1 });
  const first = await readEvents(await post(server, '/agents/refund?speed=0', userInput('t', 'r1')));
  const id = interruptsOf(first)[0]?.id ?? '';
  const approval = {
    ...userInput('t', 'r2'),
    messages: [],
    resume: [{ interruptId: id, status: 'resolved', payload: { approved: true } }],
  };
  await readEvents(await post(server, '/agents/refund?speed=0', approval));
  return { server, approval };
}

describe('storage failing under a run, its client coming back again and again meanwhile, with maxRuns 1', () => {
  it('the returns leave the run’s tries where they were: it keeps its room, and a new run is told STORAGE_UNAVAILABLE with Retry-After the time to its next try', async () => {
    const disk = fullDisk();
    const { server, approval } = await approvalCut(disk);
    const failed = performance.now();
    // A client that comes back every 50 ms for 1 s (a reconnect loop with no pause of its own).
    let returns = 0;
    while (performance.now() - failed < 1_000) {
      const back = await post(server, '/agents/refund?speed=0', approval);
      await back.text();
      returns++;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const fresh = await post(server, '/agents/refund?speed=0', userInput('t-new', 'new'));
    const text = await fresh.text();
    const code = fresh.status === 503 ? (JSON.parse(text) as { error: { code: string } }).error.code : 'none: the run is taken';
    const retryAfter = Number(fresh.headers.get('retry-after'));
    console.info(
      `${returns} returns of its client in 1 s, ${disk.writes()} writes refused: a new run is told ${fresh.status} ${code}, Retry-After ${retryAfter} s`,
    );
    // Tried after 0.5 s and 1 s more of the outage: the next try is at most 2 s away, and the run keeps its room.
    expect(fresh.status).toBe(503);
    expect(code).toBe('STORAGE_UNAVAILABLE');
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(2);
    disk.free();
    await expect.poll(async () => (await disk.inner.unfinished()).length, { timeout: 10_000, interval: 100 }).toBe(0);
    expect((await disk.inner.effects()).filter((e) => e.kind === 'refund')).toHaveLength(1);
  }, 30_000);

  it('its client told 503 as storage fails before its first byte is told Retry-After the time to the run’s next try', async () => {
    // Reads of the run's log refused too (SQLite refuses a read that needs the WAL to grow): the client's return fails
    // before its stream begins.
    const inner = openMemoryStorage();
    let full = false;
    const storage: Storage = Object.create(inner);
    storage.appendEvent = async (id, index, frame) => {
      if (full && id === 'r2') throw new StorageUnavailable('ENOSPC: no space left on device');
      return inner.appendEvent(id, index, frame);
    };
    storage.events = async (id, from, limit) => {
      if (full && id === 'r2') throw new StorageUnavailable('ENOSPC: no space left on device');
      return inner.events(id, from, limit);
    };
    storage.beginRun = async (run, ...rest) => {
      const outcome = await inner.beginRun(run, ...rest);
      if (run.runId === 'r2') full = true;
      return outcome;
    };
    const { server, approval } = await approvalCut({ storage });
    expect(await health(server)).toMatchObject({ retrying: 1 });
    const back = await post(server, '/agents/refund?speed=0', approval);
    expect(back.status).toBe(503);
    expect(await back.json()).toMatchObject({ error: { code: 'STORAGE_UNAVAILABLE' } });
    const retryAfter = back.headers.get('retry-after');
    console.info(`its client come back as storage fails: 503, Retry-After ${retryAfter}`);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    // The first try is 0.5 s after the failure.
    expect(Number(retryAfter)).toBeLessThanOrEqual(1);
    full = false;
    const last = await readEvents(await post(server, '/agents/refund?speed=0', approval));
    expect(last.at(-1)?.event.type).toBe('RUN_FINISHED');
  }, 30_000);
});
