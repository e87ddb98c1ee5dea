import { fileURLToPath } from 'node:url';
import { optionsFromEnv } from './config.js';
import { startAgentServer } from './server.js';

// PORT, AGENT_DATA_DIR (SQLite; apps/agent-server/.data by default), REDIS_URL (Redis, several servers on one store), AGENT_SPEED,
// AGENT_ALLOWED_ORIGINS and AGENT_ALLOWED_HOSTS (comma-separated), AGENT_LOG_LEVEL (pino's; default info),
// AGENT_RUN_RETENTION_HOURS (how long runs and their event logs are kept; default 168, a week), AGENT_MAX_CONNECTIONS
// (connections held at once; default 1,000), AGENT_MAX_RUNS (runs produced at once; default 200), AGENT_MAX_RUNS_PER_ADDRESS
// (runs produced at once for one client address; default AGENT_MAX_RUNS), AGENT_MEMORY_RUN_MB (on memory storage, the MiB
// runs and their logs may hold before the oldest finished are dropped; default 64), AGENT_MEMORY_RECORD_MB (on memory
// storage, the MiB threads and side-effect records may hold; default 16). A value the variable cannot take stops the start
// with a message that names it (config.ts).
let options: ReturnType<typeof optionsFromEnv>;
try {
  options = optionsFromEnv(process.env);
} catch (e) {
  console.error(`aguikit agent server: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
/** A bound in bytes as MiB, for the start's message. */
const mib = (bytes: number | undefined, fallback: number) =>
  bytes === undefined ? fallback : Math.round((bytes / 1024 / 1024) * 100) / 100;
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
      `Runs, threads and side effects are kept in memory until the server stops. Runs and their logs up to ${mib(options.maxMemoryRunBytes, 64)} MiB (AGENT_MEMORY_RUN_MB): ` +
      'past it, the runs finished longest ago are dropped. ' +
      `Threads and side-effect records up to ${mib(options.maxMemoryRecordBytes, 16)} MiB (AGENT_MEMORY_RECORD_MB): past it, the threads written longest ago ` +
      'are dropped with their effects (never one waiting on an interrupt not expired, or with a run being produced or read); ' +
      (options.maxRunsPerAddress !== undefined
        ? 'the threads one client address leaves waiting hold at most an eighth of it (429 past it); '
        : 'waiting threads may take all of it (set AGENT_MAX_RUNS_PER_ADDRESS where addresses tell clients apart, to give each a share); ') +
      'when none can be dropped, ' +
      'new threads and effects are refused (503).',
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
