/** An SSE body read through `httpSseSource`, timed: for the tests of how long a body takes to read. */
import { httpSseSource, type RunAgentInput } from '../../src/index.js';

export const runInput: RunAgentInput = { threadId: 't1', runId: 'r1', messages: [], tools: [], context: [], state: {}, forwardedProps: {} };

/** The events of a body that arrives in these chunks (a text is encoded as UTF-8), and how long reading it took. */
export async function readBody(chunks: readonly (string | Uint8Array)[]): Promise<{ events: unknown[]; ms: number }> {
  let next = 0;
  // Each chunk as the reader asks for it, as a network delivers them: Node's stream takes time that grows as the square
  // of their number to give out chunks all queued at once (seconds for a hundred thousand).
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[next++];
      if (chunk === undefined) controller.close();
      else controller.enqueue(typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk);
    },
  });
  const response = new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  const events: unknown[] = [];
  const t0 = performance.now();
  for await (const event of httpSseSource({ url: 'http://agent.invalid/run', fetch: async () => response }).run(runInput))
    events.push(event);
  return { events, ms: performance.now() - t0 };
}

/**
 * `read()`, timed: a read over `boundMs` is made again, up to three in all,
 * the fastest kept. A machine busy with other work (the other test files on
 * two cores) slows one read, while a read that does too much work is over
 * the bound every time.
 */
export async function fastestRead(read: () => Promise<{ events: unknown[]; ms: number }>, boundMs: number) {
  let best = await read();
  for (let tries = 1; tries < 3 && best.ms >= boundMs; tries++) {
    const next = await read();
    if (next.ms < best.ms) best = next;
  }
  return best;
}
