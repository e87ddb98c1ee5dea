/**
 * The event timeline's list over a long log: an event that arrives costs the
 * list work in the order of the rows it shows, not of the rows it holds
 * (rows are fixed-height: no row's place is worked out again for one more).
 */
import { AgentProvider } from '@aguikit/react';
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { EventTimelinePanel } from '../src/EventTimeline.js';
import { drivenStore } from './support/drivenStore.js';

const delta = { type: 'TEXT_MESSAGE_CONTENT', messageId: 'x', delta: 'a' };

/** Reads and writes of keyed caches (Map and Set) while `run` runs: a place or a size looked up per row shows here. */
async function keyedReads(run: () => Promise<void>): Promise<number> {
  const names = ['get', 'has', 'set'] as const;
  const protos = [Map.prototype, Set.prototype] as unknown as Record<string, (...args: unknown[]) => unknown>[];
  const originals = protos.map((proto) => names.map((name) => proto[name]));
  let reads = 0;
  protos.forEach((proto, p) => {
    names.forEach((name, n) => {
      const original = originals[p]?.[n];
      if (!original) return;
      proto[name] = function (this: unknown, ...args: unknown[]) {
        reads++;
        return original.apply(this, args);
      };
    });
  });
  try {
    await run();
  } finally {
    protos.forEach((proto, p) => {
      names.forEach((name, n) => {
        const original = originals[p]?.[n];
        if (original) proto[name] = original;
      });
    });
  }
  return reads;
}

/** The keyed reads one arriving event costs, the timeline showing a log of `size` events (the least of a few). */
async function perEvent(size: number): Promise<number> {
  const { store, push, start } = drivenStore();
  const view = render(
    <AgentProvider store={store}>
      <EventTimelinePanel />
    </AgentProvider>,
  );
  await start();
  await push({ type: 'TEXT_MESSAGE_START', messageId: 'x', role: 'assistant' });
  for (let sent = 2; sent < size; sent += 10_000) await push(...Array.from({ length: Math.min(10_000, size - sent) }, () => delta));
  expect(store.log.entries).toHaveLength(size);
  const costs: number[] = [];
  for (let i = 0; i < 5; i++) costs.push(await keyedReads(() => push(delta)));
  view.unmount();
  store.destroy();
  return Math.min(...costs);
}

describe('EventTimelinePanel: an arriving event in a long log', () => {
  it('costs about as much at 100,000 events as at 1,000', async () => {
    const small = await perEvent(1_000);
    const large = await perEvent(100_000);
    // Each row's place worked out again at each event: one read per row, 100,000 here against some 1,000 there.
    expect(large, `keyed reads per event: ${small} at 1,000 events, ${large} at 100,000`).toBeLessThan(small * 2);
  }, 120_000);
});
