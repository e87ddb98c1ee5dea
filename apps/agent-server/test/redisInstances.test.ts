/**
 * Two agent servers on one Redis (a `redis-server` started and stopped by
 * this file), as two instances behind a load balancer: a client cut off from
 * one continues on the other with `Last-Event-ID`, with no duplicate and no
 * gap, and one approval sent to both at once makes one refund.
 */
import type { RunAgentInput } from '@aguikit/core';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentServer } from '../src/server.js';
import { openRedisStorage } from '../src/storage/redis.js';
import type { EffectRecord, Storage } from '../src/storage/types.js';
import { useRedisServer } from './redisServer.js';
import { interruptsOf, parseFrames, post, readEvents, startServer, stopServer, userInput, type WireEvent } from './support.js';

const redis = useRedisServer();

/** Two instances on the file's Redis, chosen the way `REDIS_URL` chooses it. */
async function twoInstances(): Promise<[AgentServer, AgentServer]> {
  return [await startServer({ redisUrl: redis.url }), await startServer({ redisUrl: redis.url })];
}

/** Every effect an instance was told to perform (`fresh`), by idempotency key, across the instances of a test. */
const performed: EffectRecord[] = [];
const storages: Storage[] = [];
afterEach(async () => {
  performed.length = 0;
  await Promise.all(storages.splice(0).map((s) => s.close()));
});

/** A Redis storage of its own that notes each effect it lets its server perform. */
async function countingStorage(): Promise<Storage> {
  const inner = await openRedisStorage(redis.url, { keyPrefix: 'counted:' });
  storages.push(inner);
  return {
    beginRun: (run, thread, version) => inner.beginRun(run, thread, version),
    run: (runId) => inner.run(runId),
    unfinished: () => inner.unfinished(),
    produced: (runId) => inner.produced(runId),
    thread: (threadId) => inner.thread(threadId),
    appendEvent: (runId, index, frame) => inner.appendEvent(runId, index, frame),
    events: (runId, from, limit) => inner.events(runId, from, limit),
    performEffect: async (effect) => {
      const result = await inner.performEffect(effect);
      if (result.fresh) performed.push(result.record);
      return result;
    },
    effects: () => inner.effects(),
    latestEffects: (limit) => inner.latestEffects(limit),
    effectsPage: (after, limit) => inner.effectsPage(after, limit),
    markRead: (runId) => inner.markRead(runId),
    wasRead: (runId) => inner.wasRead(runId),
    prune: (before, limit) => inner.prune(before, limit),
    get skipped() {
      return inner.skipped;
    },
    ping: () => inner.ping(),
    close: () => inner.close(),
  };
}

/** Two instances, each with a storage of its own on the file's Redis that counts the effects performed. */
async function twoCountedInstances(): Promise<[AgentServer, AgentServer]> {
  return [await startServer({ storage: await countingStorage() }), await startServer({ storage: await countingStorage() })];
}

/** Reads frames of a response until `count` events arrived, then drops the connection, as a client cut off. */
async function readThenCut(response: Response, count: number, abort: AbortController): Promise<WireEvent[]> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    // Whole frames only: what a client's parser hands on.
    const frames = parseFrames(text.slice(0, text.lastIndexOf('\n\n') + 2)).filter((f) => f.comment === undefined);
    if (frames.length >= count) {
      abort.abort();
      await reader.cancel().catch(() => {});
      return frames.slice(0, count).map((f) => ({ id: f.id as string, event: JSON.parse(f.data as string) as WireEvent['event'] }));
    }
    const { done, value } = await reader.read();
    if (done) throw new Error(`the stream ended after ${frames.length} events, before ${count}`);
    text += decoder.decode(value, { stream: true });
  }
}

/** Checks ids are `<runId>:0`, `<runId>:1`, ... with no duplicate and no gap. */
function expectContiguous(events: readonly WireEvent[], runId: string) {
  expect(events.map((e) => e.id)).toEqual(events.map((_, i) => `${runId}:${i}`));
}

