/** The agent server benchmark's figures, as a console table and as the agent server section of docs/BENCHMARKS.md. */

export interface Bar {
  bar: string;
  measured: string;
  met: boolean;
}

export interface LoadRow {
  scenario: string;
  concurrency: number;
  runs: number;
  runsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  /** How many runs failed, by reason. */
  errorKinds: Record<string, number>;
  eventsPerRun: number;
}

interface Memory {
  rss: number;
  heapUsed: number;
}

export interface Figures {
  command: string;
  date: string;
  revision: string;
  machine: string;
  seconds: number;
  /** RSS (with its anonymous and file-backed parts, on Linux) and heap of the server after a full collection, after `after` sequential runs. */
  rss: { after: number; rss: number; heapUsed: number; rssAnon?: number; rssFile?: number }[];
  sequential: { runs: number; errors: number; p50: number };
  hostile: {
    scenario: string;
    knob: string;
    value: number;
    outputBytes: number;
    requestBytes: number;
    count: number;
    accepted: number;
    before: Memory;
    after: Memory;
    /** Seconds until the server held no stream any more, or undefined when it still did after 10 s. */
    letGoSeconds: number | undefined;
    /** A second round of the same, right after. */
    again: { before: Memory; after: Memory; letGoSeconds: number | undefined };
  };
  /** Warnings and errors the server logged over the whole benchmark, by message. */
  logs: Record<string, number>;
  rows: LoadRow[];
  bars: Bar[];
}

const MB = 1024 * 1024;
const mb = (bytes: number, digits = 1) => `${(bytes / MB).toFixed(digits)} MB`;
const signedMb = (bytes: number, digits = 1) => `${bytes >= 0 ? '+' : ''}${mb(bytes, digits)}`;
const n = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 1 });
const verdict = (b: Bar) => (b.met ? 'met' : `MISSED (${b.measured})`);

