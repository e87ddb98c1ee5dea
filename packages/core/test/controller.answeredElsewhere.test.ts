/**
 * Interrupts another client answered first (another tab, another device): the
 * agent refuses this client's different answer with `409 ALREADY_ANSWERED`.
 * The questions are settled at the agent, so the thread never asks them again.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createRunController, httpSseSource, loadEngine, parseSession, type RunAgentInput, serializeSession } from '../src/index.js';
import { expectReplayed, finished, microScheduler, started } from './support/controllerHarness.js';

beforeAll(() => loadEngine());

const sse = (events: unknown[]) =>
  new Response(events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join(''), { headers: { 'content-type': 'text/event-stream' } });
const asks = (input: RunAgentInput) =>
  finished(input, {
    outcome: { type: 'interrupt', interrupts: [{ id: 'i1', reason: 'confirmation', message: 'Refund 42 USD?', toolCallId: 'c1' }] },
  });
const refundCall = [
  { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'refund', parentMessageId: 'a1' },
  { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"orderId":"A-1001"}' },
  { type: 'TOOL_CALL_END', toolCallId: 'c1' },
];
/** What aguikit's reference agent answers to a resume whose interrupts were answered otherwise already. */
const alreadyAnswered = () =>
  new Response(
    JSON.stringify({ error: { code: 'ALREADY_ANSWERED', message: 'The interrupt of resume[0] was already answered differently.' } }),
    { status: 409, headers: { 'content-type': 'application/json' } },
  );

function agent() {
  const posted: RunAgentInput[] = [];
  const source = httpSseSource({
    url: 'http://agent.test/run',
    fetch: async (_url, init) => {
      const input = JSON.parse(String(init?.body)) as RunAgentInput;
      posted.push(input);
      return posted.length === 1 ? sse([started(input), ...refundCall, asks(input)]) : alreadyAnswered();
    },
  });
  return { posted, source, c: createRunController({ source, scheduler: microScheduler }) };
}

describe('a resume the agent refuses as already answered (409 ALREADY_ANSWERED)', () => {
  it('leaves the interrupts closed: the user is not asked again, and nothing more is sent', async () => {
    const { c, posted } = agent();
    await c.run('Refund order A-1001');
    expect(c.getSnapshot().thread.interrupts.map((i) => i.id)).toEqual(['i1']);
    await c.resume([{ interruptId: 'i1', status: 'resolved', payload: { approved: false } }]);
    const { thread, failure, inFlight } = c.getSnapshot();
    expect(inFlight).toBeUndefined();
    expect(failure).toMatchObject({ code: 'HTTP_STATUS', status: 409, cause: 'ALREADY_ANSWERED', retryable: false });
    expect(failure?.message).toMatch(/already answered/i);
    expect(thread.interrupts).toEqual([]);
    // The call the question held is not held again, waiting for an answer the agent already has.
    expect(thread.toolCalls.get('c1')?.interruptId).toBeUndefined();
    // Answering again has nothing to answer, and nothing goes out.
    expect((await c.resume([{ interruptId: 'i1', status: 'resolved', payload: { approved: true } }])).ok).toBe(false);
    expect(posted).toHaveLength(2);
    expectReplayed(c);
  });

  it('keeps none of the answer the agent did not take: the thread does not say this user rejected the refund', async () => {
    const { c } = agent();
    await c.run('Refund order A-1001');
    await c.resume([{ interruptId: 'i1', status: 'resolved', payload: { approved: false } }]);
    const { thread } = c.getSnapshot();
    expect(thread.interrupts).toEqual([]);
    // Which answer the agent kept (another tab's) is not known here: none is shown as the user's.
    expect(thread.answers).toEqual([]);
    expect(thread.toolCalls.get('c1')).toMatchObject({ status: 'ready' });
    expect(thread.toolCalls.get('c1')?.answer).toBeUndefined();
    expectReplayed(c);
  });

  it('stays closed in a controller made from the log saved after it (a reload)', async () => {
    const { c, source } = agent();
    await c.run('Refund order A-1001');
    await c.resume([{ interruptId: 'i1', status: 'cancelled' }]);
    const again = createRunController({ source, scheduler: microScheduler, log: parseSession(serializeSession(c.log.entries)).entries });
    expect(again.getSnapshot().thread.interrupts).toEqual([]);
    expect(again.getSnapshot().thread.toolCalls.get('c1')?.interruptId).toBeUndefined();
  });

  it('a plain run refused 409 ALREADY_ANSWERED answered no question: its failure says what the agent said, not that questions were answered', async () => {
    const source = httpSseSource({ url: 'http://agent.test/run', fetch: async () => alreadyAnswered() });
    const c = createRunController({ source, scheduler: microScheduler });
    await c.run('Refund order A-1001');
    const { failure } = c.getSnapshot();
    expect(failure).toMatchObject({ code: 'HTTP_STATUS', status: 409, retryable: false });
    expect(failure?.cause).toBeUndefined();
    expect(failure?.message).toMatch(/HTTP 409/);
    expect(failure?.message).toContain('already answered differently');
    expectReplayed(c);
  });

  it("a reconnect of a resume the agent took, refused 409 ALREADY_ANSWERED: the answer stays the thread's, and the failure is said as any 409", async () => {
    const posted: RunAgentInput[] = [];
    const withIds = (events: unknown[]) =>
      new Response(events.map((e, i) => `id: ${i + 1}\ndata: ${JSON.stringify(e)}\n\n`).join(''), {
        headers: { 'content-type': 'text/event-stream' },
      });
    const source = httpSseSource({
      url: 'http://agent.test/run',
      fetch: async (_url, init) => {
        const input = JSON.parse(String(init?.body)) as RunAgentInput;
        posted.push(input);
        if (posted.length === 1) return sse([started(input), ...refundCall, asks(input)]);
        // The resume's stream ends inside its run; the reconnect is refused.
        return posted.length === 2 ? withIds([started(input)]) : alreadyAnswered();
      },
    });
    const c = createRunController({ source, scheduler: microScheduler });
    await c.run('Refund order A-1001');
    await c.resume([{ interruptId: 'i1', status: 'resolved', payload: { approved: true } }]);
    expect(c.getSnapshot().failure).toMatchObject({ code: 'CONNECTION_LOST', reconnectable: true });
    await c.reconnect();
    const { thread, failure } = c.getSnapshot();
    expect(posted).toHaveLength(3);
    expect(failure).toMatchObject({ code: 'HTTP_STATUS', status: 409 });
    expect(failure?.cause).toBeUndefined();
    expect(thread.answers.map((a) => [a.interruptId, (a.payload as { approved: boolean }).approved])).toEqual([['i1', true]]);
    expectReplayed(c);
  });
});
