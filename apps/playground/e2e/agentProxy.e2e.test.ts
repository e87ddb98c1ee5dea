/**
 * The playground's `/agents` proxy (agentProxy.ts) between a page and the
 * agent server, without a browser: Vite's dev server as `pnpm dev` starts it
 * (vite.config.ts, its agent server named by AGENT_SERVER_URL) and its preview
 * server as the end-to-end tests start it, each in front of a bare HTTP server
 * standing in for the agent server.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createViteServer, preview } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentProxy } from '../agentProxy.js';
import { PLAYGROUND_ROOT } from './harness.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

let agent: Server;
let agentUrl: string;
/** What the stand-in agent does with the next request. */
let handle: Handler = (_req, res) => res.writeHead(404).end();

const frame = (i: number, data = `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"${i}"}`) => `id: ${i}\ndata: ${data}\n\n`;

beforeAll(async () => {
  agent = createServer((req, res) => handle(req, res));
  await new Promise<void>((resolve) => agent.listen(0, '127.0.0.1', resolve));
  const address = agent.address();
  agentUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(async () => {
  agent.closeAllConnections();
  await new Promise((r) => agent.close(r));
});

/**
 * A request as a browser makes it (Node's `http`, which, as a browser does and unlike `fetch` in Node, takes a
 * chunked body whose connection closes before its last chunk as cut, whatever its `Connection` header says): its
 * status, the text it got, and how its reply ended (`end`, `cut`, or `hung` when neither came within `limitMs`).
 */
function send(
  url: URL,
  {
    method = 'GET',
    body,
    limitMs = 5_000,
    onFirstChunk,
  }: { method?: string; body?: string; limitMs?: number; onFirstChunk?: (abort: () => void) => void } = {},
): Promise<{ status: number; text: string; ended: 'end' | 'cut' | 'hung' }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: body ? { 'content-type': 'application/json' } : {} }, (res) => {
      let text = '';
      let first = true;
      const done = (ended: 'end' | 'cut' | 'hung') => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, text, ended });
        if (ended === 'hung') req.destroy();
      };
      const timer = setTimeout(() => done('hung'), limitMs);
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        if (first) onFirstChunk?.(() => req.destroy());
        first = false;
      });
      res.on('error', () => undefined);
      res.on('close', () => done(res.complete ? 'end' : 'cut'));
    });
    req.on('error', (e) => {
      if (!req.destroyed || !onFirstChunk) reject(e);
    });
    req.end(body);
  });
}

const servers: { name: string; start: () => Promise<{ url: string; close: () => Promise<void> }> }[] = [
  {
    name: '`pnpm dev` (vite.config.ts)',
    async start() {
      const before = process.env.AGENT_SERVER_URL;
      process.env.AGENT_SERVER_URL = agentUrl;
      try {
        const server = await createViteServer({
          root: PLAYGROUND_ROOT,
          configFile: join(PLAYGROUND_ROOT, 'vite.config.ts'),
          logLevel: 'silent',
          server: { port: 0, strictPort: false, watch: null, ws: false },
          optimizeDeps: { noDiscovery: true, include: [] },
        });
        await server.listen();
        const url = server.resolvedUrls?.local[0];
        if (!url) throw new Error('vite reported no local URL.');
        return { url, close: () => server.close() };
      } finally {
        if (before === undefined) delete process.env.AGENT_SERVER_URL;
        else process.env.AGENT_SERVER_URL = before;
      }
    },
  },
  {
    name: '`vite preview` (the end-to-end harness)',
    async start() {
      const outDir = await mkdtemp(join(tmpdir(), 'aguikit-proxy-'));
      const server = await preview({
        root: outDir,
        configFile: false,
        logLevel: 'silent',
        build: { outDir },
        preview: { host: '127.0.0.1', port: 0, open: false, proxy: agentProxy(agentUrl) },
      });
      const url = server.resolvedUrls?.local[0];
      if (!url) throw new Error('vite preview reported no local URL.');
      return {
        url,
        async close() {
          await server.close();
          await rm(outDir, { recursive: true, force: true });
        },
      };
    },
  },
];

