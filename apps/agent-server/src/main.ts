import { fileURLToPath } from 'node:url';
import { listFromEnv } from './http/origin.js';
import { startAgentServer } from './server.js';

// PORT, AGENT_DATA_DIR (SQLite; apps/agent-server/.data by default), REDIS_URL (Redis, several servers on one store), AGENT_SPEED,
// AGENT_ALLOWED_ORIGINS and AGENT_ALLOWED_HOSTS (comma-separated), AGENT_LOG_LEVEL (pino's; default info),
// AGENT_RUN_RETENTION_HOURS (how long runs and their event logs are kept; default 168, a week), AGENT_MAX_CONNECTIONS
// (connections held at once; default 1,000), AGENT_MAX_RUNS (runs produced at once; default 200), AGENT_MAX_RUNS_PER_ADDRESS
// (runs produced at once for one client address; default AGENT_MAX_RUNS), AGENT_MEMORY_RUN_MB (on memory storage, the MiB
// runs and their logs may hold before the oldest finished are dropped; default 64).
const port = Number(process.env.PORT ?? 8787);
const origins = listFromEnv(process.env.AGENT_ALLOWED_ORIGINS);
const hosts = listFromEnv(process.env.AGENT_ALLOWED_HOSTS);
const options = {
  port,
  ...(process.env.REDIS_URL ? { redisUrl: process.env.REDIS_URL } : {}),
  ...(process.env.AGENT_SPEED ? { speed: Number(process.env.AGENT_SPEED) } : {}),
  ...(origins ? { allowedOrigins: origins } : {}),
  ...(hosts ? { allowedHosts: hosts } : {}),
  logLevel: process.env.AGENT_LOG_LEVEL || 'info',
  ...(process.env.AGENT_RUN_RETENTION_HOURS ? { runRetentionMs: retentionHours(process.env.AGENT_RUN_RETENTION_HOURS) * 3_600_000 } : {}),
  // A value that is no whole number of 1 or more stops the start (startAgentServer's RangeError).
  ...(process.env.AGENT_MAX_CONNECTIONS ? { maxConnections: Number(process.env.AGENT_MAX_CONNECTIONS) } : {}),
  ...(process.env.AGENT_MAX_RUNS ? { maxRuns: Number(process.env.AGENT_MAX_RUNS) } : {}),
  ...(process.env.AGENT_MAX_RUNS_PER_ADDRESS ? { maxRunsPerAddress: Number(process.env.AGENT_MAX_RUNS_PER_ADDRESS) } : {}),
  ...(process.env.AGENT_MEMORY_RUN_MB ? { maxMemoryRunBytes: Math.floor(Number(process.env.AGENT_MEMORY_RUN_MB) * 1024 * 1024) } : {}),
};
/** AGENT_RUN_RETENTION_HOURS as a number of hours: a mistyped value stops the start rather than keeping runs for ever. */
function retentionHours(text: string): number {
  const hours = Number(text);
  if (!(hours > 0) || !Number.isFinite(hours))
    throw new Error(`AGENT_RUN_RETENTION_HOURS must be a positive number of hours, not '${text}'.`);
  return hours;
}
const dataDir = process.env.AGENT_DATA_DIR || fileURLToPath(new URL('../.data', import.meta.url));

/** better-sqlite3 is a native addon, an optional dependency: an install that could not build it has none. */
const sqliteMissing = (e: unknown) => /better-sqlite3|better_sqlite3|bindings file/i.test(e instanceof Error ? `${e.message}` : String(e));

let server: Awaited<ReturnType<typeof startAgentServer>>;
try {
  server = await startAgentServer({ ...options, dataDir });
} catch (e) {
  if (process.env.REDIS_URL || !sqliteMissing(e)) throw e;
  console.warn(
    'aguikit agent server: SQLite is not available (better-sqlite3 was not built: its prebuilt binary could not be downloaded, ' +
      "and building it needs Node's headers; on Debian `npm_config_nodedir=/usr pnpm install` builds it). " +
      `Runs and side effects are kept in memory until the server stops, runs and their logs up to ${process.env.AGENT_MEMORY_RUN_MB || 64} MiB (AGENT_MEMORY_RUN_MB): past it, the runs finished longest ago are dropped.`,
  );
  server = await startAgentServer(options);
}
console.log(`aguikit agent server on ${server.url} (POST /agents/:scenario, GET /agents)`);

let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: closing open streams and stopping`);
  await server.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
