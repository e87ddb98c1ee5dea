/**
 * Screenshots of the playground for the README, written to docs/screenshots/:
 * the refund flow against the agent server with the approval open and after
 * approval, on a laptop (1366x768) and a phone (390x844), in the light and the
 * dark theme (the page follows the browser's color scheme), in English and in
 * Simplified Chinese (`?lang=zh-CN`). Each file is named
 * `playground-<device>-<theme>-<lang>-<approval|approved>.png`.
 * Run by `pnpm --filter @aguikit/playground screenshots` (e2e/screenshots.config.ts).
 */
import { execFileSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { scenarios } from '@aguikit/scenarios';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import type { AgentServer } from '../../agent-server/src/server.js';
import { launchChromium, openPlayground, runStatus, startOnAgentPort, unexpected } from './harness.js';

const OUT = fileURLToPath(new URL('../../../docs/screenshots/', import.meta.url));

const DEVICES = {
  desktop: { width: 1366, height: 768 },
  phone: { width: 390, height: 844 },
} as const;
const THEMES = ['light', 'dark'] as const;
const LANGS = ['en', 'zh-CN'] as const;

/** What the reviewer writes in the approval's comment field, in the page's language. */
const COMMENT: Record<(typeof LANGS)[number], string> = {
  en: 'Photo of the broken teapot is on file.',
  'zh-CN': '破损茶壶的照片已存档，同意退款。',
};

let browser: Browser;
let server: AgentServer;

/** Whether the system has a font for Chinese: without one, the zh-CN screenshots would show empty boxes. */
function hasChineseFont(): boolean {
  try {
    return execFileSync('fc-list', [':lang=zh', 'family'], { encoding: 'utf8' }).trim() !== '';
  } catch {
    return false;
  }
}

beforeAll(async () => {
  if (!hasChineseFont()) {
    throw new Error('No font for Chinese is installed: install one (on Debian, apt-get install fonts-noto-cjk) and run again.');
  }
  [browser, server] = await Promise.all([launchChromium(), startOnAgentPort({ port: inject('agentPort') })]);
  await mkdir(OUT, { recursive: true });
});

afterAll(async () => {
  await Promise.all([browser?.close(), server?.close()]);
});

const cases = Object.entries(DEVICES).flatMap(([device, viewport]) =>
  THEMES.flatMap((theme) => LANGS.map((lang) => ({ device, viewport, theme, lang }))),
);

it.for(cases)('screenshots the refund flow: $device, $theme, $lang', async ({ device, viewport, theme, lang }) => {
  const o = await openPlayground(browser, inject('playgroundUrl'), {
    params: { mode: 'server', scenario: 'refund', speed: 20, lang },
    colorScheme: theme,
    viewport,
  });
  const { page } = o;
  const name = (state: string) => `${OUT}playground-${device}-${theme}-${lang}-${state}.png`;
  try {
    expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang);
    expect(await page.locator('.pg__actions [aria-pressed]').getAttribute('aria-pressed')).toBe(String(theme === 'dark'));
    // The composer and the decision buttons by their structure, not their words: the words are the language's.
    const composer = page.locator('form.agk-composer .agk-composer__input');
    await composer.fill(scenarios.refund.prompt);
    await composer.press('Enter');
    await runStatus(page, 'interrupted').waitFor();
    const approval = page.locator('.agk-interrupt[data-answer="none"]');
    const approve = approval.locator('.agk-interrupt__buttons button[data-variant="primary"]:enabled').first();
    await approve.waitFor();
    // The approval as a reviewer meets it: focus on it (Alt+Shift+D from the composer), its question in view,
    // its actions held below, nothing typed yet.
    await page.keyboard.press('Alt+Shift+D');
    await expect.poll(() => approval.evaluate((card) => card.contains(document.activeElement))).toBe(true);
    await page.screenshot({ path: name('approval'), animations: 'disabled' });
    await approval.getByLabel('Comment for the customer record').fill(COMMENT[lang]);

    await approve.click();
    await runStatus(page, 'success').waitFor();
    await page.locator('.agk-interrupt[data-answer="none"]').waitFor({ state: 'detached' });
    await page.evaluate(() => {
      // Back to the top of the page (a phone scrolled to the approval), the reply in view in the conversation.
      (document.scrollingElement ?? document.documentElement).scrollTop = 0;
    });
    await page.screenshot({ path: name('approved'), animations: 'disabled' });
    expect(unexpected(o.problems)).toEqual([]);
  } finally {
    await o.close();
  }
});
