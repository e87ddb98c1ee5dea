/**
 * `retry()` while a shared-state edit waits: it claims the request at once,
 * as `run()` does, so a stop meanwhile sends nothing. In a file of its own:
 * immer loads on the first edit, and only in a fresh module graph does that
 * first edit wait (the window a retry falls into).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createRunController, loadEngine } from '../src/index.js';
import { expectReplayed, finished, microScheduler, scripted, started, tick } from './support/controllerHarness.js';

beforeAll(() => loadEngine());

/** A controller whose first request failed as a network failure does (retryable); the agent answers the next one. */
async function failedOnce() {
  const { source, inputs } = scripted((n, input, emit) => {
    if (n === 0) throw new TypeError('Failed to fetch');
    emit(started(input));
    emit(finished(input));
  });
  const c = createRunController<{ n: number }>({ source, scheduler: microScheduler, initialState: { n: 0 } });
  await c.run('Refund order A-1001');
  return { c, inputs };
}

describe('retry() while a shared-state edit waits', () => {
  it('is in flight at once, and a stop() meanwhile sends nothing', async () => {
    const { c, inputs } = await failedOnce();
    expect(c.getSnapshot().failure).toMatchObject({ code: 'NETWORK', retryable: true });
    const edit = c.updateSharedState((d) => {
      d.n = 1;
    });
    const retry = c.retry();
    expect(c.getSnapshot().inFlight).toBe('run');
    c.stop();
    expect(c.getSnapshot().inFlight).toBeUndefined();
    await Promise.all([edit, retry]);
    await tick();
    expect(inputs).toHaveLength(1);
    expect(c.getSnapshot().thread.sharedState.document).toEqual({ n: 1 });
    expectReplayed(c);
  });

  it('sends the edited document once the edit applied, when nothing stops it', async () => {
    const { c, inputs } = await failedOnce();
    void c.updateSharedState((d) => {
      d.n = 2;
    });
    const result = await c.retry();
    expect(result).toMatchObject({ ok: true, status: 'success' });
    expect(inputs.map((i) => i.state)).toEqual([{ n: 0 }, { n: 2 }]);
    expect(c.getSnapshot().inFlight).toBeUndefined();
    expectReplayed(c);
  });
});
