/**
 * The server under measurement, in a process of its own (forked by main.ts
 * with `--expose-gc`): the agent server as `pnpm dev` runs it, on SQLite in
 * the directory given by AGUIKIT_BENCH_DATA_DIR. It answers two messages
 * over IPC: `memory` (collects garbage, then reports process.memoryUsage()),
 * `logs` (how many warnings and errors the server logged, by message) and
 * `close`.
 */
import { readFileSync } from 'node:fs';
import { startAgentServer } from '../../../apps/agent-server/src/server.js';

export type ToServer = { type: 'memory'; id: number } | { type: 'logs'; id: number } | { type: 'close' };
export type FromServer =
  | { type: 'ready'; url: string }
  | { type: 'logs'; id: number; counts: Record<string, number> }
  | {
      type: 'memory';
      id: number;
      rss: number;
      heapUsed: number;
      external: number;
      arrayBuffers: number;
      /** Linux: the RSS in anonymous memory (heaps, malloc) and in mapped files (code, SQLite's shared memory and maps), in bytes. */
      rssAnon?: number;
      rssFile?: number;
    };

const dataDir = process.env.AGUIKIT_BENCH_DATA_DIR;
if (!dataDir) throw new Error('AGUIKIT_BENCH_DATA_DIR is not set');
const send = (message: FromServer) => process.send?.(message);
const gc = (globalThis as { gc?: () => void }).gc;

/** Warnings and errors the server logged, by level and message (its JSON log lines, one per write). */
const counts: Record<string, number> = {};
const logStream = {
  write(line: string) {
    try {
      const { level, msg } = JSON.parse(line) as { level?: number; msg?: string };
      const key = `${(level ?? 0) >= 50 ? 'error' : 'warn'}: ${msg ?? '(no message)'}`;
      counts[key] = (counts[key] ?? 0) + 1;
    } catch {
      counts['unreadable log line'] = (counts['unreadable log line'] ?? 0) + 1;
    }
  },
};

const server = await startAgentServer({ host: '127.0.0.1', port: 0, dataDir, logLevel: 'warn', logStream });
send({ type: 'ready', url: server.url });

process.on('message', (message: ToServer) => {
  if (message.type === 'close') {
    void server.close().then(() => process.exit(0));
    return;
  }
  if (message.type === 'logs') {
    send({ type: 'logs', id: message.id, counts: { ...counts } });
    return;
  }
  // Twice, a tick apart: what a finished run leaves is found by the second collection at the latest.
  gc?.();
  setTimeout(() => {
    gc?.();
    const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage();
    send({ type: 'memory', id: message.id, rss, heapUsed, external, arrayBuffers, ...rssParts() });
  }, 20);
});

/** RssAnon and RssFile + RssShmem of /proc/self/status, where there is one. */
function rssParts(): { rssAnon?: number; rssFile?: number } {
  try {
    const status = readFileSync('/proc/self/status', 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) * 1024;
    const anon = kb('RssAnon');
    const file = kb('RssFile') + kb('RssShmem');
    return Number.isFinite(anon) && Number.isFinite(file) ? { rssAnon: anon, rssFile: file } : {};
  } catch {
    return {};
  }
}
