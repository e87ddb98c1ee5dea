/**
 * The pieces the end-to-end tests and the screenshot script share: the
 * playground built for production and served by Vite's preview server on
 * loopback, Debian's Chromium, and readers that turn what the page renders
 * back into plain data.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContextOptions, chromium, type Page } from 'playwright-core';
import { build, createLogger, type PreviewServer, preview } from 'vite';
import { CHROMIUM, CHROMIUM_ARGS } from '../../../chromium.js';
import type { AgentServer, AgentServerOptions } from '../../agent-server/src/server.js';
import type { EffectRecord, RunRecord } from '../../agent-server/src/storage/types.js';
import { agentProxy } from '../agentProxy.js';

export const PLAYGROUND_ROOT = fileURLToPath(new URL('..', import.meta.url));
const CONFIG_FILE = join(PLAYGROUND_ROOT, 'vite.config.ts');

declare module 'vitest' {
  export interface ProvidedContext {
    /** The built playground, served by `vite preview` on 127.0.0.1. */
    playgroundUrl: string;
    /** Where the preview server's `/agents` proxy points: the tests start (and restart) the agent server here. */
    agentPort: number;
  }
}

/** A free port on loopback, picked once so the agent server can be stopped and started again behind the same proxy. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => (port ? resolve(port) : reject(new Error('No port was assigned.'))));
    });
  });
}

/**
 * The agent server on the port the playground's proxy points at. Between two
 * tests here that port is free, and a test beside them that listens on port 0
 * may be given it for a moment: the start is tried again while it is taken,
 * for up to five seconds.
 */
