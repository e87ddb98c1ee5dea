/**
 * The store's state is the controller's snapshot, every field of it, with the
 * controller's actions: as the store is made, and after each update a run makes.
 */
import { describe, expect, it } from 'vitest';
import { createAgentStore } from '../src/index.js';
import { actionsOf } from '../src/store.js';
import { manualFrames, manualSource, tick } from './support/sources.js';

const ACTIONS = ['run', 'stop', 'resume', 'cancelInterrupts', 'updateSharedState', 'setState', 'reconnect', 'retry', 'reset'];

function expectStateOfSnapshot(store: ReturnType<typeof createAgentStore>) {
  const state = store.getState() as unknown as Record<string, unknown>;
  const snapshot = store.controller.getSnapshot() as unknown as Record<string, unknown>;
  expect(Object.keys(state)).toEqual([...Object.keys(snapshot), ...ACTIONS]);
  for (const key of Object.keys(snapshot)) expect(state[key], key).toBe(snapshot[key]);
  const actions = actionsOf(store.controller) as unknown as Record<string, unknown>;
  for (const key of ACTIONS) expect(state[key], key).toBe(actions[key]);
}

describe('the store state', () => {
  it('holds every field of the snapshot and every action, before and after each update of a run', async () => {
    const m = manualSource();
    const frames = manualFrames();
    const store = createAgentStore({ source: m.source, threadId: 't1', scheduler: frames.scheduler });
    expectStateOfSnapshot(store);
    const seen: unknown[] = [];
    store.subscribe((state) => {
      seen.push(state);
      expectStateOfSnapshot(store);
    });
    const done = store.getState().run('hello');
    await tick();
    const input = m.requests.at(-1);
    if (!input) throw new Error('no request');
    m.push({ type: 'RUN_STARTED', threadId: 't1', runId: input.runId });
    await tick();
    frames.frame();
    m.push(
      { type: 'TEXT_MESSAGE_START', messageId: 'a1', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a1', delta: 'hi' },
    );
    await tick();
    frames.frame();
    m.push({ type: 'TEXT_MESSAGE_END', messageId: 'a1' }, { type: 'RUN_FINISHED', threadId: 't1', runId: input.runId });
    m.end();
    await done;
    expect(seen.length).toBeGreaterThan(2);
    expectStateOfSnapshot(store);
    expect(store.getState().thread.messages.byId.get('a1')?.content).toBe('hi');
  });
});
