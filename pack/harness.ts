/**
 * What the packaging tests share: the packed tarballs (made once by
 * setup.ts), an example app copied outside the workspace and installed from
 * them with plain npm, commands run in it, the agent server, and the refund
 * flow driven in Debian's Chromium as a person would click it.
 */
import { type SpawnOptions, spawn } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { type AgentServer, startAgentServer } from '../apps/agent-server/src/server.js';
import { freePort } from '../apps/playground/e2e/harness.js';
import { CHROMIUM, CHROMIUM_ARGS } from '../chromium.js';

export { freePort };

export const REPO = fileURLToPath(new URL('..', import.meta.url));

declare module 'vitest' {
  export interface ProvidedContext {
    /** The directory holding one tarball per publishable package (`aguikit-core-0.1.0.tgz`, …). */
    tarballs: string;
    /** What `scripts/check-packages.mjs` (own rules, publint, arethetypeswrong) said of them. */
    packageChecks: { status: number; output: string };
  }
}

/** The tarball of each package, by package name. */
export async function tarballs(): Promise<Record<string, string>> {
  const dir = inject('tarballs');
  const out: Record<string, string> = {};
  for (const file of await readdir(dir)) {
    const name = /^aguikit-(core|react|ui|scenarios)-\d/.exec(file)?.[1];
    if (name) out[`@aguikit/${name}`] = join(dir, file);
  }
  return out;
}

export interface Ran {
  code: number | null;
  output: string;
}

/** Runs a command to its end; its output (stdout and stderr, interleaved) is returned, and printed when it fails. */
export function run(command: string, args: readonly string[], options: SpawnOptions & { allowFailure?: boolean } = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
    let output = '';
    child.stdout?.on('data', (d) => {
      output += d;
    });
    child.stderr?.on('data', (d) => {
      output += d;
    });
    child.once('error', reject);
    child.once('close', (code) => {
      if (code !== 0 && !options.allowFailure) {
        reject(new Error(`${command} ${args.join(' ')} exited with ${code}:\n${output.slice(-6000)}`));
      } else resolve({ code, output });
    });
  });
}

export interface Installed {
  dir: string;
  remove(): Promise<void>;
}

/**
 * Copies `examples/<name>` into a fresh directory outside the workspace and
 * installs it with plain npm: its `@aguikit/*` dependencies from the packed
 * tarballs, everything else from the registry. `extra` adds or replaces
 * dependencies (React 18, say).
 */
export async function installExample(name: string, extra: Record<string, string> = {}): Promise<Installed> {
  const root = await mkdtemp(join(tmpdir(), `aguikit-pack-${name}-`));
  const dir = join(root, name);
  await cp(join(REPO, 'examples', name), dir, {
    recursive: true,
    filter: (src) => !/[/\\](node_modules|dist|\.next)$/.test(src),
  });
  const packed = await tarballs();
  const manifestPath = join(dir, 'package.json');
  const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as {
    dependencies: Record<string, string>;
    devDependencies?: Record<string, string>;
    overrides?: Record<string, string>;
  };
  // What `npm i @aguikit/react @aguikit/ui` does once published; core comes with them.
  const local = Object.fromEntries(Object.entries(packed).map(([pkg, file]) => [pkg, `file:${file}`]));
  for (const pkg of Object.keys(manifest.dependencies)) if (local[pkg]) manifest.dependencies[pkg] = local[pkg];
  manifest.dependencies['@aguikit/core'] = local['@aguikit/core'] ?? '';
  for (const [pkg, spec] of Object.entries(extra)) {
    if (manifest.devDependencies && pkg in manifest.devDependencies) manifest.devDependencies[pkg] = spec;
    else manifest.dependencies[pkg] = spec;
  }
  manifest.overrides = { '@aguikit/core': local['@aguikit/core'] ?? '' };
  await writeFile(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  await run('npm', ['install', '--no-audit', '--no-fund', '--engine-strict', '--loglevel=error'], { cwd: dir });
  return { dir, remove: () => rm(root, { recursive: true, force: true }) };
}

export interface Served {
  url: string;
  output(): string;
  stop(): Promise<void>;
}

/** Starts a long-running command (a preview or production server) and waits until `url` answers. */
export async function serve(command: string, args: readonly string[], options: SpawnOptions & { url: string }): Promise<Served> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true, ...options });
  let output = '';
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  const stop = async () => {
    if (child.exitCode !== null || child.pid === undefined) return;
    const exited = new Promise((r) => child.once('exit', r));
    process.kill(-child.pid, 'SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    if (child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${command} ${args.join(' ')} exited with ${child.exitCode}:\n${output}`);
    try {
      const res = await fetch(options.url);
      if (res.status < 500) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${options.url} did not answer within 60 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { url: options.url, output: () => output, stop };
}

/** The refund prompt of the scripted agent the examples talk to. */
export const REFUND_PROMPT = 'My teapot from order A-1001 arrived broken. Can I get a refund?';

/**
 * The refund flow as a person does it, in Debian's Chromium: type the request,
 * wait for the approval form (generated from the interrupt's responseSchema),
 * approve it, and wait for the run to end. Returns what the page showed and
 * every console error or page error.
 */
export async function refundFlow(url: string, check?: (page: Page) => Promise<void>): Promise<{ problems: string[]; status: string }> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const problems: string[] = [];
  try {
    const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
    page.setDefaultTimeout(20_000);
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`console.${m.type()}: ${m.text()} (${m.location().url})`);
    });
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    await page.goto(url);
    const composer = page.getByRole('textbox', { name: 'Message', exact: true });
    await composer.fill(REFUND_PROMPT);
    await composer.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'The agent is waiting for your answer' });
    await dialog.waitFor();
    const card = page.locator('.agk-toolcall[data-tool="refund_order"]');
    expect(await card.getAttribute('data-status')).toBe('awaiting_decision');
    await dialog.getByRole('button', { name: 'Approve' }).click();
    await page.locator('.agk-chat .agk-runstatus[data-status="success"]').waitFor();
    await dialog.waitFor({ state: 'detached' });
    expect(await card.getAttribute('data-status')).toBe('succeeded');
    await check?.(page);
    const status = (await page.locator('.agk-chat .agk-runstatus').textContent()) ?? '';
    return { problems, status };
  } finally {
    await browser.close();
  }
}

/**
 * How tall the conversation is on a phone (390 x 844), in CSS px, with the
 * viewport's height: a chat squeezed to a few lines by a layout that leaves
 * its parent without a height shows here.
 */
export async function conversationOnPhone(url: string): Promise<{ height: number; viewport: number }> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await page.goto(url);
    const log = page.locator('.agk-chat .agk-messages');
    await log.waitFor();
    const box = await log.boundingBox();
    return { height: box?.height ?? 0, viewport: 844 };
  } finally {
    await browser.close();
  }
}

/**
 * An agent server on a free loopback port with a data directory of its own
 * (its side effects are the test's alone). `allowedOrigins`: the app pages
 * that call it, directly or through a proxy that passes their Origin on.
 */
export async function agentServer(allowedOrigins?: readonly string[]): Promise<{ server: AgentServer; close(): Promise<void> }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'aguikit-pack-agent-'));
  const server = await startAgentServer({ host: '127.0.0.1', port: 0, dataDir, speed: 20, ...(allowedOrigins ? { allowedOrigins } : {}) });
  return {
    server,
    async close() {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
