/**
 * `pnpm dev` (scripts/dev.mjs): the agent server and the playground on the
 * ports given by flags or the environment, a banner naming the ports really
 * listened on once both answer, a clear word when a port is taken, and a
 * clean stop on Ctrl+C (SIGINT): exit code 0 and no failure lines.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
/** What a failed stop used to print: pnpm's lifecycle errors, or a child reported dead. */
const FAILURE = /ELIFECYCLE|ERR_PNPM|Command failed|exited with|Error:/;

/** A port nobody listens on (picked by the system, then released). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

interface Dev {
  child: ChildProcess;
  /** Everything printed so far, stdout and stderr interleaved. */
  output(): string;
  /** Resolves when the output matches, rejects when the process ends first or after `ms`. */
  waitFor(pattern: RegExp, ms?: number): Promise<string>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const started: Dev[] = [];
const held: Server[] = [];

afterEach(async () => {
  for (const dev of started.splice(0)) {
    if (dev.child.exitCode === null && dev.child.signalCode === null) {
      dev.child.kill('SIGTERM');
      await dev.exited;
    }
  }
  await Promise.all(held.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** util-linux `script`: runs a command in a pseudo-terminal, as a person's terminal would. */
const hasScript = spawnSync('script', ['--version']).status === 0;
const hasPnpm = spawnSync('pnpm', ['--version']).status === 0;

/** Runs `node scripts/dev.mjs …`, or a whole command line in a pseudo-terminal (`terminal`). */
function runDev(args: string[], env: Record<string, string> = {}, terminal?: string): Dev {
  const { PORT: _port, AGENT_PORT: _agentPort, AGENT_SERVER_URL: _url, ...rest } = process.env;
  const [command, commandArgs] = terminal ? ['script', ['-qfec', terminal, '/dev/null']] : [process.execPath, ['scripts/dev.mjs', ...args]];
  const child = spawn(command, commandArgs, {
    cwd: root,
    env: { ...rest, ...env, FORCE_COLOR: '0' },
    stdio: [terminal ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const listeners = new Set<() => void>();
  const append = (chunk: Buffer) => {
    text += chunk.toString();
    for (const l of listeners) l();
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => {
      // Let the last output arrive before anyone reads it.
      setTimeout(() => resolve({ code, signal }), 50);
    }),
  );
  const dev: Dev = {
    child,
    output: () => text,
    exited,
    waitFor: (pattern, ms = 45_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(text);
          if (match) {
            done();
            resolve(match[0]);
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`No ${pattern} in ${ms} ms. Output:\n${text}`));
        }, ms);
        const done = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        void exited.then(() => {
          if (!pattern.test(text)) {
            done();
            reject(new Error(`The process ended without ${pattern}. Output:\n${text}`));
          }
        });
        check();
      }),
  };
  started.push(dev);
  return dev;
}

/**
 * Starts, checks the banner and both ports over HTTP, then stops with SIGINT (or Ctrl+C typed in the terminal)
 * and checks the stop was clean.
 */
async function startAndStop(dev: Dev, port: number, agentPort: number, stopWith: 'SIGINT' | 'Ctrl+C' = 'SIGINT') {
  const banner = await dev.waitFor(/aguikit is running[\s\S]*?Ctrl\+C stops both\./);
  expect(banner).toContain(`http://127.0.0.1:${port}/`);
  expect(banner).toContain(`http://127.0.0.1:${agentPort}`);
  // The default ports as ports (a random one may hold the digits: 35173).
  if (port !== 5173) expect(banner).not.toMatch(/:5173\b/);
  if (agentPort !== 8787) expect(banner).not.toMatch(/:8787\b/);

  const page = await fetch(`http://127.0.0.1:${port}/`);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('aguikit playground');
  const direct = await fetch(`http://127.0.0.1:${agentPort}/agents`);
  expect(((await direct.json()) as { id: string }[]).map((s) => s.id)).toContain('refund');
  // The playground's /agents proxy reaches this agent server, not the default port.
  const proxied = await fetch(`http://127.0.0.1:${port}/agents`);
  expect(proxied.status).toBe(200);
  expect(((await proxied.json()) as { id: string }[]).map((s) => s.id)).toContain('refund');

  if (stopWith === 'SIGINT') dev.child.kill('SIGINT');
  else dev.child.stdin?.write('\x03');
  const { code, signal } = await dev.exited;
  expect({ code, signal }).toEqual({ code: 0, signal: null });
  expect(dev.output()).not.toMatch(FAILURE);
  // Both children are gone: the ports are free again.
  await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow();
  await expect(fetch(`http://127.0.0.1:${agentPort}/health`)).rejects.toThrow();
}

describe('pnpm dev (scripts/dev.mjs)', { timeout: 90_000 }, () => {
  it('listens on --port and --agent-port, names them in the banner, and stops cleanly on SIGINT', async () => {
    const [port, agentPort] = [await freePort(), await freePort()];
    await startAndStop(runDev(['--port', String(port), `--agent-port=${agentPort}`]), port, agentPort);
  });

  it('takes the ports from PORT and AGENT_PORT', async () => {
    const [port, agentPort] = [await freePort(), await freePort()];
    await startAndStop(runDev([], { PORT: String(port), AGENT_PORT: String(agentPort) }), port, agentPort);
  });

  it.skipIf(!hasScript || !hasPnpm)('`pnpm dev` in a terminal: Ctrl+C stops both, pnpm reports no failure, exit code 0', async () => {
    const [port, agentPort] = [await freePort(), await freePort()];
    const dev = runDev([], {}, `pnpm dev --port ${port} --agent-port ${agentPort}`);
    await startAndStop(dev, port, agentPort, 'Ctrl+C');
  });

  it('says which port is taken, starts nothing, and exits with an error', async () => {
    const [port, agentPort] = [await freePort(), await freePort()];
    const blocker = createServer();
    held.push(blocker);
    await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve));
    const dev = runDev(['--port', String(port), '--agent-port', String(agentPort)]);
    const { code } = await dev.exited;
    expect(code).toBe(1);
    expect(dev.output()).toMatch(new RegExp(`port ${port} .*is taken`));
    expect(dev.output()).toContain('--port');
    expect(dev.output()).not.toContain('aguikit is running');
    await expect(fetch(`http://127.0.0.1:${agentPort}/health`)).rejects.toThrow();
  });

  it('refuses a port that is not a number', async () => {
    const dev = runDev(['--port', 'abc']);
    const { code } = await dev.exited;
    expect(code).toBe(1);
    expect(dev.output()).toMatch(/--port.*abc/);
  });
});
