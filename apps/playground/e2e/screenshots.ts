/**
 * Screenshots of the playground for the README: the refund flow against the
 * agent server, with the approval form showing and after approval, in the
 * light and the dark theme (the page follows the browser's color scheme).
 * Run by `pnpm --filter @aguikit/playground screenshots` (e2e/screenshots.config.ts).
 */
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { scenarios } from '@aguikit/scenarios';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { type AgentServer, startAgentServer } from '../../agent-server/src/server.js';
import { launchChromium, openPlayground, runStatus, unexpected } from './harness.js';

const DOCS = fileURLToPath(new URL('../../../docs/', import.meta.url));

let browser: Browser;
let server: AgentServer;

beforeAll(async () => {
  [browser, server] = await Promise.all([launchChromium(), startAgentServer({ host: '127.0.0.1', port: inject('agentPort') })]);
  await mkdir(DOCS, { recursive: true });
});

afterAll(async () => {
  await Promise.all([browser?.close(), server?.close()]);
});

it.for(['light', 'dark'] as const)('screenshots the refund flow in the %s theme', async (theme) => {
  const o = await openPlayground(browser, inject('playgroundUrl'), {
    params: { mode: 'server', scenario: 'refund', speed: 20 },
    colorScheme: theme,
    // Tall enough that the conversation keeps some room above the approval form.
    viewport: { width: 1280, height: 1000 },
  });
  const { page } = o;
  try {
    expect(await page.getByRole('button', { name: 'Dark theme' }).getAttribute('aria-pressed')).toBe(String(theme === 'dark'));
    const composer = page.getByRole('textbox', { name: 'Message', exact: true });
    await composer.fill(scenarios.refund.prompt);
    await composer.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'The agent is waiting for your answer' });
    await dialog.waitFor();
    await dialog.getByLabel('Comment for the customer record').fill('Photo of the broken teapot is on file.');
    await page.screenshot({ path: `${DOCS}playground-${theme}.png`, animations: 'disabled' });

    await dialog.getByRole('button', { name: 'Approve' }).click();
    await runStatus(page, 'success').waitFor();
    await page.screenshot({ path: `${DOCS}playground-${theme}-approved.png`, animations: 'disabled' });
    expect(unexpected(o.problems)).toEqual([]);
  } finally {
    await o.close();
  }
});
