import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { isEffectRecord, isRunRecord, isThreadRecord } from './records.js';
import {
  cutOf,
  type EffectRecord,
  type EffectsPage,
  PRUNE_STEP,
  type RunRecord,
  type Storage,
  StorageUnavailable,
  type ThreadRecord,
} from './types.js';

export interface RedisStorageOptions {
  /** Put before every key, so several servers (or tests) can share one Redis without seeing each other. Default `aguikit:`. */
  keyPrefix?: string;
  /** How long to wait for the connection (at open and on each reconnect). Default 2 s. */
  connectTimeoutMs?: number;
  /** How long a command may wait for its reply before the request fails with `StorageUnavailable`. Default 5 s. */
  commandTimeoutMs?: number;
  /** Reconnections a command waits through before it fails with `StorageUnavailable`. Default 1. */
  maxRetriesPerRequest?: number;
}

/**
 * Keys, under the prefix:
 * - `run:<runId>`: the run's record (JSON).
 * - `runs:by-start`: a sorted set of the run ids, each scored by when its run
 *   started, which pruning reads instead of the records; `runs:indexed` once
 *   the runs an earlier version stored without it are in it too.
 * - `thread:<threadId>`: a hash of `version` (a counter) and `record` (JSON).
 * - `events:<runId>`: a stream of the run's frames, event `i` at id `<i+1>-0`.
 * - `read:<runId>`: set once a client was sent the run's end.
 * - `effects`: a hash of effect records (JSON) by idempotency key, and
 *   `effects:order` the keys in the order the effects were done.
 * - `effects:listed:<random>`: for a while at open, the keys `effects:order`
 *   held (see `putBackUnlisted`); it expires by itself.
 */
const KEY = {
  run: (runId: string) => `run:${runId}`,
  runsByStart: 'runs:by-start',
  runsIndexed: 'runs:indexed',
  thread: (threadId: string) => `thread:${threadId}`,
  events: (runId: string) => `events:${runId}`,
  read: (runId: string) => `read:${runId}`,
  effects: 'effects',
  effectOrder: 'effects:order',
  listed: (token: string) => `effects:listed:${token}`,
};

/**
 * Records a run, when it started (`runs:by-start`) and its thread's new state
 * in one step, unless the run id is taken (`exists`) or the thread's version
 * is not the one expected (`conflict`). A thread key of another type, or a
 * version that is not a count, reads as version 0 and is replaced.
 */
const BEGIN_RUN = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 'exists' end
local version = 0
local kind = redis.call('TYPE', KEYS[2]).ok
if kind == 'hash' then
  local raw = redis.call('HGET', KEYS[2], 'version')
  if raw and string.match(raw, '^%d+$') then version = tonumber(raw) end
end
if version ~= tonumber(ARGV[3]) then return 'conflict' end
if kind ~= 'hash' and kind ~= 'none' then redis.call('DEL', KEYS[2]) end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[2], 'version', tostring(version + 1), 'record', ARGV[2])
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[5])
return 'created'
`;

/**
 * Drops a run with its log and its read mark, unless it started at or after
 * `before` by `runs:by-start` (a run taken again under its id since it was
 * listed as old). Answers 1 when its entry in `runs:by-start` went.
 */
const DROP_RUN = `
local started = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not started or tonumber(started) >= tonumber(ARGV[2]) then return 0 end
redis.call('UNLINK', KEYS[2], KEYS[3], KEYS[4])
redis.call('ZREM', KEYS[1], ARGV[1])
return 1
`;

/**
 * Claims an idempotency key: sets the effect's record unless the key has one
 * (`HSETNX`), noting the order; answers whether it was set, and the record
 * the key holds.
 */
const PERFORM_EFFECT = `
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 1 then
  redis.call('RPUSH', KEYS[2], ARGV[1])
  return {1, ARGV[2]}
