// Vite's client types: they declare the stylesheet import below.
/// <reference types="vite/client" />
import { AgentProvider } from '@aguikit/react';
import { afterEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { AgentChat } from '../src/AgentChat.js';
import { failedStore, noAnswer } from '../src/storybook/failures.js';
import '../src/styles.css';

/**
 * A request that could not reach the agent, in the chat on a phone: the
 * failure notice says why and offers Retry in little more than two lines of
 * text, leaving the conversation its room.
 */

afterEach(async () => {
  for (const el of document.body.querySelectorAll(':scope > div')) el.remove();
  await page.viewport(414, 896);
});

describe('the failure notice in the chat on a phone', () => {
  it('says why and offers Retry in a compact notice (390x844)', async () => {
    await page.viewport(390, 844);
    const host = document.createElement('div');
    host.style.height = '100vh';
    document.body.append(host);
    const store = await failedStore('请为订单 7f3c2a91-4b6e-4d0f-9a85-2e1b7c6d9f40 退款', [{ fail: noAnswer() }]);
    const screen = await render(
      <AgentProvider store={store}>
        <AgentChat />
      </AgentProvider>,
      { container: host },
    );
    const retry = screen.getByRole('button', { name: 'Retry' });
    await expect.element(retry).toBeVisible();
    const notice = host.querySelector<HTMLElement>('.agk-runstatus[data-state="failed"]');
    if (!notice) throw new Error('no failure notice');
    // The whole reason is there to read, and Retry sits inside the notice.
    expect(notice.querySelector('[role="status"]')?.textContent).toMatch(/^Failed The agent could not be reached: /);
    const box = notice.getBoundingClientRect();
    const action = retry.element().getBoundingClientRect();
    expect(action.bottom).toBeLessThanOrEqual(box.bottom + 0.5);
    expect(action.right).toBeLessThanOrEqual(box.right + 0.5);
    expect(box.height, 'the notice leaves the conversation its room').toBeLessThanOrEqual(72);
  });
});
