/**
 * The playground's two other sources of runs, in Chromium: the scenarios run
 * *in the browser* (no server at all: every request to `/agents` would fail
 * the test), and *AG-UI URL* mode, which says what to enter, offers the local
 * agent server's endpoints, runs against the real server, and answers a bad
 * address with a clear error and the action that helps (editing the URL).
 */
import { scenarios } from '@aguikit/scenarios';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
// By path: the agent server is an app, not a dependency of the playground.
import type { AgentServer } from '../../agent-server/src/server.js';
import {
  confirmDialogs,
  freePort,
  launchChromium,
  type OpenOptions,
  type OpenPage,
  openPlayground,
  runStatus,
  startOnAgentPort,
  unexpected,
} from './harness.js';

const playgroundUrl = inject('playgroundUrl');
const agentPort = inject('agentPort');
const FAST = 20;

let browser: Browser;
let server: AgentServer | undefined;
const pages: { open: OpenPage; expected: RegExp[] }[] = [];

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

afterEach(async () => {
  const opened = pages.splice(0);
  await server?.close();
  server = undefined;
  await Promise.all(opened.map(({ open }) => open.close()));
  expect(
    opened.flatMap(({ open, expected }) => unexpected(open.problems, expected)),
    'console errors and page errors',
  ).toEqual([]);
});

/** Opens the playground; `expected` lists the console errors this test causes on purpose. */
async function open(params: OpenOptions['params'], expected: RegExp[] = []) {
  const opened = await openPlayground(browser, playgroundUrl, { params });
  pages.push({ open: opened, expected });
  return opened;
}

const composerOf = (page: Page) => page.getByRole('textbox', { name: 'Message', exact: true });

/** Sends the refund request from the composer, approves it, and waits for the run to end in success. */
async function refundApproved(page: Page) {
  await composerOf(page).fill(scenarios.refund.prompt);
  await composerOf(page).press('Enter');
  await runStatus(page, 'interrupted').waitFor();
  const approve = page.locator('.agk-interrupt').getByRole('button', { name: 'Approve' });
  await approve.and(page.locator(':enabled')).waitFor();
  await approve.click();
  await runStatus(page, 'success').waitFor();
  const last = page.locator('.agk-messages__content .agk-message[data-role="assistant"]').last();
  expect(await last.textContent()).toMatch(/Done: refund RF-\w+ of \$42\.00 is on its way/);
}

describe('In the browser: the scenarios run with no server', () => {
  it('runs the refund flow to its end with no agent server and no request to /agents', async () => {
    // No agent server runs in this test, and any request to /agents is answered with a failure the test sees.
    const o = await open({ mode: 'browser', scenario: 'refund', speed: FAST });
    const { page } = o;
    const agentCalls: string[] = [];
    await page.route('**/agents**', (route) => {
      agentCalls.push(route.request().url());
      return route.abort('connectionrefused');
    });
    await refundApproved(page);
    expect(agentCalls).toEqual([]);
    expect(o.requests).toEqual([]);
    // The state the run left: the refund done.
    expect(await page.locator('.agk-inspector').textContent()).toContain('refunded');
  });

  it('runs a second scenario (parallel tool calls) to completion, every card settled', async () => {
    const o = await open({ mode: 'browser', scenario: 'parallel-tools', speed: FAST });
    const { page } = o;
    await page.getByRole('button', { name: 'Send this' }).click();
    await runStatus(page, 'success').waitFor();
    const statuses = await page.locator('.agk-toolcall').evaluateAll((cards) => cards.map((c) => c.getAttribute('data-status')));
    expect(statuses).toHaveLength(3);
    expect(statuses.every((s) => s === 'succeeded' || s === 'failed')).toBe(true);
    expect(o.requests).toEqual([]);
  });
});

