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

  it('stays closed in a controller made from the log saved after it (a reload)', async () => {
    const { c, source } = agent();
    await c.run('Refund order A-1001');
    await c.resume([{ interruptId: 'i1', status: 'cancelled' }]);
    const again = createRunController({ source, scheduler: microScheduler, log: parseSession(serializeSession(c.log.entries)).entries });
    expect(again.getSnapshot().thread.interrupts).toEqual([]);
    expect(again.getSnapshot().thread.toolCalls.get('c1')?.interruptId).toBeUndefined();
  });
});
