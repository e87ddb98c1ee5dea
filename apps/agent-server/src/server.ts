import type { AddressInfo } from 'node:net';
import { setImmediate } from 'node:timers/promises';
import type { FastifyServerOptions } from 'fastify';
import { buildApp } from './http/app.js';
import { reclaimIdleConnections } from './http/idleConnections.js';
import { isSpeed, KNOB_LIMITS, MAX_PLAYBACK_MS, MAX_SPEED, MIN_SPEED } from './http/limits.js';
import { defaultHosts, defaultOrigins, listFromEnv, type OriginPolicy, originPolicy } from './http/origin.js';
import { boundPipelining } from './http/pipelining.js';
import { type MemoryStorageOptions, openMemoryStorage } from './storage/memory.js';
import type { EffectRecord, Storage } from './storage/types.js';

export interface AgentServerOptions {
  port?: number;
  /** Loopback by default. */
  host?: string;
  /** Where the SQLite storage is kept, so a restart can resume runs; memory only when absent (and no Redis). */
  dataDir?: string;
  /** A Redis to keep runs and effects in, shared by several servers (env `REDIS_URL`); wins over `dataDir`. */
  redisUrl?: string;
  /** Storage to use as it is (tests, embedding): wins over `dataDir` and `redisUrl`, and is not closed by `close()`. */
  storage?: Storage;
  /** Playback speed of the scenarios (a request may ask for another with `?speed=`): 0, or 0.1 to 100. Default 1. */
  speed?: number;
  /** A `: ping` comment this often on open streams. Default 15 s. */
  heartbeatMs?: number;
  /** The largest request body accepted. Default 1 MiB. */
  maxBodyBytes?: number;
  /**
   * A client that takes nothing of its stream for this long is disconnected. Default 30 s. A client of `GET /effects`
   * that takes nothing of its answer is disconnected within twice this (Node's socket timeout).
   */
  drainTimeoutMs?: number;
  /**
   * A client whose stream has not drained for this long (its connection open,
   * the buffers toward it full: it does not read) no longer holds its run
   * back: the run is produced on without waiting for it (at once, when no
   * other client reads it), and its room among the runs being produced is
   * freed. The client is kept until `drainTimeoutMs`; once it reads again, it
   * gets the rest from the run's log, each event when it is due, as a
   * reconnect does. A slow reader whose stream drains within this time is
   * waited for. Default 5 s.
   */
  stallTimeoutMs?: number;
  /** A request whose headers and body have not all arrived after this long is answered 408 and closed. Default 30 s. */
  requestTimeoutMs?: number;
  /**
   * A connection whose request headers have not all arrived after this long
   * (one that sends nothing, or its headers a byte at a time) is answered 408
   * and closed, so that idle connections cannot hold every place among
   * `maxConnections`. At most `requestTimeoutMs`. Default 10 s.
   */
  headersTimeoutMs?: number;
  /**
   * A connection left idle after an answer is closed after this long. Default
   * 72 s (Fastify's): longer than the idle timeout of a proxy or load balancer
   * in front of the server (60 s for AWS ALB and nginx), which would otherwise
   * reuse a connection the server is closing and answer its client 502. Once
   * the connections held reach 90% of `maxConnections`, the connections idle
   * after an answer are closed sooner, the oldest idle first, as new ones
   * arrive or answers end (never one with a request, its body or its stream
   * in progress, nor one that has sent no request yet).
   */
  keepAliveTimeoutMs?: number;
  /**
   * The most client connections held at once (env `AGENT_MAX_CONNECTIONS` in
   * `main.ts`); one more is closed as it connects, so that clients holding
   * connections open (half-sent requests, streams nobody reads) cannot grow
   * the server's memory without bound. Default 1,000.
   */
  maxConnections?: number;
  /**
   * The most runs produced at once (env `AGENT_MAX_RUNS` in `main.ts`). A
   * run is produced to its end whether or not its client stays, and holds
   * its input and its timers until it ends: one more is refused with
   * `503 TOO_MANY_RUNS` and `Retry-After`, before anything of it is stored.
   * A run is paced only while a client reads it; one whose clients all left
   * (or stopped reading: `stallTimeoutMs`) is produced at once, so clients
   * that start runs and leave hold their room only for as long as that
   * takes. Every run produced counts: one a retry or a reconnect produces
   * (none produces it here: after a restart, on another instance, after
   * storage failed under it) as a new run does, and those a killed process
   * left unfinished, which the server produces as it starts, at most this
   * many at once, the others waiting their turn ahead of new runs. Default 200.
   */
  maxRuns?: number;
  /**
   * The most of the `maxRuns` runs produced at once that the requests of one
   * client address may hold (env `AGENT_MAX_RUNS_PER_ADDRESS` in `main.ts`):
   * one more from that address is refused with `429 TOO_MANY_RUNS_FROM_ADDRESS`
   * and `Retry-After`, so that one client reading many runs cannot take every
   * run from the others. The address is the connection's (`clientAddress`: an
   * IPv6 one by its /64, which one host holds whole): behind a proxy every
   * client has the proxy's, and on loopback (the default host) every client is
   * one address, so the default is `maxRuns` (no cap of its own); set it on a
   * server that clients reach directly.
   */
  maxRunsPerAddress?: number;
  /**
   * The most request-body bytes the runs being produced hold at once (each
   * holds its parsed input, a few times its body in memory: a 1 MiB body of
   * `{}` is about 22 MB), with the streams of retries and reconnects (each
   * holds its own parsed body while it streams). A run, retry or reconnect
   * past it is refused as past `maxRuns`. Default 16 MiB.
   */
  maxRunInputBytes?: number;
  /**
   * How long a run and its event log are kept after it started (env
   * `AGENT_RUN_RETENTION_HOURS` in `main.ts`); older ones are dropped, so
   * storage does not grow with every run until the disk is full. Threads and
   * side effects are kept. Default 7 days.
   */
  runRetentionMs?: number;
  /**
   * On memory storage (no `dataDir`, no Redis: SQLite could not be loaded),
   * the most bytes runs and their event logs may hold (env
   * `AGENT_MEMORY_RUN_MB` in `main.ts`). Past it, the runs produced to their
   * end longest ago are dropped, never one being produced or read by a client, and a warning is
   * logged (at most once a minute): a week of long runs would otherwise grow
   * the process without bound (50 runs of 20,000 tokens held 171 MB of heap; 66 MB under the default bound).
   * Default 64 MiB.
   */
  maxMemoryRunBytes?: number;
  /**
   * On memory storage, the most bytes threads and side-effect records may
   * hold (env `AGENT_MEMORY_RECORD_MB` in `main.ts`): a client that starts
   * thread after thread, or has effect after effect done, would otherwise grow
   * the process without bound (see `MemoryStorageOptions.maxRecordBytes`). Past
   * it, the threads written longest ago are dropped with their effects, never
   * one that waits on an open interrupt not expired nor one whose latest run
   * is being produced or read; then the effects of threads and runs no longer
   * held, the oldest first; a warning is logged (at most once a minute). The
   * threads one client address leaves waiting (and their effects) hold at
   * most an eighth of it (`WAITING_SHARES`) when `maxRunsPerAddress` is given
   * (addresses tell clients apart: on loopback or behind a proxy every client
   * is one address, and a share would be all of theirs): its run that would
   * leave one more waiting is refused 429 `TOO_MANY_WAITING_THREADS`, to that
   * address alone. When nothing can be dropped (threads waiting fill it), a
   * run on a new thread is refused with 503 and a new effect is not done (its
   * run is tried again, as after a full disk). Default 16 MiB.
   */
  maxMemoryRecordBytes?: number;
  /** How often old runs are looked for (and once as the server starts). Default the retention's quarter, at most an hour. */
  pruneEveryMs?: number;
  /**
   * Origins whose pages may call the server (env `AGENT_ALLOWED_ORIGINS`,
   * comma-separated). Default: the playground on loopback port 5173 (and on
   * `PLAYGROUND_PORT`). Requests without an `Origin` (curl, servers) are let
   * through; a browser always sends one with a POST.
   */
  allowedOrigins?: readonly string[];
  /** `Host` values the server answers to (env `AGENT_ALLOWED_HOSTS`). Default: 127.0.0.1, localhost and [::1] with its port. */
  allowedHosts?: readonly string[];
  /** JSON log level (pino's; env `AGENT_LOG_LEVEL` in `main.ts`). Default `silent`: an embedding program opts in. */
  logLevel?: string;
  /** Where JSON log lines go. Default standard output. */
  logStream?: { write(line: string): unknown };
  /** Per-request caps on what `forwardedProps` may ask a scenario to generate (see `KNOB_LIMITS`). */
  knobLimits?: Partial<Record<string, number>>;
  /** The longest a run may take to play at the speed its request asks for; a longer one is refused (400). Default 30 minutes. */
  maxPlaybackMs?: number;
  /** A fresh per-run secret, mixed into the run's interrupt ids. Default 128 random bits (Web Crypto), as hex. */
  nonce?: () => string;
  now?: () => number;
}

