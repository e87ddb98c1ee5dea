/**
 * A JSON body as some clients write it: .NET's `StreamWriter` with
 * `Encoding.UTF8` puts a byte order mark before it, which RFC 8259 lets a
 * parser ignore (and Fastify's own JSON parser and Express's do).
 */
import { describe, expect, it } from 'vitest';
import { post, readEvents, startServer, userInput } from './support.js';

const BOM = '\ufeff';

describe('a body after a byte order mark', () => {
  it('is read as the JSON that follows the mark, and a retry of it is the same run', async () => {
    const server = await startServer();
    const body = JSON.stringify(userInput('t', 'r1'));
    const first = await post(server, '/agents/refund?speed=0', `${BOM}${body}`);
    expect(first.status).toBe(200);
    const events = await readEvents(first);
    expect(events.at(-1)?.event.type).toBe('RUN_FINISHED');
    // The same input without the mark is the same request: the run from the start, not a new one.
    const again = await readEvents(await post(server, '/agents/refund?speed=0', body));
    expect(again.map((e) => e.id)).toEqual(events.map((e) => e.id));
  });

  it('is still refused as no JSON when the mark is all there is, or stands anywhere else', async () => {
    const server = await startServer();
    const body = JSON.stringify(userInput('t', 'r1'));
    for (const text of [BOM, `${BOM}${BOM}${body}`, ` ${BOM}${body}`]) {
      const response = await post(server, '/agents/refund?speed=0', text);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('MALFORMED_JSON');
    }
  });
});
