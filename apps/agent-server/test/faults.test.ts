/**
 * The refund flow against the real server in a child process, on SQLite,
 * through the faults a machine has:
 *
 * - kill -9 at 50 seeded points of the flow: the server kills itself at the
 *   n-th storage write (`AGENT_FAULT_KILL_AT`), just before its transaction,
 *   inside it (statements run, commit not yet), or just after its commit;
 *   then it is started again and the client retries (the same approval, the
 *   same run id and body, and a reconnect with `Last-Event-ID`);
 * - a full disk: a small tmpfs the test mounts and fills, then frees.
 *
 * After each: exactly one refund, in `GET /effects` and in the database file
 * itself, and every run's event log whole (indices 0..n-1, each once), with
 * no event lost or doubled on the client's side either.
 *
 * The server is bundled once with esbuild (which tsx brings) so a start
 * takes a fraction of what compiling its TypeScript on each start would.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  truncateSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunAgentInput } from '@aguikit/core';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStorage } from '../src/storage/sqlite.js';
import { effectRecord, runRecord, threadRecord } from './storageContract.js';

const APP = fileURLToPath(new URL('..', import.meta.url));
const BUNDLE = join(APP, 'node_modules', '.cache', 'faults', 'server.mjs');
const POINTS = 50;
const SEED = 0xfa_017;
/** Flows run side by side: each has its own data directory and port. */
const PARALLEL = 4;
/** Data on a RAM disk where there is one: the fsyncs of thousands of writes would otherwise be most of the test's time. */
const DATA_ROOT = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();

interface WireEvent {
  id: string;
  event: { type: string } & Record<string, unknown>;
}

/** A small seeded PRNG (mulberry32): the same points on every machine and every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

beforeAll(async () => {
  // esbuild is tsx's: resolved from there rather than made a dependency of its own.
  const requireFromTsx = createRequire(createRequire(join(APP, 'package.json')).resolve('tsx'));
  const esbuild = requireFromTsx('esbuild') as { build(options: Record<string, unknown>): Promise<unknown> };
  mkdirSync(join(BUNDLE, '..'), { recursive: true });
  await esbuild.build({
    entryPoints: [join(APP, 'src', 'main.ts')],
    outfile: BUNDLE,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@aguikit/source'],
    logLevel: 'error',
    // Installed packages too, in one file (a start reads one module, not hundreds); the native SQLite addon as it is.
    external: ['better-sqlite3'],
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  });
}, 60_000);

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

interface Child {
  url: string;
  process: ChildProcess;
  exited: Promise<NodeJS.Signals | number | null>;
  output: () => string;
}

/**
 * Starts the server on `dir` (with a fault point, when given) and waits until it listens. A port found free can be
 * taken by another process before the child listens on it (tests run side by side): the child then says EADDRINUSE,
 * and is started again on another.
 */
async function startChild(dir: string, faultKillAt?: string): Promise<Child> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startChildOn(await freePort(), dir, faultKillAt);
    } catch (e) {
      if (attempt === 5 || !(e instanceof PortTaken)) throw e;
    }
  }
}

class PortTaken extends Error {}