export interface AgentServer {
  readonly url: string;
  /**
   * Side effects this server performed or found in its storage, each once per
   * idempotency key: those of the runs storage still holds. One older than
   * the run retention is dropped from this list as old runs are pruned;
   * storage keeps it, so it is never done twice (`GET /effects` lists them all, a
   * page at a time with `?after=&limit=`). The newest `MAX_LISTED_EFFECTS` at
   * most: a client that has effect after effect done does not grow the list
   * (and the process) without bound.
   */
  effects(): EffectRecord[];
  /** Stops accepting requests, ends open streams, and resolves once closed. */
  close(): Promise<void>;
}

/**
 * On memory storage, the threads one client address left waiting on an answer (and their effects) hold at most
 * `maxMemoryRecordBytes` divided by this (an eighth: 2 MiB of 16, about 1,500 refunds waiting on their approval): past
 * it, that address is refused 429, and no one address fills the bound for all.
 */
export const WAITING_SHARES = 8;

/** The most effects `AgentServer.effects()` lists: the newest. */
export const MAX_LISTED_EFFECTS = 10_000;

/**
 * Starts an AG-UI 1.0 server over HTTP + SSE on loopback that serves every
 * scenario: `POST /agents/:scenario` with a `RunAgentInput`. Frames are
 * written by the official `@ag-ui/encoder`, each with an SSE `id:`
 * (`<runId>:<index>`), so a client can reconnect with `Last-Event-ID` and get
 * exactly the events it missed. Bad input gets a 4xx with a JSON error.
 *
 * Storage: `options.storage`, else Redis at `redisUrl`, else SQLite in
 * `dataDir`, else memory.
 *
 * @example
 * const server = await startAgentServer({ port: 8787 });
 * // POST http://127.0.0.1:8787/agents/refund
 */
