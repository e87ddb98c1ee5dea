// Vite's client types: they declare the stylesheet import below.
/// <reference types="vite/client" />
import { AgentProvider } from '@aguikit/react';
import { afterEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { RunStatus } from '../src/RunStatus.js';
import { liveStore, playedStore, runOf } from '../src/storybook/scripted.js';
import '../src/styles.css';

/**
 * An agent whose RUN_ERROR carries a whole stack trace: on a phone the
 * failure notice stays a few lines tall (the messages keep their room), and
 * *Show all* shows the whole message. A step with a name as long stays a
 * line or two while the run goes on.
 */

const TRACE = [
  'Upstream request 7f3c2a91-4b6e-4d0f-9a85-2e1b7c6d9f40 to https://payments.example.com/v2/refunds/0b7c1a2e-5f1e-4c2a-9d3b-8e7f6a5b4c3d failed:',
  ...Array.from({ length: 30 }, (_, i) => `at RefundWorker.process (/srv/agent/workers/refund.ts:${100 + i}:17) 退款处理失败，请稍后重试`),
].join(' ');

afterEach(async () => {
  await page.viewport(414, 896);
});

describe('a run that failed with a very long error message', () => {
  it('keeps the notice a few lines tall on a phone, and shows the whole message on demand', async () => {
    await page.viewport(390, 844);
    const store = await playedStore([
      { say: 'Refund order A-1001', events: [...runOf([], null), { type: 'RUN_ERROR', message: TRACE, code: 'UPSTREAM_FAILED' }] },
    ]);
    const screen = await render(
      <AgentProvider store={store}>
        <RunStatus />
      </AgentProvider>,
    );
    const notice = document.querySelector('.agk-runstatus') as HTMLElement;
    await expect.element(screen.getByRole('status')).toHaveTextContent('UPSTREAM_FAILED');
    // The live region still holds the whole message: a screen reader hears all of it.
    await expect.element(screen.getByRole('status')).toHaveTextContent(TRACE);
    expect(notice.getBoundingClientRect().height, 'the notice is clipped to a few lines').toBeLessThan(160);
    const detail = notice.querySelector('.agk-runstatus__detail') as HTMLElement;
    await userEvent.click(screen.getByRole('button', { name: 'Show all' }));
    // The whole message is shown.
    await expect.poll(() => detail.scrollHeight <= detail.clientHeight + 1).toBe(true);
    expect(notice.getBoundingClientRect().height).toBeGreaterThan(300);
    expect(screen.getByRole('button', { name: 'Show all' }).query(), 'nothing more to show').toBeNull();
    await expect.poll(() => document.activeElement).toBe(detail);
  });

  it('offers no Show all for a short message', async () => {
    await page.viewport(390, 844);
    const store = await playedStore([
      {
        say: 'Refund order A-1001',
        events: [...runOf([], null), { type: 'RUN_ERROR', message: 'The payment provider timed out.', code: 'UPSTREAM_TIMEOUT' }],
      },
    ]);
    const screen = await render(
      <AgentProvider store={store}>
        <RunStatus />
      </AgentProvider>,
    );
    await expect.element(screen.getByRole('status')).toHaveTextContent('The payment provider timed out.');
    await new Promise(requestAnimationFrame);
    expect(screen.getByRole('button', { name: 'Show all' }).query()).toBeNull();
  });
});

describe('a run in a step with a very long name', () => {
  it('names the step by its head, in a line or two on a phone', async () => {
    await page.viewport(390, 844);
    const name = `Checking refunds ${Array.from({ length: 60 }, () => '7f3c2a91-4b6e-4d0f-9a85-2e1b7c6d9f40').join('、')}`;
    const store = await liveStore(runOf([{ type: 'STEP_STARTED', stepName: name }], null));
    const screen = await render(
      <AgentProvider store={store}>
        <RunStatus />
      </AgentProvider>,
    );
    await expect.element(screen.getByRole('status')).toHaveTextContent(`Step: ${name.slice(0, 60)}`);
    const status = screen.getByRole('status').element();
    expect(status.textContent?.length, 'what the status reads out on each change').toBeLessThan(400);
    expect(status.getBoundingClientRect().height).toBeLessThan(160);
  });
});