/** Starts `input` on `from`, cuts the client after `cut` events, resumes on `to` with Last-Event-ID; all events as the client got them. */
async function cutAndResume(from: AgentServer, to: AgentServer, scenarioPath: string, input: RunAgentInput, cut: number) {
  const abort = new AbortController();
  const first = await fetch(`${from.url}${scenarioPath}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
    body: JSON.stringify(input),
    signal: abort.signal,
  });
  expect(first.status).toBe(200);
  const before = await readThenCut(first, cut, abort);
  const resumed = await post(to, scenarioPath, input, { 'Last-Event-ID': before.at(-1)?.id as string });
  expect(resumed.status).toBe(200);
  return [...before, ...(await readEvents(resumed))];
}

describe('a client cut off from one instance continues on the other', () => {
  it('gets every event of the run once, in order, whatever the cut point, with the first instance alive or gone', async () => {
    const cuts = [1, 2, 7, 15, 30, 45, 49];
    for (const [n, cut] of cuts.entries()) {
      const [a, b] = await twoInstances();
      const threadId = `cut-thread-${n}`;
      const input = userInput(threadId, `cut-run-${n}`);
      // A slow enough playback that the first instance is still producing when its client goes.
      const abort = new AbortController();
      const first = await fetch(`${a.url}/agents/refund?speed=20`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
        body: JSON.stringify(input),
        signal: abort.signal,
      });
      expect(first.status).toBe(200);
      const before = await readThenCut(first, cut, abort);
      // Every other time the first instance dies with its client: the second must produce the rest itself.
      if (n % 2) await stopServer(a);
      const resumed = await post(b, '/agents/refund?speed=0', input, { 'Last-Event-ID': before.at(-1)?.id as string });
      expect(resumed.status).toBe(200);
      const got = [...before, ...(await readEvents(resumed))];
      expectContiguous(got, input.runId);

      // An uncut run: the same request again replays the whole run from the shared log.
      const whole = await readEvents(await post(b, '/agents/refund?speed=0', input));
      expect(whole.at(-1)?.event.type).toBe('RUN_FINISHED');
      expect(got).toEqual(whole);
      expect(interruptsOf(got)).toHaveLength(1);
      await stopServer(b);
      if (!(n % 2)) await stopServer(a);
    }
  }, 60_000);

  it('continues the approving run on the other instance with one refund, however it is cut', async () => {
    for (const [n, cut] of [1, 3, 5, 8].entries()) {
      const [a, b] = await twoInstances();
      const threadId = `approve-cut-${n}`;
      const firstRun = await readEvents(await post(a, '/agents/refund?speed=0', userInput(threadId, `approve-cut-${n}-1`)));
      const interruptId = interruptsOf(firstRun)[0]?.id as string;
      const approve: RunAgentInput = {
        ...userInput(threadId, `approve-cut-${n}-2`),
        messages: [],
        resume: [{ interruptId, status: 'resolved', payload: { approved: true } }],
      };
      const got = await cutAndResume(a, b, '/agents/refund?speed=20', approve, cut);
      expectContiguous(got, approve.runId);
      expect(got.at(-1)?.event.type).toBe('RUN_FINISHED');
      expect(got.filter((e) => e.event.type === 'TOOL_CALL_RESULT')).toHaveLength(1);
      const refunds = (await effectsOf(a, b)).filter((e) => e.key === interruptId);
      expect(refunds).toHaveLength(1);
      await stopServer(a);
      await stopServer(b);
    }
  }, 60_000);
});

interface Effect {
  kind: string;
  key: string;
  idempotencyKey: string;
}

/** GET /effects on each instance: they must agree (one Redis); the list. */
async function effectsOf(...servers: AgentServer[]): Promise<Effect[]> {
  const lists = await Promise.all(servers.map(async (s) => (await (await fetch(`${s.url}/effects`)).json()) as Effect[]));
  for (const list of lists) expect(list).toEqual(lists[0]);
  return lists[0] ?? [];
}

describe('one approval sent to both instances at once', () => {
  it('makes exactly one refund, and both clients see the same run', async () => {
    const [a, b] = await twoCountedInstances();
    const interrupts: string[] = [];
    for (let n = 0; n < 15; n++) {
      const threadId = `both-${n}`;
      const firstRun = await readEvents(await post(a, '/agents/refund?speed=0', userInput(threadId, `both-${n}-1`)));
      const interruptId = interruptsOf(firstRun)[0]?.id as string;
      expect(interruptId).toBeTruthy();
      interrupts.push(interruptId);
      const approve: RunAgentInput = {
        ...userInput(threadId, `both-${n}-2`),
        messages: [],
        resume: [{ interruptId, status: 'resolved', payload: { approved: true } }],
      };
      const responses = await Promise.all([post(a, '/agents/refund?speed=0', approve), post(b, '/agents/refund?speed=0', approve)]);
      expect(responses.map((r) => r.status)).toEqual([200, 200]);
      const [fromA, fromB] = await Promise.all(responses.map((r) => readEvents(r)));
      expectContiguous(fromA as WireEvent[], approve.runId);
      expect(fromB).toEqual(fromA);
      expect(fromA?.at(-1)?.event.type).toBe('RUN_FINISHED');

      const refunds = (await effectsOf(a, b)).filter((e) => e.kind === 'refund' && e.key === interruptId);
      expect(refunds).toHaveLength(1);
      expect(performed.filter((e) => e.kind === 'refund' && e.key === interruptId)).toHaveLength(1);
    }
    // The storage's own list agrees with what both instances serve.
    const storage = await openRedisStorage(redis.url, { keyPrefix: 'counted:' });
    try {
      const overHttp = await effectsOf(a, b);
      expect(overHttp.filter((e) => e.kind === 'refund' && interrupts.includes(e.key))).toHaveLength(15);
      expect(performed).toHaveLength(15);
      expect((await storage.effects()).map((e) => e.idempotencyKey).sort()).toEqual(overHttp.map((e) => e.idempotencyKey).sort());
    } finally {
      await storage.close();
    }
  }, 60_000);

  it('makes exactly one refund when two clients answer the same interrupt in two runs at once', async () => {
    const [a, b] = await twoCountedInstances();
    for (let n = 0; n < 15; n++) {
      const threadId = `two-runs-${n}`;
      const firstRun = await readEvents(await post(a, '/agents/refund?speed=0', userInput(threadId, `two-runs-${n}-1`)));
      const interruptId = interruptsOf(firstRun)[0]?.id as string;
      const answer = (runId: string): RunAgentInput => ({
        ...userInput(threadId, runId),
        messages: [],
        resume: [{ interruptId, status: 'resolved', payload: { approved: true } }],
      });
      const responses = await Promise.all([
        post(a, '/agents/refund?speed=0', answer(`two-runs-${n}-a`)),
        post(b, '/agents/refund?speed=0', answer(`two-runs-${n}-b`)),
      ]);
      // At least one is accepted; a second may be let through as a repeat of the same answer, or refused: never a second refund.
      expect(responses.some((r) => r.status === 200)).toBe(true);
      for (const r of responses) {
        expect([200, 409]).toContain(r.status);
        if (r.status === 200) expect((await readEvents(r)).at(-1)?.event.type).toBe('RUN_FINISHED');
        else await r.body?.cancel();
      }
      const refunds = (await effectsOf(a, b)).filter((e) => e.kind === 'refund' && e.key === interruptId);
      expect(refunds).toHaveLength(1);
      expect(performed.filter((e) => e.kind === 'refund' && e.key === interruptId)).toHaveLength(1);
    }
  }, 60_000);
});

describe('REDIS_URL and a Redis that stops answering', () => {
  it('puts a server started with REDIS_URL in the environment on Redis', async () => {
    const before = process.env.REDIS_URL;
    process.env.REDIS_URL = redis.url;
    try {
      const [a, b] = [await startServer(), await startServer()];
      const input = userInput('env-thread', 'env-run');
      const whole = await readEvents(await post(a, '/agents/refund?speed=0', input));
      // The other instance knows the run: it replays it from the shared log.
      expect(await readEvents(await post(b, '/agents/refund?speed=0', input, { 'Last-Event-ID': whole[9]?.id as string }))).toEqual(
        whole.slice(10),
      );
    } finally {
      if (before === undefined) delete process.env.REDIS_URL;
      else process.env.REDIS_URL = before;
    }
  });

  it('answers 503 and refunds nothing while Redis hangs, then refunds once when it answers again', async () => {
    const [a, b] = await twoCountedInstances();
    const threadId = 'hang-thread';
    const firstRun = await readEvents(await post(a, '/agents/refund?speed=0', userInput(threadId, 'hang-1')));
    const interruptId = interruptsOf(firstRun)[0]?.id as string;
    const approve: RunAgentInput = {
      ...userInput(threadId, 'hang-2'),
      messages: [],
      resume: [{ interruptId, status: 'resolved', payload: { approved: true } }],
    };
    redis.server.pause();
    try {
      const started = performance.now();
      const refused = await post(a, '/agents/refund?speed=0', approve);
      expect(refused.status).toBe(503);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('STORAGE_UNAVAILABLE');
      // Bounded by the storage's command timeout, not held for ever.
      expect(performance.now() - started).toBeLessThan(15_000);
      expect((await fetch(`${a.url}/health`)).status).toBe(200);
      // Alive, not ready: a load balancer's readiness check sends its traffic elsewhere.
      expect((await fetch(`${a.url}/ready`)).status).toBe(503);
    } finally {
      redis.server.resume();
    }
    expect((await fetch(`${a.url}/ready`)).status).toBe(200);
    expect(performed).toEqual([]);
    const retried = await readEvents(await post(b, '/agents/refund?speed=0', approve));
    expect(retried.at(-1)?.event.type).toBe('RUN_FINISHED');
    expect(performed.filter((e) => e.kind === 'refund' && e.key === interruptId)).toHaveLength(1);
    expect((await effectsOf(a, b)).filter((e) => e.kind === 'refund' && e.key === interruptId)).toHaveLength(1);
  }, 30_000);
});