describe.each(servers)('through $name', ({ start }) => {
  let proxyUrl: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ url: proxyUrl, close } = await start());
  });
  afterAll(() => close());
  const run = (options: Parameters<typeof send>[1] = {}) =>
    send(new URL('agents/fast-stream', proxyUrl), { method: 'POST', body: '{}', ...options });

  it('cuts the page’s reply at once when the agent’s reply is cut mid-stream', async () => {
    handle = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(frame(1));
      setTimeout(() => res.socket?.destroy(), 100);
    };
    const started = Date.now();
    expect(await run()).toEqual({ status: 200, text: frame(1), ended: 'cut' });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('passes on every event the agent sent before its reply was cut', async () => {
    const frames = Array.from({ length: 400 }, (_, i) => frame(i + 1, JSON.stringify({ type: 'RAW', event: 'x'.repeat(1_000), i })));
    handle = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const f of frames) res.write(f);
      // The agent's process dies once its last writes are on the wire.
      res.socket?.end(() => res.socket?.destroy());
    };
    const { text, ended } = await run();
    expect(ended).toBe('cut');
    expect(text.length, 'characters the page received').toBe(frames.join('').length);
  });

  it('ends the agent’s request when the page aborts its own (Stop, a closed tab)', async () => {
    let upstreamClosed: (finished: boolean) => void = () => {};
    const closed = new Promise<boolean>((r) => {
      upstreamClosed = r;
    });
    handle = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(frame(1));
      const beat = setInterval(() => res.write(': ping\n\n'), 50);
      res.once('close', () => {
        clearInterval(beat);
        upstreamClosed(res.writableFinished);
      });
    };
    const page = await run({ onFirstChunk: (abort) => abort() });
    expect(page.ended).toBe('cut');
    const finished = await Promise.race([closed, new Promise<'open'>((r) => setTimeout(() => r('open'), 3_000))]);
    expect(finished, 'the agent saw its reply end unfinished').toBe(false);
  });

  it.each([
    ['chunked, keep-alive', { 'content-type': 'text/event-stream', connection: 'keep-alive' }],
    ['chunked, Connection: close', { 'content-type': 'text/event-stream', connection: 'close' }],
  ])('passes on a whole reply (%s) whole, and the next one after it', async (_name, headers) => {
    const body = [1, 2, 3].map((i) => frame(i)).join('');
    handle = (_req, res) => {
      res.writeHead(200, headers);
      res.write(body.slice(0, 10));
      setTimeout(() => res.end(body.slice(10)), 50);
    };
    for (let round = 0; round < 2; round++) expect(await run()).toEqual({ status: 200, text: body, ended: 'end' });
  });

  it.each([
    [200, '{"agents":["fast-stream"]}'],
    [404, '{"error":{"code":"NOT_FOUND","message":"No such agent."}}'],
  ])('passes on a JSON answer (%i) as it is', async (status, json) => {
    handle = (_req, res) => {
      res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) });
      res.end(json);
    };
    expect(await send(new URL('agents', proxyUrl))).toEqual({ status, text: json, ended: 'end' });
  });
});

it('lets the agent server see a page that stops reading a run through the proxy (Stop), as it sees one it serves itself', async () => {
  // Imported here, not at the top: the global setup imports the harness where the workspace's sources do not resolve.
  const { startAgentServer } = await import('../../agent-server/src/server.js');
  const server = await startAgentServer({ host: '127.0.0.1', port: 0 });
  const outDir = await mkdtemp(join(tmpdir(), 'aguikit-proxy-'));
  const proxy = await preview({
    root: outDir,
    configFile: false,
    logLevel: 'silent',
    build: { outDir },
    preview: { host: '127.0.0.1', port: 0, open: false, proxy: agentProxy(server.url) },
  });
  try {
    const base = proxy.resolvedUrls?.local[0] ?? '';
    const streams = async () => ((await (await fetch(`${server.url}/health`)).json()) as { streams?: number }).streams;
    const input = {
      threadId: '0d9c4f1e-7a2b-4c3d-8e5f-6a7b8c9d0e1f',
      runId: 'r1',
      messages: [{ id: 'r1-user', role: 'user', content: 'My teapot from order A-1001 arrived broken.' }],
      tools: [],
      context: [],
    };
    let open: number | undefined;
    const page = await send(new URL('agents/refund?speed=1', base), {
      method: 'POST',
      body: JSON.stringify(input),
      onFirstChunk: (abort) => {
        void streams().then((n) => {
          open = n;
          abort();
        });
      },
    });
    expect(page).toMatchObject({ status: 200, ended: 'cut' });
    expect(open, 'streams open on the agent server while the page reads').toBe(1);
    await expect.poll(streams, { timeout: 3_000 }).toBe(0);
  } finally {
    await proxy.close();
    await server.close();
    await rm(outDir, { recursive: true, force: true });
  }
});
