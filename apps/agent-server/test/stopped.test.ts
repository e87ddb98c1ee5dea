/**
 * A client that stops reading a run before it raised its interrupts (Stop,
 * a closed tab) never saw them: its next message is not refused for them,
 * and they are cancelled. One whose stream reached the run's end, or which
 * came back for it with Last-Event-ID, saw them: answer first, as before.
 */
import http from 'node:http';
import { httpSseSource } from '@aguikit/core';
import { describe, expect, it } from 'vitest';
import { createAgentStore } from '../../../packages/react/src/store.js';
import type { AgentServer } from '../src/server.js';
import { openMemoryStorage } from '../src/storage/memory.js';
import type { Storage } from '../src/storage/types.js';
import { interruptsOf, NOW, parseFrames, post, readEvents, startServer, stopServer, userInput } from './support.js';

const THREAD = '0d9c4f1e-7a2b-4c3d-8e5f-6a7b8c9d0e1f';

/** Starts run `runId` of the refund, reads its first frame, and closes the connection (a Stop). */
async function startAndStop(server: AgentServer, runId: string): Promise<string> {
  const response = await post(server, '/agents/refund?speed=1', userInput(THREAD, runId), {});
  const reader = response.body?.getReader();
  const { value } = (await reader?.read()) ?? {};
  await reader?.cancel();
  const first = parseFrames(new TextDecoder().decode(value)).find((f) => f.id !== undefined);
  return first?.id ?? '';
}

/** Until every stream of the server is closed (the server sees the client go a moment after it does). */
async function settledStreams(server: AgentServer) {
  await expect.poll(async () => ((await (await fetch(`${server.url}/health`)).json()) as { streams?: number }).streams).toBe(0);
}

describe('interrupts raised after the client stopped reading', () => {
  it('a new message after a Stop is taken, the unseen approval cancelled: answering it later is refused', async () => {
    const server = await startServer();
    await startAndStop(server, 'r1');
    await settledStreams(server);
    const next = await post(server, '/agents/refund?speed=0', userInput(THREAD, 'r2', 'Never mind: what is your return policy?'));
    expect(next.status).toBe(200);
    await readEvents(next);
    // The approval r1 raised, read now from its log: closed, as cancelled.
    const r1 = await readEvents(await post(server, '/agents/refund?speed=0', userInput(THREAD, 'r1')));
    const [approval] = interruptsOf(r1);
    expect(approval?.id).toMatch(/-refund-approval$/);
    const late = await post(server, '/agents/refund?speed=0', {
      ...userInput(THREAD, 'r3'),
      resume: [{ interruptId: approval?.id, status: 'resolved', payload: { approved: true } }],
    });
    expect(late.status).toBe(409);
    expect(((await late.json()) as { error: { code: string } }).error.code).toBe('ALREADY_ANSWERED');
    expect(server.effects()).toEqual([]);
  });

  it('a client that came back for the end with Last-Event-ID saw the approval: a new message is refused until it is answered', async () => {
    const server = await startServer();
    const firstId = await startAndStop(server, 'r1');
    await settledStreams(server);
    const rest = await post(server, '/agents/refund?speed=0', userInput(THREAD, 'r1'), { 'Last-Event-ID': firstId });
    expect(interruptsOf(await readEvents(rest))).toHaveLength(1);
    const next = await post(server, '/agents/refund?speed=0', userInput(THREAD, 'r2', 'hello again'));
    expect(next.status).toBe(409);
    expect(((await next.json()) as { error: { code: string } }).error.code).toBe('RESUME_REQUIRED');
  });

  it('a client still reading the run holds the approval open: another request for a new message is refused meanwhile', async () => {
    const server = await startServer();
    const reading = await post(server, '/agents/refund?speed=1', userInput(THREAD, 'r1'));
    const reader = reading.body?.getReader();
    await reader?.read();
    const other = await post(server, '/agents/refund?speed=0', userInput(THREAD, 'r2', 'from another tab'));
    expect(other.status).toBe(409);
    await reader?.cancel();
  });

  it('which runs were read outlives a restart: after a Stop and a restart the next message is taken; after a read, it waits for the answer', async () => {
    const storage = openMemoryStorage();
    const server = await startServer({ storage });
    await startAndStop(server, 'r1');
    await settledStreams(server);
    // Stopped as a deploy stops it: the run whose client went is produced to its end first, its approval raised.
    await stopServer(server);
    const again = await startServer({ storage });
    const next = await post(again, '/agents/refund?speed=0', userInput(THREAD, 'r2', 'Never mind: what is your return policy?'));
    expect(next.status).toBe(200);
    await readEvents(next);
    // A thread whose approval a client did read: still refused after a restart, until it is answered.
    const other = '5e0b1c2d-3f4a-4b5c-8d6e-7f8091a2b3c4';
    expect(interruptsOf(await readEvents(await post(again, '/agents/refund?speed=0', userInput(other, 'o1'))))).toHaveLength(1);
    await settledStreams(again);
    await stopServer(again);
    const third = await startServer({ storage });
    const refused = await post(third, '/agents/refund?speed=0', userInput(other, 'o2', 'hello again'));
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('RESUME_REQUIRED');
  }, 30_000);

  it('through the client: Stop before the approval, then a new message is answered, not refused 409', async () => {
    const server = await startServer();
    const store = createAgentStore({
      source: httpSseSource({ url: `${server.url}/agents/refund?speed=5` }),
      threadId: THREAD,
      now: () => NOW,
    });
    const first = store.getState().run({ message: 'My teapot from order A-1001 arrived broken. Can I get a refund?' });
    await expect.poll(() => store.getState().thread.messages.ids.length, { timeout: 5_000 }).toBeGreaterThan(1);
    store.getState().stop();
    expect(await first).toEqual({ ok: true, status: 'cancelled' });
    await settledStreams(server);
    const next = await store.getState().run({ message: 'Never mind: what is your return policy?' });
    expect(store.getState().failure).toBeUndefined();
    expect(next).toMatchObject({ ok: true });
    expect(store.getState().thread.run.status).not.toBe('error');
  });
});

describe('a client that goes while the server is still waiting on storage', () => {
  it('holds no stream open for it, and the run is produced at once rather than after the drain timeout', async () => {
    // Storage slow to answer (a remote Redis): the client is gone before the run's response opens.
    const memory = openMemoryStorage();
    let asked!: () => void;
    const beginning = new Promise<void>((resolve) => {
      asked = resolve;
    });
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const storage: Storage = {
      ...memory,
      skipped: memory.skipped,
      beginRun: async (...args) => {
        asked();
        await released;
        return memory.beginRun(...args);
      },
    };
    const server = await startServer({ storage, drainTimeoutMs: 30_000 });
    const body = JSON.stringify(userInput(THREAD, 'early'));
    const request = http.request(`${server.url}/agents/refund?speed=0`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) },
    });
    request.on('error', () => {});
    request.end(body);
    await beginning;
    request.destroy();
    // The server sees the socket close a moment after the client closes it; then storage answers.
    await new Promise((r) => setTimeout(r, 200));
    release();
    // Produced to its end at once, not held 30 s by a stream whose client was gone before it opened.
    await expect.poll(async () => (await memory.events('early', 0, 100)).length, { timeout: 3_000 }).toBeGreaterThan(3);
    await settledStreams(server);
  });
});
