// Vite's client types: they declare the stylesheet import below.
/// <reference types="vite/client" />
// The Playwright provider types cdp() sessions (its `send`).
/// <reference types="@vitest/browser-playwright" />
import { AgentProvider, type AgentStore } from '@aguikit/react';
import { afterEach, describe, expect, it } from 'vitest';
import { cdp, userEvent } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { EventTimelinePanel } from '../src/EventTimeline.js';
import { StateInspectorPanel } from '../src/StateInspector.js';
import { call, playedStore, type ScriptEvent } from '../src/storybook/scripted.js';
import '../src/styles.css';

/**
 * The devtools in real Chromium: at the width the playground gives them on
 * a 1440 px screen the rows show what changed and the detail's heading and
 * badge are not clipped; at 320 px nothing scrolls sideways; in forced
 * colors the selected history row stays visible.
 */

const RUN = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const MESSAGE = 'f47ac10b-58cc-4372-a567-0e02b2c3d479';
const TOOL_CALL = '3d6f4e2a-9b1c-4f7e-8a2d-5c6b7e8f9a0b';
const DELTA = 'Looking up order A-1001 and its delivery record now.';

const events: ScriptEvent[] = [
  { type: 'RUN_STARTED', threadId: 'story-thread', runId: RUN },
  { type: 'TEXT_MESSAGE_START', messageId: MESSAGE, role: 'assistant' },
  { type: 'TEXT_MESSAGE_CONTENT', messageId: MESSAGE, delta: DELTA },
  { type: 'TEXT_MESSAGE_END', messageId: MESSAGE },
  ...call(TOOL_CALL, 'lookup_order_with_a_rather_long_tool_name', { orderId: 'A-1001' }, { parent: MESSAGE, parts: 1 }),
  { type: 'STATE_SNAPSHOT', snapshot: { order: { id: 'A-1001', customer: '6ba7b810-9dad-41d1-80b4-00c04fd430c8' } } },
  { type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/order/id', value: 'A-1002' }] },
  { type: 'RUN_FINISHED', threadId: 'story-thread', runId: RUN },
];

afterEach(() => {
  for (const el of document.body.querySelectorAll(':scope > div')) el.remove();
});

/** A host of a given width, as a page column would be. */
function column(width: number) {
  const host = document.createElement('div');
  host.style.width = `${width}px`;
  host.style.overflow = 'auto';
  document.body.append(host);
  return host;
}

async function mount(store: AgentStore, host: HTMLElement) {
  return render(
    <AgentProvider store={store}>
      <EventTimelinePanel />
      <StateInspectorPanel />
    </AgentProvider>,
    { container: host },
  );
}

const rowAt = (host: HTMLElement, index: number) =>
  [...host.querySelectorAll<HTMLElement>('[role="option"]')].find(
    (o) => o.querySelector('.agk-timeline__index')?.textContent === `#${index}`,
  ) as HTMLElement;

/** Whether the first characters of `text` inside `box` are painted inside the box (not cut off by its ellipsis). */
function startVisible(box: HTMLElement, text: string): boolean {
  const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const at = node.textContent?.indexOf(text.slice(0, 10)) ?? -1;
    if (at < 0) continue;
    const range = document.createRange();
    range.setStart(node, at);
    range.setEnd(node, at + 10);
    const r = range.getBoundingClientRect();
    return r.right <= box.getBoundingClientRect().right + 0.5;
  }
  return false;
}

/** Elements of `root` (itself included) that scroll or would scroll sideways. */
function sidewaysOverflow(root: HTMLElement): string[] {
  return [root, ...root.querySelectorAll<HTMLElement>('*')]
    .filter((el) => {
      const { overflowX } = getComputedStyle(el);
      return (el === root || overflowX === 'auto' || overflowX === 'scroll') && el.scrollWidth > el.clientWidth + 1;
    })
    .map((el) => `${el.className} (${el.scrollWidth} > ${el.clientWidth})`);
}