describe('AG-UI URL mode', () => {
  it('says what to enter and offers the local agent server’s endpoints as choices', async () => {
    server = await startOnAgentPort({ port: agentPort });
    const o = await open({ mode: 'url' });
    const { page } = o;
    const help = page.getByRole('region', { name: 'Connect to an AG-UI agent' });
    await help.waitFor();
    const text = (await help.textContent()) ?? '';
    expect(text).toContain('POST');
    expect(text).toContain('RunAgentInput');
    expect(text).toContain('text/event-stream');
    // The endpoint field is described by that explanation.
    const field = page.getByRole('textbox', { name: 'Endpoint' });
    expect(await field.evaluate((el) => document.getElementById(el.getAttribute('aria-describedby') ?? '')?.textContent)).toContain(
      'RunAgentInput',
    );
    const choices = help.getByRole('combobox', { name: 'The local agent server:' });
    await choices.locator('option[value$="/agents/refund"]').waitFor({ state: 'attached' });
    const offered = await choices.locator('option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
    const origin = new URL(playgroundUrl).origin;
    expect(offered).toEqual(
      expect.arrayContaining(['', `${origin}/agents/refund`, `${origin}/agents/clarification`, `${origin}/agents/two-interrupts`]),
    );
    expect(offered).toHaveLength(Object.keys(scenarios).length + 1);
  });

  it('runs the refund flow against the real agent server through a chosen endpoint', async () => {
    server = await startOnAgentPort({ port: agentPort, speed: FAST });
    const o = await open({ mode: 'url' });
    const { page } = o;
    const origin = new URL(playgroundUrl).origin;
    const choices = page.getByRole('combobox', { name: 'The local agent server:' });
    await choices.locator('option[value$="/agents/refund"]').waitFor({ state: 'attached' });
    await choices.selectOption(`${origin}/agents/refund`);
    expect(await page.getByRole('textbox', { name: 'Endpoint' }).inputValue()).toBe(`${origin}/agents/refund`);
    expect(new URL(page.url()).searchParams.get('url')).toBe(`${origin}/agents/refund`);
    await refundApproved(page);
    expect(o.requests.map((r) => new URL(r.url).pathname)).toEqual(['/agents/refund', '/agents/refund']);
    expect(server.effects()).toHaveLength(1);
  });

  it('connecting to another endpoint asks before it discards a conversation; declined, the thread and the address stay', async () => {
    server = await startOnAgentPort({ port: agentPort, speed: FAST });
    const origin = new URL(playgroundUrl).origin;
    const o = await open({ mode: 'url', url: `${origin}/agents/refund` });
    const { page } = o;
    await refundApproved(page);
    const messages = () => page.locator('.agk-messages__content .agk-message').count();
    const before = await messages();
    const dialogs = confirmDialogs(page);
    const asked = dialogs.asked;
    const endpoint = page.getByRole('textbox', { name: 'Endpoint' });
    await endpoint.fill(`${origin}/agents/clarification`);
    await endpoint.press('Enter');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('discarded');
    expect(new URL(page.url()).searchParams.get('url')).toBe(`${origin}/agents/refund`);
    // The field shows the address in use, not the one declined.
    expect(await endpoint.inputValue()).toBe(`${origin}/agents/refund`);
    expect(await messages()).toBe(before);
    // Accepted: a new thread with the other agent.
    dialogs.accept = true;
    await endpoint.fill(`${origin}/agents/clarification`);
    await endpoint.press('Enter');
    await expect.poll(() => new URL(page.url()).searchParams.get('url')).toBe(`${origin}/agents/clarification`);
    await expect.poll(messages).toBe(0);
    expect(asked).toHaveLength(2);
  });

  it('runs against an endpoint typed in full, on another origin (the agent server itself)', async () => {
    server = await startOnAgentPort({ port: agentPort, speed: FAST });
    const o = await open({ mode: 'url' });
    const { page } = o;
    const field = page.getByRole('textbox', { name: 'Endpoint' });
    await field.fill(`http://127.0.0.1:${agentPort}/agents/refund`);
    await page.getByRole('button', { name: 'Connect' }).click();
    await refundApproved(page);
    expect(server.effects()).toHaveLength(1);
  });

  it('refuses an address that is not one, saying what to enter, with focus kept on the field', async () => {
    server = await startOnAgentPort({ port: agentPort });
    const o = await open({ mode: 'url' });
    const { page } = o;
    const field = page.getByRole('textbox', { name: 'Endpoint' });
    await field.fill('agent server please');
    await field.press('Enter');
    // Below the bar, not in it (on a phone the bar is one row that scrolls sideways).
    const alert = page.locator('.pg__bar + [role="alert"]');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/starts with http:\/\/ or https:\/\//);
    // The example is an address that works from this page: the local server's refund endpoint on the page's own origin.
    expect(await alert.textContent()).toContain(`for example ${new URL('/agents/refund', playgroundUrl).href}.`);
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect(await field.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(
      await field.evaluate((el) =>
        el
          .getAttribute('aria-describedby')
          ?.split(' ')
          .map((id) => !!document.getElementById(id)),
      ),
    ).toEqual([true, true]);
    // Nothing was connected to: the page URL keeps no address.
    expect(new URL(page.url()).searchParams.get('url')).toBe('');
    await field.fill('http://127.0.0.1/agent');
    expect(await field.getAttribute('aria-invalid')).toBeNull();
  });

  it('a URL nobody answers at: a clear error, and "Edit the URL" brings focus back to the address', async () => {
    // No agent server either: the local endpoints are said to be missing rather than listed.
    const closed = await freePort();
    const bad = `http://127.0.0.1:${closed}/agent`;
    const o = await open({ mode: 'url', url: bad }, [/ERR_CONNECTION_REFUSED|Failed to load resource/, /Failed to fetch/]);
    const { page } = o;
    const help = page.getByRole('region', { name: 'Connect to an AG-UI agent' });
    await help.getByText('The local agent server does not answer here').waitFor();
    await composerOf(page).fill('Hello?');
    await composerOf(page).press('Enter');
    const alert = help.getByRole('alert');
    await alert.waitFor();
    // Nothing answered: said as such (not as an answer of the wrong kind), with what to check.
    expect(await alert.textContent()).toContain(
      `Nothing answered at ${bad}: check the address, that the agent is running, and that it allows this page (CORS).`,
    );
    await alert.getByRole('button', { name: 'Edit the URL' }).click();
    const field = page.getByRole('textbox', { name: 'Endpoint' });
    expect(await field.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await field.evaluate((el: HTMLInputElement) => el.value.slice(el.selectionStart ?? 0, el.selectionEnd ?? 0))).toBe(bad);
  });

  it('an endpoint that answers 404: the status said, and a corrected URL runs', async () => {
    server = await startOnAgentPort({ port: agentPort, speed: FAST });
    const origin = new URL(playgroundUrl).origin;
    const o = await open({ mode: 'url', url: `${origin}/agents/no-such-agent` }, [/404/]);
    const { page } = o;
    await composerOf(page).fill(scenarios.refund.prompt);
    await composerOf(page).press('Enter');
    const alert = page.getByRole('region', { name: 'Connect to an AG-UI agent' }).getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain(`The agent at ${origin}/agents/no-such-agent answered with HTTP status 404.`);
    await alert.getByRole('button', { name: 'Edit the URL' }).click();
    await page.keyboard.type(`${origin}/agents/refund`);
    // The thread holds the message sent: another agent discards it once the reader says so.
    const { asked } = confirmDialogs(page, true);
    await page.keyboard.press('Enter');
    await alert.waitFor({ state: 'detached' });
    expect(asked).toHaveLength(1);
    await refundApproved(page);
  });
});