export async function startAgentServer(options: AgentServerOptions = {}): Promise<AgentServer> {
  const host = options.host ?? '127.0.0.1';
  if (options.speed !== undefined && !isSpeed(options.speed))
    throw new RangeError(`speed must be 0 (no pauses) or a number from ${MIN_SPEED} to ${MAX_SPEED}, not ${options.speed}.`);
  if (options.maxPlaybackMs !== undefined && !(Number.isFinite(options.maxPlaybackMs) && options.maxPlaybackMs >= 0))
    throw new RangeError(`maxPlaybackMs must be a number of milliseconds, 0 or more, not ${options.maxPlaybackMs}.`);
  const maxConnections = options.maxConnections ?? 1000;
  if (!(Number.isInteger(maxConnections) && maxConnections >= 1))
    throw new RangeError(`maxConnections must be a whole number, 1 or more, not ${maxConnections}.`);
  const maxRuns = options.maxRuns ?? 200;
  if (!(Number.isInteger(maxRuns) && maxRuns >= 1)) throw new RangeError(`maxRuns must be a whole number, 1 or more, not ${maxRuns}.`);
  const maxRunsPerAddress = options.maxRunsPerAddress ?? maxRuns;
  if (!(Number.isInteger(maxRunsPerAddress) && maxRunsPerAddress >= 1))
    throw new RangeError(`maxRunsPerAddress must be a whole number, 1 or more, not ${maxRunsPerAddress}.`);
  const maxRunInputBytes = options.maxRunInputBytes ?? 16 * 1024 * 1024;
  if (!(Number.isInteger(maxRunInputBytes) && maxRunInputBytes >= 1))
    throw new RangeError(`maxRunInputBytes must be a whole number of bytes, 1 or more, not ${maxRunInputBytes}.`);
  // A timeout of 0, a negative or NaN one would take every pause in a client's reading for a stall, or drop it at once.
  for (const name of ['drainTimeoutMs', 'stallTimeoutMs', 'requestTimeoutMs', 'headersTimeoutMs', 'keepAliveTimeoutMs'] as const) {
    const ms = options[name];
    if (ms !== undefined && !(Number.isInteger(ms) && ms > 0 && ms <= 2_147_483_647))
      throw new RangeError(`${name} must be a whole number of milliseconds, above 0 and at most 2147483647, not ${ms}.`);
  }
  const maxMemoryRunBytes = options.maxMemoryRunBytes ?? 64 * 1024 * 1024;
  if (!(Number.isSafeInteger(maxMemoryRunBytes) && maxMemoryRunBytes >= 1))
    throw new RangeError(`maxMemoryRunBytes must be a whole number of bytes, 1 or more, not ${maxMemoryRunBytes}.`);
  const maxMemoryRecordBytes = options.maxMemoryRecordBytes ?? 16 * 1024 * 1024;
  if (!(Number.isSafeInteger(maxMemoryRecordBytes) && maxMemoryRecordBytes >= 1))
    throw new RangeError(`maxMemoryRecordBytes must be a whole number of bytes, 1 or more, not ${maxMemoryRecordBytes}.`);
  /** Where the memory storage says it dropped runs for room: the log, once it exists. */
  let droppedForRoom = (_dropped: number, _bytes: number) => {};
  /** Where the memory storage says it dropped threads or effects for room: the log, once it exists. */
  let recordsDropped = (_dropped: number, _bytes: number) => {};
  /** Which runs a client reads or this server produces (memory storage keeps them): the app's, once it exists. */
  let inUse = (_runId: string) => false;
  /** The client address that begins a run (memory storage's `ownerOf`): the app's, once it exists. */
  let ownerOf = (_runId: string): string | undefined => undefined;
  const storage =
    options.storage ??
    (await openStorage(options, {
      maxRunBytes: maxMemoryRunBytes,
      onDrop: (dropped, bytes) => droppedForRoom(dropped, bytes),
      inUse: (runId) => inUse(runId),
      maxRecordBytes: maxMemoryRecordBytes,
      onRecordDrop: (threads, effects, bytes) => recordsDropped(threads + effects, bytes),
      now: options.now ?? Date.now,
      ownerOf: (runId) => ownerOf(runId),
      // A thread that waits on an answer is not dropped for room: one address holds at most a share of the bound, where
      // addresses tell clients apart (`maxRunsPerAddress` given); on loopback or behind a proxy one address is all of them.
      ...(options.maxRunsPerAddress !== undefined
        ? { maxWaitingBytesPerOwner: Math.max(1, Math.floor(maxMemoryRecordBytes / WAITING_SHARES)) }
        : {}),
    }));
  const owned = options.storage === undefined;
  const effects = new Map<string, EffectRecord>();
  /** `record` listed, the oldest listed dropped past `MAX_LISTED_EFFECTS`. */
  const list = (record: EffectRecord) => {
    effects.set(record.idempotencyKey, record);
    if (effects.size > MAX_LISTED_EFFECTS) effects.delete(effects.keys().next().value as string);
  };
  // The newest alone: a storage holding many more is not read whole (its older effects are in `GET /effects`).
  for (const record of await storage.latestEffects(MAX_LISTED_EFFECTS)) list(record);
  /** The latest cut of pruning: an effect done before it belongs to a run pruned, and is no longer listed. */
  let forgotten = Number.NEGATIVE_INFINITY;
  let policy: OriginPolicy = originPolicy([], []);
  const logger: NonNullable<FastifyServerOptions['logger']> = {
    level: options.logLevel ?? 'silent',
    ...(options.logStream ? { stream: options.logStream } : {}),
  };
  const app = buildApp({
    storage,
    policy: () => policy,
    speed: options.speed ?? 1,
    knobLimits: { ...KNOB_LIMITS, ...options.knobLimits } as Record<string, number>,
    maxPlaybackMs: options.maxPlaybackMs ?? MAX_PLAYBACK_MS,
    heartbeatMs: options.heartbeatMs ?? 15_000,
    drainTimeoutMs: options.drainTimeoutMs ?? 30_000,
    stallTimeoutMs: options.stallTimeoutMs ?? 5_000,
    requestTimeoutMs: options.requestTimeoutMs ?? 30_000,
    headersTimeoutMs: options.headersTimeoutMs ?? 10_000,
    keepAliveTimeoutMs: options.keepAliveTimeoutMs ?? 72_000,
    maxBodyBytes: options.maxBodyBytes ?? 1024 * 1024,
    maxRuns,
    maxRunsPerAddress,
    maxRunInputBytes,
    now: options.now ?? Date.now,
    nonce: options.nonce ?? (() => globalThis.crypto.randomUUID().replaceAll('-', '')),
    logger,
    onEffect: (record) => {
      // A run that meets an effect done already gets its record back: that of the run that did it, pruned or not.
      if (record.at >= forgotten && !effects.has(record.idempotencyKey)) list(record);
    },
  });
  const { fastify, endStreams, settled, oldestProducing, finishUnfinished } = app;
  inUse = app.inUse;
  ownerOf = app.ownerOf;
  droppedForRoom = memoryFullWarning(maxMemoryRunBytes, (detail) =>
    fastify.log.warn(detail, 'memory storage full: the runs finished longest ago were dropped (a reconnect to one gets 404)'),
  );
  recordsDropped = memoryFullWarning(maxMemoryRecordBytes, ({ dropped, bytes }) =>
    fastify.log.warn(
      { dropped, bytes, maxRecordBytes: maxMemoryRecordBytes },
      'memory storage full: the threads written longest ago, or the effects of runs no longer held, were dropped',
    ),
  );
  fastify.server.maxConnections = maxConnections;
  // Clients that keep their connections idle after an answer do not take the places new clients need.
  reclaimIdleConnections(fastify.server, maxConnections);
  // Nor does one that pipelines requests and reads none of the answers (its `checkContinue` is emitted as a request).
  boundPipelining(fastify.server);
  for (const skipped of storage.skipped) fastify.log.warn(skipped, 'storage record skipped');
  try {
    await fastify.listen({ port: options.port ?? 0, host });
  } catch (e) {
    if (owned) await storage.close();
    throw e;
  }
  const { port, address } = fastify.server.address() as AddressInfo;
  policy = originPolicy(
    options.allowedOrigins ?? listFromEnv(process.env.AGENT_ALLOWED_ORIGINS) ?? defaultOrigins(),
    options.allowedHosts ?? listFromEnv(process.env.AGENT_ALLOWED_HOSTS) ?? defaultHosts(port, host),
  );
  // A run the last process was producing when it was killed is finished (its side effects done) whether or not its client
  // comes back; begun before pruning starts, so that pruning never drops it first.
  try {
    await finishUnfinished();
  } catch (e) {
    fastify.log.error({ err: e }, 'could not read the runs left unfinished');
  }
  const stopPruning = pruneOldRuns(storage, options, {
    oldestProducing,
    forget: (before) => {
      // An effect is done while its run is produced: one done before the cut belongs to a run pruned at it.
      forgotten = Math.max(forgotten, before);
      for (const [key, record] of effects) if (record.at < forgotten) effects.delete(key);
    },
    warn: (message, detail) => fastify.log.warn(detail, message),
  });
  return {
    url: `http://${address.includes(':') ? `[${address}]` : address}:${port}`,
    effects: () => [...effects.values()],
    close: async () => {
      stopPruning();
      endStreams();
      await fastify.close();
      // A run whose client went is produced to its end (its side effects, its log) before storage closes.
      await settled();
      if (owned) await storage.close();
    },
  };
}

