/**
 * What the app does from `onDecision`, told of each decision before its
 * resume is sent: a `run()` (refused, a resume is in flight) or an edit of the
 * shared state leaves the resume going; a `stop()` sends nothing and leaves
 * the interrupts open, to be answered again.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createRunController, loadEngine, type RunAgentInput, type RunController } from '../src/index.js';
import { expectReplayed, finished, microScheduler, scripted, started, tick } from './support/controllerHarness.js';

beforeAll(() => loadEngine());

const ask = (input: RunAgentInput, ids = ['i1']) =>
  finished(input, { outcome: { type: 'interrupt', interrupts: ids.map((id) => ({ id, reason: 'confirmation', message: `${id}?` })) } });
const approve = (interruptId: string) => ({ interruptId, status: 'resolved' as const, payload: { approved: true } });
const resumes = (c: RunController) => c.log.entries.filter((e) => e.type === 'resume');
const settle = async () => {
  for (let i = 0; i < 5; i++) await tick();
};

function asking(ids = ['i1']) {
  return scripted((n, input, emit) => {
    emit(started(input));
    emit(n === 0 ? ask(input, ids) : finished(input));
  });
}

describe('an action the app takes from onDecision', () => {
  it('run(): refused while the resume is in flight, and the resume is sent', async () => {
    let controller!: RunController;
    const runs: Promise<unknown>[] = [];
    const { source, inputs } = asking();
    controller = createRunController({ source, scheduler: microScheduler, onDecision: () => runs.push(controller.run('Also this')) });
    await controller.run('Refund order A-1001');
    const result = await controller.resume([approve('i1')]);
    await settle();
    expect(result).toMatchObject({ ok: true, status: 'success' });
    expect(await runs[0]).toMatchObject({ ok: false, code: 'RUN_IN_PROGRESS' });
    expect(inputs).toHaveLength(2);
    expect(inputs[1]?.resume).toEqual([approve('i1')]);
    expect(resumes(controller)).toHaveLength(1);
    expect(controller.getSnapshot().thread.interrupts).toEqual([]);
    expectReplayed(controller);
    controller.destroy();
  });

  it('updateSharedState(): the resume is sent, with the edit', async () => {
    let controller!: RunController<{ approvals: number }>;
    const { source, inputs } = asking();
    controller = createRunController<{ approvals: number }>({
      source,
      initialState: { approvals: 0 },
      scheduler: microScheduler,
      onDecision: () =>
        void controller.updateSharedState((draft) => {
          draft.approvals++;
        }),
    });
    await controller.run('Refund order A-1001');
    const result = await controller.resume([approve('i1')]);
    await settle();
    expect(result).toMatchObject({ ok: true, status: 'success' });
    expect(inputs).toHaveLength(2);
    expect(resumes(controller)).toHaveLength(1);
    expect(controller.getSnapshot().thread.sharedState.document).toEqual({ approvals: 1 });
    // Logged before the resume, the edit goes with it, as one made before resume() would.
    expect(controller.log.entries.map((e) => e.type).filter((t) => t === 'state_edit' || t === 'resume')).toEqual(['state_edit', 'resume']);
    expect(inputs[1]?.state).toEqual({ approvals: 1 });
    expectReplayed(controller);
    controller.destroy();
  });

  it('stop(): nothing is sent, the interrupts stay open, and the next answer is sent', async () => {
    let controller!: RunController;
    let stopOnce = true;
    const told: string[] = [];
    const { source, inputs } = asking(['i1', 'i2']);
    controller = createRunController({
      source,
      scheduler: microScheduler,
      onDecision: (decision) => {
        told.push(decision.interruptId);
        if (stopOnce) {
          stopOnce = false;
          controller.stop();
        }
      },
    });
    await controller.run('Refund orders A-1001 and A-1002');
    const first = await controller.resume([approve('i1'), approve('i2')]);
    await settle();
    expect(first.ok).toBe(true);
    expect(inputs).toHaveLength(1);
    expect(resumes(controller)).toHaveLength(0);
    expect(controller.getSnapshot().inFlight).toBeUndefined();
    expect(controller.getSnapshot().decisions).toEqual([]);
    expect(controller.getSnapshot().thread.interrupts.map((it) => it.id)).toEqual(['i1', 'i2']);
    // The app is told no decision of a resume it stopped after the one it stopped on.
    expect(told).toEqual(['i1']);

    const second = await controller.resume([approve('i1'), approve('i2')]);
    await settle();
    expect(second).toMatchObject({ ok: true, status: 'success' });
    expect(inputs).toHaveLength(2);
    expect(inputs[1]?.resume).toEqual([approve('i1'), approve('i2')]);
    expect(controller.getSnapshot().thread.interrupts).toEqual([]);
    expect(controller.getSnapshot().decisions.map((d) => d.interruptId)).toEqual(['i1', 'i2']);
    expectReplayed(controller);
    controller.destroy();
  });

  it('destroy(): answers DESTROYED, nothing logged or sent', async () => {
    let controller!: RunController;
    const { source, inputs } = asking();
    controller = createRunController({ source, scheduler: microScheduler, onDecision: () => controller.destroy() });
    await controller.run('Refund order A-1001');
    const result = await controller.resume([approve('i1')]);
    await settle();
    expect(result).toMatchObject({ ok: false, code: 'DESTROYED' });
    expect(inputs).toHaveLength(1);
    expect(resumes(controller)).toHaveLength(0);
  });
});
