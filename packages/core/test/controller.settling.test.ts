/**
 * Every action settles, and settles the thread: a resume that fails before
 * any event leaves its interrupts open, a frontend tool an interrupt holds
 * waits for the answer, `stop()` ends a request still waiting for the app's
 * headers, a message the agent opens after its run ended stops streaming
 * when the stream ends, and a quoted error body is whole text.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createRunController, httpSseSource, loadEngine, type RunAgentInput } from '../src/index.js';
import { expectReplayed, finished, microScheduler, scripted, started, tick, toolCall } from './support/controllerHarness.js';

beforeAll(() => loadEngine());

const sse = (events: unknown[]) =>
  new Response(events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join(''), { headers: { 'content-type': 'text/event-stream' } });
const interrupted = (input: RunAgentInput, id: string, toolCallId?: string) =>
  finished(input, {
    outcome: { type: 'interrupt', interrupts: [{ id, reason: 'confirmation', message: 'ok?', ...(toolCallId ? { toolCallId } : {}) }] },
  });
const approve = (approved: boolean) => [{ interruptId: 'i1', status: 'resolved' as const, payload: { approved } }];

/** Half of a surrogate pair, alone (a paired one is one code point, which \p{Cs} does not match). */
const LONE_SURROGATE = /\p{Cs}/u;

describe("stop() while the app's headers() is pending", () => {
  it('settles run() at once, and sends nothing', async () => {
    let fetched = 0;
    const source = httpSseSource({
      url: 'http://agent.test/run',
      headers: () => new Promise<Record<string, string>>(() => {}),
      fetch: async () => {
        fetched++;
        return new Response('', { status: 500 });
      },
    });
    const c = createRunController({ source, scheduler: microScheduler });
    const running = c.run('hello');
    await tick();
    c.stop();
    const outcome = await Promise.race([running, new Promise((r) => setTimeout(() => r('still waiting'), 1000))]);
    expect(outcome).toMatchObject({ ok: true });
    expect(fetched).toBe(0);
    expect(c.getSnapshot().thread.run.status).not.toBe('running');
  });
});

describe('a message the agent opens after its run ended', () => {
  it('stops streaming when the stream ends, and the run stays a success', async () => {
    const { source } = scripted((_n, input, emit) => {
      emit(started(input));
      emit(finished(input));
      emit({ type: 'TEXT_MESSAGE_START', messageId: 'late', role: 'assistant' });
      emit({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'late', delta: 'after the end' });
    });
    const c = createRunController({ source, scheduler: microScheduler });
    await c.run('hello');
    await tick();
    c.stop();
    const t = c.getSnapshot().thread;
    expect(t.messages.byId.get('late')?.streaming).toBe(false);
    expect(t.run.status).toBe('success');
    expectReplayed(c);
  });
});

describe('the body an HTTP error quotes', () => {
  it('is cut at a whole character, never half of a surrogate pair', async () => {
    for (const body of [`${'a'.repeat(1999)}😀😀`, `${'a'.repeat(199)}😀 and more`]) {
      const source = httpSseSource({ url: 'http://agent.test/run', fetch: async () => new Response(body, { status: 503 }) });
      const c = createRunController({ source, scheduler: microScheduler });
      await c.run('hello');
      const failure = c.getSnapshot().failure;
      expect(failure?.code).toBe('HTTP_STATUS');
      expect(failure?.body).not.toMatch(LONE_SURROGATE);
      expect(failure?.message).not.toMatch(LONE_SURROGATE);
      expect(failure?.body?.startsWith(body.slice(0, 1999))).toBe(true);
    }
  });
});