async function startChildOn(port: number, dir: string, faultKillAt?: string): Promise<Child> {
  const child = spawn(process.execPath, [BUNDLE], {
    cwd: APP,
    env: {
      ...process.env,
      PORT: String(port),
      AGENT_DATA_DIR: dir,
      AGENT_LOG_LEVEL: 'warn',
      AGENT_FAULT_KILL_AT: faultKillAt ?? '',
      REDIS_URL: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => {
    output += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    output += d.toString();
  });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
  const url = `http://127.0.0.1:${port}`;
  const ready = await Promise.race([
    (async () => {
      for (;;) {
        if (output.includes('aguikit agent server on')) return true;
        await new Promise((r) => setTimeout(r, 20));
      }
    })(),
    exited.then(() => false),
    new Promise<boolean>((r) => setTimeout(() => r(false), 30_000)),
  ]);
  if (!ready) {
    child.kill('SIGKILL');
    if (output.includes('EADDRINUSE')) throw new PortTaken(output);
    throw new Error(`The server did not start:\n${output}`);
  }
  return { url, process: child, exited, output: () => output };
}

async function stopChild(child: Child): Promise<void> {
  if (child.process.exitCode === null && child.process.signalCode === null) child.process.kill('SIGKILL');
  await child.exited;
}

interface Streamed {
  status: number;
  events: WireEvent[];
  /** The run's last event (RUN_FINISHED or RUN_ERROR) arrived. */
  finished: boolean;
  body?: unknown;
}

/** POSTs a run (or a reconnect, with `lastEventId`) and reads its SSE until it ends or the connection breaks. */
async function streamRun(url: string, input: unknown, lastEventId?: string): Promise<Streamed> {
  let response: Response;
  try {
    response = await fetch(`${url}/agents/refund?speed=0`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'text/event-stream',
        ...(lastEventId ? { 'Last-Event-ID': lastEventId } : {}),
      },
      body: JSON.stringify(input),
      signal: AbortSignal.timeout(20_000),
    });
  } catch {
    // The server died before it answered.
    return { status: 0, events: [], finished: false };
  }
  if (response.status !== 200)
    return { status: response.status, events: [], finished: false, body: await response.json().catch(() => undefined) };
  const events: WireEvent[] = [];
  let text = '';
  try {
    const decoder = new TextDecoder();
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) text += decoder.decode(chunk, { stream: true });
  } catch {
    // Cut off: the frames that arrived whole count.
  }
  const blocks = text.split('\n\n');
  blocks.pop();
  for (const block of blocks) {
    const lines = block.split('\n');
    if (lines.every((l) => l.startsWith(':'))) continue;
    const id = lines.find((l) => l.startsWith('id: '))?.slice(4);
    const data = lines.find((l) => l.startsWith('data: '))?.slice(6);
    if (id === undefined || data === undefined) throw new Error(`A frame without id or data: ${block}`);
    events.push({ id, event: JSON.parse(data) as WireEvent['event'] });
  }
  const last = events.at(-1)?.event.type;
  return { status: 200, events, finished: last === 'RUN_FINISHED' || last === 'RUN_ERROR' };
}

function userInput(threadId: string, runId: string): RunAgentInput {
  return {
    threadId,
    runId,
    messages: [{ id: `${runId}-user`, role: 'user', content: 'My teapot from order A-1001 arrived broken. Can I get a refund?' }],
    tools: [],
    context: [],
  };
}

function approvalInput(threadId: string, runId: string, interruptId: string): RunAgentInput {
  return {
    threadId,
    runId,
    messages: [],
    tools: [],
    context: [],
    resume: [{ interruptId, status: 'resolved', payload: { approved: true } }],
  };
}

/** The id of the approval the first run's RUN_FINISHED asks for. */
function interruptOf(events: readonly WireEvent[]): string {
  const outcome = events.at(-1)?.event.outcome as { interrupts?: { id: string }[] } | undefined;
  const id = outcome?.interrupts?.[0]?.id;
  if (typeof id !== 'string') throw new Error('The first run did not end with an interrupt.');
  return id;
}

/** Checks a run's events as a client put them together: ids `<runId>:0..n-1`, each once, in order. */
function expectWhole(events: readonly WireEvent[], runId: string) {
  expect(events.map((e) => e.id)).toEqual(events.map((_, i) => `${runId}:${i}`));
  expect(events.at(-1)?.event.type).toBe('RUN_FINISHED');
}

/**
 * Runs a request to its end through kills: when the stream breaks, the
 * server is started again if it died, and the client reconnects with the
 * last event id it holds, or sends the same request again when it holds none.
 */
async function complete(state: Slot, input: unknown, runId: string, received: WireEvent[]): Promise<WireEvent[]> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const last = received.at(-1)?.id;
    const got = await streamRun(state.child.url, input, last);
    if (got.status !== 0 && got.status !== 200) throw new Error(`HTTP ${got.status}: ${JSON.stringify(got.body)}\n${state.child.output()}`);
    received.push(...got.events);
    if (got.finished) return received;
    // Cut short: only a server that died does that here.
    const exit = await Promise.race([state.child.exited, new Promise((r) => setTimeout(() => r('alive'), 5_000))]);
    if (exit === 'alive') throw new Error(`The stream of ${runId} ended short with the server alive:\n${state.child.output()}`);
    expect(exit).toBe('SIGKILL');
    // The fault point is spent: the server started again runs without one.
    if (state.faultFile) writeFileSync(state.faultFile, '');
    state.child = await startChild(state.dir, state.faultFile && `@${state.faultFile}`);
    state.restarts++;
  }
  throw new Error(`The run ${runId} did not finish after 5 attempts.`);
}

/** A server and its data directory, serving flows one after another; its fault point is read from `faultFile`. */
interface Slot {
  child: Child;
  dir: string;
  faultFile?: string;
  restarts: number;
}

