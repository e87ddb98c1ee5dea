/**
 * `pnpm bench:server [--quick] [--no-write]`
 *
 * The agent server under load, as a benchmark rather than timed tests. The
 * server runs in a child process of its own (serve.ts, `--expose-gc`) on
 * SQLite in a temporary directory, as `pnpm dev` runs it; this process is
 * the client, over real HTTP on loopback. It measures, in this order, on one
 * server:
 *
 * 1. Memory over 2,000 sequential runs (the refund flow's first run, to its
 *    interrupt): RSS at start, after the first 100, after 1,000 and after
 *    2,000, each after a full garbage collection in the server.
 * 2. A hostile small request: the largest output a scenario allows (found by
 *    asking, as an attacker would: the largest `forwardedProps` knob the
 *    server accepts, per scenario that has one), the client gone as soon as
 *    the response headers arrive; 20 of them at once, and the RSS they leave
 *    once the server has let go of their streams.
 * 3. Throughput and latency: 10, 50 and 200 concurrent runs of the refund
 *    flow's first run and of `fast-stream` (5,000 tokens), every run read to
 *    its end and checked (status 200, RUN_FINISHED, the exact number of
 *    events); runs/s and p50/p99 latency from the request to RUN_FINISHED.
 *
 * Every request asks for `speed=0` (no pauses): the server's own cost is
 * what is measured, not the scenarios' scripted delays. Prints a table and a
 * verdict per bar, writes its section of docs/BENCHMARKS.md (a full run, unless
 * --no-write), and exits 1 when a bar is missed.
 */
import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunAgentInput } from '@aguikit/core';
import { scenarioEvents, scenarios } from '@aguikit/scenarios';
import { describeMachine, machine } from '../machine.js';
import { withServerSection } from '../serverSection.js';
import { closeAgent, hitAndRun, pool, quantile, type RunResult, runOnce } from './load.js';
import { type Bar, consoleReport, type Figures, type LoadRow, markdownReport } from './report.js';
import type { FromServer, ToServer } from './serve.js';

const args = process.argv.slice(2).filter((a) => a !== '--');
for (const arg of args) {
  if (arg !== '--quick' && arg !== '--no-write') {
    process.stderr.write(`unknown argument: ${arg}\nusage: pnpm bench:server [--quick] [--no-write]\n`);
    process.exit(2);
  }
}
const quick = args.includes('--quick');
const write = !quick && !args.includes('--no-write');
const rootDir = resolve(fileURLToPath(new URL('../../../', import.meta.url)));
const log = (m: string) => process.stderr.write(`${m}\n`);

const SEQUENTIAL = quick ? 300 : 2_000;
const CHECKPOINTS = quick ? [100, 300] : [100, 500, 1_000, 1_500, 2_000];
const LEVELS = [10, 50, 200];
/** Runs per level: at least one per worker, at most 50 or one per worker, whichever is more. */
const runsAt = (concurrency: number) => (quick ? concurrency : Math.max(concurrency, 50));
/** After this long a level starts no new run (its first wave always starts): the benchmark ends in bounded time. */
const LEVEL_BUDGET_MS = 60_000;
/** A run that has not finished after this long counts as an error (and its client leaves). */
const RUN_TIMEOUT_MS = 120_000;
const HOSTILE = 20;
const FAST_TOKENS = 5_000;
const NOW = Date.now();

let counter = 0;
const ids = (tag: string) => {
  counter += 1;
  return { threadId: `bench-${tag}-${counter}`, runId: `bench-${tag}-${counter}-run` };
};
const input = (tag: string, forwardedProps?: Record<string, unknown>): RunAgentInput => {
  const { threadId, runId } = ids(tag);
  return {
    threadId,
    runId,
    messages: [{ id: `${runId}-user`, role: 'user', content: 'My teapot from order A-1001 arrived broken. Can I get a refund?' }],
    tools: [],
    context: [],
    ...(forwardedProps ? { forwardedProps } : {}),
  };
};
/** The number of events a run of `scenario` has for this input (scenarios are pure: the count does not depend on ids or clock). */
const eventCount = (scenario: keyof typeof scenarios, body: RunAgentInput) => scenarioEvents(scenarios[scenario], body, NOW).length;