end
return {0, redis.call('HGET', KEYS[1], ARGV[1])}
`;

/**
 * How many records the hash `KEYS[1]` holds and how many entries the order list `KEYS[2]` has, read at one time; -1
 * for a key of another type. A script, not a MULTI: Redis refuses every command queued in one when out of memory.
 */
const COUNT_EFFECTS = `
local function count(command, key)
  local n = redis.pcall(command, key)
  if type(n) ~= 'number' then return -1 end
  return n
end
return {count('HLEN', KEYS[1]), count('LLEN', KEYS[2])}
`;

/**
 * How many of positions `ARGV[1]` to `ARGV[2]` of the order list `KEYS[2]` name a key the hash `KEYS[1]` holds no
 * record of (one deleted by hand, or lost).
 */
const COUNT_DANGLING = `
local n = 0
for _, key in ipairs(redis.call('LRANGE', KEYS[2], ARGV[1], ARGV[2])) do
  if redis.call('HEXISTS', KEYS[1], key) == 0 then n = n + 1 end
end
return n
`;

/**
 * Copies positions `ARGV[1]` to `ARGV[2]` of the order list into a set of the keys it lists, in Redis (nothing is
 * sent back but how many keys the set gained), and lets the set expire in `ARGV[3]` ms.
 */
const COPY_ORDER = `
local keys = redis.call('LRANGE', KEYS[1], ARGV[1], ARGV[2])
local added = 0
for i = 1, #keys, 1000 do added = added + redis.call('SADD', KEYS[2], unpack(keys, i, math.min(i + 999, #keys))) end
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return added
`;

/**
 * Whether a set of listed keys still holds as many keys as were copied into it: one evicted under maxmemory (it has a
 * time to live, so `volatile-*` policies take it first) or expired, even if copied into again since, holds fewer, and
 * a key it lost would be taken for one the list does not name, and appended twice. The scripts below refuse then.
 */
const LISTED_INTACT = `
local function intact(set, copied)
  return redis.call('SCARD', set) == tonumber(copied)
end
`;

/**
 * Appends to the order list each of the keys `ARGV[4..]` that has a record and is not listed. The set `KEYS[3]` holds
 * the keys of the list's first `ARGV[1]` entries (the `ARGV[2]` keys copied so far); the entries appended since (a new
 * effect, or the same key put back by another server opening at the same time) are copied into it first, and each
 * key appended is added to it, so that a step reads only what was appended since the step before (reading the whole
 * tail at each step had made putting back many records quadratic). Answers how many it appended, the list's length
 * and how many keys the set holds, for the next step; the set lives `ARGV[3]` ms more.
 */
const PUT_BACK = `${LISTED_INTACT}
if not intact(KEYS[3], ARGV[2]) then return redis.error_reply('LISTED_LOST the copy of the order list is gone') end
local since = redis.call('LRANGE', KEYS[2], ARGV[1], -1)
for i = 1, #since, 1000 do redis.call('SADD', KEYS[3], unpack(since, i, math.min(i + 999, #since))) end
local pushed = 0
for i = 4, #ARGV do
  local key = ARGV[i]
  if redis.call('SISMEMBER', KEYS[3], key) == 0 and redis.call('HEXISTS', KEYS[1], key) == 1 then
    redis.call('RPUSH', KEYS[2], key)
    redis.call('SADD', KEYS[3], key)
    pushed = pushed + 1
  end
