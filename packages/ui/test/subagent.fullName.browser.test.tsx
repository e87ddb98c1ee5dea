import { AgentProvider } from '@aguikit/react';
import { afterEach, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { AgentChat } from '../src/AgentChat.js';
import { playedStore, runOf } from '../src/storybook/scripted.js';
import '../src/styles.css';

/**
 * A subagent's name too long for its header is cut with an ellipsis: the
 * whole name is still there to read, on hover (a tooltip), for assistive
 * technology (the group's and its toggle's names), and for a keyboard user,
 * whose focus on the toggle shows the name whole.
 */

afterEach(async () => {
  for (const el of document.body.querySelectorAll(':scope > div')) el.remove();
  await page.viewport(414, 896);
});

const NAME = `退款资格核查助手 refund-eligibility-checker 7f3c2a91-4b6e-4d0f-9a85-2e1b7c6d9f40 ${'订单历史分析'.repeat(12)}`;

it('a cut subagent name can be read whole by pointer, keyboard and screen reader (390x844)', async () => {
  await page.viewport(390, 844);
  const host = document.createElement('div');
  host.style.height = '100vh';
  document.body.append(host);
  const store = await playedStore([
    {
      say: 'Delegate.',
      events: runOf([
        { type: 'SUBAGENT_STARTED', subagentRunId: 'c0a8e4b2-1d3f-4a5b-8c7d-9e0f1a2b3c4d', name: NAME },
        { type: 'SUBAGENT_FINISHED', subagentRunId: 'c0a8e4b2-1d3f-4a5b-8c7d-9e0f1a2b3c4d' },
      ]),
    },
  ]);
  const screen = await render(
    <AgentProvider store={store}>
      <AgentChat />
    </AgentProvider>,
    { container: host },
  );
  const group = host.querySelector<HTMLElement>('[role="group"][data-subagent]');
  const name = group?.querySelector<HTMLElement>('.agk-subagent__name');
  if (!group || !name) throw new Error('no subagent group');
  expect(name.scrollWidth, 'the name is cut').toBeGreaterThan(name.clientWidth);
  // On hover: the whole name as the cut text's tooltip.
  expect(name.closest('[title]')?.getAttribute('title')).toBe(NAME);
  // For assistive technology: the toggle and the group are named by the whole name.
  const toggle = screen.getByRole('button', { name: NAME });
  await expect.element(toggle).toBeInTheDocument();
  expect(screen.getByRole('group', { name: new RegExp(`^${NAME}`) }).element()).toBe(group);
  // For a keyboard user: focus on the toggle shows the whole name, within the group.
  (document.activeElement as HTMLElement | null)?.blur();
  toggle.element().focus();
  await userEvent.keyboard('{Shift>}{Tab}{/Shift}{Tab}');
  await expect.poll(() => document.activeElement).toBe(toggle.element());
  const full = group.querySelector<HTMLElement>('.agk-subagent__fullname');
  if (!full) throw new Error('no whole name');
  expect(full.textContent).toBe(NAME);
  expect(full.getBoundingClientRect().height, 'the whole name is shown').toBeGreaterThan(0);
  expect(full.scrollWidth, 'the focused name is whole').toBeLessThanOrEqual(full.clientWidth);
  expect(full.scrollHeight).toBeLessThanOrEqual(full.clientHeight + 1);
  expect(full.getBoundingClientRect().right).toBeLessThanOrEqual(group.getBoundingClientRect().right + 0.5);
  // Said once: the toggle is still named by the name alone.
  expect(screen.getByRole('button', { name: NAME }).element()).toBe(toggle.element());
  expect(host.querySelector<HTMLElement>('[role="log"]')?.scrollWidth).toBeLessThanOrEqual(
    host.querySelector<HTMLElement>('[role="log"]')?.clientWidth ?? 0,
  );
});