async function openSlot(withFaults: boolean): Promise<Slot> {
  const dir = mkdtempSync(join(DATA_ROOT, 'aguikit-faults-'));
  const faultFile = withFaults ? join(dir, 'fault-point') : undefined;
  if (faultFile) writeFileSync(faultFile, '');
  return {
    child: await startChild(join(dir, 'data'), faultFile && `@${faultFile}`),
    dir: join(dir, 'data'),
    ...(faultFile ? { faultFile } : {}),
    restarts: 0,
  };
}

async function closeSlot(slot: Slot): Promise<void> {
  await stopChild(slot.child);
  rmSync(join(slot.dir, '..'), { recursive: true, force: true });
}

interface FlowResult {
  restarts: number;
  refunds: number;
  storedRefunds: number;
}

/** The whole refund flow on a slot, with a fault point when given; asserts everything and returns what it saw. */
async function flow(slot: Slot, name: string, faultKillAt?: string): Promise<FlowResult> {
  const thread = `thread-${name}`;
  const first = `run-${name}-1`;
  const second = `run-${name}-2`;
  const restartsBefore = slot.restarts;
  if (faultKillAt) writeFileSync(slot.faultFile as string, faultKillAt);
  const events1 = await complete(slot, userInput(thread, first), first, []);
  expectWhole(events1, first);
  const interruptId = interruptOf(events1);
  const approval = approvalInput(thread, second, interruptId);
  const events2 = await complete(slot, approval, second, []);
  expectWhole(events2, second);
  if (slot.faultFile) writeFileSync(slot.faultFile, '');
  // The same approval again, from the start: the same events, and no second refund.
  const again = await streamRun(slot.child.url, approval);
  expect(again.status).toBe(200);
  expect(again.events).toEqual(events2);
  const effects = (await (await fetch(`${slot.child.url}/effects`)).json()) as { kind: string; key: string }[];
  const refunds = effects.filter((e) => e.kind === 'refund' && e.key === interruptId).length;
  // The database file itself (read beside the server, as WAL lets): one refund, and each run's log whole.
  const db = new Database(join(slot.dir, 'agent.db'), { readonly: true });
  try {
    const storedRefunds = db
      .prepare("SELECT count(*) FROM effects WHERE json_extract(record, '$.kind') = 'refund' AND json_extract(record, '$.key') = ?")
      .pluck()
      .get(interruptId) as number;
    for (const [runId, events] of [
      [first, events1],
      [second, events2],
    ] as const) {
      const indices = db.prepare('SELECT idx FROM events WHERE run_id = ? ORDER BY idx').pluck().all(runId) as number[];
      expect(indices).toEqual(events.map((_, i) => i));
    }
    return { restarts: slot.restarts - restartsBefore, refunds, storedRefunds };
  } finally {
    db.close();
  }
}

