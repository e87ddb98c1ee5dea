/**
 * The live controller logs no client entry that names what its thread does
 * not hold (`LOG_ENTRY_NOT_APPLIED` is a hand-edited file's alone): not when
 * the app's own callbacks stop or reset the thread between the moment an
 * entry is decided and the moment it is logged (a decision's `onDecision`, an
 * event's `onEvent` applied first), nor in any random session.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRunController, type FrameScheduler, type RunAgentInput, type RunController, type ThreadState } from '../src/index.js';
import { expectReplayed, finished, held, microScheduler, open, scripted, started, tick, toolCall } from './support/controllerHarness.js';
import { command, play } from './support/sessions.js';

const unapplied = (t: ThreadState) => t.diagnostics.filter((d) => d.code === 'LOG_ENTRY_NOT_APPLIED');
const logged = (c: RunController) => c.log.entries.map((e) => e.type);
const ask = (input: RunAgentInput) =>
  finished(input, { outcome: { type: 'interrupt', interrupts: [{ id: 'i1', reason: 'confirmation', message: 'Refund?' }] } });
const approve = { interruptId: 'i1', status: 'resolved' as const, payload: { approved: true } };

describe('an answer the app stops or resets from onDecision', () => {
  for (const action of ['stop', 'reset'] as const)
    it(`${action}: the answer is neither logged nor sent, as a ${action} while a resume prepares`, async () => {
      let controller!: RunController;
      const { source, inputs } = scripted((n, input, emit) => {
        emit(started(input));
        emit(n === 0 ? ask(input) : finished(input));
      });
      controller = createRunController({ source, scheduler: microScheduler, onDecision: () => controller[action]() });
      await controller.run('Refund order A-1001');
      const result = await controller.resume([approve]);
      await tick();
      expect(result.ok).toBe(true);
      expect(inputs).toHaveLength(1);
      expect(logged(controller)).not.toContain('resume');
      expect(unapplied(controller.getSnapshot().thread)).toEqual([]);
      expect(controller.getSnapshot().inFlight).toBeUndefined();
      if (action === 'stop') expect(controller.getSnapshot().thread.interrupts.map((it) => it.id)).toEqual(['i1']);
      expectReplayed(controller);
      controller.destroy();
    });
});

/** A scheduler that flushes only when the test says: events wait as they would for the next frame. */
function frames() {
  let due: (() => void) | undefined;
  const scheduler: FrameScheduler = (flush) => {
    due = flush;
    return () => {
      if (due === flush) due = undefined;
    };
  };
  return {
    scheduler,
    next: () => {
      const flush = due;
      due = undefined;
      flush?.();
    },
  };
}

describe('a frontend tool whose entry waits behind an event whose onEvent resets or stops the thread', () => {
  for (const action of ['reset', 'stop', 'destroy'] as const)
    it(`${action}: its result is not logged, nor a tool message added to what is left`, async () => {
      const release = held();
      const more = held<void>();
      const { scheduler, next } = frames();
      let controller!: RunController;
      const { source } = scripted(async (n, input, emit, signal) => {
        emit(started(input));
        if (n === 0) {
          for (const e of toolCall('c1', 'pick')) emit(e);
          emit(finished(input));
          // The stream stays open after its run's end, and sends one more event.
          await more.promise;
          emit({ type: 'CUSTOM', name: 'later', value: 1 });
          await open(signal);
        }
      });
      controller = createRunController({
        source,
        scheduler,
        onEvent: (event) => {
          if (event.type === 'CUSTOM') controller[action]();
        },
        tools: { pick: { description: 'picks', handler: () => release.promise } },
      });
      const running = controller.run('Pick one');
      for (let i = 0; i < 20 && controller.getSnapshot().thread.toolCalls.get('c1')?.status !== 'executing'; i++) {
        next();
        await tick();
      }
      expect(controller.getSnapshot().thread.toolCalls.get('c1')?.status).toBe('executing');
      // The event arrives and waits for its frame; the tool's result lands first, and applies it before itself.
      more.settle();
      await tick();
      release.settle('A-1001');
      await tick();
      await tick();
      await running.catch(() => undefined);
      const thread = controller.getSnapshot().thread;
      expect(unapplied(thread)).toEqual([]);
      expect(logged(controller)).not.toContain('tool_result');
      expect(thread.messages.ids.filter((id) => thread.messages.byId.get(id)?.role === 'tool')).toEqual([]);
      expectReplayed(controller);
      controller.destroy();
    });
});

describe('random sessions', () => {
  it('log no entry the thread does not take', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { maxLength: 12 }), async (commands) => {
        const controller = await play(commands);
        expect(unapplied(controller.getSnapshot().thread)).toEqual([]);
        controller.destroy();
      }),
      { numRuns: 300 },
    );
  }, 60_000);
});
