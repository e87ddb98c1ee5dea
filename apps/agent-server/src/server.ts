import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BaseEvent } from '@ag-ui/core';
import { EventEncoder } from '@ag-ui/encoder';
import type { RunAgentInput } from '@aguikit/core';
import { findScenario, type SideEffect, scenarioEvents, scenarios, type TimedEvent } from '@aguikit/scenarios';
import { Journal } from './journal.js';
import { parseEventId, parseRunInput, RequestError } from './request.js';
import { ThreadBook } from './threads.js';

export interface AgentServerOptions {
  port?: number;
  /** Loopback by default. */
  host?: string;
  /** Where the journal is kept, so a restart can resume runs; memory only when absent. */
  dataDir?: string;
  /** Playback speed of the scenarios (a request may ask for another with `?speed=`). Default 1. */
  speed?: number;
  /** A `: ping` comment this often on open streams. Default 15 s. */
  heartbeatMs?: number;
  /** The largest request body accepted. Default 1 MiB. */
  maxBodyBytes?: number;
  now?: () => number;
}

export interface PerformedEffect extends SideEffect {
  at: number;
  runId: string;
}

export interface AgentServer {
  readonly url: string;
  /** Side effects performed, each once per key (a refund per interrupt id). */
  effects(): PerformedEffect[];
  /** Stops accepting requests, ends open streams, and resolves once closed. */
  close(): Promise<void>;
}

interface Run {
  scenarioId: string;
  input: RunAgentInput;
  events: TimedEvent[];
}

/**
 * Starts an AG-UI 1.0 server over HTTP + SSE on loopback that serves every
 * scenario: `POST /agents/:scenario` with a `RunAgentInput`. Frames are
 * written by the official `@ag-ui/encoder`, each with an SSE `id:`
 * (`<runId>:<index>`), so a client can reconnect with `Last-Event-ID` and get
 * exactly the events it missed. Bad input gets a 4xx with a JSON error.
 *
 * @example
 * const server = await startAgentServer({ port: 8787 });
 * // POST http://127.0.0.1:8787/agents/refund
 */