describe('a run cut off by kill -9 while it is paced for its client', () => {
  it('is finished once the server starts again, without its client: the approved refund is made, once, and its log is whole', async () => {
    const dir = mkdtempSync(join(DATA_ROOT, 'aguikit-orphan-'));
    let child = await startChild(dir);
    try {
      const first = await streamRun(child.url, userInput('orphan-thread', 'orphan-1'));
      const approval = approvalInput('orphan-thread', 'orphan-2', interruptOf(first.events));
      // The approval, played slowly while its client reads it (a run its clients left is produced at once).
      const response = await fetch(`${child.url}/agents/refund?speed=0.2`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
        body: JSON.stringify(approval),
      });
      expect(response.status).toBe(200);
      const reader = response.body?.getReader();
      await reader?.read();
      await stopChild(child);
      await reader?.cancel().catch(() => undefined);
      // Killed before the refund: the run was taken (the thread counts the approval as given), nothing was done yet.
      const before = new Database(join(dir, 'agent.db'), { readonly: true });
      try {
        expect(before.prepare('SELECT count(*) FROM effects').pluck().get()).toBe(0);
        expect(before.prepare('SELECT count(*) FROM runs WHERE run_id = ?').pluck().get('orphan-2')).toBe(1);
      } finally {
        before.close();
      }
      child = await startChild(dir);
      const refunds = async () =>
        ((await (await fetch(`${child.url}/effects`)).json()) as { kind: string }[]).filter((e) => e.kind === 'refund').length;
      await expect.poll(refunds, { timeout: 10_000 }).toBe(1);
      // The run's log holds it to its end: the client coming back reads it whole, and nothing is done twice.
      const back = await streamRun(child.url, approval);
      expectWhole(back.events, 'orphan-2');
      expect(await refunds()).toBe(1);
    } finally {
      await stopChild(child);
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('kill -9 anywhere in the refund flow', () => {
  let writes = 0;

  it('makes one refund and whole event logs with no fault (and counts the storage writes of the flow)', async () => {
    const slot = await openSlot(false);
    try {
      expect(await flow(slot, 'dry')).toEqual({ restarts: 0, refunds: 1, storedRefunds: 1 });
    } finally {
      await closeSlot(slot);
    }
    // Two runs, their events, one effect: what the fault points are drawn from.
    const { findScenario, scenarioEvents } = await import('@aguikit/scenarios');
    const refund = findScenario('refund');
    if (!refund) throw new Error('no refund scenario');
    const input = userInput('t', 'r');
    const firstEvents = scenarioEvents(refund, input);
    const secondEvents = scenarioEvents(refund, approvalInput('t', 'r2', 'r-refund-approval'));
    writes = 2 + firstEvents.length + secondEvents.length + 1;
    expect(writes).toBeGreaterThan(20);
  }, 60_000);

  it(`makes exactly one refund, and loses or doubles no event, when killed at ${POINTS} seeded points`, async () => {
    expect(writes).toBeGreaterThan(0);
    const random = prng(SEED);
    const phases = ['before', 'inside', 'after'] as const;
    // The writes that matter most, every way; the rest drawn across the whole flow.
    const points = [
      'effect:1:before',
      'effect:1:inside',
      'effect:1:after',
      'run:1:inside',
      'run:2:before',
      'run:2:inside',
      'run:2:after',
      'event:1:after',
    ];
    while (points.length < POINTS) points.push(`any:${1 + Math.floor(random() * writes)}:${phases[Math.floor(random() * 3)]}`);
    const results: (FlowResult & { point: string })[] = [];
    let next = 0;
    // Each slot's server takes one point after another: started again after each kill, never twice per point.
    await Promise.all(
      Array.from({ length: PARALLEL }, async () => {
        const slot = await openSlot(true);
        try {
          while (next < points.length) {
            const i = next++;
            const point = points[i] as string;
            results.push({ point, ...(await flow(slot, `p${i}`, point)) });
          }
        } finally {
          await closeSlot(slot);
        }
      }),
    );
    expect(results).toHaveLength(POINTS);
    for (const r of results)
      expect({ point: r.point, refunds: r.refunds, storedRefunds: r.storedRefunds }).toEqual({
        point: r.point,
        refunds: 1,
        storedRefunds: 1,
      });
    // Every point killed the server (each is a write the flow makes), and the flow went on after it.
    expect(results.filter((r) => r.restarts === 0).map((r) => r.point)).toEqual([]);
  }, 300_000);
});

/** Mounts a tmpfs of `size` on a new directory; undefined when mounting is not permitted here. */
function mountTmpfs(size: string): string | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'aguikit-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'pipe' });
    return dir;
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    console.warn(
      `Skipping the full-disk test: mounting a tmpfs is not permitted here (${e instanceof Error ? e.message.split('\n')[0] : e}).`,
    );
    return undefined;
  }
}

const disk = process.platform === 'linux' ? mountTmpfs('2m') : undefined;

describe.skipIf(!disk)('a full disk', () => {
  const mount = disk as string;
  afterAll(() => {
    try {
      execFileSync('umount', ['-l', mount], { stdio: 'pipe' });
    } finally {
      rmSync(mount, { recursive: true, force: true });
    }
  });

  /** Writes files of zeros until the disk refuses more. */
  function fill(dir: string): void {
    const block = Buffer.alloc(4096);
    for (let n = 0; ; n++) {
      try {
        appendFileSync(join(dir, `filler-${Math.floor(n / 64)}`), block);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOSPC') return;
        throw e;
      }
    }
  }

  const free = (dir: string) => {
    for (const f of readdirSync(dir)) if (f.startsWith('filler-')) unlinkSync(join(dir, f));
  };

  it('refuses the approval with 503 and records nothing, then refunds exactly once after space is freed and a restart', async () => {
    const dir = join(mount, 'data');
    const filler = join(mount, 'filler');
    mkdirSync(filler, { recursive: true });
    let child = await startChild(dir);
    try {
      const first = await streamRun(child.url, userInput('disk-thread', 'disk-1'));
      expect(first.finished).toBe(true);
      const interruptId = interruptOf(first.events);
      const approval = approvalInput('disk-thread', 'disk-2', interruptId);

      fill(filler);
      for (let attempt = 0; attempt < 3; attempt++) {
        const refused = await streamRun(child.url, approval);
        expect(refused.status).toBe(503);
        expect(refused.body).toMatchObject({ error: { code: 'STORAGE_UNAVAILABLE' } });
      }
      // Nothing was done, nor listed as done.
      expect(await (await fetch(`${child.url}/effects`)).json()).toEqual([]);
      expect((await fetch(`${child.url}/health`)).status).toBe(200);

      free(filler);
      await stopChild(child);
      child = await startChild(dir);
      const done = await streamRun(child.url, approval);
      expect(done.finished).toBe(true);
      expect(done.events.some((e) => e.event.type === 'TOOL_CALL_RESULT' && String(e.event.content).includes('refunded'))).toBe(true);
      const retried = await streamRun(child.url, approval);
      expect(retried.events).toEqual(done.events);
      const effects = (await (await fetch(`${child.url}/effects`)).json()) as { kind: string }[];
      expect(effects.filter((e) => e.kind === 'refund')).toHaveLength(1);
      await stopChild(child);
      const db = new Database(join(dir, 'agent.db'), { readonly: true });
      try {
        expect(db.prepare('SELECT count(*) FROM effects').pluck().get()).toBe(1);
        expect(db.prepare('SELECT idx FROM events WHERE run_id = ? ORDER BY idx').pluck().all('disk-2')).toEqual(
          done.events.map((_, i) => i),
        );
      } finally {
        db.close();
      }
    } finally {
      await stopChild(child);
    }
  }, 60_000);

  it('never lists a refund it did not store when the disk fills in the middle of the approval run', async () => {
    // The approval is accepted with a little room left, so the disk runs out somewhere in its events or its effect.
    const dir = join(mount, 'data-mid');
    const filler = join(mount, 'filler-mid');
    mkdirSync(filler, { recursive: true });
    let child = await startChild(dir);
    try {
      const first = await streamRun(child.url, userInput('mid-thread', 'mid-1'));
      const interruptId = interruptOf(first.events);
      const approval = approvalInput('mid-thread', 'mid-2', interruptId);
      fill(filler);
      // Free a few pages: enough for the run to begin, not for all it writes.
      const last = join(filler, readdirSync(filler).sort().at(-1) as string);
      truncateSync(last, Math.max(0, statSync(last).size - 8 * 4096));
      const partial = await streamRun(child.url, approval);
      const listed = (await (await fetch(`${child.url}/effects`)).json()) as { kind: string }[];
      await stopChild(child);
      const db = new Database(join(dir, 'agent.db'), { readonly: true });
      const stored = db.prepare('SELECT count(*) FROM effects').pluck().get() as number;
      db.close();
      // What the server said it did is what is on disk.
      expect(listed.length).toBe(stored);
      const reportedRefund = partial.events.some((e) => e.event.type === 'TOOL_CALL_RESULT');
      if (reportedRefund) expect(stored).toBe(1);
      // The disk did run out in the middle of the run.
      expect(partial.finished).toBe(false);

      free(filler);
      child = await startChild(dir);
      const done = partial.finished ? partial.events : await complete({ child, dir, restarts: 0 }, approval, 'mid-2', [...partial.events]);
      expectWhole(done, 'mid-2');
      const effects = (await (await fetch(`${child.url}/effects`)).json()) as { kind: string }[];
      expect(effects.filter((e) => e.kind === 'refund')).toHaveLength(1);
    } finally {
      await stopChild(child);
    }
  }, 60_000);
  it('refuses to start, naming the file, on a read-only disk, and leaves the data as it was', async () => {
    const dir = join(mount, 'data-ro');
    const storage = openSqliteStorage(dir);
    await storage.beginRun(runRecord('ro-1'), threadRecord(), 0);
    await storage.performEffect(effectRecord('ro-approval'));
    await storage.close();
    const readOnly = mkdtempSync(join(tmpdir(), 'aguikit-ro-'));
    execFileSync('mount', ['--bind', dir, readOnly], { stdio: 'pipe' });
    try {
      execFileSync('mount', ['-o', 'remount,bind,ro', readOnly], { stdio: 'pipe' });
      expect(() => openSqliteStorage(readOnly)).toThrow(
        expect.objectContaining({ code: 'STORAGE_UNAVAILABLE', message: expect.stringContaining(join(readOnly, 'agent.db')) }),
      );
    } finally {
      execFileSync('umount', [readOnly], { stdio: 'pipe' });
      rmSync(readOnly, { recursive: true, force: true });
    }
    const again = openSqliteStorage(dir);
    try {
      expect(again.skipped).toEqual([]);
      expect(await again.effects()).toEqual([effectRecord('ro-approval')]);
    } finally {
      await again.close();
    }
  });
});
