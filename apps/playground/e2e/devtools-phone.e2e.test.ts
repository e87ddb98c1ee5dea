/**
 * The devtools on a phone (390x844), in the playground's state-heavy
 * scenario, whose deltas change four values at once: each delta's row in the
 * event timeline and the state history cuts its paths with an ellipsis and
 * shows how many operations there are ("+1 more · 4 ops") whole.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { launchChromium, openPlayground, runStatus, unexpected } from './harness.js';

const playgroundUrl = inject('playgroundUrl');

let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

/**
 * The rows of `selector` (a row's summary line) that show a delta's count of
 * operations, each with whether every count is painted whole: inside the line
 * and inside every box between them, where a fraction of a pixel over would
 * put an ellipsis in its place.
 */
function countsShown(page: Page, selector: string): Promise<{ text: string; whole: boolean }[]> {
  return page.evaluate((selector) => {
    const whole = (part: Element, line: Element) => {
      const p = part.getBoundingClientRect();
      if (p.width === 0) return false;
      for (let at = part.parentElement; at; at = at.parentElement) {
        const b = at.getBoundingClientRect();
        if (p.left < b.left || p.right > b.right) return false;
        if (at === line) return true;
      }
      return false;
    };
    return [...document.querySelectorAll(selector)]
      .filter((line) => line.textContent?.includes(' more'))
      .map((line) => ({
        text: line.textContent ?? '',
        whole: [...line.querySelectorAll('.agk-devtools__count')].every((count) => whole(count, line)),
      }));
  }, selector);
}

it('a delta of four operations shows its count whole in the timeline and the state history at 390x844', async () => {
  const { page, problems, close } = await openPlayground(browser, playgroundUrl, {
    params: { mode: 'browser', scenario: 'dashboard', speed: 20 },
    viewport: { width: 390, height: 844 },
  });
  try {
    await page.getByRole('button', { name: 'Send this' }).click();
    await runStatus(page, 'success').waitFor({ timeout: 30_000 });

    await page.getByRole('tab', { name: 'Events' }).click();
    await page.locator('.agk-timeline:visible').waitFor();
    const events = await countsShown(page, '.agk-timeline__summary');
    expect(events.length).toBeGreaterThan(0);
    expect(events.filter((row) => !row.whole)).toEqual([]);
    expect(events[0]?.text).toMatch(/, \+1 more · 4 ops$/);

    await page.getByRole('tab', { name: 'Shared state' }).click();
    await page.locator('.agk-inspector:visible').waitFor();
    const history = await countsShown(page, '.agk-inspector__what');
    expect(history.length).toBeGreaterThan(0);
    expect(history.filter((row) => !row.whole)).toEqual([]);
    expect(unexpected(problems)).toEqual([]);
  } finally {
    await close();
  }
});