/**
 * A warning of runs dropped for room, at most once a minute, counting those dropped since the last one: those dropped
 * within the minute after a warning are said once it is over, whether or not more are dropped then.
 */
export function memoryFullWarning(
  maxRunBytes: number,
  warn: (detail: { dropped: number; bytes: number; maxRunBytes: number }) => void,
): (dropped: number, bytes: number) => void {
  let last = Number.NEGATIVE_INFINITY;
  let unsaid = 0;
  let left = 0;
  let timer: NodeJS.Timeout | undefined;
  const say = () => {
    timer = undefined;
    last = performance.now();
    warn({ dropped: unsaid, bytes: left, maxRunBytes });
    unsaid = 0;
  };
  return (dropped, bytes) => {
    unsaid += dropped;
    left = bytes;
    const wait = last + 60_000 - performance.now();
    if (wait <= 0) {
      clearTimeout(timer);
      say();
    } else if (!timer) {
      timer = setTimeout(say, wait);
      timer.unref();
    }
  };
}

/** The storage the options (or the environment's `REDIS_URL`) name: Redis, SQLite in `dataDir`, or memory. */
async function openStorage(options: AgentServerOptions, memory: MemoryStorageOptions): Promise<Storage> {
  const redisUrl = options.redisUrl ?? process.env.REDIS_URL;
  if (redisUrl) {
    const { openRedisStorage } = await import('./storage/redis.js');
    return openRedisStorage(redisUrl);
  }
  if (options.dataDir) {
    const { openSqliteStorage } = await import('./storage/sqlite.js');
    return openSqliteStorage(options.dataDir);
  }
  return openMemoryStorage(memory);
}

