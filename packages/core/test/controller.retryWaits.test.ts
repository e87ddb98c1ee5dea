/**
 * `retry()` while a shared-state edit waits: it claims the request at once,
 * as `run()` does, so a stop meanwhile sends nothing. An edit waits only for
 * the engine (one asked for while immer loads applies on a copy at once), so
 * each test starts from a fresh module graph whose engine failed to load for
 * the first run: the retry and the edit both wait for it to load again.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { expectReplayed, finished, microScheduler, scripted, started, tick } from './support/controllerHarness.js';

afterEach(() => {
  vi.doUnmock('../src/controller/engineParts.js');
});

/** A controller whose first run failed as the engine did not load (retryable, nothing sent); the agent answers the next. */
async function failedOnce() {
  let fail = true;
  vi.doMock('../src/controller/engineParts.js', async (original) => {
    if (fail) throw new TypeError('Failed to fetch dynamically imported module: /assets/engineParts-3f9a.js');
    return original();
  });
  vi.resetModules();
  const core = await import('../src/index.js');
  const { source, inputs } = scripted((_n, input, emit) => {
    emit(started(input));
    emit(finished(input));
  });
  const c = core.createRunController<{ n: number }>({ source, scheduler: microScheduler, initialState: { n: 0 } });
  await c.run('Refund order A-1001');
  fail = false;
  return { c, inputs };
}

describe('retry() while a shared-state edit waits', () => {
  it('is in flight at once, and a stop() meanwhile sends nothing', async () => {
    const { c, inputs } = await failedOnce();
    expect(c.getSnapshot().failure).toMatchObject({ code: 'ENGINE_UNAVAILABLE', retryable: true });
    const edit = c.updateSharedState((d) => {
      d.n = 1;
    });
    const retry = c.retry();
    expect(c.getSnapshot().inFlight).toBe('run');
    c.stop();
    expect(c.getSnapshot().inFlight).toBeUndefined();
    await Promise.all([edit, retry]);
    await tick();
    expect(inputs).toHaveLength(0);
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
    expect(inputs.map((i) => i.state)).toEqual([{ n: 2 }]);
    expect(c.getSnapshot().inFlight).toBeUndefined();
    expectReplayed(c);
  });
});
