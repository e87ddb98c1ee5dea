// Vite's client types: they declare the stylesheet import below.
/// <reference types="vite/client" />
import { AgentProvider } from '@aguikit/react';
import { afterEach, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { AgentChat } from '../src/AgentChat.js';
import { playedStore, runOf, say } from '../src/storybook/scripted.js';
import '../src/styles.css';

/**
 * A subagent's name too long for its header, in a chat scrolled to its end
 * on a short screen (a phone held sideways): keyboard focus on the group's
 * toggle shows the whole name over what follows, and moves nothing: the
 * toggle keeps its height and the list around it its place (the log keeps
 * its end in view, so a toggle grown taller would push its own first line
 * out of view above).
 * Escape hides the whole name again, focus staying on the toggle.
 */

afterEach(async () => {
  for (const el of document.body.querySelectorAll(':scope > div')) el.remove();
  await page.viewport(414, 896);
});

const NAME = `退款资格核查助手 refund-eligibility-checker 7f3c2a91-4b6e-4d0f-9a85-2e1b7c6d9f40 ${'订单历史分析'.repeat(12)}`;

/** Whether `el` is painted whole: none of it past the edge of a box that clips what overflows it, inside `until`. */
function unclipped(el: Element, until: Element): boolean {
  const r = el.getBoundingClientRect();
  for (let at = el.parentElement; at && at !== until; at = at.parentElement) {
    const style = getComputedStyle(at);
    if (style.overflow === 'visible' && !/paint|strict|content/.test(style.contain)) continue;
    const b = at.getBoundingClientRect();
    if (r.left < b.left - 0.5 || r.right > b.right + 0.5 || r.top < b.top - 0.5 || r.bottom > b.bottom + 0.5) return false;
  }
  return true;
}

/** The boxes of the elements inside `root` that paint `text` whole: all of it, nothing cut inside `log`. */
function wholeText(root: Element, text: string, log: Element): DOMRect[] {
  return [...root.querySelectorAll<HTMLElement>('*')]
    .filter((el) => el.textContent === text && el.checkVisibility({ visibilityProperty: true }))
    .filter((el) => el.scrollWidth <= el.clientWidth + 1 && el.scrollHeight <= el.clientHeight + 1 && unclipped(el, log))
    .map((el) => el.getBoundingClientRect());
}

it('keyboard focus shows a cut subagent name whole without moving the list (390x420)', async () => {
  await page.viewport(390, 420);
  const host = document.createElement('div');
  host.style.height = '100vh';
  document.body.append(host);
  const store = await playedStore([
    {
      say: 'Delegate.',
      events: runOf([
        ...say('m0', 'Checking the order first. '.repeat(30)),
        { type: 'SUBAGENT_STARTED', subagentRunId: 'sa1', name: NAME },
        { type: 'SUBAGENT_FINISHED', subagentRunId: 'sa1' },
        { type: 'SUBAGENT_STARTED', subagentRunId: 'sa2', name: 'Refund writer' },
        { type: 'SUBAGENT_FINISHED', subagentRunId: 'sa2' },
      ]),
    },
  ]);
  const screen = await render(
    <AgentProvider store={store}>
      <AgentChat />
    </AgentProvider>,
    { container: host },
  );
  const toggle = screen.getByRole('button', { name: NAME });
  await expect.element(toggle).toBeInTheDocument();
  const trigger = toggle.element() as HTMLElement;
  const log = host.querySelector<HTMLElement>('[role="log"]') as HTMLElement;
  const next = host.querySelector<HTMLElement>('[data-subagent="sa2"]') as HTMLElement;
  await new Promise((r) => setTimeout(r, 200));
  expect(wholeText(trigger, NAME, log), 'the name is cut').toEqual([]);
  const before = { toggle: trigger.getBoundingClientRect(), next: next.getBoundingClientRect().top };

  (document.activeElement as HTMLElement | null)?.blur();
  trigger.focus();
  await userEvent.keyboard('{Shift>}{Tab}{/Shift}{Tab}');
  await expect.poll(() => document.activeElement).toBe(trigger);
  await new Promise((r) => setTimeout(r, 200));
  const after = trigger.getBoundingClientRect();
  const box = log.getBoundingClientRect();
  expect(after.height, 'the toggle keeps its height').toBeCloseTo(before.toggle.height, 0);
  expect(next.getBoundingClientRect().top - after.top, 'what follows stays where it was').toBeCloseTo(before.next - before.toggle.top, 0);
  expect(after.top, 'the toggle stays in view').toBeGreaterThanOrEqual(box.top);
  // The whole name, from its first line, in view inside the log.
  const shown = wholeText(trigger, NAME, log);
  expect(shown.length, 'the whole name is shown').toBe(1);
  expect(shown[0]?.top).toBeCloseTo(after.top, -1);
  expect(shown[0]?.right).toBeLessThanOrEqual(box.right + 0.5);
  expect(shown[0]?.left).toBeGreaterThanOrEqual(box.left - 0.5);
  // What the log's view leaves out below is there to scroll to.
  expect((shown[0]?.bottom ?? 0) - box.top + log.scrollTop).toBeLessThanOrEqual(log.scrollHeight + 1);

  // Escape hides it again; focus stays.
  await userEvent.keyboard('{Escape}');
  await expect.poll(() => wholeText(trigger, NAME, log)).toEqual([]);
  expect(document.activeElement).toBe(trigger);

  // A name that fits is shown as it is, once, under focus too.
  const other = screen.getByRole('button', { name: 'Refund writer' }).element() as HTMLElement;
  other.focus();
  await userEvent.keyboard('{Shift>}{Tab}{/Shift}{Tab}');
  await expect.poll(() => document.activeElement).toBe(other);
  const painted = [...other.querySelectorAll('*')].filter((el) => el.textContent === 'Refund writer' && el.checkVisibility());
  expect(painted).toHaveLength(1);
});