describe('devtools layout in Chromium', () => {
  // The playground's side column on a 1440 px screen: (1440 - 2 × 16 padding - 16 gap) × 2/5.
  const PLAYGROUND_SIDE_AT_1440 = 557;

  it('at the playground’s width on a 1440 px screen, rows show what changed and the detail clips nothing', async () => {
    const host = column(PLAYGROUND_SIDE_AT_1440);
    await mount(await playedStore([{ events }]), host);
    const text = rowAt(host, 2);
    const summary = text.querySelector<HTMLElement>('.agk-timeline__summary') as HTMLElement;
    expect(startVisible(summary, DELTA)).toBe(true);
    expect(startVisible(rowAt(host, 4).querySelector('.agk-timeline__summary') as HTMLElement, 'lookup_order')).toBe(true);

    await userEvent.click(text);
    await expect.poll(() => host.querySelector('.agk-timeline__detail[aria-label]')).toBeTruthy();
    const region = host.querySelector<HTMLElement>('.agk-timeline__detail[aria-label]') as HTMLElement;
    const heading = region.querySelector<HTMLElement>('h2, h3') as HTMLElement;
    const badge = region.querySelector<HTMLElement>('.agk-badge') as HTMLElement;
    const box = region.getBoundingClientRect();
    expect(heading.scrollWidth).toBeLessThanOrEqual(heading.clientWidth + 1);
    expect(heading.getBoundingClientRect().right).toBeLessThanOrEqual(box.right + 0.5);
    expect(badge.getBoundingClientRect().right).toBeLessThanOrEqual(box.right + 0.5);
    expect(region.scrollWidth).toBeLessThanOrEqual(region.clientWidth + 1);
    expect(sidewaysOverflow(host)).toEqual([]);
  });

  it('at 320 px nothing scrolls sideways, with a row and a history event selected', async () => {
    const host = column(320);
    await mount(await playedStore([{ events }]), host);
    await userEvent.click(rowAt(host, 2));
    await expect.poll(() => host.querySelector('.agk-timeline__detail[aria-label]')).toBeTruthy();
    const history = host.querySelectorAll<HTMLElement>('.agk-inspector__history [role="option"]');
    await userEvent.click(history[2] as HTMLElement);
    await expect.poll(() => host.querySelector('.agk-inspector__document .agk-label')?.textContent).toMatch(/^After event #8/);
    expect(sidewaysOverflow(host)).toEqual([]);
  });

  it('at 390 px an event with a 1 KB unknown type, selected, and a 100-level document scroll nothing but the tree sideways', async () => {
    const host = column(390);
    let deep: unknown = 'leaf';
    for (let i = 0; i < 100; i++) deep = { level: deep };
    const odd: ScriptEvent[] = [
      { type: 'RUN_STARTED', threadId: 'story-thread', runId: RUN },
      { type: `X_${'T'.repeat(1_024)}` },
      { type: 'STATE_SNAPSHOT', snapshot: { deep } },
      { type: 'STATE_DELTA', delta: [{ op: 'replace', path: `/deep${'/level'.repeat(100)}`, value: 'changed' }] },
      { type: 'RUN_FINISHED', threadId: 'story-thread', runId: RUN },
    ];
    await mount(await playedStore([{ events: odd }]), host);
    await userEvent.click(rowAt(host, 1));
    await expect.poll(() => host.querySelector('.agk-timeline__diagnostics li')).toBeTruthy();
    expect(host.scrollWidth).toBeLessThanOrEqual(host.clientWidth);
    // Only the document's own box scrolls sideways, to show how deep it goes.
    expect(sidewaysOverflow(host).every((where) => where.startsWith('agk-inspector__document'))).toBe(true);
  });

  it("a key's right-to-left override stays in the key: the value after it reads as written", async () => {
    const host = column(390);
    await mount(
      await playedStore([{ events: [...events.slice(0, 1), { type: 'STATE_SNAPSHOT', snapshot: { 'ab\u202Ecd': 12345 } }] }]),
      host,
    );
    await expect.poll(() => host.querySelector('.agk-inspector .agk-json__key')).toBeTruthy();
    const keyBox = host.querySelector<HTMLElement>('.agk-inspector .agk-json__key')?.getBoundingClientRect();
    const valueBox = host.querySelector<HTMLElement>('.agk-inspector .agk-json__value')?.getBoundingClientRect();
    // The value is painted after the key, not inside its box.
    expect(valueBox?.left).toBeGreaterThanOrEqual(keyBox?.right ?? Number.POSITIVE_INFINITY);
  });

  it('every control a pointer aims at is at least 24 px square, or its label is (WCAG 2.2 target size)', async () => {
    const host = column(320);
    await mount(await playedStore([{ events }]), host);
    // A checkbox or radio is aimed at through its label.
    const small = [...host.querySelectorAll<HTMLElement>('button, input, select, summary, [role="option"]')]
      .map((el) => (el.matches('[type="checkbox"], [type="radio"]') ? (el.closest<HTMLElement>('label') ?? el) : el))
      .filter((el) => {
        const box = el.getBoundingClientRect();
        return box.width > 0 && (box.width < 24 || box.height < 24);
      })
      .map(
        (el) =>
          `${el.className || el.tagName} ${Math.round(el.getBoundingClientRect().width)}x${Math.round(el.getBoundingClientRect().height)}`,
      );
    expect(small).toEqual([]);
  });

  it('in forced colors the selected row keeps an outline (backgrounds are dropped), and no focus style removes the outline', async () => {
    const session = cdp();
    try {
      await session.send('Emulation.setEmulatedMedia', { features: [{ name: 'forced-colors', value: 'active' }] });
      const host = column(800);
      await mount(await playedStore([{ events }]), host);
      const live = host.querySelector<HTMLElement>('.agk-inspector__history [role="option"][aria-selected="true"]') as HTMLElement;
      expect(getComputedStyle(live).outlineStyle).not.toBe('none');
      expect(Number.parseFloat(getComputedStyle(live).outlineWidth)).toBeGreaterThanOrEqual(2);
      await userEvent.click(rowAt(host, 6));
      const selected = rowAt(host, 6);
      expect(selected).toHaveAttribute('data-state', 'selected');
      // Focus leaves the list: the selection alone must still show.
      (document.activeElement as HTMLElement | null)?.blur();
      expect(getComputedStyle(selected).outlineStyle).not.toBe('none');
    } finally {
      await session.send('Emulation.setEmulatedMedia', { features: [] });
    }
  });

  it('new state events never scroll the page to the devtools: a page read at its top stays there', async () => {
    // A phone's page: the chat fills the screen and the devtools come below it, reached by scrolling.
    const page = column(390);
    page.style.height = '600px';
    const store = await playedStore([], { pending: [events] });
    await render(
      <AgentProvider store={store}>
        <div style={{ height: 600 }}>the chat</div>
        <StateInspectorPanel />
        <EventTimelinePanel />
      </AgentProvider>,
      { container: page },
    );
    await new Promise(requestAnimationFrame);
    expect(page.scrollTop).toBe(0);
    await store.getState().run('Where is order A-1001?');
    await expect.poll(() => store.getState().thread.sharedState.version).toBe(2);
    await expect.poll(() => store.getState().inFlight).toBeUndefined();
    await new Promise(requestAnimationFrame);
    expect(page.scrollTop, 'the page was scrolled by the devtools').toBe(0);
  });
  for (const [what, count] of [
    ['a plain list', 120],
    ['a virtual list', 1_200],
  ] as const) {
    it(`in ${what} read further down, focus points at a row in view and scrolls nothing`, async () => {
      const many: ScriptEvent[] = [
        { type: 'RUN_STARTED', threadId: 'story-thread', runId: RUN },
        { type: 'TEXT_MESSAGE_START', messageId: MESSAGE, role: 'assistant' },
        ...Array.from({ length: count }, (_, i) => ({ type: 'TEXT_MESSAGE_CONTENT', messageId: MESSAGE, delta: `word${i} ` })),
      ];
      const host = column(480);
      await mount(await playedStore([{ say: 'go', events: many }]), host);
      const list = host.querySelector('[role="listbox"]') as HTMLElement;
      list.scrollTop = list.scrollHeight / 2;
      await new Promise(requestAnimationFrame);
      const top = list.scrollTop;
      list.focus();
      await new Promise(requestAnimationFrame);
      await new Promise(requestAnimationFrame);
      expect(list.scrollTop).toBe(top);
      const pointed = document.getElementById(list.getAttribute('aria-activedescendant') ?? '');
      expect(pointed).not.toBeNull();
      const box = (pointed as HTMLElement).getBoundingClientRect();
      const frame = list.getBoundingClientRect();
      expect(box.top >= frame.top - 1 && box.bottom <= frame.bottom + 1, 'the row focus points at is in view').toBe(true);
      // Enter chooses it.
      await userEvent.keyboard('{Enter}');
      expect(pointed).toHaveAttribute('aria-selected', 'true');
    });
  }

  it('End in the state history keeps the row it moves to in view once the document above it has grown to that point', async () => {
    // The playground's side panel on a phone: one column, the document above the history, the column scrolling.
    const host = column(390);
    host.style.height = '700px';
    const growing: ScriptEvent[] = [
      { type: 'RUN_STARTED', threadId: 'story-thread', runId: RUN },
      { type: 'STATE_SNAPSHOT', snapshot: { title: '销售仪表板', series: [1, 2, 3, 4] } },
      ...Array.from({ length: 200 }, (_, i) => ({
        type: 'STATE_DELTA',
        delta: [{ op: 'add', path: '/series/-', value: { month: `2026-${String((i % 12) + 1).padStart(2, '0')}`, value: i * 17 } }],
      })),
      { type: 'RUN_FINISHED', threadId: 'story-thread', runId: RUN },
    ];
    const store = await playedStore([{ say: 'Build the dashboard', events: growing }]);
    render(
      <AgentProvider store={store}>
        <StateInspectorPanel />
      </AgentProvider>,
      { container: host },
    );
    await expect.poll(() => host.querySelector<HTMLElement>('.agk-inspector__history [role="listbox"]')).toBeTruthy();
    const options = () => [...host.querySelectorAll<HTMLElement>('.agk-inspector__history [role="option"]')];
    await expect.poll(() => options().length).toBeGreaterThan(5);
    // The document shown is a deferred render of the pick: its title names the event once it is drawn.
    const title = () => host.querySelector('.agk-inspector__document .agk-inspector__title')?.textContent;
    options()[3]?.click();
    await expect.poll(title).toBe('After event #3 (STATE_DELTA)');
    await new Promise(requestAnimationFrame);
    // Read from the top: the small document and, below it, the history with the picked row.
    host.scrollTop = 0;
    await new Promise(requestAnimationFrame);
    await userEvent.keyboard('{End}');
    // The pick shows (deferred), the document grows from 6 items to 204, and layout settles.
    await expect.poll(title).toBe(`After event #${growing.length - 2} (STATE_DELTA)`);
    for (let i = 0; i < 5; i++) await new Promise(requestAnimationFrame);
    const selected = host.querySelector<HTMLElement>('.agk-inspector__history [aria-selected="true"]');
    expect(selected, 'a row is selected').not.toBeNull();
    const row = (selected as HTMLElement).getBoundingClientRect();
    const frame = host.getBoundingClientRect();
    expect(
      row.top >= frame.top - 1 && row.bottom <= frame.bottom + 1,
      `the selected row at ${row.top}, the column ${frame.top}-${frame.bottom}`,
    ).toBe(true);
  });
});
