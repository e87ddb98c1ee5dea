import { Agent, request } from 'node:http';

/** What one run looked like from the client. */
export interface RunResult {
  /** Why the run is counted as an error (a status, a network error, a stream without its RUN_FINISHED, a count of events off). */
  error?: string;
  /** From the request sent to the frame carrying RUN_FINISHED. */
  latencyMs: number;
  events: number;
  bytes: number;
}

export interface RunRequest {
  scenario: string;
  body: unknown;
  /** The number of events the run must deliver (checked: a lost or doubled event is an error). */
  expectedEvents?: number;
  timeoutMs?: number;
}

/**
 * A connection of its own per run, closed at its end (no keep-alive pool): an
 * SSE stream holds its connection for the whole run anyway, and a pooled
 * socket the server closes while idle would turn into a reset counted
 * against the server.
 */
const agent = new Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });

/**
 * POSTs a run and reads its SSE stream to the end, keeping nothing of it but
 * counts: frames (`id:` lines), bytes, and whether RUN_FINISHED (or
 * RUN_ERROR) came. The client stays cheap, since it shares the machine with
 * the server it measures.
 */
export function runOnce(base: string, run: RunRequest): Promise<RunResult> {
  const started = performance.now();
  const payload = JSON.stringify(run.body);
  return new Promise((resolve) => {
    let settled = false;
    let events = 0;
    let bytes = 0;
    let finishedAt: number | undefined;
    let failed: string | undefined;
    // The end of the previous chunk, so a marker cut across two chunks is still seen.
    let carry = '';
    const done = (error?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const latencyMs = (finishedAt ?? performance.now()) - started;
      const wrongCount =
        !error && run.expectedEvents !== undefined && events !== run.expectedEvents
          ? `${events} events instead of ${run.expectedEvents}`
          : undefined;
      const reason = error ?? failed ?? wrongCount;
      resolve({ ...(reason ? { error: reason } : {}), latencyMs, events, bytes });
    };
    const req = request(
      `${base}/agents/${encodeURIComponent(run.scenario)}?speed=0`,
      {
        method: 'POST',
        agent,
        headers: {
          'Content-Type': 'application/json',
          Accept: 'text/event-stream',
          'Content-Length': Buffer.byteLength(payload),
        },
      },
      (res) => {
        if (res.statusCode !== 200) {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => {
            if (text.length < 2_000) text += d;
          });
          res.on('end', () => done(`HTTP ${res.statusCode} ${/"code":"([^"]+)"/.exec(text)?.[1] ?? ''}`.trim()));
          res.on('error', (e) => done(`${e.message} (reading a refusal)`));
          return;
        }
        res.setEncoding('utf8');
        const frames = frameCounter();
        res.on('data', (chunk: string) => {
          bytes += Buffer.byteLength(chunk);
          events += frames(chunk);
          const text = carry + chunk;
          if (finishedAt === undefined && text.includes('"type":"RUN_FINISHED"')) finishedAt = performance.now();
          if (!failed && text.includes('"type":"RUN_ERROR"')) failed = 'RUN_ERROR';
          carry = text.slice(-32);
        });
        res.on('end', () => done(finishedAt === undefined ? 'the stream ended without RUN_FINISHED' : undefined));
        res.on('error', (e) => done(`${e.message} (mid-stream)`));
        res.on('aborted', () => done('the stream was cut (mid-stream)'));
      },
    );
    const timer = setTimeout(() => {
      done(`no end in ${run.timeoutMs ?? 120_000} ms`);
      req.destroy();
    }, run.timeoutMs ?? 120_000);
    req.on('error', (e) => done(`${e.message} (${events ? 'mid-stream' : 'before the first event'})`));
    req.end(payload);
  });
}

/** Counts the lines that start with `id: ` (one per event frame: JSON data never holds a raw newline), across chunks. */
function frameCounter(): (chunk: string) => number {
  let head = '';
  let decided = false;
  return (chunk) => {
    let found = 0;
    let i = 0;
    while (i < chunk.length) {
      const nl = chunk.indexOf('\n', i);
      const end = nl < 0 ? chunk.length : nl;
      if (!decided) {
        head += chunk.slice(i, Math.min(end, i + 4 - head.length));
        if (head.length === 4) {
          decided = true;
          if (head === 'id: ') found++;
        }
      }
      if (nl < 0) break;
      head = '';
      decided = false;
      i = nl + 1;
    }
    return found;
  };
}

/**
 * A request that asks for much and leaves once the response headers arrive:
 * resolves with the status, after the socket is destroyed.
 */
export function hitAndRun(base: string, scenario: string, body: unknown): Promise<{ status: number; requestBytes: number }> {
  const payload = JSON.stringify(body);
  const path = `/agents/${encodeURIComponent(scenario)}?speed=0`;
  return new Promise((resolve, reject) => {
    let answered = false;
    // A fresh connection of its own (no keep-alive pool), closed as soon as the headers are in.
    const req = request(
      `${base}${path}`,
      { method: 'POST', agent: false, headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) } },
      (res) => {
        const status = res.statusCode ?? 0;
        answered = true;
        req.destroy();
        res.destroy();
        resolve({ status, requestBytes: requestSize(base, path, payload) });
      },
    );
    req.on('error', (e) => {
      // The socket destroyed above reports its own end: only an error before any answer counts.
      if (!answered) reject(e);
    });
    req.end(payload);
  });
}

/** The bytes of the request on the wire (request line, the headers node sends, body). */
function requestSize(base: string, path: string, payload: string): number {
  const host = new URL(base).host;
  const head =
    `POST ${path} HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(payload)}\r\n` +
    `Host: ${host}\r\nConnection: close\r\n\r\n`;
  return Buffer.byteLength(head) + Buffer.byteLength(payload);
}

/**
 * Runs up to `total` runs with at most `concurrency` in flight; after
 * `budgetMs` no new run is started (the first `concurrency` always are).
 * Resolves with each result and the wall time.
 */
export async function pool(
  total: number,
  concurrency: number,
  next: (i: number) => Promise<RunResult>,
  budgetMs = Number.POSITIVE_INFINITY,
): Promise<{ results: RunResult[]; wallMs: number }> {
  const results: RunResult[] = [];
  let issued = 0;
  const started = performance.now();
  const worker = async () => {
    while (issued < total && (issued < concurrency || performance.now() - started < budgetMs)) {
      const i = issued++;
      results[i] = await next(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker));
  return { results, wallMs: performance.now() - started };
}

/** The value at quantile `q` (0..1) of `values`, by the nearest-rank method. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length)));
  return sorted[rank - 1] as number;
}

export function closeAgent(): void {
  agent.destroy();
}
