import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

/** A `redis-server` of its own, on a free loopback port, keeping nothing on disk. */
export interface RedisServer {
  readonly url: string;
  readonly port: number;
  /** Freezes the process (SIGSTOP): connections stay open and nothing is answered, like a hung machine. */
  pause(): void;
  /** Thaws a paused server (SIGCONT). */
  resume(): void;
  /** Stops the server and removes its directory. */
  stop(): Promise<void>;
}

const INSTALL = 'redis-server is not installed: `apt-get install -y redis-server` (.ci/run does it on a fresh machine).';

/**
 * Starts Debian's `redis-server` on a free port of 127.0.0.1 with
 * persistence off (`--save '' --appendonly no`) in a temporary directory,
 * and resolves once it answers PING. On `port` when given (a Redis coming
 * back where it was), else on a free one.
 */
export async function startRedisServer(options: { port?: number; args?: string[] } = {}): Promise<RedisServer> {
  if (spawnSync('redis-server', ['--version']).error) throw new Error(INSTALL);
  const dir = await mkdtemp(join(tmpdir(), 'aguikit-redis-'));
  // A port found free can be taken before redis binds it: try a few.
  for (let attempt = 0; ; attempt++) {
    const port = options.port ?? (await freePort());
    const child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, ...(options.args ?? [])],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let log = '';
    child.stdout?.on('data', (d: Buffer) => {
      log = (log + d.toString()).slice(-4_000);
    });
    child.stderr?.on('data', (d: Buffer) => {
      log = (log + d.toString()).slice(-4_000);
    });
    const kill = () => child.kill('SIGKILL');
    process.once('exit', kill);
    if (await answersPing(port, child)) {
      return {
        url: `redis://127.0.0.1:${port}`,
        port,
        pause: () => child.kill('SIGSTOP'),
        resume: () => child.kill('SIGCONT'),
        stop: async () => {
          process.off('exit', kill);
          await stopChild(child);
          await rm(dir, { recursive: true, force: true });
        },
      };
    }
    process.off('exit', kill);
    await stopChild(child);
    // On the port it had (a Redis coming back): a test beside it that listened on port 0 may hold that port for a
    // moment meanwhile, so it is tried again for a few seconds.
    if (attempt >= (options.port === undefined ? 4 : 20)) {
      await rm(dir, { recursive: true, force: true });
      throw new Error(`redis-server did not start:\n${log}`);
    }
    if (options.port !== undefined) await new Promise((r) => setTimeout(r, 250));
  }
}

/** One redis-server for the whole file: started before its tests, stopped after them. */
export function useRedisServer(args: string[] = []): { readonly server: RedisServer; readonly url: string } {
  let server: RedisServer | undefined;
  beforeAll(async () => {
    server = await startRedisServer({ args });
  }, 20_000);
  afterAll(async () => {
    await server?.stop();
  });
  return {
    get server() {
      if (!server) throw new Error('redis-server is not started yet');
      return server;
    },
    get url() {
      if (!server) throw new Error('redis-server is not started yet');
      return server.url;
    },
  };
}

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

/** Polls with a raw PING until `+PONG`, for up to 10 s; false when the process exits first. */
async function answersPing(port: number, child: ChildProcess): Promise<boolean> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) return false;
    if (await ping(port)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

export function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let reply = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (d) => {
      reply += d.toString();
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // A paused server would not act on SIGTERM.
  child.kill('SIGCONT');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 3_000);
  await exited;
  clearTimeout(timer);
}
