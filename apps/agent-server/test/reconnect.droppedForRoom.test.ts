/**
 * On memory storage with a bound on its runs, a run a client reads is in use
 * and never dropped for room. A client that comes back for a run produced
 * ahead of its pace holds the run from the moment its request looks it up:
 * a run dropped between that look-up and the stream's opening would leave
 * the client a stream of nothing, the run gone.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../src/http/app.js';
import { KNOB_LIMITS, MAX_PLAYBACK_MS } from '../src/http/limits.js';
import { defaultHosts, type OriginPolicy, originPolicy } from '../src/http/origin.js';
import { openMemoryStorage } from '../src/storage/memory.js';
import type { Storage } from '../src/storage/types.js';
import { NOW, readEvents, userInput } from './support.js';

const apps: App[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) {
    app.endStreams();
    await app.fastify.close();
    await app.settled();
  }
});

/** The server's HTTP layer on memory storage whose runs are bounded at `maxRunBytes`, told which runs are in use. */
async function serve(wrap: (inner: Storage) => Storage, maxRunBytes: number): Promise<{ url: string; inner: Storage }> {
  let app: App | undefined;
  const inner = openMemoryStorage({ maxRunBytes, inUse: (runId) => app?.inUse(runId) ?? false });
  let policy: OriginPolicy = originPolicy([], []);
  app = buildApp({
    storage: wrap(inner),
    policy: () => policy,
    speed: 1,
    knobLimits: KNOB_LIMITS,
    maxPlaybackMs: MAX_PLAYBACK_MS,
    heartbeatMs: 15_000,
    drainTimeoutMs: 30_000,
    stallTimeoutMs: 5_000,
    requestTimeoutMs: 30_000,
    headersTimeoutMs: 10_000,
    keepAliveTimeoutMs: 72_000,
    maxBodyBytes: 1024 * 1024,
    maxRuns: 200,
    maxRunsPerAddress: 200,
    maxRunInputBytes: 16 * 1024 * 1024,
    now: () => NOW,
    nonce: () => 'nonce',
    logger: { level: 'silent' },
    onEffect: () => {},
  });
  apps.push(app);
  await app.fastify.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.fastify.server.address() as { port: number };
  policy = originPolicy([], defaultHosts(port, '127.0.0.1'));
  return { url: `http://127.0.0.1:${port}`, inner };
}

const send = (url: string, body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal) =>
  fetch(`${url}/agents/fast-stream`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });

describe('a reconnect to a run produced ahead of its pace, on memory storage bounded', () => {
  it('holds the run from its look-up: another run needing room meanwhile does not drop it, and the client reads it to its end', async () => {
    const armed = { on: false, reads: 0 };
    let inner: Storage | undefined;
    /** Another run whose one frame needs all the room there is: the runs finished and not in use are dropped for it. */
    const crowd = async () => {
      const filler = userInput('t-filler', 'filler');
      await inner?.beginRun(
        { runId: 'filler', threadId: 't-filler', scenarioId: 'fast-stream', input: filler, startedAt: NOW, nonce: 'n' },
        { threadId: 't-filler', open: [], answered: {} },
        0,
      );
      await inner?.appendEvent('filler', 0, 'x'.repeat(150_000));
    };
    const served = await serve((storage) => {
      const wrapped: Storage = Object.create(storage);
      wrapped.events = async (runId, from, limit) => {
        const events = await storage.events(runId, from, limit);
        // The reconnect's last look at the log before its stream opens (whether the log holds the event it came
        // back after, then whether it holds the run's end): the room is needed right then.
        if (armed.on && runId === 'victim' && limit === 1 && ++armed.reads === 2) {
          armed.on = false;
          await crowd();
        }
        return events;
      };
      return wrapped;
    }, 200_000);
    inner = served.inner;
    // 12 tokens 150 ms apart: its client goes after the first event, and it is produced at once, ahead of its pace.
    const input = { ...userInput('t-victim', 'victim'), forwardedProps: { tokens: 12, tokenDelayMs: 150 } };
    const own = await send(served.url, input);
    const reader = own.body?.getReader();
    await reader?.read();
    await reader?.cancel();
    await expect
      .poll(async () => ((await (await fetch(`${served.url}/health`)).json()) as { runs: number }).runs, { timeout: 5_000 })
      .toBe(0);
    armed.on = true;
    const back = await send(served.url, input, { 'Last-Event-ID': 'victim:0' });
    expect(back.status).toBe(200);
    const events = await readEvents(back);
    expect(armed.reads).toBe(2);
    expect(events[0]?.id).toBe('victim:1');
    expect(events.at(-1)?.event.type).toBe('RUN_FINISHED');
    // The run was kept through the crowding: it is there still.
    expect(await inner.run('victim')).toBeDefined();
  }, 30_000);
});

describe('the hold a request has on its run from its look-up', () => {
  it('ends with the request: one refused, and one whose client went before its stream opened', async () => {
    let app: App | undefined;
    const gate = { wait: undefined as Promise<void> | undefined };
    const served = await serve((storage) => {
      const wrapped: Storage = Object.create(storage);
      wrapped.run = async (runId) => {
        await gate.wait;
        return storage.run(runId);
      };
      return wrapped;
    }, 200_000);
    app = apps.at(-1);
    const input = userInput('t-held', 'held');
    expect((await readEvents(await send(served.url, input))).at(-1)?.event.type).toBe('RUN_FINISHED');
    // Another input under the run's id is refused 404: the request is over, and so is its hold.
    const other = await send(served.url, { ...input, messages: [] }, { 'Last-Event-ID': 'held:0' });
    expect(other.status).toBe(404);
    expect(app?.inUse('held')).toBe(false);
    // A client that goes while its request looks the run up.
    let open: () => void = () => {};
    gate.wait = new Promise((resolve) => {
      open = resolve;
    });
    const abort = new AbortController();
    const gone = send(served.url, input, { 'Last-Event-ID': 'held:0' }, abort.signal).catch(() => undefined);
    await expect.poll(() => app?.inUse('held')).toBe(true);
    abort.abort();
    await gone;
    open();
    await expect.poll(() => app?.inUse('held'), { timeout: 5_000 }).toBe(false);
  });
});
