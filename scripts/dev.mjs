// `pnpm dev`: the agent server and the playground together; Ctrl+C stops both.
//
//   pnpm dev                                   playground on 5173, agent server on 8787
//   pnpm dev --port 3000 --agent-port 9000     (or PORT=3000 AGENT_PORT=9000 pnpm dev)
//
// The children are the underlying node processes (no nested pnpm), each in a process group of its own: Ctrl+C
// (read from the terminal, or SIGINT) reaches this script alone, which stops both with SIGTERM, waits for them,
// and exits 0. The banner is printed
// once both answer over HTTP, with the ports they listen on.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const HOST = '127.0.0.1';

/** `--name value` or `--name=value` from the command line, else the environment variable, else the default. */
function option(flag, envName, fallback) {
  const args = process.argv.slice(2);
  let raw;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === flag) raw = args[i + 1];
    else if (args[i]?.startsWith(`${flag}=`)) raw = args[i].slice(flag.length + 1);
  }
  const from = raw !== undefined ? flag : envName;
  raw ??= process.env[envName];
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    console.error(`aguikit: ${from} must be a port number from 1 to 65535, not '${raw}'.`);
    process.exit(1);
  }
  return port;
}

const port = option('--port', 'PORT', 5173);
const agentPort = option('--agent-port', 'AGENT_PORT', 8787);
if (port === agentPort) {
  console.error(`aguikit: the playground and the agent server cannot share port ${port}; set --port or --agent-port.`);
  process.exit(1);
}

/** Whether nothing listens on `port` on loopback. */
const isFree = (p) =>
  new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(p, HOST, () => probe.close(() => resolve(true)));
  });

const taken = [];
if (!(await isFree(port))) taken.push(`port ${port} (the playground) is taken by another program: choose another with --port or PORT`);
if (!(await isFree(agentPort)))
  taken.push(`port ${agentPort} (the agent server) is taken by another program: choose another with --agent-port or AGENT_PORT`);
if (taken.length) {
  for (const line of taken) console.error(`aguikit: ${line}.`);
  console.error(`For example: pnpm dev --port ${port + 1} --agent-port ${agentPort + 1}`);
  process.exit(1);
}

const playgroundDir = join(root, 'apps/playground');
const serverDir = join(root, 'apps/agent-server');
const viteBin = join(dirname(createRequire(join(playgroundDir, 'package.json')).resolve('vite/package.json')), 'bin/vite.js');
const agentUrl = `http://${HOST}:${agentPort}`;
const playgroundUrl = `http://${HOST}:${port}/`;

const specs = [
  {
    name: 'server',
    cwd: serverDir,
    args: ['--conditions=@aguikit/source', '--import', 'tsx', 'src/main.ts'],
    // The server lets the playground's origin call it (the proxy and the AG-UI URL mode), whatever its port.
    env: { PORT: String(agentPort), PLAYGROUND_PORT: String(port) },
    ready: `${agentUrl}/health`,
  },
  {
    name: 'playground',
    cwd: playgroundDir,
    // --strictPort: a port taken meanwhile is an error, never a silent move to the next one.
    args: [viteBin, '--host', HOST, '--port', String(port), '--strictPort'],
    env: { PORT: String(port), AGENT_SERVER_URL: agentUrl },
    ready: playgroundUrl,
  },
];

let stopping = false;
const children = specs.map((spec) => {
  const child = spawn(process.execPath, spec.args, {
    cwd: spec.cwd,
    env: { ...process.env, ...spec.env },
    // stdin stays open: Vite stops when its stdin ends, so it also stops if this script dies.
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  const prefix = (data) =>
    String(data)
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => `[${spec.name}] ${line}\n`)
      .join('');
  child.stdout.on('data', (d) => process.stdout.write(prefix(d)));
  child.stderr.on('data', (d) => process.stderr.write(prefix(d)));
  child.exited = new Promise((resolve) => child.once('exit', resolve));
  child.once('exit', (code, signal) => {
    if (stopping) return;
    console.error(`aguikit: the ${spec.name} stopped unexpectedly (${signal ?? `code ${code}`}); stopping the other.`);
    void stop(1);
  });
  return child;
});

/** Stops both children (SIGTERM to each one's group), waits for them, then exits with `code`. */
async function stop(code) {
  if (stopping) return;
  stopping = true;
  if (process.stdin.isTTY) {
    process.stdin.setRawMode(false);
    process.stdin.pause();
  }
  for (const child of children) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
  }
  const forced = setTimeout(() => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }, 5000);
  await Promise.all(children.map((child) => child.exited));
  clearTimeout(forced);
  process.exit(code);
}
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));
process.on('SIGHUP', () => void stop(0));
// In a terminal, Ctrl+C is read as a key rather than sent as SIGINT to every process of the terminal's group: the
// `pnpm dev` that started this script would otherwise take the signal too and report the script as failed.
if (process.stdin.isTTY) {
  process.stdin.setRawMode(true);
  process.stdin.on('data', (key) => {
    // Ctrl+C or Ctrl+D.
    if (key.includes(3) || key.includes(4)) {
      console.log('Stopping the playground and the agent server…');
      void stop(0);
    }
  });
}
// Last resort when this script ends some other way: the children do not outlive it.
process.on('exit', () => {
  if (process.stdin.isTTY) process.stdin.setRawMode(false);
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** Resolves once `url` answers (any HTTP status), polling; false if stopping began or a minute passed. */
async function answers(url) {
  const deadline = Date.now() + 60_000;
  while (!stopping && Date.now() < deadline) {
    try {
      await fetch(url, { signal: AbortSignal.timeout(2000) });
      return true;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  }
  return false;
}

const ready = await Promise.all(specs.map((spec) => answers(spec.ready)));
if (ready.every(Boolean) && !stopping) {
  console.log(
    [
      '',
      'aguikit is running:',
      `  playground     ${playgroundUrl}`,
      `  agent server   ${agentUrl} (POST /agents/:scenario, GET /agents)`,
      'Ctrl+C stops both.',
      '',
    ].join('\n'),
  );
} else if (!stopping) {
  const late = specs.filter((_, i) => !ready[i]).map((spec) => `the ${spec.name} (${spec.ready})`);
  console.error(`aguikit: ${late.join(' and ')} did not answer within a minute; stopping.`);
  void stop(1);
}
