/**
 * The frame scheduler flushes once per animation frame, in a task of its own
 * right after the frame's callbacks: never inside them, where the commit it
 * causes would share one long task with the frame's layout and paint.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { frameScheduler } from '../src/index.js';

let frameCallbacks: FrameRequestCallback[] = [];
const globals = globalThis as unknown as Record<string, unknown>;
const saved = {
  requestAnimationFrame: globals.requestAnimationFrame,
  cancelAnimationFrame: globals.cancelAnimationFrame,
  document: globals.document,
};

beforeEach(() => {
  frameCallbacks = [];
  globals.requestAnimationFrame = (cb: FrameRequestCallback) => frameCallbacks.push(cb);
  globals.cancelAnimationFrame = (id: number) => {
    frameCallbacks[id - 1] = () => undefined;
  };
  globals.document = { visibilityState: 'visible' };
});
afterEach(() => Object.assign(globals, saved));

/** The browser runs a frame: every callback asked for, in one task. */
function frame(): void {
  const callbacks = frameCallbacks;
  frameCallbacks = [];
  for (const cb of callbacks) cb(16);
}
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('frameScheduler', () => {
  it('flushes after the frame, in a task of its own, once', async () => {
    let flushes = 0;
    frameScheduler(() => flushes++);
    expect(flushes).toBe(0);
    frame();
    // Not inside the frame's callbacks.
    expect(flushes).toBe(0);
    await nextTask();
    expect(flushes).toBe(1);
    frame();
    await nextTask();
    expect(flushes).toBe(1);
  });

  it('a flush cancelled before its frame, or after the frame and before its task, never runs', async () => {
    let flushes = 0;
    frameScheduler(() => flushes++)();
    frame();
    await nextTask();
    const cancel = frameScheduler(() => flushes++);
    frame();
    cancel();
    await nextTask();
    expect(flushes).toBe(0);
  });

  it('in a hidden tab (no frames), flushes in a macrotask', async () => {
    globals.document = { visibilityState: 'hidden' };
    let flushes = 0;
    frameScheduler(() => flushes++);
    expect(flushes).toBe(0);
    await nextTask();
    expect(flushes).toBe(1);
  });
});
