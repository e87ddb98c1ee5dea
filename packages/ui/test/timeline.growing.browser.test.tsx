// Vite's client types: they declare the stylesheet import below.
/// <reference types="vite/client" />
import { AgentProvider } from '@aguikit/react';
import { afterEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { EventTimelinePanel } from '../src/EventTimeline.js';
import '../src/styles.css';
import { playedStore, runOf } from '../src/storybook/scripted.js';
import { drivenStore } from './support/drivenStore.js';

/**
 * The event timeline while a run streams into it, read further down: the
 * rows the reader has in view stay in view as the log grows, also when it
 * grows past the length from which only the rows in view are rendered; and
 * each row's type starts where the others' do, also where the indexes gain
 * a digit (#999, #1000).
 */

afterEach(async () => {
  for (const el of document.body.querySelectorAll(':scope > div')) el.remove();
  await page.viewport(414, 896);
});

const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
const MESSAGE = '9b2f6c1e-4d8a-4f3b-a7e5-0c1d2e3f4a5b';
const deltas = (n: number) =>
  Array.from({ length: n }, () => ({
    type: 'TEXT_MESSAGE_CONTENT',
    messageId: MESSAGE,
    delta: '您的订单已经发货，退款将在三到五个工作日内退回',
  }));

describe('the event timeline of a growing log, read further down', () => {
  it('1366x768: a reader at event #200 stays there as the log passes 300 events', async () => {
    await page.viewport(1366, 768);
    const host = document.createElement('div');
    host.style.height = '100vh';
    document.body.append(host);
    const { store, push, start } = drivenStore([], {
      threadId: '5b0c7a52-2a8e-4b0a-9d55-0d6a6f8f2c11',
      runId: 'c0a3e4d1-7f1b-4d6e-8c2a-9e8b7a6f5d43',
    });
    await render(
      <AgentProvider store={store}>
        <EventTimelinePanel />
      </AgentProvider>,
      { container: host },
    );
    await start();
    await push({ type: 'TEXT_MESSAGE_START', messageId: MESSAGE, role: 'assistant' });
    // The run may take a while to start reading in a busy Chromium: until it has, a frame flushes nothing.
    for (let i = 0; i < 200 && store.getState().thread.eventCount < 2; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      await push();
    }
    await push(...deltas(280));
    const list = host.querySelector<HTMLElement>('[role="listbox"]') as HTMLElement;
    expect(list).toHaveAttribute('data-virtual', 'false');
    const row = list.querySelector('[role="option"]') as HTMLElement;
    list.scrollTop = 200 * row.getBoundingClientRect().height;
    await frame();
    /** The index of the first row whose top is in view. */
    const firstInView = () => {
      const top = list.getBoundingClientRect().top;
      const rows = [...list.querySelectorAll('[role="option"]')].filter((o) => o.getBoundingClientRect().top >= top - 0.5);
      rows.sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top);
      return rows[0]?.querySelector('.agk-timeline__index')?.textContent;
    };
    expect(firstInView()).toBe('#200');

    await push(...deltas(40));
    expect(list).toHaveAttribute('data-virtual', 'true');
    expect(firstInView(), 'as the rows turn virtual').toBe('#200');
    await push(...deltas(500));
    await frame();
    expect(firstInView(), 'and as more come').toBe('#200');
    store.destroy();
  });

  it('1366x768: at the end of 1,006 events, the types of #995 to #1005 start at one line', async () => {
    await page.viewport(1366, 768);
    const host = document.createElement('div');
    host.style.height = '100vh';
    document.body.append(host);
    const store = await playedStore([
      {
        say: '查询订单的退款状态',
        events: runOf([{ type: 'TEXT_MESSAGE_START', messageId: MESSAGE, role: 'assistant' }, ...deltas(1003)]),
      },
    ]);
    await render(
      <AgentProvider store={store}>
        <EventTimelinePanel />
      </AgentProvider>,
      { container: host },
    );
    const list = host.querySelector<HTMLElement>('[role="listbox"]') as HTMLElement;
    list.focus();
    await userEvent.keyboard('{End}');
    await expect.poll(() => list.querySelector('[aria-selected="true"] .agk-timeline__index')?.textContent).toBe('#1005');
    await frame();
    const box = list.getBoundingClientRect();
    const starts = new Map<string, number>();
    for (const option of list.querySelectorAll('[role="option"]')) {
      const rect = option.getBoundingClientRect();
      if (rect.bottom <= box.top || rect.top >= box.bottom) continue;
      const index = option.querySelector('.agk-timeline__index')?.textContent ?? '';
      starts.set(index, Math.round((option.querySelector('.agk-timeline__type') as HTMLElement).getBoundingClientRect().left));
    }
    expect([...starts.keys()]).toContain('#999');
    expect([...starts.keys()]).toContain('#1000');
    expect(new Set(starts.values()).size, `where each row's type starts: ${JSON.stringify(Object.fromEntries(starts))}`).toBe(1);
    store.destroy();
  });
});