export async function startOnAgentPort(options: AgentServerOptions & { port: number }): Promise<AgentServer> {
  // Imported here, not at the top: the global setup imports this file where the workspace's sources do not resolve.
  const { startAgentServer } = await import('../../agent-server/src/server.js');
  for (let waited = 0; ; waited += 100) {
    try {
      return await startAgentServer({ host: '127.0.0.1', ...options });
    } catch (e) {
      if ((e as { code?: unknown }).code !== 'EADDRINUSE' || waited >= 5_000) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

export interface ServedPlayground {
  url: string;
  close(): Promise<void>;
}

/**
 * Builds the playground into a temporary directory and serves it with
 * `vite preview` on 127.0.0.1 (port 0), its `/agents` proxy pointing at
 * `agentUrl`.
 */
export async function servePlayground(agentUrl: string): Promise<ServedPlayground> {
  const outDir = await mkdtemp(join(tmpdir(), 'aguikit-playground-'));
  let server: PreviewServer;
  try {
    // What a user's build is: React's production build. Vitest sets NODE_ENV to `test`, under which Vite would bundle
    // React's development build (its checks, and its timings of every changed prop, in every task the tests measure).
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      // The size warning about the single chunk is the playground's business, not the tests'.
      await build({ root: PLAYGROUND_ROOT, configFile: CONFIG_FILE, logLevel: 'error', build: { outDir, emptyOutDir: true } });
    } finally {
      process.env.NODE_ENV = nodeEnv;
    }
    server = await preview({
      root: PLAYGROUND_ROOT,
      configFile: CONFIG_FILE,
      customLogger: quietProxyLogger(),
      build: { outDir },
      preview: {
        host: '127.0.0.1',
        port: 0,
        strictPort: true,
        open: false,
        proxy: agentProxy(agentUrl),
      },
    });
  } catch (e) {
    await rm(outDir, { recursive: true, force: true });
    throw e;
  }
  const url = server.resolvedUrls?.local[0];
  if (!url) throw new Error('vite preview reported no local URL.');
  return {
    url,
    async close() {
      await server.close();
      await rm(outDir, { recursive: true, force: true });
    },
  };
}

/**
 * Vite's logger without its proxy errors: a test takes the agent server down
 * on purpose, and the page itself sees each failed request (a 502), which
 * the tests check through the browser's console.
 */
function quietProxyLogger() {
  const logger = createLogger('warn');
  const error = logger.error.bind(logger);
  logger.error = (message, options) => {
    if (!message.includes('http proxy error')) error(message, options);
  };
  return logger;
}

/** Debian's Chromium (never a downloaded one), with the flags that keep it off the network. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

export const VIEWPORT = { width: 1280, height: 860 };

export interface AgentRequest {
  url: string;
  lastEventId: string | undefined;
  body: {
    threadId?: string;
    runId?: string;
    resume?: { interruptId: string; status: string; payload?: unknown }[];
    forwardedProps?: unknown;
  };
}

export interface OpenPage {
  page: Page;
  /** Console errors and uncaught page errors, as `console: …` / `pageerror: …` lines. */
  problems: string[];
  /** Every POST the page sent to `/agents/*`, in order. */
  requests: AgentRequest[];
  close(): Promise<void>;
}

export interface OpenOptions {
  /** The playground's own URL parameters (`mode`, `scenario`, `speed`, `approvalWindowMs`). */
  params: Record<string, string | number>;
  colorScheme?: BrowserContextOptions['colorScheme'];
  viewport?: { width: number; height: number };
  /** Makes `crypto.randomUUID` count from 1, so two pages that do the same things send and show the same ids. */
  pinIds?: boolean;
  /** How far this machine's clock is off (ms; positive: fast): `Date` in the page reads that much later. */
  clockSkewMs?: number;
}

/** Opens the playground in a fresh browser context, recording problems and agent requests from the first byte. */
export async function openPlayground(browser: Browser, baseUrl: string, options: OpenOptions): Promise<OpenPage> {
  const context = await browser.newContext({ viewport: options.viewport ?? VIEWPORT, colorScheme: options.colorScheme ?? 'light' });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const problems: string[] = [];
  const requests: AgentRequest[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('request', (request) => {
    if (request.method() !== 'POST' || !new URL(request.url()).pathname.startsWith('/agents/')) return;
    requests.push({
      url: request.url(),
      lastEventId: request.headers()['last-event-id'],
      body: JSON.parse(request.postData() ?? '{}') as AgentRequest['body'],
    });
  });
  if (options.pinIds) {
    await page.addInitScript(() => {
      let n = 0;
      crypto.randomUUID = () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
    });
  }
  if (options.clockSkewMs) {
    await page.addInitScript((skew: number) => {
      const Real = Date;
      const now = () => Real.now() + skew;
      // Called with new: a date (now, when given nothing); called bare: the time as text, as Date() is.
      const Skewed = function (this: unknown, ...args: unknown[]) {
        if (!new.target) return new Real(now()).toString();
        return args.length === 0 ? new Real(now()) : new Real(...(args as [string]));
      } as unknown as DateConstructor;
      Object.setPrototypeOf(Skewed, Real);
      Object.defineProperty(Skewed, 'prototype', { value: Real.prototype });
      Object.defineProperty(Skewed, 'now', { value: now });
      globalThis.Date = Skewed;
    }, options.clockSkewMs);
  }
  const search = new URLSearchParams(Object.entries(options.params).map(([k, v]) => [k, String(v)]));
  await page.goto(`${baseUrl}?${search}`);
  await page.getByRole('heading', { name: 'aguikit playground' }).waitFor();
  return { page, problems, requests, close: () => context.close() };
}

/** The problems not explained by one of `expected`. */
export function unexpected(problems: readonly string[], expected: readonly RegExp[] = []): string[] {
  return problems.filter((p) => !expected.some((e) => e.test(p)));
}

/** Answers the page's `confirm()` dialogs: declined until `accept` is set; `asked` holds their messages. */
export function confirmDialogs(page: Page, accept = false): { asked: string[]; accept: boolean } {
  const dialogs = { asked: [] as string[], accept };
  page.on('dialog', (d) => {
    dialogs.asked.push(d.message());
    void (dialogs.accept ? d.accept() : d.dismiss());
  });
  return dialogs;
}

/** The run status as shown: its `data-status` (idle, running, success, interrupted, unknown, …). */
export const runStatus = (page: Page, status: string) => page.locator(`.agk-chat .agk-runstatus[data-status="${status}"]`);

/** The shared state document as the StateInspector renders it, read back from its JSON tree. */
export interface RenderedState {
  title: string;
  sync: string | null;
  document: unknown;
  history: string[];
}

/** Reads the StateInspector (the "Shared state" tab must be open). */
export function readState(page: Page): Promise<RenderedState> {
  return page.locator('.agk-inspector:visible').evaluate((inspector) => {
    const parseNode = (li: Element): [string | undefined, unknown] => {
      const head = li.querySelector(':scope > .agk-json__toggle, :scope > .agk-json__leaf');
      const keyText = head?.querySelector(':scope > .agk-json__key')?.textContent ?? undefined;
      const key = keyText === '""' ? '' : keyText;
      const type = li.getAttribute('data-type');
      if (type === 'object' || type === 'array') {
        const children = li.querySelector(':scope > .agk-json__children');
        if (!children) return [key, `(collapsed ${head?.querySelector('.agk-json__size')?.textContent ?? ''})`];
        const entries = [...children.querySelectorAll(':scope > .agk-json__node:not([data-state="removed"])')].map(parseNode);
        return [key, type === 'array' ? entries.map(([, v]) => v) : Object.fromEntries(entries)];
      }
      const text = head?.querySelector('.agk-json__value')?.textContent ?? '';
      return [key, type === 'other' ? text : JSON.parse(text)];
    };
    const root = inspector.querySelector('.agk-json > .agk-json__node');
    return {
      title: inspector.querySelector('.agk-inspector__document .agk-label')?.textContent ?? '',
      sync: inspector.getAttribute('data-sync'),
      document: root ? parseNode(root)[1] : undefined,
      history: [...inspector.querySelectorAll('.agk-inspector__history [role="option"]')].map((o) => o.textContent ?? ''),
    };
  });
}

/** One message of the conversation as rendered: its role, status and text (tool-call cards included). */
export interface RenderedMessage {
  role: string | null;
  status: string | null;
  text: string;
}

export interface RenderedChat {
  status: string | null;
  statusText: string;
  messages: RenderedMessage[];
}

/** Reads the chat: the run status line and every message, in order. */
export function readChat(page: Page): Promise<RenderedChat> {
  return page.locator('.agk-chat:visible').evaluate((chat) => {
    const status = chat.querySelector('.agk-runstatus');
    return {
      status: status?.getAttribute('data-status') ?? null,
      statusText: status?.textContent ?? '',
      messages: [...chat.querySelectorAll('.agk-messages__content .agk-message')].map((m) => ({
        role: m.getAttribute('data-role'),
        status: m.getAttribute('data-status'),
        text: m.textContent ?? '',
      })),
    };
  });
}

/** Reads the Events tab (opening it, then returning to the state tab): the count line and one line per event. */
export async function readEvents(page: Page): Promise<{ count: string; rows: string[]; streamDiagnostics: string }> {
  await page.getByRole('tab', { name: 'Events' }).click();
  const timeline = page.locator('.agk-timeline:visible');
  await timeline.waitFor();
  const read = await timeline.evaluate((t) => ({
    count: t.querySelector('.agk-timeline__count')?.textContent ?? '',
    rows: [...t.querySelectorAll('[role="option"]')].map((o) => o.textContent ?? ''),
    streamDiagnostics: t.querySelector('.agk-timeline__stream')?.textContent ?? '',
  }));
  await page.getByRole('tab', { name: 'Shared state' }).click();
  await page.locator('.agk-inspector:visible').waitFor();
  return read;
}

/**
 * What an agent server stored in its data directory (its SQLite database,
 * read-only while the server runs): every run accepted and every side effect.
 */
export function readStored(dataDir: string): { runs: RunRecord[]; effects: EffectRecord[] } {
  // better-sqlite3 is the agent server's dependency: resolved from there.
  const require = createRequire(new URL('../../agent-server/package.json', import.meta.url));
  const Database = require('better-sqlite3') as new (
    file: string,
    options: { readonly: boolean },
  ) => { prepare(sql: string): { pluck(): { all(): string[] } }; close(): void };
  const db = new Database(join(dataDir, 'agent.db'), { readonly: true });
  try {
    const all = <T>(sql: string) =>
      db
        .prepare(sql)
        .pluck()
        .all()
        .map((text) => JSON.parse(text) as T);
    return {
      runs: all<RunRecord>('SELECT record FROM runs ORDER BY rowid'),
      effects: all<EffectRecord>('SELECT record FROM effects ORDER BY rowid'),
    };
  } finally {
    db.close();
  }
}
