/**
 * What a reconnect costs the server: whether the rest of a run still being
 * produced would play too long (`maxPlaybackMs`) is worked out once per run,
 * not by making every one of its events again on every reconnect.
 */
import { describe, expect, it, vi } from 'vitest';
import { post, startServer, userInput } from './support.js';

/** How many events the server made from runs' plans (`EventPlan.at`), as it produced, streamed or checked them. */
const made = vi.hoisted(() => ({ count: 0 }));

vi.mock('../src/http/runEvents.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../src/http/runEvents.js')>();
  return {
    eventsOf: (...args: Parameters<typeof original.eventsOf>) => {
      const plan = original.eventsOf(...args);
      return {
        length: plan.length,
        at: (index: number) => {
          made.count++;
          return plan.at(index);
        },
      };
    },
  };
});

describe('reconnects to a long run still being produced', () => {
  it('50 reconnects to a 100,000-event run do not each make its 100,000 events again to check its playback time', async () => {
    const server = await startServer({ knobLimits: { tokens: 100_000 } });
    // 100,000 tokens 10 ms apart: 1,000 s of run, read by its client at its pace.
    const input = { ...userInput('t', 'long'), forwardedProps: { tokens: 100_000, tokenDelayMs: 10 } };
    const own = await post(server, '/agents/fast-stream', input);
    expect(own.status).toBe(200);
    const reader = (own.body as ReadableStream<Uint8Array>).getReader();
    let text = '';
    while (!text.includes('id: long:1\n')) text += new TextDecoder().decode((await reader.read()).value);
    const before = made.count;
    const started = performance.now();
    for (let n = 0; n < 50; n++) {
      const reconnect = await post(server, '/agents/fast-stream', input, { 'Last-Event-ID': 'long:0' });
      expect(reconnect.status).toBe(200);
      await reconnect.body?.cancel();
    }
    const ms = performance.now() - started;
    const perReconnect = (made.count - before) / 50;
    console.info(`50 reconnects to a 100,000-event run: ${Math.round(ms)} ms, ${Math.round(perReconnect)} events made per reconnect`);
    // The run's own production makes a few events meanwhile; a check of the whole plan would make 100,000 a reconnect.
    expect(perReconnect).toBeLessThan(5_000);
    await reader.cancel();
  }, 120_000);
});

describe('the playback bound kept for a run', () => {
  it('is not that of another run under the same id, start and secret: a request refused for room does not let a longer one past the check', async () => {
    // A server whose clock and secret are fixed (reproducible runs): two requests for run id 'r' share both.
    const server = await startServer({ maxRuns: 1, maxPlaybackMs: 60_000, nonce: () => 'fixed' });
    const holder = await post(server, '/agents/fast-stream', {
      ...userInput('t-hold', 'hold'),
      forwardedProps: { tokens: 20, tokenDelayMs: 200 },
    });
    expect(holder.status).toBe(200);
    // A short run (50 ms of pauses), refused for want of room.
    const short = await post(server, '/agents/fast-stream', { ...userInput('t-a', 'r'), forwardedProps: { tokens: 5, tokenDelayMs: 10 } });
    expect(short.status).toBe(503);
    await short.body?.cancel();
    await holder.body?.cancel();
    await expect.poll(async () => ((await (await fetch(`${server.url}/health`)).json()) as { runs: number }).runs).toBe(0);
    // The same run id on another thread, 1,000 s of pauses: past the 60 s this server plays.
    const long = await post(server, '/agents/fast-stream', {
      ...userInput('t-b', 'r'),
      forwardedProps: { tokens: 100, tokenDelayMs: 10_000 },
    });
    if (long.status === 200) await long.body?.cancel();
    expect(long.status).toBe(400);
    expect(await long.json()).toMatchObject({ error: { code: 'LIMIT_EXCEEDED' } });
  }, 30_000);
});

describe('requests refused after their playback check', () => {
  it('1,100 new runs refused for want of room keep no playback bound: the bound of the run being produced is kept, and a reconnect does not make its 100,000 events again', async () => {
    const server = await startServer({ maxRuns: 1, knobLimits: { tokens: 100_000 } });
    const input = { ...userInput('t', 'long'), forwardedProps: { tokens: 100_000, tokenDelayMs: 10 } };
    const own = await post(server, '/agents/fast-stream', input);
    expect(own.status).toBe(200);
    const reader = (own.body as ReadableStream<Uint8Array>).getReader();
    let text = '';
    while (!text.includes('id: long:1\n')) text += new TextDecoder().decode((await reader.read()).value);
    // Each a new run (a fresh secret, so a key of its own among the bounds kept), checked, then refused: no room.
    const started = performance.now();
    for (let n = 0; n < 1_100; n++) {
      const refused = await post(server, '/agents/fast-stream', { ...userInput(`t-${n}`, `r-${n}`), forwardedProps: { tokens: 2 } });
      expect(refused.status).toBe(503);
      await refused.body?.cancel();
    }
    console.info(`1,100 new runs refused for want of room: ${Math.round(performance.now() - started)} ms`);
    const before = made.count;
    const reconnect = await post(server, '/agents/fast-stream', input, { 'Last-Event-ID': 'long:0' });
    expect(reconnect.status).toBe(200);
    await reconnect.body?.cancel();
    const madeByReconnect = made.count - before;
    console.info(`a reconnect after them: ${madeByReconnect} events made`);
    expect(madeByReconnect).toBeLessThan(5_000);
    await reader.cancel();
  }, 120_000);
});
