import type { Interrupt, ResumeEntry, RunAgentInput } from '@aguikit/core';
import type { SideEffect } from '@aguikit/scenarios';

/** An accepted run: what its events are computed from (scenarios are pure functions of input and clock). */
export interface RunRecord {
  runId: string;
  threadId: string;
  scenarioId: string;
  input: RunAgentInput;
  /** The clock the run's events were computed with. */
  startedAt: number;
  /** The per-run secret that makes the run's interrupt ids unguessable. */
  nonce: string;
}

/** What the server knows of a thread after its latest accepted run. */
export interface ThreadRecord {
  threadId: string;
  /** Interrupts still waiting for an answer. */
  open: Interrupt[];
  /** The run whose end raised `open` (they are all its own: a run is accepted only once the ones before are closed). */
  raisedBy?: string;
  /** The newest answers accepted (threads.ts's MAX_ANSWERED), by interrupt id: status and a fingerprint of the payload, so a retried resume is idempotent. */
  answered: Record<string, { status: ResumeEntry['status']; payload: string }>;
}

/** A side effect performed, with the record of it. */
export interface EffectRecord extends SideEffect {
  /** hash(threadId + businessActionId + toolName + normalizedArguments). */
  idempotencyKey: string;
  runId: string;
  at: number;
}

/** A page of the effects recorded (`Storage.effectsPage`). */
export interface EffectsPage {
  effects: EffectRecord[];
  next: number;
  more: boolean;
}

/** The runs `Storage.prune` drops in one step by default. */
export const PRUNE_STEP = 100;

/** A prune cut as it is now: `before` itself, or what the function answers. */
export function cutOf(before: number | (() => number)): number {
  return typeof before === 'function' ? before() : before;
}

/** Storage could not be written or read (full disk, lost connection): the request gets a 503 and nothing is done. */
export class StorageUnavailable extends Error {
  readonly code = 'STORAGE_UNAVAILABLE';
}

/**
 * The client beginning a run already holds, in threads that wait on an answer, as much as memory storage lets one
 * client hold (`MemoryStorageOptions.maxWaitingBytesPerOwner`): nothing is stored, and others are not refused for it.
 */
export class WaitingShareFull extends Error {
  readonly code = 'WAITING_SHARE_FULL';
  constructor(readonly maxBytes: number) {
    super(`The threads this client left waiting on an answer hold ${maxBytes} bytes, as many as one client may hold.`);
  }
}

/**
 * Where the agent server keeps runs, their event logs, thread state and side
 * effects. SQLite (the default, `sqlite.ts`) or Redis (`redis.ts`, chosen by
 * `REDIS_URL`); `memory.ts` for tests. Every method may throw
 * `StorageUnavailable`.
 */
export interface Storage {
  /**
   * Records a new run and the thread's state after it in one transaction.
   * `expectedThreadVersion` is the version read with `thread()`: when another
   * writer changed the thread meanwhile, nothing is written and the answer is
   * `'conflict'`; when the run id is already taken, `'exists'`.
   */
  beginRun(run: RunRecord, thread: ThreadRecord, expectedThreadVersion: number): Promise<'created' | 'exists' | 'conflict'>;
  run(runId: string): Promise<RunRecord | undefined>;
  /**
   * The runs begun (`beginRun`) and not yet produced to their end
   * (`produced`): on a server that starts, those its last process was
   * producing when it stopped without finishing them (kill -9, a power cut).
   * It produces them to their end, side effects included, whether or not a
   * client comes back. On Redis, shared by instances that cannot tell one
   * that died from one that is producing, none: a client's retry finishes them.
   */
  unfinished(): Promise<RunRecord[]>;
  /** Notes that run `runId` was produced to its end. Idempotent. */
  produced(runId: string): Promise<void>;
  /** The thread's state and its version (0 and undefined for a thread never seen). */
  thread(threadId: string): Promise<{ record: ThreadRecord | undefined; version: number }>;
  /**
   * Appends the frame of event `index` of a run, and answers true; writing an
   * index already stored is a no-op that answers false (another stream or
   * instance producing the same run stored it first, and its frame is the one
   * to send).
   */
  appendEvent(runId: string, index: number, frame: string): Promise<boolean>;
  /** Up to `limit` stored frames of a run from `from` on, in order. */
  events(runId: string, from: number, limit: number): Promise<string[]>;
  /**
   * Performs a side effect once per `idempotencyKey`: the record is written
   * in one transaction (or one atomic set-if-absent); the returned `fresh` is
   * false when the key was already taken, with the earlier record. Throws
   * `StorageUnavailable` when the record cannot be written: the effect is
   * then not done.
   */
  performEffect(effect: EffectRecord): Promise<{ record: EffectRecord; fresh: boolean }>;
  /** Every effect recorded, in the order done. */
  effects(): Promise<EffectRecord[]>;
  /**
   * The newest `limit` effects recorded (fewer when fewer were, or some cannot be read), in the order done: what a server
   * lists as it starts, read without reading the older ones.
   */
  latestEffects(limit: number): Promise<EffectRecord[]>;
  /**
   * Up to `limit` effects recorded after cursor `after` (0: from the first), in
   * the order done, and the cursor to read on from (`next`, `after` itself when
   * none was read): effects are never dropped (on memory storage, only those of
   * runs no longer held, past its bound, and none moves another's cursor), so a cursor stays valid and a
   * client paging with it sees each effect once, those done later included.
   * `more`: whether effects past `next` were recorded already. A cursor is a
   * whole number, otherwise opaque (a count of effects done on memory, a position on Redis, a row id on
   * SQLite).
   */
  effectsPage(after: number, limit: number): Promise<EffectsPage>;
  /**
   * Notes that a client was sent the end of run `runId` while still
   * connected: the interrupts it raised were seen (see http/delivery.ts).
   * Idempotent. Dropped with the run by `prune`.
   */
  markRead(runId: string): Promise<void>;
  /** Whether `markRead(runId)` was called (and the run not pruned since). */
  wasRead(runId: string): Promise<boolean>;
  /**
   * Drops up to `limit` (default `PRUNE_STEP`) of the runs started before
   * `before` (ms since the epoch) with their event logs, and answers how
   * many: 0 once none is left. `before` may be a function: it is called as the
   * runs are dropped (on SQLite and memory in the same synchronous step as
   * the deletes; on Redis just before the drop is sent), so a step that
   * waited (for a lock another process held) drops by the cut as it is
   * then, not as it was when the step was asked for. Each call is one small step (the
   * runs are found by when they started without reading their records), so
   * a caller drops many runs step by step with other work between steps.
   * Threads and side effects stay: a thread goes on, and an effect is never
   * done twice. A dropped run id is free again; a reconnect to it gets 404
   * and starts a new run.
   */
  prune(before: number | (() => number), limit?: number): Promise<number>;
  /**
   * Answers once the storage answers a read (Redis a PING, SQLite a query);
   * throws `StorageUnavailable` when it does not: what `/ready` reports.
   */
  ping(): Promise<void>;
  /** Records that could not be read at open (torn, corrupt, foreign): skipped, and reported here. */
  readonly skipped: readonly { where: string; reason: string }[];
  close(): Promise<void>;
}
