/**
 * Actions a shared-state recipe calls while it runs: the edit it makes was
 * asked for first, so what the recipe asks for applies after it, and an edit
 * whose thread the recipe destroyed or reset is not applied to what is left.
 * Each case ends with the live thread equal to the replayed log.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { RunController } from '../src/index.js';

type Core = typeof import('../src/index.js');
type Harness = typeof import('./support/controllerHarness.js');

/**
 * The package as first loaded, for each case: immer loads with the first edit of any controller and stays, so a
 * case "before immer has loaded" shares no module with the cases before it.
 */
let createRunController: Core['createRunController'];
let expectReplayed: Harness['expectReplayed'];
let finished: Harness['finished'];
let microScheduler: Harness['microScheduler'];
let scripted: Harness['scripted'];
let started: Harness['started'];

beforeEach(async () => {
  vi.resetModules();
  const core = await import('../src/index.js');
  ({ expectReplayed, finished, microScheduler, scripted, started } = await import('./support/controllerHarness.js'));
  createRunController = core.createRunController;
  await core.loadEngine();
});

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
  if (warm) await warmUp(controller);
  return controller;
}

/** An edit, and immer loaded by it: the edits after it are made on immer's draft. */
async function warmUp(controller: RunController<Doc>) {
  await controller.updateSharedState((d) => {
    d.warm = true;
  });
  await Promise.all([import('immer'), import('../src/controller/immerEdit.js')]);
  await new Promise((r) => setTimeout(r, 0));
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

describe.each([
  ['with immer loaded', true],
  ['on a copy, before immer has loaded', false],
])('the order of what a recipe asks for (%s)', (_name, warm) => {
  const push = (label: string) => (d: Doc) => {
    d.trail = [...((d.trail as string[] | undefined) ?? []), label];
  };

  it('an edit it asks for applies before one asked for from outside after it, live and in the replay', async () => {
    const controller = await counted(warm);
    let inner: Promise<unknown> | undefined;
    const a = controller.updateSharedState((d) => {
      inner = controller.updateSharedState(push('B'));
      push('A')(d);
    });
    const c = controller.updateSharedState(push('C'));
    expect(await Promise.all([a, inner, c])).toMatchObject([{ ok: true }, { ok: true }, { ok: true }]);
    expect(controller.getSnapshot().thread.sharedState.document).toMatchObject({ trail: ['A', 'B', 'C'] });
    expectReplayed(controller);
  });

  it('one that throws after asking for an edit is refused; the edit it asked for still applies, and answers', async () => {
    const controller = await counted(warm);
    let inner: Promise<unknown> | undefined;
    const outer = await controller.updateSharedState((d) => {
      inner = controller.updateSharedState(push('B'));
      push('A')(d);
      throw new Error('no stock');
    });
    expect(outer).toMatchObject({ ok: false, code: 'EDIT_REFUSED' });
    expect(await inner).toMatchObject({ ok: true });
    expect(controller.getSnapshot().thread.sharedState.document).toMatchObject({ trail: ['B'] });
    // Nothing waits any more: the next edit applies at once (a run started right after it carries it).
    void controller.updateSharedState(push('D'));
    expect(controller.getSnapshot().thread.sharedState.document).toMatchObject({ trail: ['B', 'D'] });
    expectReplayed(controller);
  });

  it('recipes asked for inside recipes three deep each apply once, in the order they were asked for', async () => {
    const controller = await counted(warm);
    const asked: Promise<unknown>[] = [];
    asked.push(
      controller.updateSharedState((d) => {
        asked.push(
          controller.updateSharedState((d2) => {
            asked.push(
              controller.updateSharedState((d3) => {
                asked.push(controller.setState({ count: 10, trail: ['set'] }));
                push('3')(d3);
              }),
            );
            push('2')(d2);
          }),
        );
        push('1')(d);
      }),
    );
    // Asked for once the first returned: after the second (asked for while the first ran), before the third.
    asked.push(controller.updateSharedState(push('outside')));
    const trails: unknown[] = [];
    const unsubscribe = controller.subscribe(() => trails.push((controller.getSnapshot().thread.sharedState.document as Doc).trail));
    // Each promise is pushed before the one whose recipe asked for it resolves.
    const results: unknown[] = [];
    while (asked.length > results.length) results.push(await asked[results.length]);
    unsubscribe();
    expect(results).toHaveLength(5);
    for (const r of results) expect(r).toMatchObject({ ok: true });
    expect(trails).toContainEqual(['1', '2', 'outside', '3']);
    expect(controller.getSnapshot().thread.sharedState.document).toEqual({ count: 10, trail: ['set'] });
    expectReplayed(controller);
  });

  it('a recipe asked for from onEvent, and one it asks for, apply after the event, in order', async () => {
    const { source } = scripted((_n, input, emit) => {
      emit(started(input));
      emit({ type: 'STATE_SNAPSHOT', snapshot: { count: 0 } });
      emit({ type: 'CUSTOM', name: 'tick', value: 1 });
      emit(finished(input));
    });
    const asked: Promise<unknown>[] = [];
    const controller: RunController<Doc> = createRunController<Doc>({
      source,
      scheduler: microScheduler,
      onEvent: (event) => {
        if (event.type !== 'CUSTOM') return;
        asked.push(
          controller.updateSharedState((d) => {
            asked.push(controller.updateSharedState(push('inner')));
            push('outer')(d);
          }),
        );
      },
    });
    if (warm) await warmUp(controller);
    await controller.run('hi');
    const results = await Promise.all(asked);
    expect(results).toMatchObject([{ ok: true }, { ok: true }]);
    expect(controller.getSnapshot().thread.sharedState.document).toMatchObject({ count: 0, trail: ['outer', 'inner'] });
    expectReplayed(controller);
  });

  it('a run started from inside a recipe carries the recipe’s edit', async () => {
    const { source, inputs } = scripted((_n, input, emit) => {
      emit(started(input));
      emit(finished(input));
    });
    const controller = createRunController<Doc>({ source, scheduler: microScheduler, initialState: { count: 0 } });
    if (warm) await warmUp(controller);
    let run: Promise<unknown> | undefined;
    const edited = await controller.updateSharedState((d) => {
      run = controller.run('hi');
      d.count = 7;
    });
    expect(edited).toMatchObject({ ok: true });
    expect(await run).toMatchObject({ ok: true });
    expect(inputs[0]?.state).toMatchObject({ count: 7 });
    expectReplayed(controller);
  });
});
