import { AgentProvider } from '@aguikit/react';
import { afterEach, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { AgentChat } from '../src/AgentChat.js';
import { playedStore, runOf } from '../src/storybook/scripted.js';
import '../src/styles.css';

/**
 * A subagent named with one long unbroken word (a tool-like identifier), in
 * real Chromium at a laptop's and a phone's width: its group stays within the
 * conversation, its name cut with an ellipsis, and what it said wraps inside
 * the group's frame; the conversation never scrolls sideways.
 */

afterEach(() => {
  for (const el of document.body.querySelectorAll(':scope > div')) el.remove();
});

const NAME = `fetch_customer_order_history_and_compute_refund_eligibility_${'y'.repeat(200)}`;

for (const [width, height] of [
  [1366, 768],
  [390, 844],
] as const) {
  it(`a subagent with a long unbroken name stays within the conversation at ${width} px`, async () => {
    await page.viewport(width, height);
    const host = document.createElement('div');
    host.style.height = '100vh';
    document.body.append(host);
    const store = await playedStore([
      {
        say: 'Delegate.',
        events: runOf([
          { type: 'SUBAGENT_STARTED', subagentRunId: 'sub-1', name: NAME, description: '查找资料并整理成简短的摘要。'.repeat(4) },
          { type: 'TEXT_MESSAGE_START', messageId: 'm-1', role: 'assistant', subagentRunId: 'sub-1' },
          {
            type: 'TEXT_MESSAGE_CONTENT',
            messageId: 'm-1',
            delta: '热泵搬运热量而不是产生热量，所以每单位电能可以提供三到四个单位的热量。'.repeat(3),
          },
          { type: 'TEXT_MESSAGE_END', messageId: 'm-1' },
          { type: 'SUBAGENT_FINISHED', subagentRunId: 'sub-1' },
        ]),
      },
    ]);
    await render(
      <AgentProvider store={store}>
        <AgentChat />
      </AgentProvider>,
      { container: host },
    );
    const list = host.querySelector<HTMLElement>('[role="log"]');
    const group = host.querySelector<HTMLElement>('[role="group"][data-subagent]');
    if (!list || !group) throw new Error('no conversation or no subagent group');
    await expect.poll(() => group.textContent).toContain('热泵');
    const frame = list.getBoundingClientRect();
    const box = group.getBoundingClientRect();
    expect(box.right).toBeLessThanOrEqual(frame.right + 0.5);
    expect(list.scrollWidth).toBeLessThanOrEqual(list.clientWidth);
    // What the group holds stays inside its border: its header, description and messages.
    for (const part of group.querySelectorAll<HTMLElement>('.agk-subagent__header, .agk-subagent__description, .agk-message')) {
      expect(part.getBoundingClientRect().right, part.className).toBeLessThanOrEqual(box.right + 0.5);
    }
    // The name is cut, not spilled: it ends inside the header, with an ellipsis, and its whole text is there to read.
    const name = group.querySelector<HTMLElement>('.agk-subagent__name');
    expect(name?.textContent).toBe(NAME);
    expect(name && name.scrollWidth > name.clientWidth).toBe(true);
    expect(name?.getBoundingClientRect().right).toBeLessThanOrEqual(box.right + 0.5);
  });
}
