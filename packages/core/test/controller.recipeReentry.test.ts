/**
 * Actions a shared-state recipe calls while it runs: the edit it makes was
 * asked for first, so what the recipe asks for applies after it, and an edit
 * whose thread the recipe destroyed or reset is not applied to what is left.
 * Each case ends with the live thread equal to the replayed log.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createRunController, loadEngine, type RunController } from '../src/index.js';
import { expectReplayed, finished, microScheduler, scripted, started } from './support/controllerHarness.js';

beforeAll(() => loadEngine());

type Doc = Record<string, unknown>;

/** A controller whose first run leaves the document `{ count: 0 }`, with immer loaded (or not yet asked for). */
async function counted(warm: boolean): Promise<RunController<Doc>> {
  const { source } = scripted((_n, input, emit) => {
    emit(started(input));
    emit({ type: 'STATE_SNAPSHOT', snapshot: { count: 0 } });
    emit(finished(input));
  });
  const controller = createRunController<Doc>({ source, scheduler: microScheduler, initialState: { fresh: true } });
  await controller.run('hi');
  if (warm)
    await controller.updateSharedState((d) => {
      d.warm = true;
    });
  return controller;
}

const edits = (controller: RunController<Doc>) => controller.log.entries.filter((e) => e.type === 'state_edit' || e.type === 'state_set');

describe.each([
  ['with immer loaded', true],
  ['on a copy, before immer has loaded', false],
])('a recipe that calls an action (%s)', (_name, warm) => {
  it('an edit it asks for applies after its own: neither increment is lost', async () => {
    const controller = await counted(warm);
    let inner: Promise<unknown> | undefined;
    const outer = await controller.updateSharedState((d) => {
      inner = controller.updateSharedState((d2) => {
        d2.count = (d2.count as number) + 1;
      });
      d.count = (d.count as number) + 1;
    });
    expect(outer).toMatchObject({ ok: true });
    expect(await inner).toMatchObject({ ok: true });
    expect(controller.getSnapshot().thread.sharedState.document).toMatchObject({ count: 2 });
    expectReplayed(controller);
  });

  it('a document it sets replaces the one its edit made, as asked for after it', async () => {
    const controller = await counted(warm);
    let inner: Promise<unknown> | undefined;
    const outer = await controller.updateSharedState((d) => {
      inner = controller.setState({ set: true });
      d.count = 5;
    });
    expect(outer).toMatchObject({ ok: true });
    expect(await inner).toMatchObject({ ok: true });
    expect(controller.getSnapshot().thread.sharedState.document).toEqual({ set: true });
    expectReplayed(controller);
  });

  it('destroy(): the edit answers DESTROYED and nothing is logged', async () => {
    const controller = await counted(warm);
    const before = edits(controller).length;
    const result = await controller.updateSharedState((d) => {
      controller.destroy();
      d.count = 1;
    });
    expect(result).toMatchObject({ ok: false, code: 'DESTROYED' });
    expect(edits(controller)).toHaveLength(before);
    expectReplayed(controller);
  });

  it('reset(): the edit of the old thread answers THREAD_RESET and the new thread starts from its initial state', async () => {
    const controller = await counted(warm);
    const result = await controller.updateSharedState(() => {
      controller.reset();
      return { leaked: 'from the old thread' };
    });
    expect(result).toMatchObject({ ok: false, code: 'THREAD_RESET' });
    expect(controller.getSnapshot().thread.sharedState.document).toEqual({ fresh: true });
    expectReplayed(controller);
  });
});
