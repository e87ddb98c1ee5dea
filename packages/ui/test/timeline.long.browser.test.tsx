/// <reference types="vite/client" />
import { AgentProvider, type AgentStore } from '@aguikit/react';
import { afterEach, describe, expect, it } from 'vitest';
import { userEvent } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { EventTimelinePanel } from '../src/EventTimeline.js';
import { eventType } from '../src/eventSummary.js';
import { playedStore, runOf } from '../src/storybook/scripted.js';
import '../src/styles.css';

/**
 * The event timeline over a long log in Chromium: the keys move the
 * selection at 20,000 events, and a type-ahead key over 100,000 costs what
 * reading each row's words costs, no more.
 */

afterEach(() => {
  for (const el of document.body.querySelectorAll(':scope > div')) el.remove();
});

/** A run whose one reply streams in `deltas` pieces: a log of `deltas + 4` events. */
const longReply = (deltas: number) =>
  playedStore([
    {
      say: 'go',
      events: runOf([
        { type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant' },
        ...Array.from({ length: deltas }, (_, i) => ({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: `${i} ` })),
        { type: 'TEXT_MESSAGE_END', messageId: 'm' },
      ]),
    },
  ]);

async function mount(store: AgentStore) {
  const host = document.createElement('div');
  host.style.height = '800px';
  document.body.append(host);
  await render(
    <AgentProvider store={store}>
      <EventTimelinePanel />
    </AgentProvider>,
    { container: host },
  );
  return { host, list: host.querySelector<HTMLElement>('[role="listbox"]') as HTMLElement };
}

const selectedIndex = (host: HTMLElement) => host.querySelector('[role="option"][aria-selected="true"] .agk-timeline__index')?.textContent;
const pause = () => new Promise((resolve) => setTimeout(resolve, 600));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] as number;

describe('EventTimelinePanel over a long log in Chromium', () => {
  it('at 20,000 events End, the arrows, Home and a typed index move the selection', async () => {
    const store = await longReply(20_000);
    const { host, list } = await mount(store);
    list.focus();
    await userEvent.keyboard('{End}');
    await expect.poll(() => selectedIndex(host)).toBe('#20003');
    await userEvent.keyboard('{ArrowUp}{ArrowUp}');
    await expect.poll(() => selectedIndex(host)).toBe('#20001');
    await userEvent.keyboard('{PageUp}');
    await expect.poll(() => selectedIndex(host)).toBe('#19991');
    await userEvent.keyboard('{Home}');
    await expect.poll(() => selectedIndex(host)).toBe('#0');
    await pause();
    await userEvent.keyboard('19993');
    await expect.poll(() => selectedIndex(host)).toBe('#19993');
    await pause();
    await userEvent.keyboard('tex');
    await expect.poll(() => selectedIndex(host)).toBe('#19994');
    store.destroy();
  }, 120_000);

  it('a type-ahead key no row answers, over 100,000 events, costs about one read of the rows’ words', async () => {
    const store = await longReply(100_000);
    const { list } = await mount(store);
    list.focus();
    // What the search cannot do without: each row's words (its index and its type), lowercased and compared.
    const entries = store.log.entries;
    const readWords = () => {
      const t = performance.now();
      let hits = 0;
      for (const e of entries) if ([String(e.index), eventType(e.event)].some((w) => w.toLocaleLowerCase().startsWith('z'))) hits++;
      expect(hits).toBe(0);
      return performance.now() - t;
    };
    const key = () => {
      const t = performance.now();
      list.dispatchEvent(new KeyboardEvent('keydown', { key: 'z', bubbles: true, cancelable: true }));
      return performance.now() - t;
    };
    const keys: number[] = [];
    const reads: number[] = [];
    for (let i = 0; i < 7; i++) {
      await pause();
      reads.push(readWords());
      keys.push(key());
    }
    // The list the listbox searches adds little to the words themselves (a view that traps each read made it 3 to 5
    // times their cost, with pauses of 350 ms or more).
    const figures = `keys ${keys.map((k) => k.toFixed(1)).join(' ')} ms, reads ${reads.map((r) => r.toFixed(1)).join(' ')} ms`;
    expect(median(keys), figures).toBeLessThan(2 * median(reads) + 5);
    store.destroy();
  }, 120_000);
});
