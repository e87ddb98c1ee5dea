/**
 * The session log replays exactly: for any interleaving of agent events
 * (valid or not, cut off or not) and client actions (messages, stops,
 * shared-state edits and replacements, frontend tool results, answers to
 * interrupts and resumes the agent refused, retries, resets), `replaySession(controller.log.entries)` is the thread
 * the controller shows, and `stateAt(i)` is the thread after entry i.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { replaySession } from '../src/engine.js';
import { createRunController, parseSession, serializeSession } from '../src/index.js';
import { command, play, view } from './support/sessions.js';

describe('the session log replays exactly', () => {
  it('replaySession(log) is the live thread, for 1,000 random sessions', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { maxLength: 12 }), async (commands) => {
        const controller = await play(commands);
        const live = controller.getSnapshot().thread;
        expect(view(replaySession(controller.log.entries))).toEqual(view(live));
        // Through the file a user downloads and loads, too.
        const loaded = parseSession(serializeSession(controller.log.entries));
        expect(loaded.errors).toEqual([]);
        expect(view(replaySession(loaded.entries))).toEqual(view(live));
        controller.destroy();
      }),
      { numRuns: 1000 },
    );
  }, 120_000);

  it('stateAt(i) is the thread after entry i: the last entry gives the live thread, and each prefix replays the same', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 8 }), async (commands) => {
        const controller = await play(commands);
        const entries = controller.log.entries;
        expect(view(controller.stateAt(entries.length - 1))).toEqual(view(controller.getSnapshot().thread));
        const i = Math.floor(entries.length / 2);
        expect(view(controller.stateAt(i))).toEqual(view(replaySession(entries.slice(0, i + 1))));
        controller.destroy();
      }),
      { numRuns: 200 },
    );
  }, 60_000);

  it('a controller made from the log names the same thread: its id and its count of resets, which each reset bumps', async () => {
    const silent = { async *run() {} };
    await fc.assert(
      fc.asyncProperty(fc.array(command, { maxLength: 8 }), async (commands) => {
        const controller = await play(commands);
        const live = controller.getSnapshot();
        expect(live.resets).toBe(commands.filter((c) => c.kind === 'reset').length);
        const again = createRunController({ source: silent, log: controller.log.entries, asRecorded: true });
        expect(again.getSnapshot().resets).toBe(live.resets);
        expect(again.getSnapshot().thread.threadId).toBe(live.thread.threadId);
        again.destroy();
        controller.destroy();
      }),
      { numRuns: 200 },
    );
  }, 60_000);

  it('stateAt takes any number: before the first entry below 0, the live thread past the last, a fraction down; NaN or no number is a RangeError', async () => {
    const controller = await play([]);
    const last = controller.log.entries.length - 1;
    expect(controller.stateAt(-1).threadId).toBeUndefined();
    expect(view(controller.stateAt(last + 10))).toEqual(view(controller.getSnapshot().thread));
    expect(view(controller.stateAt(last - 0.5))).toEqual(view(controller.stateAt(last - 1)));
    expect(() => controller.stateAt(Number.NaN)).toThrow(RangeError);
    // What a plain-JavaScript caller may pass that is no number names no entry either, rather than an early thread.
    for (const odd of [undefined, '2', null, 1n]) expect(() => controller.stateAt(odd as unknown as number)).toThrow(RangeError);
    controller.destroy();
  });
});