export async function startAgentServer(options: AgentServerOptions = {}): Promise<AgentServer> {
  const now = options.now ?? Date.now;
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const maxBody = options.maxBodyBytes ?? 1024 * 1024;
  const journal = new Journal(options.dataDir);
  const threads = new ThreadBook();
  const runs = new Map<string, Run>();
  const performed = new Map<string, PerformedEffect>();
  const open = new Set<ServerResponse>();
  const encoder = new EventEncoder();

  // A restarted server recomputes its runs from their inputs: scenarios are pure functions of them.
  for (const record of journal.records) {
    if (record.type === 'effect')
      performed.set(`${record.effect.kind}:${record.effect.key}`, { ...record.effect, at: record.at, runId: record.runId });
    else {
      const scenario = findScenario(record.scenarioId);
      if (!scenario) continue;
      const events = scenarioEvents(scenario, record.input, record.now);
      runs.set(record.input.runId, { scenarioId: record.scenarioId, input: record.input, events });
      threads.apply(record.input, events);
    }
  }

  const perform = (effect: SideEffect, runId: string) => {
    const key = `${effect.kind}:${effect.key}`;
    if (performed.has(key)) return;
    const done: PerformedEffect = { ...effect, at: now(), runId };
    performed.set(key, done);
    journal.append({ type: 'effect', effect, at: done.at, runId });
  };

  async function stream(req: IncomingMessage, res: ServerResponse, run: Run, from: number, speed: number) {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.flushHeaders();
    open.add(res);
    let closed = false;
    let wake: (() => void) | undefined;
    const onClose = () => {
      closed = true;
      open.delete(res);
      // A slow run would otherwise keep its timers (and a stopping process) alive until its next event is due.
      wake?.();
    };
    req.on('close', onClose);
    res.on('close', onClose);
    const heartbeat = setInterval(() => res.write(': ping\n\n'), heartbeatMs);
    try {
      let due = 0;
      const start = performance.now();
      for (let i = from; i < run.events.length && !closed; i++) {
        const item = run.events[i] as TimedEvent;
        due += speed > 0 && Number.isFinite(speed) ? item.delayMs / speed : 0;
        const wait = due - (performance.now() - start);
        if (wait >= 4) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, wait);
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
        }
        if (closed) break;
        if (item.effect) perform(item.effect, run.input.runId);
        // A client that reads slower than the run streams holds the run back rather than filling the server's memory.
        if (!res.write(`id: ${run.input.runId}:${i}\n${encoder.encodeSSE(item.event as unknown as BaseEvent)}`)) {
          await new Promise<void>((resolve) => {
            const done = () => {
              res.off('drain', done);
              resolve();
            };
            res.on('drain', done);
            wake = done;
          });
        }
      }
    } finally {
      clearInterval(heartbeat);
      open.delete(res);
      if (!closed) res.end();
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Allow-Headers', 'content-type, accept, last-event-id, authorization');
    res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
    if (req.method === 'OPTIONS') return void res.writeHead(204).end();
    const url = parseUrl(req.url ?? '/');
    if (req.method === 'GET' && url.pathname === '/health') {
      let bufferedBytes = 0;
      for (const stream of open) bufferedBytes += stream.writableLength;
      return json(res, 200, { ok: true, streams: open.size, bufferedBytes });
    }
    if (req.method === 'GET' && url.pathname === '/agents') {
      return json(
        res,
        200,
        Object.values(scenarios).map(({ id, title, description, prompt }) => ({ id, title, description, prompt })),
      );
    }
    if (req.method === 'GET' && url.pathname === '/effects') return json(res, 200, [...performed.values()]);
    const match = /^\/agents\/([^/]+)$/.exec(url.pathname);
    if (!match) throw new RequestError(404, 'NOT_FOUND', `No route for ${req.method} ${url.pathname}.`);
    if (req.method !== 'POST') throw new RequestError(405, 'METHOD_NOT_ALLOWED', 'POST a RunAgentInput to this endpoint.');
    const scenarioId = decodePath(match[1] ?? '');
    const scenario = findScenario(scenarioId);
    if (!scenario) throw new RequestError(404, 'UNKNOWN_SCENARIO', `No scenario named '${scenarioId}'. GET /agents lists them.`);
    const input = parseRunInput(await readBody(req, maxBody));
    const speed = Number(
      url.searchParams.get('speed') ?? (input.forwardedProps as { speed?: unknown } | undefined)?.speed ?? options.speed ?? 1,
    );
    const lastEventId = req.headers['last-event-id'];
    if (typeof lastEventId === 'string' && lastEventId !== '') {
      const at = parseEventId(lastEventId);
      if (!at || at.runId !== input.runId)
        throw new RequestError(400, 'BAD_LAST_EVENT_ID', `Last-Event-ID '${lastEventId}' does not belong to run '${input.runId}'.`);
      const run = runs.get(input.runId);
      if (!run) throw new RequestError(404, 'UNKNOWN_RUN', `Run '${input.runId}' is not known here; start a new run.`);
      return stream(req, res, run, at.index + 1, speed);
    }
    const existing = runs.get(input.runId);
    if (existing) {
      // The same request again is a client retrying after a drop before its first event: replay the run from the start.
      if (JSON.stringify(existing.input) === JSON.stringify(input)) return stream(req, res, existing, 0, speed);
      throw new RequestError(
        409,
        'RUN_EXISTS',
        `Run '${input.runId}' already exists with another input: reconnect with Last-Event-ID, or use a new run id.`,
      );
    }
    const started = now();
    threads.check(input, started);
    const events = scenarioEvents(scenario, input, started);
    const run: Run = { scenarioId, input, events };
    runs.set(input.runId, run);
    threads.apply(input, events);
    journal.append({ type: 'run', scenarioId, input, now: started });
    return stream(req, res, run, 0, speed);
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (res.headersSent) return void res.destroy();
      if (e instanceof RequestError) return json(res, e.status, { error: { code: e.code, message: e.message } });
      json(res, 500, { error: { code: 'INTERNAL', message: 'The server failed to handle the request.' } });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port, address } = server.address() as AddressInfo;
  return {
    url: `http://${address.includes(':') ? `[${address}]` : address}:${port}`,
    effects: () => [...performed.values()],
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of open) res.end();
        open.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
}

// A request target the WHATWG parser refuses (`http://[x/`) is the client's error, not the server's.
function parseUrl(target: string): URL {
  try {
    return new URL(target, 'http://localhost');
  } catch {
    throw new RequestError(400, 'MALFORMED_URL', 'The request target is not a valid URL.');
  }
}

function decodePath(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new RequestError(400, 'MALFORMED_URL', 'The path has an invalid percent-encoding.');
  }
}

function readBody(req: IncomingMessage, max: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // The rest is read and dropped, not the socket destroyed: a client still uploading must receive the 413, not a reset.
      if (size > max) return reject(new RequestError(413, 'BODY_TOO_LARGE', `The body is over ${max} bytes.`));
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
