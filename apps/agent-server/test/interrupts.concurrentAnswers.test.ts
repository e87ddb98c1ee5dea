/**
 * Many clients answer the same interrupt at once, some approving and some
 * rejecting, each under a run id of its own: one answer is accepted, the
 * same answer again is a retry of it, a different one is 409 ALREADY_ANSWERED,
 * and the refund is made at most once, on every storage.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentServer } from '../src/server.js';
import { interruptsOf, post, readEvents, startServer, userInput } from './support.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function openApproval(server: AgentServer): Promise<string> {
  const response = await post(server, '/agents/refund?speed=0', userInput('t', 'r1'));
  expect(response.status).toBe(200);
  const id = interruptsOf(await readEvents(response))[0]?.id;
  if (!id) throw new Error('no approval opened');
  return id;
}

for (const storage of ['memory', 'sqlite'] as const) {
  describe(`answers to one interrupt at once (${storage})`, () => {
    it('accepts one answer: the others that differ get 409 ALREADY_ANSWERED, the refund is made at most once', async () => {
      const dataDir = storage === 'sqlite' ? await mkdtemp(join(tmpdir(), 'aguikit-answers-')) : undefined;
      if (dataDir) dirs.push(dataDir);
      const server = await startServer(dataDir ? { dataDir } : {});
      const interruptId = await openApproval(server);
      const answers = Array.from({ length: 16 }, (_, i) => i % 2 === 0);
      const responses = await Promise.all(
        answers.map((approved, i) =>
          post(server, '/agents/refund?speed=0', {
            ...userInput('t', `answer-${i}`),
            messages: [],
            resume: [{ interruptId, status: 'resolved', payload: { approved } }],
          }),
        ),
      );
      const bodies = await Promise.all(responses.map((r) => (r.status === 200 ? readEvents(r) : r.json())));
      const accepted = answers.filter((_, i) => responses[i]?.status === 200);
      expect(accepted.length).toBeGreaterThanOrEqual(1);
      // Every accepted answer is the same one; every other is refused as answered already.
      expect(new Set(accepted).size).toBe(1);
      for (const [i, r] of responses.entries()) {
        if (r.status !== 200) {
          expect(r.status).toBe(409);
          expect(bodies[i]).toMatchObject({ error: { code: 'ALREADY_ANSWERED' } });
          expect(answers[i]).not.toBe(accepted[0]);
        }
      }
      const effects = (await (await fetch(`${server.url}/effects`)).json()) as unknown[];
      expect(effects).toHaveLength(accepted[0] ? 1 : 0);
    });
  });
}
