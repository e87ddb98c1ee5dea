/**
 * The per-address rules (`maxRunsPerAddress`, memory storage's share of
 * waiting threads) count one client as one address: an IPv6 client holds a
 * whole /64 (a host picks any address in it, and privacy addresses change
 * on their own), and an IPv4 client reached over a dual-stack socket is the
 * same client as over IPv4.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../src/http/app.js';
import { clientAddress } from '../src/http/clientAddress.js';
import { KNOB_LIMITS, MAX_PLAYBACK_MS } from '../src/http/limits.js';
import { originPolicy } from '../src/http/origin.js';
import { openMemoryStorage } from '../src/storage/memory.js';
import { NOW, userInput } from './support.js';

const apps: App[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) {
    app.endStreams();
    await app.fastify.close();
    await app.settled();
  }
});

/** The server's HTTP layer on memory storage whose owners' waiting threads hold at most `maxWaitingBytes`. */
function serve(maxWaitingBytes: number): App {
  let app: App | undefined;
  const storage = openMemoryStorage({
    ownerOf: (runId) => app?.ownerOf(runId),
    maxWaitingBytesPerOwner: maxWaitingBytes,
    now: () => NOW,
  });
  app = buildApp({
    storage,
    policy: () => originPolicy([], ['localhost:80']),
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
  return app;
}

/** A refund run on a new thread from `remoteAddress`, left waiting on its approval: its status and error code. */
async function refundFrom(app: App, remoteAddress: string, id: string): Promise<{ status: number; code?: string }> {
  const answer = await app.fastify.inject({
    method: 'POST',
    url: '/agents/refund?speed=0',
    remoteAddress,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(userInput(`${remoteAddress}-${id}`, `${remoteAddress}-${id}`)),
  });
  if (answer.statusCode === 200) return { status: 200 };
  return { status: answer.statusCode, code: (answer.json() as { error: { code: string } }).error.code };
}

describe('clientAddress', () => {
  it('takes every IPv6 address of one /64 for one client, however it is written', () => {
    const key = clientAddress('2001:db8:1:2::1');
    for (const other of [
      '2001:db8:1:2:ffff:ffff:ffff:fffe',
      '2001:0db8:0001:0002:0:0:0:9',
      '2001:DB8:1:2:a:b:c:d',
      '2001:db8:1:2::1.2.3.4',
      '2001:db8:1:2::5%eth0',
    ])
      expect(clientAddress(other)).toBe(key);
    expect(clientAddress('2001:db8:1:3::1')).not.toBe(key);
    expect(clientAddress('2001:db8::1:2:0:0:1')).not.toBe(key);
    expect(clientAddress('::1')).toBe(clientAddress('0:0:0:0:0:0:0:1'));
  });

  it('takes an IPv4 client over a dual-stack socket for the same client as over IPv4', () => {
    expect(clientAddress('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(clientAddress('::FFFF:203.0.113.9')).toBe('203.0.113.9');
    expect(clientAddress('203.0.113.9')).toBe('203.0.113.9');
    expect(clientAddress('203.0.113.10')).not.toBe(clientAddress('203.0.113.9'));
  });

  it('keeps what is no IP address as it is', () => {
    expect(clientAddress('')).toBe('');
  });
});

describe('a server on memory storage, an IPv6 client', () => {
  it('holds one share of waiting threads for its whole /64, not one per address it takes', async () => {
    const app = serve(20_000);
    let taken = 0;
    for (; taken < 200; taken++) if ((await refundFrom(app, '2001:db8:1:2::1', `t-${taken}`)).status !== 200) break;
    expect(taken).toBeGreaterThan(0);
    expect(taken).toBeLessThan(200);
    // Another address of the same /64 is the same client: refused as well.
    expect(await refundFrom(app, '2001:db8:1:2:8e1f:77a0:13c:9d4e', 'other')).toEqual({
      status: 429,
      code: 'TOO_MANY_WAITING_THREADS',
    });
    // Another /64, another client.
    expect((await refundFrom(app, '2001:db8:1:3::1', 'neighbour')).status).toBe(200);
  });
});
