import { isSpeed, MAX_SPEED, MIN_SPEED } from './http/limits.js';
import { listFromEnv } from './http/origin.js';
import type { AgentServerOptions } from './server.js';

/**
 * The server's options from environment variables (`main.ts`): PORT,
 * REDIS_URL, AGENT_SPEED, AGENT_ALLOWED_ORIGINS, AGENT_ALLOWED_HOSTS,
 * AGENT_LOG_LEVEL, AGENT_RUN_RETENTION_HOURS, AGENT_MAX_CONNECTIONS,
 * AGENT_MAX_RUNS, AGENT_MAX_RUNS_PER_ADDRESS, AGENT_MEMORY_RUN_MB and
 * AGENT_MEMORY_RECORD_MB (see `AgentServerOptions`). A variable set empty is
 * taken as unset (its default). A value that is no number of the kind the
 * variable takes throws an error that names the variable and the value as
 * set: the start stops, rather than running with a setting nobody asked for;
 * so does an AGENT_LOG_LEVEL that is no level of the log.
 *
 * @example
 * optionsFromEnv({ AGENT_MAX_RUNS: '50' }); // { port: 8787, logLevel: 'info', maxRuns: 50 }
 */
export function optionsFromEnv(env: Readonly<Record<string, string | undefined>>): AgentServerOptions {
  const set = (name: string) => (env[name] ? env[name] : undefined);
  const origins = listFromEnv(env.AGENT_ALLOWED_ORIGINS);
  const hosts = listFromEnv(env.AGENT_ALLOWED_HOSTS);
  const speed = number(set('AGENT_SPEED'), 'AGENT_SPEED', `0 (no pauses) or a number from ${MIN_SPEED} to ${MAX_SPEED}`, isSpeed);
  const hours = number(set('AGENT_RUN_RETENTION_HOURS'), 'AGENT_RUN_RETENTION_HOURS', 'a positive number of hours', (h) => h > 0);
  const count = (name: string) => number(set(name), name, 'a whole number, 1 or more', (n) => Number.isSafeInteger(n) && n >= 1);
  const maxConnections = count('AGENT_MAX_CONNECTIONS');
  const maxRuns = count('AGENT_MAX_RUNS');
  const maxRunsPerAddress = count('AGENT_MAX_RUNS_PER_ADDRESS');
  const mib = (name: string) => {
    const mb = number(
      set(name),
      name,
      'a number of MiB above 0',
      (n) => n > 0 && Number.isSafeInteger(Math.floor(n * 1024 * 1024)) && n * 1024 * 1024 >= 1,
    );
    return mb === undefined ? undefined : Math.floor(mb * 1024 * 1024);
  };
  const maxMemoryRunBytes = mib('AGENT_MEMORY_RUN_MB');
  const maxMemoryRecordBytes = mib('AGENT_MEMORY_RECORD_MB');
  const port = number(set('PORT'), 'PORT', 'a whole number from 0 to 65535', (p) => Number.isInteger(p) && p >= 0 && p <= 65_535) ?? 8787;
  return {
    port,
    ...(env.REDIS_URL ? { redisUrl: env.REDIS_URL } : {}),
    ...(speed !== undefined ? { speed } : {}),
    ...(origins ? { allowedOrigins: origins } : {}),
    ...(hosts ? { allowedHosts: hosts } : {}),
    logLevel: logLevel(set('AGENT_LOG_LEVEL')),
    ...(hours !== undefined ? { runRetentionMs: hours * 3_600_000 } : {}),
    ...(maxConnections !== undefined ? { maxConnections } : {}),
    ...(maxRuns !== undefined ? { maxRuns } : {}),
    ...(maxRunsPerAddress !== undefined ? { maxRunsPerAddress } : {}),
    ...(maxMemoryRunBytes !== undefined ? { maxMemoryRunBytes } : {}),
    ...(maxMemoryRecordBytes !== undefined ? { maxMemoryRecordBytes } : {}),
  };
}

/** The levels of the server's log (pino's): any other stops the logger, and the start, with a message of its own. */
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** AGENT_LOG_LEVEL as a level of the log, 'info' when unset; otherwise an error naming the variable, the levels and `text`. */
function logLevel(text: string | undefined): string {
  if (text === undefined) return 'info';
  if (!LOG_LEVELS.includes(text))
    throw new Error(`AGENT_LOG_LEVEL must be one of ${LOG_LEVELS.slice(0, -1).join(', ')} or silent, not '${text}'.`);
  return text;
}

/** `text` as a finite number that `fits`; undefined when unset; otherwise an error naming `name`, what it takes, and `text`. */
function number(text: string | undefined, name: string, takes: string, fits: (n: number) => boolean): number | undefined {
  if (text === undefined) return undefined;
  const n = text.trim() === '' ? Number.NaN : Number(text);
  if (!Number.isFinite(n) || !fits(n)) throw new Error(`${name} must be ${takes}, not '${text}'.`);
  return n;
}