end
redis.call('PEXPIRE', KEYS[3], ARGV[3])
return {pushed, redis.call('LLEN', KEYS[2]), redis.call('SCARD', KEYS[3])}
`;

/**
 * The keys among `ARGV[3..]` that the set `KEYS[1]` does not hold (SMISMEMBER, in any Redis with streams), once it is
 * seen to hold the `ARGV[1]` keys copied; its time to live is set again to `ARGV[2]` ms, for a long scan.
 */
const NOT_IN_SET = `${LISTED_INTACT}
if not intact(KEYS[1], ARGV[1]) then return redis.error_reply('LISTED_LOST the copy of the order list is gone') end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
local out = {}
for i = 3, #ARGV do
  if redis.call('SISMEMBER', KEYS[1], ARGV[i]) == 0 then out[#out + 1] = ARGV[i] end
end
return out
`;

type BeginRunScript = (
  runKey: string,
  threadKey: string,
  byStartKey: string,
  run: string,
  thread: string,
  expected: string,
  startedAt: string,
  runId: string,
) => Promise<string>;
type DropRunScript = (
  byStartKey: string,
  runKey: string,
  eventsKey: string,
  readKey: string,
  runId: string,
  before: string,
) => Promise<number>;
type CountEffectsScript = (effectsKey: string, orderKey: string) => Promise<[number, number]>;
type CountDanglingScript = (effectsKey: string, orderKey: string, start: string, stop: string) => Promise<number>;
type CopyOrderScript = (orderKey: string, listedKey: string, start: string, stop: string, ttlMs: string) => Promise<number>;
type NotInSetScript = (setKey: string, copied: string, ttlMs: string, ...keys: string[]) => Promise<string[]>;
type PutBackScript = (
  effectsKey: string,
  orderKey: string,
  listedKey: string,
  listedLength: string,
  copied: string,
  ttlMs: string,
  ...keys: string[]
) => Promise<[number, number, number]>;
type PerformEffectScript = (effectsKey: string, orderKey: string, idempotencyKey: string, record: string) => Promise<[number, string]>;

/**
 * Opens the Redis storage at `url` (`redis://host:port/db`): run event logs
 * in Redis Streams, written with ids derived from the event index so a second
 * writer of the same event is turned away; runs and threads in strings and
 * hashes, a thread's version checked and bumped by a Lua script; side effects
 * claimed with an atomic set-if-absent (`HSETNX`, in a Lua script that also
 * notes their order). Several servers on one Redis share everything: a
 * client can reconnect to any of them, and an answer sent to two of them at
 * once performs its effect once.
 *
 * Fails fast rather than waiting for ever: an unreachable Redis rejects the
 * open, and a command that cannot be answered (connection lost, a Redis out
 * of memory or read-only) throws `StorageUnavailable` after a bounded wait,
 * while the client keeps reconnecting in the background. A record of the
 * wrong shape (written by something else, or by hand) is skipped when read,
 * and listed in `skipped`. An effect record the order list does not name (a
 * write torn between the two) is put back in the order at open, so it is
 * listed at start and in the pages like any other (see `putBackUnlisted`).
 *
 * @example
 * const storage = await openRedisStorage(process.env.REDIS_URL, { keyPrefix: 'agents:' });
 */
export async function openRedisStorage(url: string, options: RedisStorageOptions = {}): Promise<Storage> {
  const connectTimeout = options.connectTimeoutMs ?? 2_000;
  let client: Redis;
  try {
    client = new Redis(url, {
      lazyConnect: true,
      connectTimeout,
      commandTimeout: options.commandTimeoutMs ?? 5_000,
      maxRetriesPerRequest: options.maxRetriesPerRequest ?? 1,
      // Reconnect for as long as the storage is open, every 100 to 500 ms: a command waits through one attempt at most.
      retryStrategy: (times) => Math.min(times * 100, 500),
      // Concurrent requests share round trips.
      enableAutoPipelining: true,
    });
  } catch (e) {
    throw new StorageUnavailable(`REDIS_URL is not a Redis URL (redis://host:port/db): ${message(e)}`);
  }
  // Without a listener, a lost connection would be reported as an unhandled 'error' event; commands report it instead.
  client.on('error', () => {});
  client.defineCommand('aguikitBeginRun', { numberOfKeys: 3, lua: BEGIN_RUN });
  client.defineCommand('aguikitDropRun', { numberOfKeys: 4, lua: DROP_RUN });
  client.defineCommand('aguikitPerformEffect', { numberOfKeys: 2, lua: PERFORM_EFFECT });
  client.defineCommand('aguikitCountEffects', { numberOfKeys: 2, lua: COUNT_EFFECTS });
  client.defineCommand('aguikitCopyOrder', { numberOfKeys: 2, lua: COPY_ORDER });
  client.defineCommand('aguikitCountDangling', { numberOfKeys: 2, lua: COUNT_DANGLING });
  client.defineCommand('aguikitPutBack', { numberOfKeys: 3, lua: PUT_BACK });
  client.defineCommand('aguikitNotInSet', { numberOfKeys: 1, lua: NOT_IN_SET });
  try {
    await withTimeout(client.connect(), connectTimeout + 500);
    await client.ping();
  } catch (e) {
    client.disconnect();
    throw new StorageUnavailable(`Redis at ${redact(url)} is not reachable: ${message(e)}`);
  }
  const storage = new RedisStorage(client, options.keyPrefix ?? 'aguikit:');
  try {
    await storage.putBackUnlisted();
  } catch (e) {
    await storage.close();
    throw e;
  }
  return storage;
}

/** Keys read or put back per command by `putBackUnlisted`. */
const REPAIR_STEP = 1_000;
/** How long the copy of the order list `putBackUnlisted` makes lives (longer at each step), should the server die. */
const LISTED_TTL_MS = 600_000;
/** How many copies of the order list `putBackUnlisted` makes, should each be lost before the end. */
const REPAIR_TRIES = 3;

/** A run record's `startedAt`, or undefined when the text is no run record with one. */
function startedAtOf(raw: string | null | undefined): number | undefined {
  return numberField(raw, 'startedAt');
}

/** An effect record's `at`, or undefined when the text is no record with one. */
function effectAtOf(raw: string | undefined): number | undefined {
  return numberField(raw, 'at');
}

function numberField(raw: string | null | undefined, field: string): number | undefined {
  if (typeof raw !== 'string') return undefined;
  try {
    const value = (JSON.parse(raw) as Record<string, unknown> | null)?.[field];
    return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

class RedisStorage implements Storage {
  private readonly found: { where: string; reason: string }[] = [];
  private closed = false;
  /** `runs:by-start` holds every run (see `indexEarlierRuns`). */
  private indexed = false;

  constructor(
    private readonly client: Redis,
    private readonly prefix: string,
  ) {}

  get skipped(): readonly { where: string; reason: string }[] {
    return this.found;
  }

  async beginRun(run: RunRecord, thread: ThreadRecord, expectedThreadVersion: number): Promise<'created' | 'exists' | 'conflict'> {
    const begin = (this.client as unknown as { aguikitBeginRun: BeginRunScript }).aguikitBeginRun;
    const answer = await this.call(() =>
      begin.call(
        this.client,
        this.key(KEY.run(run.runId)),
        this.key(KEY.thread(thread.threadId)),
        this.key(KEY.runsByStart),
        JSON.stringify(run),
        JSON.stringify(thread),
        String(expectedThreadVersion),
        String(run.startedAt),
        run.runId,
      ),
    );
    if (answer !== 'created' && answer !== 'exists' && answer !== 'conflict')
      throw new StorageUnavailable(`Redis answered '${answer}' to a new run.`);
    return answer;
  }

  async run(runId: string): Promise<RunRecord | undefined> {
    const key = KEY.run(runId);
    const raw = await this.read(key, () => this.client.get(this.key(key)));
    if (raw === null || raw === undefined) return undefined;
    return this.parse(key, raw, isRunRecord, 'not a run record');
  }

  async thread(threadId: string): Promise<{ record: ThreadRecord | undefined; version: number }> {
    const key = KEY.thread(threadId);
    const fields = await this.read(key, () => this.client.hmget(this.key(key), 'version', 'record'));
    if (!fields) return { record: undefined, version: 0 };
    const [version, raw] = fields;
    // The same reading as the Lua script's: anything but a count is version 0.
    const count = version && /^\d+$/.test(version) ? Number(version) : 0;
    if (raw === null || raw === undefined) return { record: undefined, version: count };
    // A record that cannot be read is replaced by the next run on the thread, at the version it is stored under.
    return { record: this.parse(key, raw, isThreadRecord, 'not a thread record'), version: count };
  }

  /**
   * A stream's ids only grow: an index at or below the last one stored is a
   * no-op (stored, or skipped over). Each writer appends a run's events in
   * order from where the log stands, so the log has no gap.
   */
  async appendEvent(runId: string, index: number, frame: string): Promise<boolean> {
    if (!Number.isSafeInteger(index) || index < 0) throw new RangeError(`An event index is a count from 0, not ${index}.`);
    try {
      await this.call(() => this.client.xadd(this.key(KEY.events(runId)), `${index + 1}-0`, 'f', frame));
      return true;
    } catch (e) {
      // Redis refuses an id at or below the stream's last: the event is already there (another writer of the same run).
      if (e instanceof StorageUnavailable && /equal or smaller than the target stream top item/i.test(message(e.cause))) return false;
      throw e;
    }
  }

  async events(runId: string, from: number, limit: number): Promise<string[]> {
    const first = Math.max(0, Math.floor(from));
    const count = Math.floor(limit);
    if (!(count > 0)) return [];
    const key = KEY.events(runId);
    const entries = await this.read(key, () => this.client.xrange(this.key(key), `${first + 1}-0`, '+', 'COUNT', count));
    const frames: string[] = [];
    for (const [id, fields] of entries ?? []) {
      // Only the next index in order: an entry out of place or of another shape ends what can be streamed.
      if (id !== `${first + frames.length + 1}-0`) break;
      if (fields.length !== 2 || fields[0] !== 'f' || typeof fields[1] !== 'string') {
        this.skip(key, `entry ${id} is not a frame`);
        break;
      }
      frames.push(fields[1]);
    }
    return frames;
  }

  async performEffect(effect: EffectRecord): Promise<{ record: EffectRecord; fresh: boolean }> {
    const perform = (this.client as unknown as { aguikitPerformEffect: PerformEffectScript }).aguikitPerformEffect;
    // A script that fails (a Redis out of memory, a key of another type) writes nothing: the effect is then not done.
    const [set, stored] = await this.call(() =>
      perform.call(this.client, this.key(KEY.effects), this.key(KEY.effectOrder), effect.idempotencyKey, JSON.stringify(effect)),
    );
    if (set === 1) return { record: effect, fresh: true };
    const earlier = typeof stored === 'string' ? this.parse(KEY.effects, stored, isEffectRecord, 'not an effect record') : undefined;
    // The key is taken even when its record cannot be read: the effect was done before, and is not done again.
    return { record: earlier ?? effect, fresh: false };
  }

  async effects(): Promise<EffectRecord[]> {
    const order = (await this.read(KEY.effectOrder, () => this.client.lrange(this.key(KEY.effectOrder), 0, -1))) ?? [];
    const all = (await this.read(KEY.effects, () => this.client.hgetall(this.key(KEY.effects)))) ?? {};
    const records: EffectRecord[] = [];
    // In the order done; a record whose key the order does not list (written since open, by hand) comes last.
    const keys = [...new Set([...order, ...Object.keys(all)])];
    for (const key of keys) {
      const raw = all[key];
      if (raw === undefined) continue;
      const record = this.parse(KEY.effects, raw, isEffectRecord, 'not an effect record');
      if (record) records.push(record);
    }
    return records;
  }

  async latestEffects(limit: number): Promise<EffectRecord[]> {
    if (!(limit >= 1)) return [];
    // The tail of the list of keys in the order done, then those records alone. A record the list did not name at open
    // was put in it then (`putBackUnlisted`); one written by hand since is in `effects()` alone.
    const keys = (await this.read(KEY.effectOrder, () => this.client.lrange(this.key(KEY.effectOrder), -limit, -1))) ?? [];
    const raws = keys.length === 0 ? [] : ((await this.read(KEY.effects, () => this.client.hmget(this.key(KEY.effects), ...keys))) ?? []);
    const records: EffectRecord[] = [];
    for (const raw of raws) {
      if (typeof raw !== 'string') continue;
      const record = this.parse(KEY.effects, raw, isEffectRecord, 'not an effect record');
      if (record) records.push(record);
    }
    return records;
  }

  async effectsPage(after: number, limit: number): Promise<EffectsPage> {
    // Positions in the list of keys in the order done, which only grows; one more than asked for tells whether there
    // are more. A record the list did not name at open was put in it then; one written by hand since is in `effects()` alone.
    const keys = (await this.read(KEY.effectOrder, () => this.client.lrange(this.key(KEY.effectOrder), after, after + limit))) ?? [];
    const page = keys.slice(0, limit);
    const raws = page.length === 0 ? [] : ((await this.read(KEY.effects, () => this.client.hmget(this.key(KEY.effects), ...page))) ?? []);
    const effects: EffectRecord[] = [];
    for (const raw of raws) {
      if (typeof raw !== 'string') continue;
      const record = this.parse(KEY.effects, raw, isEffectRecord, 'not an effect record');
      if (record) effects.push(record);
    }
    return { effects, next: after + page.length, more: keys.length > limit };
  }

  /**
   * Appends to the order list, in the order done (by `at`), the effect records it does not name: the script that
   * claims an effect writes both at once, but a Redis restored from a copy taken between the two (an AOF cut short, a
   * replica promoted) can hold a record without its place, which would not be listed at start nor in the pages.
   * Looked for when the hash holds more records than the list has entries (two counts read at one time: an effect
   * done between two reads would add to both and hide the record), or than the list has entries whose record is there
   * (read in steps: a record deleted by hand leaves an entry that would hide a torn one); then the list is copied into a set in Redis
   * a step at a time and the hash scanned against it, so the server holds only the records not listed. A key is
   * appended once however many servers open at once, with effects done meanwhile. A copy lost on the way (evicted
   * under maxmemory, expired) is made again, `REPAIR_TRIES` times at most; then, or when Redis refuses the repair (out
   * of memory, a read-only replica), the records stay unlisted until a later start, and are reported in `skipped`.
   * Answers how many it appended.
   */
  async putBackUnlisted(): Promise<number> {
    const effectsKey = this.key(KEY.effects);
    const orderKey = this.key(KEY.effectOrder);
    const countEffects = (this.client as unknown as { aguikitCountEffects: CountEffectsScript }).aguikitCountEffects;
    const [records, listed] = await this.call(() => countEffects.call(this.client, effectsKey, orderKey));
    if (records < 0) this.skip(KEY.effects, 'a key of another type');
    if (listed < 0) this.skip(KEY.effectOrder, 'a key of another type');
    let listedLength = listed;
    if (records <= 0 || listedLength < 0) return 0;
    /** Entries of the list whose record is gone: they hide as many unlisted records from the counts. */
    let dangling = 0;
    // As many records as entries or fewer: an entry whose record was deleted (by hand) may hide an unlisted record from
    // the counts. The list's first `listed` entries are read a step at a time for those (an effect done meanwhile adds
    // its record and its entry after them, and is in neither count).
    if (records <= listedLength) {
      const countDangling = (this.client as unknown as { aguikitCountDangling: CountDanglingScript }).aguikitCountDangling;
      for (let start = 0; start < listedLength && records <= listedLength - dangling; start += REPAIR_STEP) {
        const stop = Math.min(start + REPAIR_STEP, listedLength) - 1;
        dangling += await this.call(() => countDangling.call(this.client, effectsKey, orderKey, String(start), String(stop)));
      }
      if (records <= listedLength - dangling) return 0;
    }
    const done = { pushed: 0 };
    for (let tries = 1; ; tries++) {
      try {
        await this.putBackAgainst(effectsKey, orderKey, listedLength, done);
        return done.pushed;
      } catch (e) {
        // A refusal (out of memory, a read-only replica) leaves the records unlisted, as a copy lost too often does:
        // the server opens all the same, reporting them, and a later start puts them back.
        const refused = e instanceof StorageUnavailable && e.cause instanceof Error && e.cause.name === 'ReplyError';
        const lost = refused && /^LISTED_LOST/.test(message(e.cause));
        if (!refused) throw e;
        if (!lost || tries >= REPAIR_TRIES) {
          this.skip(
            KEY.effects,
            `at least ${records - (listed - dangling)} records the order list does not name were not put back in it: ${message(e.cause)}`,
          );
          return done.pushed;
        }
      }
      // The list as it is now: what was put back before the copy was lost is in it, and listed.
      listedLength = (await this.read(KEY.effectOrder, () => this.client.llen(orderKey))) ?? 0;
    }
  }

  /** One try of `putBackUnlisted` against a copy of the list's first `listedLength` entries; `done.pushed` counts. */
  private async putBackAgainst(effectsKey: string, orderKey: string, listedLength: number, done: { pushed: number }): Promise<void> {
    const scripts = this.client as unknown as {
      aguikitCopyOrder: CopyOrderScript;
      aguikitNotInSet: NotInSetScript;
      aguikitPutBack: PutBackScript;
    };
    const listedKey = this.key(KEY.listed(randomBytes(8).toString('hex')));
    try {
      // How many keys the set gained in all: the scripts that read it check it still holds them.
      let copied = 0;
      for (let start = 0; start < listedLength; start += REPAIR_STEP) {
        const stop = Math.min(start + REPAIR_STEP, listedLength) - 1;
        copied += await this.call(() =>
          scripts.aguikitCopyOrder.call(this.client, orderKey, listedKey, String(start), String(stop), String(LISTED_TTL_MS)),
        );
      }
      const unlisted: { key: string; at: number }[] = [];
      let cursor = '0';
      do {
        const [next, entries] = await this.call(() => this.client.hscan(effectsKey, cursor, 'COUNT', REPAIR_STEP));
        cursor = next;
        const records = new Map<string, string | undefined>();
        for (let i = 0; i < entries.length; i += 2) records.set(entries[i] as string, entries[i + 1]);
        if (records.size === 0) continue;
        const missing = await this.call(() =>
          scripts.aguikitNotInSet.call(this.client, listedKey, String(copied), String(LISTED_TTL_MS), ...records.keys()),
        );
        for (const key of missing) unlisted.push({ key, at: effectAtOf(records.get(key)) ?? Number.POSITIVE_INFINITY });
      } while (cursor !== '0');
      // In the order done; a record that cannot be read (it is skipped when listed) after the others.
      unlisted.sort((a, b) => a.at - b.at || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      // Each step reads the list from where the one before left it: what was appended since, its own keys included.
      let position = listedLength;
      for (let i = 0; i < unlisted.length; i += REPAIR_STEP) {
        const keys = unlisted.slice(i, i + REPAIR_STEP).map((u) => u.key);
        const [pushed, length, held] = await this.call(() =>
          scripts.aguikitPutBack.call(
            this.client,
            effectsKey,
            orderKey,
            listedKey,
            String(position),
            String(copied),
            String(LISTED_TTL_MS),
            ...keys,
          ),
        );
        done.pushed += pushed;
        position = length;
        copied = held;
      }
    } finally {
      await this.call(() => this.client.unlink(listedKey)).catch(() => {});
    }
  }

  async markRead(runId: string): Promise<void> {
    await this.call(() => this.client.set(this.key(KEY.read(runId)), '1'));
  }

  async wasRead(runId: string): Promise<boolean> {
    return (await this.call(() => this.client.exists(this.key(KEY.read(runId))))) === 1;
  }

  /** None: instances sharing Redis cannot tell one that died from one producing (see `Storage.unfinished`). */
  async unfinished(): Promise<RunRecord[]> {
    return [];
  }

  async produced(_runId: string): Promise<void> {}

  /** Lists the oldest runs from `runs:by-start` (ids only, no record read) and drops each with its stream. */
  async prune(at: number | (() => number), limit = PRUNE_STEP): Promise<number> {
    await this.indexEarlierRuns();
    const byStart = this.key(KEY.runsByStart);
    const found = cutOf(at);
    const ids = await this.call(() => this.client.zrangebyscore(byStart, '-inf', `(${found}`, 'LIMIT', 0, Math.max(1, Math.floor(limit))));
    // The cut as it is once the runs are found (the drop script checks each run's start against it, atomically).
    const before = Math.min(found, cutOf(at));
    const drop = (this.client as unknown as { aguikitDropRun: DropRunScript }).aguikitDropRun;
    const dropped = await Promise.all(
      ids.map((runId) =>
        this.call(() =>
          drop.call(
            this.client,
            byStart,
            this.key(KEY.run(runId)),
            this.key(KEY.events(runId)),
            this.key(KEY.read(runId)),
            runId,
            String(before),
          ),
        ),
      ),
    );
    return dropped.reduce((sum, n) => sum + n, 0);
  }

  /**
   * Puts in `runs:by-start` the runs an earlier version stored without it,
   * once per Redis (then `runs:indexed` is set): walks the run keys with SCAN
   * (never blocking Redis) and reads the record of each run not in it yet, one
   * at a time. A record that cannot be read is left out, so never pruned:
   * what cannot be read is not judged.
   */
  private async indexEarlierRuns(): Promise<void> {
    if (this.indexed) return;
    if ((await this.call(() => this.client.exists(this.key(KEY.runsIndexed)))) === 0) {
      const match = `${this.prefix.replace(/[*?[\]\\]/g, '\\$&')}${KEY.run('*')}`;
      const start = this.key(KEY.run(''));
      const byStart = this.key(KEY.runsByStart);
      let cursor = '0';
      do {
        const [next, keys] = await this.call(() => this.client.scan(cursor, 'MATCH', match, 'COUNT', 500));
        cursor = next;
        const ids = keys.map((key) => key.slice(start.length));
        const scores = await Promise.all(ids.map((runId) => this.call(() => this.client.zscore(byStart, runId))));
        for (const [i, runId] of ids.entries()) {
          if (scores[i] !== null) continue;
          const startedAt = startedAtOf(await this.read(KEY.run(runId), () => this.client.get(this.key(KEY.run(runId)))));
          if (startedAt !== undefined) await this.call(() => this.client.zadd(byStart, 'NX', startedAt, runId));
        }
      } while (cursor !== '0');
      await this.call(() => this.client.set(this.key(KEY.runsIndexed), '1'));
    }
    this.indexed = true;
  }

  async ping(): Promise<void> {
    await this.call(() => this.client.ping());
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await withTimeout(this.client.quit(), 1_000);
    } catch {
      // Already gone, or not answering: drop the connection.
    }
    this.client.disconnect();
  }

  private key(name: string): string {
    return this.prefix + name;
  }

  /** Runs a command; a failure to get an answer from Redis becomes `StorageUnavailable`, with the Redis error as its cause. */
  private async call<T>(command: () => Promise<T>): Promise<T> {
    if (this.closed) throw new StorageUnavailable('The Redis storage is closed.');
    try {
      return await command();
    } catch (e) {
      const error = new StorageUnavailable(`Redis failed: ${message(e)}`);
      error.cause = e;
      throw error;
    }
  }

  /** A read of one key; a key of another type (not ours) is skipped and reads as absent. */
  private async read<T>(key: string, command: () => Promise<T>): Promise<T | undefined> {
    try {
      return await this.call(command);
    } catch (e) {
      if (e instanceof StorageUnavailable && /^WRONGTYPE/.test(message(e.cause))) {
        this.skip(key, 'a key of another type');
        return undefined;
      }
      throw e;
    }
  }

  private parse<T>(key: string, raw: string, check: (v: unknown) => v is T, reason: string): T | undefined {
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      this.skip(key, 'not JSON');
      return undefined;
    }
    if (check(value)) return value;
    this.skip(key, reason);
    return undefined;
  }

  private skip(key: string, reason: string) {
    const where = `redis ${this.key(key)}`;
    // Reported once per key and reason, however often the record is read.
    if (this.found.length < 1_000 && !this.found.some((s) => s.where === where && s.reason === reason)) this.found.push({ where, reason });
  }
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The URL without its password, for messages. */
function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'the given URL';
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
