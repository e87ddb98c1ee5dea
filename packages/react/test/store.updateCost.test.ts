/**
 * What the store adds to each update of the controller: a state object made
 * from the snapshot and the actions, set in zustand. One update per event (a
 * scheduler that flushes at once) must cost about what the controller's own
 * update costs, not several times it.
 */
import { createRunController } from '@aguikit/core';
import { expect, it } from 'vitest';
import { createAgentStore } from '../src/index.js';
import { manualSource, tick } from './support/sources.js';

const DELTAS = 2_000;
const atOnce = (flush: () => void) => {
  flush();
  return () => undefined;
};

/** ms to stream DELTAS text deltas through `make`'s controller or store, one update per event. */
async function streamTime(make: (source: ReturnType<typeof manualSource>['source']) => { run(text: string): Promise<unknown> }) {
  const m = manualSource({ push: true });
  const target = make(m.source);
  const done = target.run('hello');
  await tick();
  const input = m.requests.at(-1);
  if (!input) throw new Error('no request');
  const events: unknown[] = [
    { type: 'RUN_STARTED', threadId: 't1', runId: input.runId },
    { type: 'TEXT_MESSAGE_START', messageId: 'a1', role: 'assistant' },
  ];
  for (let i = 0; i < DELTAS; i++) events.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'a1', delta: ' word' });
  events.push({ type: 'TEXT_MESSAGE_END', messageId: 'a1' }, { type: 'RUN_FINISHED', threadId: 't1', runId: input.runId });
  const start = performance.now();
  m.push(...events);
  m.end();
  await done;
  return performance.now() - start;
}

it('an update per event costs the store about what it costs the controller', async () => {
  const bare = () =>
    streamTime((source) => {
      const controller = createRunController({ source, threadId: 't1', scheduler: atOnce });
      controller.subscribe(() => controller.getSnapshot());
      return controller;
    });
  const store = () =>
    streamTime((source) => {
      const s = createAgentStore({ source, threadId: 't1', scheduler: atOnce });
      s.subscribe((state) => state.thread);
      return s.getState();
    });
  // Warmed up, then the best of several rounds of each, interleaved.
  const bareTimes: number[] = [];
  const storeTimes: number[] = [];
  for (let round = 0; round < 8; round++) {
    bareTimes.push(await bare());
    storeTimes.push(await store());
  }
  const ratio = Math.min(...storeTimes.slice(2)) / Math.min(...bareTimes.slice(2));
  // About 1 here; a state made by spreading the snapshot took 5 to 6 times the controller's own update.
  expect(ratio).toBeLessThan(3);
});
