// Vite's client types: they declare the stylesheet import below.
/// <reference types="vite/client" />
import { AgentProvider } from '@aguikit/react';
import { afterEach, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { EventTimelinePanel } from '../src/EventTimeline.js';
import { StateInspectorPanel } from '../src/StateInspector.js';
import { playedStore, runOf } from '../src/storybook/scripted.js';
import '../src/styles.css';

/**
 * A STATE_DELTA of four operations on long paths (UUIDs, Chinese keys), in
 * the state history and the event timeline on a phone: the row cuts the
 * paths with an ellipsis, and still shows how many operations there are
 * ("+1 more · 4 ops") whole.
 */

const ORDER = '7f3c2a91-4b6e-4d0f-9a85-2e1b7c6d9f40';

afterEach(async () => {
  for (const el of document.body.querySelectorAll(':scope > div')) el.remove();
  await page.viewport(414, 896);
});

/**
 * Whether `part` is painted whole inside `box`: not past the edge of `box` or
 * of any box between them (where the smallest overflow, a fraction of a
 * pixel, would put an ellipsis in its place).
 */
function whole(part: Element, box: Element): boolean {
  const p = part.getBoundingClientRect();
  if (p.width === 0) return false;
  for (let at = part.parentElement; at; at = at.parentElement) {
    const b = at.getBoundingClientRect();
    if (p.left < b.left || p.right > b.right) return false;
    if (at === box) return true;
  }
  return false;
}

for (const [what, summaryClass, ui] of [
  ['the state history', '.agk-inspector__what', <StateInspectorPanel key="inspector" />],
  ['the event timeline', '.agk-timeline__summary', <EventTimelinePanel key="timeline" />],
] as const) {
  it(`${what} shows a delta's count of operations whole on a phone (390x844)`, async () => {
    await page.viewport(390, 844);
    const store = await playedStore([
      {
        say: '请为订单退款',
        events: runOf([
          { type: 'STATE_SNAPSHOT', snapshot: { orders: { [ORDER]: { 状态: '待处理', items: [{ qty: 1 }] } } } },
          {
            type: 'STATE_DELTA',
            delta: [
              { op: 'replace', path: `/orders/${ORDER}/状态`, value: '已退款' },
              { op: 'add', path: `/orders/${ORDER}/refundId`, value: 'c0a8e4b2-1d3f-4a5b-8c7d-9e0f1a2b3c4d' },
              { op: 'replace', path: `/orders/${ORDER}/items/0/qty`, value: 0 },
              { op: 'add', path: `/orders/${ORDER}/退款原因`, value: '商品损坏' },
            ],
          },
        ]),
      },
    ]);
    const screen = await render(<AgentProvider store={store}>{ui}</AgentProvider>);
    await expect.element(screen.getByText('+1 more').first()).toBeInTheDocument();
    const summary = [...document.querySelectorAll<HTMLElement>(summaryClass)].find((s) => s.textContent?.includes('+1 more'));
    if (!summary) throw new Error('no row for the delta');
    expect(summary.textContent).toContain(`replace /orders/${ORDER}/状态`);
    // The paths are cut, not the counts after them.
    const cut = [summary, ...summary.querySelectorAll<HTMLElement>('*')].filter((el) => el.scrollWidth > el.clientWidth + 1);
    expect(cut.length, 'the paths are cut with an ellipsis').toBeGreaterThan(0);
    const counts = [...summary.querySelectorAll('.agk-devtools__count')];
    expect(counts.map((c) => c.textContent)).toEqual(['+1 more', '4 ops']);
    for (const count of counts) expect(whole(count, summary), count.textContent ?? '').toBe(true);
    // The first operation's name still leads the row.
    expect(whole(summary.querySelector('.agk-devtools__op') as Element, summary)).toBe(true);
  });
}
