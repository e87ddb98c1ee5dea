/**
 * A page whose Content Security Policy has no 'unsafe-eval' in script-src
 * forbids `new Function`, which ajv compiles every schema with: answers to an
 * interrupt with a responseSchema cannot be checked there. The refusal says
 * so, and says it in a field of its own (`cause`), not only in its words.
 * Node's `--disallow-code-generation-from-strings` forbids it as such a page does.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it, onTestFinished } from 'vitest';
import { bundleApplication } from './support/bundle.js';

const CONSUMER = `
import { createRunController } from '@aguikit/core';
const source = {
  run(input) {
    return (async function* () {
      yield { type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId };
      if (input.resume) return yield { type: 'RUN_FINISHED', threadId: input.threadId, runId: input.runId };
      const responseSchema = { type: 'object', properties: { code: { type: 'string' } }, required: ['code'] };
      yield { type: 'RUN_FINISHED', threadId: input.threadId, runId: input.runId, outcome: { type: 'interrupt', interrupts: [{ id: 'i1', reason: 'input_required', responseSchema }] } };
    })();
  },
};
const controller = createRunController({ source });
await controller.run('Register the voucher code');
const answered = await controller.resume([{ interruptId: 'i1', status: 'resolved', payload: { code: 'A-1' } }]);
const cancelled = await controller.resume([{ interruptId: 'i1', status: 'cancelled' }]);
controller.destroy();
process.stdout.write(JSON.stringify({ answered, cancelled: cancelled.ok }));
`;

describe('answering an interrupt where code generation is forbidden (a strict Content Security Policy)', () => {
  it("refuses the answer with cause 'code-generation-forbidden' and says the page's policy forbids compiling the schema", async () => {
    const bundle = await bundleApplication(CONSUMER);
    onTestFinished(bundle.remove);
    const { stdout } = await promisify(execFile)(process.execPath, ['--disallow-code-generation-from-strings', bundle.entry]);
    const { answered, cancelled } = JSON.parse(stdout);
    expect(answered).toMatchObject({
      ok: false,
      code: 'RESUME_REFUSED',
      errors: [{ code: 'SCHEMA_INVALID', cause: 'code-generation-forbidden' }],
    });
    expect(answered.message).toMatch(/Content Security Policy forbids compiling/);
    expect(answered.message).toMatch(/'unsafe-eval' in script-src/);
    expect(answered.message).not.toMatch(/Code generation from strings disallowed/);
    expect(cancelled).toBe(true);
  }, 60_000);
});
