// Vite's client types: they declare the stylesheet import below.
/// <reference types="vite/client" />
import { AgentProvider } from '@aguikit/react';
import { afterEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { EventTimelinePanel } from '../src/EventTimeline.js';
import { playedStore, runOf } from '../src/storybook/scripted.js';
import '../src/styles.css';

/**
 * The event timeline of a long run on a phone whose browser is set to a
 * large default font: its rows, taller than at 16 px, are laid out at their
 * own height (each below the one before, none over another), and End
 * scrolls the last one into view.
 */

afterEach(async () => {
  for (const el of document.body.querySelectorAll(':scope > div')) el.remove();
  document.documentElement.style.fontSize = '';
  await page.viewport(414, 896);
});

const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

describe('the event timeline on a phone with a large default font', () => {
  it('390x844, a 24px font, 1,000 events: rows lie one below the other, and End shows the last', async () => {
    await page.viewport(390, 844);
    document.documentElement.style.fontSize = '24px';
    const host = document.createElement('div');
    host.style.cssText = 'height: 100vh; font-size: 1rem';
    document.body.append(host);
    const store = await playedStore([
      {
        say: '查询订单的退款状态',
        events: runOf([
          { type: 'TEXT_MESSAGE_START', messageId: 'e489b812-3a0a-4a32-a9b7-38128b5b825e', role: 'assistant' },
          ...Array.from({ length: 1000 }, () => ({
            type: 'TEXT_MESSAGE_CONTENT',
            messageId: 'e489b812-3a0a-4a32-a9b7-38128b5b825e',
            delta: '您的订单已经发货，退款将在三到五个工作日内退回原支付账户',
          })),
        ]),
      },
    ]);
    await render(
      <AgentProvider store={store}>
        <EventTimelinePanel />
      </AgentProvider>,
      { container: host },
    );
    const list = host.querySelector<HTMLElement>('[role="listbox"]') as HTMLElement;
    expect(list).toHaveAttribute('data-virtual', 'true');
    await frame();
    await frame();
    const boxes = () => [...list.querySelectorAll('[role="option"]')].map((row) => row.getBoundingClientRect());
    const overlaps = (rects: DOMRect[]) => rects.slice(1).filter((rect, i) => rect.top < (rects[i] as DOMRect).bottom - 0.5).length;
    expect(overlaps(boxes()), 'rows drawn over the row before').toBe(0);

    list.focus();
    await userEvent.keyboard('{End}');
    const last = () => list.querySelector('[role="option"][aria-selected="true"]');
    await expect.poll(() => last()?.querySelector('.agk-timeline__index')?.textContent).toBe('#1002');
    await frame();
    const row = (last() as HTMLElement).getBoundingClientRect();
    const view = list.getBoundingClientRect();
    expect(row.top, 'the last row’s top, against the list’s').toBeGreaterThanOrEqual(view.top);
    expect(row.bottom, 'the last row’s bottom, against the list’s').toBeLessThanOrEqual(view.bottom + 0.5);
    expect(overlaps(boxes()), 'rows drawn over the row before, at the end').toBe(0);
    store.destroy();
  });
});