/** A week: long enough to come back to a thread and reconnect, short enough that storage stays bounded. */
const DEFAULT_RETENTION_MS = 7 * 24 * 3_600_000;

/**
 * Drops runs older than the retention as the server starts and then every
 * `pruneEveryMs` (a timer that keeps no process alive); answers what stops it.
 * Runs are dropped a step at a time (`Storage.prune`), each step a task of
 * its own, so requests are answered between steps however many runs are old.
 * A run still being produced is never dropped, however long ago it started:
 * its later events would be stored for a record that is gone. `forget` is
 * told each cut, to drop what the server holds in memory of the runs before
 * it. A prune that fails (storage away) is logged and tried again next time.
 */
function pruneOldRuns(
  storage: Storage,
  options: AgentServerOptions,
  hooks: {
    oldestProducing: () => number | undefined;
    forget: (before: number) => void;
    warn: (message: string, detail: object) => void;
  },
): () => void {
  const retention = options.runRetentionMs ?? DEFAULT_RETENTION_MS;
  if (!(retention > 0) || !Number.isFinite(retention)) return () => undefined;
  const now = options.now ?? Date.now;
  let running = false;
  let stopped = false;
  const prune = async () => {
    if (running) return;
    running = true;
    // Taken again as each step drops its runs (storage calls it then, after any wait for a lock): a run that began
    // being produced meanwhile is not dropped.
    const cut = () => Math.min(now() - retention, hooks.oldestProducing() ?? Number.POSITIVE_INFINITY);
    try {
      hooks.forget(cut());
      while (!stopped && (await storage.prune(cut)) > 0) await setImmediate();
    } catch (e) {
      hooks.warn('old runs could not be pruned', { error: e instanceof Error ? e.message : String(e) });
    } finally {
      running = false;
    }
  };
  void prune();
  const timer = setInterval(() => void prune(), Math.max(10, options.pruneEveryMs ?? Math.min(3_600_000, retention / 4)));
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
