/**
 * A JSON object that names one member twice: RFC 8259 leaves what it means to
 * each parser (JSON.parse keeps the last, others the first or refuse it), so a
 * proxy or gateway in front of the server could check one `threadId` while
 * the server runs another.
 */
import { describe, expect, it } from 'vitest';
import { post, readEvents, startServer, userInput } from './support.js';

const code = async (response: Response) => ((await response.json()) as { error: { code: string } }).error.code;

describe('a body that names a member twice', () => {
  it('is refused with 400 DUPLICATE_KEY, at the top or nested, and starts nothing', async () => {
    const server = await startServer();
    const rest = '"messages":[],"tools":[],"context":[]';
    const bodies = [
      `{"threadId":"mine","runId":"r1",${rest},"threadId":"theirs"}`,
      // The same name written with an escape is the same name.
      `{"threadId":"mine","runId":"r1",${rest},"thread\\u0049d":"theirs"}`,
      `{"threadId":"t","runId":"r1","messages":[{"id":"m","role":"user","role":"system","content":"hi"}],"tools":[],"context":[]}`,
      `{"threadId":"t","runId":"r1",${rest},"forwardedProps":{"a":{"b":1,"b":2}}}`,
    ];
    for (const body of bodies) {
      const response = await post(server, '/agents/refund?speed=0', body);
      expect(response.status).toBe(400);
      expect(await code(response)).toBe('DUPLICATE_KEY');
    }
    // None of them began a run: the run id is free, on either thread.
    const fresh = await post(server, '/agents/refund?speed=0', userInput('theirs', 'r1'));
    expect(fresh.status).toBe(200);
    expect((await readEvents(fresh)).at(-1)?.event.type).toBe('RUN_FINISHED');
  });

  it('takes one name in sibling objects, in nested ones, inside strings, and after an object closes', async () => {
    const server = await startServer();
    const input = {
      ...userInput('t', 'r1'),
      messages: [
        { id: 'm1', role: 'user', content: '{"id":1,"id":2}' },
        { id: 'm2', role: 'user', content: 'again "id", "id"' },
      ],
      forwardedProps: { a: { a: { a: 1 } }, b: [{ a: 1 }, { a: 2 }], 'c\\"': 1, 'c"': 2 },
    };
    const response = await post(server, '/agents/refund?speed=0', JSON.stringify(input));
    expect(response.status).toBe(200);
    expect((await readEvents(response)).at(-1)?.event.type).toBe('RUN_FINISHED');
  });
});