function table(head: string[], rows: string[][]): string {
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

function loadRows(f: Figures): string[][] {
  return f.rows.map((r) => [
    r.scenario,
    String(r.concurrency),
    n(r.runs),
    n(r.eventsPerRun),
    r.runsPerSecond.toFixed(1),
    `${r.p50.toFixed(0)} ms`,
    `${r.p99.toFixed(0)} ms`,
    r.errors
      ? `**${r.errors}** (${Object.entries(r.errorKinds)
          .map(([kind, count]) => `${kind}: ${count}`)
          .join('; ')})`
      : '0',
  ]);
}

function memoryRows(f: Figures): string[][] {
  const base = f.rss.find((r) => r.after === 100);
  return f.rss.map((r) => [
    r.after === 0 ? 'at start, before any run' : `after ${n(r.after)} runs`,
    mb(r.rss),
    base && r.after > 100 ? signedMb(r.rss - base.rss) : '',
    r.rssAnon === undefined ? '' : mb(r.rssAnon),
    r.rssFile === undefined ? '' : mb(r.rssFile),
    mb(r.heapUsed),
  ]);
}

const MEMORY_HEAD = ['when', 'RSS', 'RSS since the first 100', 'of it anonymous', 'of it mapped files', 'JS heap used'];

/** Where the RSS grew between the first 100 runs and the last reading: anonymous memory, mapped files, the JS heap. */
function growthLine(f: Figures): string {
  const base = f.rss.find((r) => r.after === 100);
  const last = f.rss.at(-1);
  if (!base || !last || last === base) return '';
  const parts = [
    base.rssAnon !== undefined && last.rssAnon !== undefined ? `anonymous memory ${signedMb(last.rssAnon - base.rssAnon)}` : '',
    base.rssFile !== undefined && last.rssFile !== undefined ? `mapped files ${signedMb(last.rssFile - base.rssFile)}` : '',
    `JS heap ${signedMb(last.heapUsed - base.heapUsed)}`,
  ].filter(Boolean);
  return `From the first 100 runs to the last ${n(last.after - base.after)}, RSS ${signedMb(last.rss - base.rss)}: ${parts.join(', ')}.`;
}

const letGo = (seconds: number | undefined) =>
  seconds === undefined
    ? 'still held streams 10 s after the clients left'
    : `held no stream any more ${seconds.toFixed(1)} s after the clients left`;

function hostileLine(f: Figures): string {
  const h = f.hostile;
  const pinned = (h.after.rss - h.before.rss) / h.count;
  const again = (h.again.after.rss - h.again.before.rss) / h.count;
  return (
    `${h.count} requests at once, of ${n(h.requestBytes)} bytes each (POST /agents/${h.scenario}, forwardedProps.${h.knob} = ${n(h.value)}, ` +
    `${mb(h.outputBytes)} of events asked for), ${h.accepted} of them accepted; the server ${letGo(h.letGoSeconds)}. ` +
    `RSS ${mb(h.before.rss)} before, ${mb(h.after.rss)} after: **${signedMb(pinned, 2)} per request**; ` +
    `heap ${mb(h.before.heapUsed)} before, ${mb(h.after.heapUsed)} after. ` +
    `A second round of ${h.count} right after: RSS ${mb(h.again.before.rss)} to ${mb(h.again.after.rss)} ` +
    `(${signedMb(again, 2)} per request; heap ${mb(h.again.before.heapUsed)} to ${mb(h.again.after.heapUsed)}); the server ${letGo(h.again.letGoSeconds)}.`
  );
}

function logLines(f: Figures): string {
  const entries = Object.entries(f.logs).sort((a, b) => b[1] - a[1]);
  return entries.length ? entries.map(([msg, count]) => `- ${msg}: ${n(count)}`).join('\n') : '- none';
}

export function consoleReport(f: Figures): string {
  const head = ['scenario', 'concurrent', 'runs', 'events/run', 'runs/s', 'p50', 'p99', 'errors'];
  return [
    '',
    `Agent server (${f.command}, ${f.seconds} s; ${f.machine})`,
    '',
    table(head, loadRows(f)),
    '',
    table(MEMORY_HEAD, memoryRows(f)),
    growthLine(f),
    '',
    `Hostile: ${hostileLine(f)}`,
    '',
    'Server warnings and errors logged:',
    logLines(f),
    '',
    ...f.bars.map((b) => `${b.met ? 'met   ' : 'MISSED'}  ${b.bar}: ${b.measured}`),
    '',
  ].join('\n');
}

export function markdownReport(f: Figures): string {
  return `## Agent server

<!-- Written by \`pnpm bench:server\` (bench/src/server/report.ts): regenerate it, do not edit it by hand. -->

The reference server (apps/agent-server) under load, on its default storage (SQLite, in a temporary directory), over real HTTP on loopback.

- **Command**: \`${f.command}\` (${f.seconds} s in all)
- **Date**: ${f.date}
- **Revision**: ${f.revision}
- **Machine**: ${f.machine} — a shared machine, noisy

**How it is measured.** The server runs in a child process of its own, started as \`pnpm dev\` starts it (on SQLite), with \`--expose-gc\` so that the benchmark can ask it for a full garbage collection before each memory reading; the benchmark process is the client, on the same machine (its cores are shared with the server: on 2 cores, the client's reading of the streams costs the server throughput), with a connection of its own per run. Every request asks for \`speed=0\`, so no scripted pause is waited for: what is measured is the server's own cost. A run is read to its end and counts as an error unless it answered 200, delivered \`RUN_FINISHED\` and exactly the number of events its scenario has (no lost or doubled event). Latency is from the request sent to the frame carrying \`RUN_FINISHED\`. Runs/s is the runs completed without error over the wall time of the level. A level runs 50 runs (or one per client, when there are more clients), each client starting its next run when its last one ends, and starts no new run after 60 s (its first wave always starts); a run not finished after 120 s counts as an error, and its client leaves. The refund runs are the refund flow's first run (to its interrupt; each on a thread of its own); fast-stream runs stream 5,000 tokens.

### Bars

${table(
  ['bar', 'measured', 'verdict'],
  f.bars.map((b) => [b.bar, b.measured, b.met ? 'met' : '**MISSED**']),
)}

### Throughput and latency

${table(['scenario', 'concurrent', 'runs', 'events/run', 'runs/s', 'p50', 'p99', 'errors'], loadRows(f))}

### Memory over sequential runs

${n(f.sequential.runs)} refund first runs one after another (${f.sequential.errors} errors, p50 ${f.sequential.p50.toFixed(0)} ms each); the server's RSS and heap after a full collection:

${table(MEMORY_HEAD, memoryRows(f))}

${growthLine(f)} (Anonymous memory is the JS heap, buffers and native allocations such as SQLite's page cache; mapped files are code and files the process maps, SQLite's WAL index among them.)

### A hostile small request

The largest output a scenario lets a request ask for, found as an attacker would: for each scenario with a size knob in \`forwardedProps\`, the largest value the server accepts (a binary search by requests, each left right after its response headers), then the one of these with the most bytes of events. ${hostileLine(f)}

The figure of the bar is the first round (the probes of the search came before it, on the same server); the second round shows whether what a round leaves grows with every request or was paid once.

### Server warnings and errors

What the server logged at warning level or above over the whole benchmark, by message:

${logLines(f)}

### Verdicts

${f.bars.map((b) => `- ${b.bar}: ${verdict(b)}`).join('\n')}
`;
}