const refundRun = () => {
  const body = input('refund');
  return { scenario: 'refund', body, expectedEvents: eventCount('refund', body), timeoutMs: RUN_TIMEOUT_MS };
};
const fastRun = () => {
  const body = input('fast', { tokens: FAST_TOKENS });
  return { scenario: 'fast-stream', body, expectedEvents: eventCount('fast-stream', body), timeoutMs: RUN_TIMEOUT_MS };
};

// --- the server, in a process of its own ---

const dataDir = mkdtempSync(join(tmpdir(), 'aguikit-bench-server-'));
const child: ChildProcess = fork(fileURLToPath(new URL('./serve.ts', import.meta.url)), [], {
  // The same loader and conditions as this process (tsx, the workspace's sources), and a collector to call.
  execArgv: [...process.execArgv, '--expose-gc'],
  env: { ...process.env, AGUIKIT_BENCH_DATA_DIR: dataDir, NODE_ENV: 'production' },
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const cleanUp = () => {
  child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
};
process.on('exit', cleanUp);

const url = await new Promise<string>((resolveUrl, reject) => {
  child.once('exit', (code) => reject(new Error(`the server exited (${code}) before it was ready`)));
  child.on('message', (m: FromServer) => {
    if (m.type === 'ready') resolveUrl(m.url);
  });
});
let asks = 0;
type Memory = Extract<FromServer, { type: 'memory' }>;
type Logs = Extract<FromServer, { type: 'logs' }>;
/** Asks the server process for its memory (after a full collection) or its log counts. */
function ask(type: 'memory'): Promise<Memory>;
function ask(type: 'logs'): Promise<Logs>;
function ask(type: 'memory' | 'logs'): Promise<Memory | Logs> {
  return new Promise((resolveAnswer) => {
    const id = ++asks;
    const on = (m: FromServer) => {
      if (m.type === type && m.id === id) {
        child.off('message', on);
        resolveAnswer(m);
      }
    };
    child.on('message', on);
    child.send({ type, id } satisfies ToServer);
  });
}
const memory = () => ask('memory');
const MB = 1024 * 1024;
const started = performance.now();
log(`aguikit agent server benchmark: server at ${url}, SQLite in ${dataDir}${quick ? ', quick' : ''}`);

// --- 1. memory over sequential runs ---

const rss: Figures['rss'] = [];
const reading = (after: number, m: Memory) => ({
  after,
  rss: m.rss,
  heapUsed: m.heapUsed,
  ...(m.rssAnon !== undefined && m.rssFile !== undefined ? { rssAnon: m.rssAnon, rssFile: m.rssFile } : {}),
});
rss.push(reading(0, await memory()));
const sequential: RunResult[] = [];
for (let i = 1; i <= SEQUENTIAL; i++) {
  sequential.push(await runOnce(url, refundRun()));
  if (CHECKPOINTS.includes(i)) {
    const m = await memory();
    rss.push(reading(i, m));
    log(`  ${i} sequential runs: RSS ${(m.rss / MB).toFixed(1)} MB, heap ${(m.heapUsed / MB).toFixed(1)} MB`);
  }
}

// --- 2. hostile small requests ---

/** The scenarios with a size knob, and the most each scenario itself allows. */
const KNOBS = [
  { scenario: 'fast-stream' as const, knob: 'tokens', most: 100_000, extra: { tokenDelayMs: 0 } },
  { scenario: 'long-thread' as const, knob: 'messages', most: 20_000, extra: {} },
  { scenario: 'dashboard' as const, knob: 'deltas', most: 10_000, extra: {} },
];
const hostileBody = (k: (typeof KNOBS)[number], value: number) => input('hostile', { ...k.extra, [k.knob]: value });
/** The largest value of a knob the server accepts (a binary search by real requests, each left after its headers). */
async function largestAccepted(k: (typeof KNOBS)[number]): Promise<number> {
  if ((await hitAndRun(url, k.scenario, hostileBody(k, k.most))).status === 200) return k.most;
  let low = 0;
  let high = k.most;
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if ((await hitAndRun(url, k.scenario, hostileBody(k, mid))).status === 200) low = mid;
    else high = mid;
  }
  return low;
}
const outputBytes = (scenario: keyof typeof scenarios, body: RunAgentInput) =>
  scenarioEvents(scenarios[scenario], body, NOW).reduce((n, e) => n + JSON.stringify(e.event).length, 0);
let worst = { ...(KNOBS[0] as (typeof KNOBS)[number]), value: 0, bytes: 0 };
for (const k of KNOBS) {
  const value = await largestAccepted(k);
  const bytes = outputBytes(k.scenario, hostileBody(k, value));
  log(`  ${k.scenario}: the server accepts ${k.knob} up to ${value.toLocaleString('en-US')} (${(bytes / MB).toFixed(1)} MB of events)`);
  if (bytes > worst.bytes) worst = { ...k, value, bytes };
}
/** Waits until the server holds no open stream (its /health), up to 10 s; the seconds it took, or undefined. */
async function streamsGone(): Promise<number | undefined> {
  const since = performance.now();
  while (performance.now() - since < 10_000) {
    try {
      const health = (await (await fetch(`${url}/health`)).json()) as { streams?: unknown };
      if (health.streams === 0) return (performance.now() - since) / 1000;
    } catch {
      // Asked again below.
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return undefined;
}
/** One round of hostile requests at once: the RSS and heap before, and after the server let go of their streams. */
async function hostileRound() {
  await streamsGone();
  const before = await memory();
  const answers = await Promise.all(Array.from({ length: HOSTILE }, () => hitAndRun(url, worst.scenario, hostileBody(worst, worst.value))));
  const letGoSeconds = await streamsGone();
  // A moment more for what the streams' end releases (sockets, storage statements) to be released.
  await new Promise((r) => setTimeout(r, 500));
  const after = await memory();
  return { before, after, letGoSeconds, answers };
}
const hostile = await hostileRound();
// A second round on the same server: whether what the first left grows with every request, or was paid once.
const hostileAgain = await hostileRound();
const hostileAccepted = hostile.answers.filter((h) => h.status === 200).length;
log(
  `  hostile: ${((hostile.after.rss - hostile.before.rss) / HOSTILE / MB).toFixed(2)} MB RSS per request, ` +
    `then ${((hostileAgain.after.rss - hostileAgain.before.rss) / HOSTILE / MB).toFixed(2)} MB in a second round`,
);

// --- 3. throughput and latency under concurrency ---

const rows: LoadRow[] = [];
// A few runs of each first: the first requests also pay for compiling the server's code.
await pool(20, 10, () => runOnce(url, refundRun()));
await pool(10, 10, () => runOnce(url, fastRun()));
for (const [name, make] of [
  ['refund (first run, to its interrupt)', refundRun],
  [`fast-stream (${FAST_TOKENS.toLocaleString('en-US')} tokens)`, fastRun],
] as const) {
  for (const concurrency of LEVELS) {
    const runs = runsAt(concurrency);
    const { results, wallMs } = await pool(runs, concurrency, () => runOnce(url, make()), LEVEL_BUDGET_MS);
    const ok = results.filter((r) => !r.error);
    const errors: Record<string, number> = {};
    for (const r of results) if (r.error) errors[r.error] = (errors[r.error] ?? 0) + 1;
    const row: LoadRow = {
      scenario: name,
      concurrency,
      runs: results.length,
      runsPerSecond: (ok.length / wallMs) * 1000,
      p50: quantile(
        ok.map((r) => r.latencyMs),
        0.5,
      ),
      p99: quantile(
        ok.map((r) => r.latencyMs),
        0.99,
      ),
      errors: results.length - ok.length,
      errorKinds: errors,
      eventsPerRun: make().expectedEvents,
    };
    rows.push(row);
    log(
      `  ${name} x${concurrency}: ${row.runsPerSecond.toFixed(1)} runs/s, p50 ${row.p50.toFixed(0)} ms, p99 ${row.p99.toFixed(0)} ms, ${row.errors} errors`,
    );
  }
}

const logs = (await ask('logs')).counts;
child.send({ type: 'close' } satisfies ToServer);
await new Promise<void>((r) => {
  const timer = setTimeout(r, 5_000);
  child.once('exit', () => {
    clearTimeout(timer);
    r();
  });
});
closeAgent();

// --- verdicts ---

const at = (n: number) => rss.find((r) => r.after === n) as { rss: number; heapUsed: number };
const lastCheckpoint = CHECKPOINTS.at(-1) as number;
const growth = at(lastCheckpoint).rss - at(100).rss;
const pinned = (hostile.after.rss - hostile.before.rss) / HOSTILE;
const errorsAt200 = rows.filter((r) => r.concurrency === 200).reduce((n, r) => n + r.errors, 0);
const bars: Bar[] = [
  {
    bar: '0 errors at 200 concurrent runs (refund and fast-stream)',
    measured: `${errorsAt200} errors`,
    met: errorsAt200 === 0,
  },
  {
    bar: `RSS after ${lastCheckpoint.toLocaleString('en-US')} sequential runs within 10 MB of RSS after the first 100`,
    measured: `${growth >= 0 ? '+' : ''}${(growth / MB).toFixed(1)} MB`,
    met: growth <= 10 * MB,
  },
  {
    bar: 'A hostile small request pins at most 1 MB once its client is gone',
    measured: `${(pinned / MB).toFixed(2)} MB per request`,
    met: pinned <= 1 * MB && hostileAccepted === HOSTILE,
  },
];
if (quick) bars[1] = { ...(bars[1] as Bar), bar: `${(bars[1] as Bar).bar} (quick: ${lastCheckpoint} runs, not the bar's 2,000)` };

const figures: Figures = {
  command: `pnpm bench:server${quick ? ' --quick' : ''}`,
  date: new Date().toISOString().slice(0, 10),
  revision: revision(),
  machine: describeMachine(machine()),
  seconds: Math.round((performance.now() - started) / 1000),
  rss,
  sequential: {
    runs: sequential.length,
    errors: sequential.filter((r) => r.error).length,
    p50: quantile(
      sequential.filter((r) => !r.error).map((r) => r.latencyMs),
      0.5,
    ),
  },
  hostile: {
    scenario: worst.scenario,
    knob: worst.knob,
    value: worst.value,
    outputBytes: worst.bytes,
    requestBytes: hostile.answers[0]?.requestBytes ?? 0,
    count: HOSTILE,
    accepted: hostileAccepted,
    before: hostile.before,
    after: hostile.after,
    letGoSeconds: hostile.letGoSeconds,
    again: { before: hostileAgain.before, after: hostileAgain.after, letGoSeconds: hostileAgain.letGoSeconds },
  },
  logs,
  rows,
  bars,
};
process.stdout.write(consoleReport(figures));
if (write) {
  const file = join(rootDir, 'docs/BENCHMARKS.md');
  const report = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  writeFileSync(file, withServerSection(report, markdownReport(figures)));
  log('wrote the agent server section of docs/BENCHMARKS.md');
}
process.exitCode = bars.every((b) => b.met) ? 0 : 1;

function revision(): string {
  try {
    const git = (...a: string[]) => execFileSync('git', a, { cwd: rootDir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const head = git('rev-parse', '--short', 'HEAD');
    const changes = git('status', '--porcelain', '--', 'apps/agent-server', 'bench/src/server');
    return changes.length ? `${head}, with uncommitted changes to the server or the benchmark` : head;
  } catch {
    return 'unknown (not a git checkout)';
  }
}
