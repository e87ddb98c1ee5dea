/**
 * Setup file of the e2e project, run in each test file's worker: the agent
 * servers a test starts let the playground (served on a port of its own)
 * call them. Set for the file and restored after it, so no other test that
 * shares the worker sees it.
 */
import { afterAll, inject } from 'vitest';

const before = process.env.AGENT_ALLOWED_ORIGINS;
const origin = new URL(inject('playgroundUrl')).origin;
process.env.AGENT_ALLOWED_ORIGINS = [origin, origin.replace('127.0.0.1', 'localhost')].join(',');

afterAll(() => {
  if (before === undefined) delete process.env.AGENT_ALLOWED_ORIGINS;
  else process.env.AGENT_ALLOWED_ORIGINS = before;
});
