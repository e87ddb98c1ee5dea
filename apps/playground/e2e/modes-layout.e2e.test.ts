/**
 * The playground's own layout on a laptop (1366x768) and a phone (390x844),
 * in English and Simplified Chinese, in *Agent server* and *AG-UI URL* mode:
 * nothing wider than the screen, the devtools beside the chat on the laptop
 * and below it under 900 px, the composer on the first screen, and the
 * header's controls (language, theme) reachable.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
// By path: the agent server is an app, not a dependency of the playground.
import type { AgentServer } from '../../agent-server/src/server.js';
import { launchChromium, openPlayground, startOnAgentPort, unexpected } from './harness.js';

const playgroundUrl = inject('playgroundUrl');
const agentPort = inject('agentPort');

let browser: Browser;
let server: AgentServer;

beforeAll(async () => {
  [browser, server] = await Promise.all([launchChromium(), startOnAgentPort({ port: agentPort })]);
});

afterAll(async () => {
  await Promise.all([browser?.close(), server?.close()]);
});

interface Layout {
  overflow: number;
  wide: string[];
  chat: { top: number; bottom: number; left: number; right: number };
  side: { top: number; bottom: number; left: number; right: number };
  composerBottom: number;
  height: number;
  /** How far the page itself scrolls down (only its main area should). */
  vertical: number;
}

function layout(page: Page): Promise<Layout> {
  return page.evaluate(() => {
    const box = (selector: string) => {
      const r = document.querySelector(selector)?.getBoundingClientRect();
      return { top: r?.top ?? Number.NaN, bottom: r?.bottom ?? Number.NaN, left: r?.left ?? Number.NaN, right: r?.right ?? Number.NaN };
    };
    return {
      overflow: document.documentElement.scrollWidth - innerWidth,
      // What sticks out of the screen, outside the header (which scrolls sideways on a phone, inside itself).
      wide: [...document.querySelectorAll('body *')]
        .filter((e) => !e.closest('.pg__bar') && e.getBoundingClientRect().right > innerWidth + 1)
        .slice(0, 5)
        .map((e) => `${e.tagName.toLowerCase()}.${e.className}`),
      chat: box('.pg__chat'),
      side: box('.pg__side'),
      composerBottom: box('.agk-composer__input').bottom,
      height: innerHeight,
      vertical: document.documentElement.scrollHeight - innerHeight,
    };
  });
}

const VIEWPORTS = [
  { width: 1366, height: 768 },
  { width: 390, height: 844 },
] as const;

describe('the playground laid out on a laptop and a phone', () => {
  for (const viewport of VIEWPORTS) {
    for (const lang of ['en', 'zh-CN']) {
      for (const mode of ['server', 'url']) {
        const what = `${viewport.width}x${viewport.height}, ${lang}, ${mode} mode`;
        it(`${what}: no horizontal overflow, the devtools ${viewport.width < 900 ? 'below' : 'beside'} the chat, the composer on the first screen`, async () => {
          const o = await openPlayground(browser, playgroundUrl, { params: { mode, scenario: 'refund', lang }, viewport });
          const { page } = o;
          try {
            await page.locator('.agk-composer__input').waitFor();
            if (mode === 'url') await page.locator('.pg__urlhelp select, .pg__urlhelp p:last-child').first().waitFor();
            await page.screenshot({ path: `/tmp/aguikit-layout-${viewport.width}-${lang}-${mode}.png` });
            const l = await layout(page);
            expect(l.wide, `${what}: what sticks out`).toEqual([]);
            expect(l.overflow, `${what}: horizontal overflow (px)`).toBeLessThanOrEqual(0);
            expect(l.vertical, `${what}: the page scrolls (px), not only its main area`).toBeLessThanOrEqual(0);
            if (viewport.width < 900) expect(l.side.top, 'the devtools start below the chat').toBeGreaterThanOrEqual(l.chat.bottom);
            else {
              expect(l.side.left, 'the devtools start right of the chat').toBeGreaterThanOrEqual(l.chat.right);
              expect(l.side.top, 'the devtools sit beside the chat').toBeLessThan(l.chat.bottom);
            }
            expect(l.composerBottom, 'the composer is on the first screen').toBeLessThanOrEqual(l.height);
            // The language switch and the theme are reachable (the phone's header scrolls sideways to them).
            const language = page.locator('.pg__bar select').last();
            await language.scrollIntoViewIfNeeded();
            expect(await language.isVisible()).toBe(true);
            expect(await language.inputValue()).toBe(lang);
            expect(unexpected(o.problems)).toEqual([]);
          } finally {
            await o.close();
          }
        });
      }
    }
  }
});

describe('the Events tab beside the chat on a laptop', () => {
  it('1366x768: the event chosen with the keyboard has its detail on screen, and the list its whole focus ring', async () => {
    const o = await openPlayground(browser, playgroundUrl, {
      params: { mode: 'server', scenario: 'refund', lang: 'en', speed: 20 },
      viewport: { width: 1366, height: 768 },
    });
    const { page } = o;
    try {
      await page.getByRole('button', { name: 'Send this' }).click();
      await page.getByRole('button', { name: 'Approve' }).waitFor();
      await page.getByRole('tab', { name: 'Events' }).click();
      const list = page.getByRole('listbox');
      await list.focus();
      for (let i = 0; i < 3; i++) await list.press('ArrowDown');
      // The detail says "Replaying…" until the state at the chosen event is computed, and it is a deferred render: it may
      // show an event the keys passed on the way. Wait for the chosen one's.
      const chosen = await list.locator('[aria-selected="true"] .agk-timeline__index').textContent();
      expect(chosen).toMatch(/^#\d+$/);
      await page.locator('.agk-timeline__detail-title', { hasText: `After event ${chosen} (` }).waitFor();
      await page.screenshot({ path: '/tmp/aguikit-events-1366.png' });
      const seen = await page.evaluate(() => {
        const title = document.querySelector('.agk-timeline__detail-title')?.getBoundingClientRect();
        const box = document.querySelector('.agk-timeline [role="listbox"]') as HTMLElement;
        const ring = box.getBoundingClientRect();
        const width = Number.parseFloat(getComputedStyle(box).outlineWidth) + Number.parseFloat(getComputedStyle(box).outlineOffset || '0');
        const panel = (box.closest('.pg__panel') as HTMLElement).getBoundingClientRect();
        return {
          title: title ? title.bottom : Number.NaN,
          ring: { top: ring.top - width, left: ring.left - width, right: ring.right + width },
          panel: { top: panel.top, left: panel.left, right: panel.right },
        };
      });
      expect(seen.title, 'the detail title is above the bottom of the screen').toBeLessThanOrEqual(768);
      expect(seen.ring.top).toBeGreaterThanOrEqual(seen.panel.top);
      expect(seen.ring.left).toBeGreaterThanOrEqual(seen.panel.left);
      expect(seen.ring.right).toBeLessThanOrEqual(seen.panel.right);
      expect(unexpected(o.problems)).toEqual([]);
    } finally {
      await o.close();
    }
  });
});

describe("the phone's header, which scrolls sideways", () => {
  const phone = { width: 390, height: 844 } as const;

  it.each(['en', 'zh-CN'])('%s: the alert for an address that is no URL is on screen, whole, wrapped to the width', async (lang) => {
    const o = await openPlayground(browser, playgroundUrl, { params: { mode: 'url', scenario: 'refund', lang }, viewport: phone });
    const { page } = o;
    try {
      const input = page.locator('.pg__endpoint input');
      await input.fill('teapot');
      await input.press('Enter');
      const alert = page.getByRole('alert');
      await alert.waitFor();
      await page.screenshot({ path: `/tmp/aguikit-phone-invalid-url-${lang}.png` });
      const box = await alert.evaluate((e) => {
        const r = e.getBoundingClientRect();
        return { left: r.left, right: r.right, clipped: e.scrollWidth > e.clientWidth + 1 };
      });
      expect(box.left).toBeGreaterThanOrEqual(0);
      expect(box.right).toBeLessThanOrEqual(phone.width);
      expect(box.clipped).toBe(false);
      expect(await input.getAttribute('aria-describedby')).toContain(await alert.getAttribute('id'));
    } finally {
      await o.close();
    }
  });

  it('a header wider than the phone says it goes on: its hidden side fades, and the fade follows the scroll', async () => {
    const o = await openPlayground(browser, playgroundUrl, {
      params: { mode: 'server', scenario: 'refund', lang: 'zh-CN' },
      viewport: phone,
    });
    const { page } = o;
    try {
      await page.locator('.agk-composer__input').waitFor();
      const bar = page.locator('.pg__bar');
      const fade = () => bar.evaluate((el) => getComputedStyle(el).maskImage || getComputedStyle(el).webkitMaskImage);
      await expect.poll(() => bar.getAttribute('data-more')).toBe('end');
      expect(await fade()).toContain('linear-gradient');
      await bar.evaluate((el) => el.scrollTo({ left: el.scrollWidth / 3, behavior: 'instant' }));
      await expect.poll(() => bar.getAttribute('data-more')).toBe('start end');
      await bar.evaluate((el) => el.scrollTo({ left: el.scrollWidth, behavior: 'instant' }));
      await expect.poll(() => bar.getAttribute('data-more')).toBe('start');
      // On a laptop the bar wraps: nothing is hidden, nothing fades.
      await page.setViewportSize({ width: 1366, height: 768 });
      await expect.poll(() => bar.getAttribute('data-more')).toBe('');
      expect(await fade()).toBe('none');
    } finally {
      await o.close();
    }
  });

  it("the header's fade follows what the bar holds, not only its size: a language or mode that changes its width", async () => {
    const o = await openPlayground(browser, playgroundUrl, {
      params: { mode: 'server', scenario: 'refund', lang: 'zh-CN' },
      viewport: phone,
    });
    const { page } = o;
    try {
      await page.locator('.agk-composer__input').waitFor();
      const bar = page.locator('.pg__bar');
      // What the fade should say: whether the bar hides anything on either side.
      const state = () =>
        bar.evaluate((el) => {
          const truth = [el.scrollLeft > 1 ? 'start' : '', el.scrollLeft + el.clientWidth < el.scrollWidth - 1 ? 'end' : '']
            .filter(Boolean)
            .join(' ');
          return { shown: el.getAttribute('data-more'), truth, width: el.scrollWidth };
        });
      await bar.evaluate((el) => el.scrollTo({ left: el.scrollWidth, behavior: 'instant' }));
      await expect.poll(() => bar.getAttribute('data-more')).toBe('start');
      const before = (await state()).width;
      // English words are longer: the bar grows under the scroll position, which stays where it was.
      await bar.locator('select').last().selectOption('en');
      await expect.poll(async () => (await state()).width).not.toBe(before);
      await expect
        .poll(async () => {
          const s = await state();
          return s.shown === s.truth;
        })
        .toBe(true);
      // Scrolled to the end again, a mode whose controls are wider (an address field) is picked without focus coming
      // into the bar (a click from script, as a change from outside the bar would be): nothing scrolls, the end hides.
      await bar.evaluate((el) => el.scrollTo({ left: el.scrollWidth, behavior: 'instant' }));
      await expect.poll(() => bar.getAttribute('data-more')).toBe('start');
      await page
        .locator('.pg__modes input')
        .nth(2)
        .evaluate((el) => (el as HTMLInputElement).click());
      await page.locator('.pg__endpoint input').waitFor();
      expect((await state()).truth).toBe('start end');
      await expect
        .poll(async () => {
          const s = await state();
          return s.shown === s.truth;
        })
        .toBe(true);
    } finally {
      await o.close();
    }
  });

  it('Tab brings each control of the header whole onto the screen, with its label ("Load events…" is its label)', async () => {
    const o = await openPlayground(browser, playgroundUrl, { params: { mode: 'server', scenario: 'refund', lang: 'en' }, viewport: phone });
    const { page } = o;
    try {
      await page.locator('.agk-composer__input').waitFor();
      await page.locator('.pg__bar select').first().focus();
      const seen: string[] = [];
      for (let i = 0; i < 12; i++) {
        const where = await page.evaluate(() => {
          const e = document.activeElement as HTMLElement | null;
          if (!e?.closest('.pg__bar')) return undefined;
          // What the reader sees of it: the control with its label (the file control's input is a hidden pixel in it).
          const shown = e.closest('label') ?? e;
          const r = shown.getBoundingClientRect();
          return { name: `${e.tagName} ${shown.textContent?.trim() || (e as HTMLInputElement).value || ''}`, left: r.left, right: r.right };
        });
        if (!where) break;
        seen.push(where.name);
        // Whole, and clear of the faded edge that says the bar goes on (scroll-padding keeps it out).
        const more = (await page.locator('.pg__bar').getAttribute('data-more')) ?? '';
        expect(where.left, `${where.name}: its left edge`).toBeGreaterThanOrEqual(more.includes('start') ? 24 : -1);
        expect(where.right, `${where.name}: its right edge`).toBeLessThanOrEqual(phone.width - (more.includes('end') ? 24 : -1));
        await page.keyboard.press('Tab');
        // Smooth scrolling, where a page asks for it, takes a moment.
        await page.waitForTimeout(50);
      }
      expect(seen.length).toBeGreaterThan(4);
      expect(seen).toContain('INPUT Load events…');
    } finally {
      await o.close();
    }
  });

  it('Tab to "Load events…" half off the edge brings the whole button on screen, not just its hidden input', async () => {
    const o = await openPlayground(browser, playgroundUrl, { params: { mode: 'server', scenario: 'refund', lang: 'en' }, viewport: phone });
    const { page } = o;
    try {
      await page.locator('.agk-composer__input').waitFor();
      const bar = page.locator('.pg__bar');
      await page.getByRole('button', { name: 'Download events' }).focus();
      // The bar swiped so that "Load events…" starts 60 px inside the right edge and goes on past it.
      const file = page.locator('.pg__file');
      await bar.evaluate((el) => {
        const label = el.querySelector('.pg__file') as HTMLElement;
        el.scrollBy({ left: label.getBoundingClientRect().left - (el.getBoundingClientRect().right - 60), behavior: 'instant' });
      });
      const box = () => file.evaluate((el) => el.getBoundingClientRect().toJSON() as { left: number; right: number });
      expect((await box()).right).toBeGreaterThan(phone.width);
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.closest('label')?.textContent)).toBe('Load events…');
      // Whole, and clear of the fades (2.5em, 40 px) on either side.
      await expect.poll(async () => (await box()).right).toBeLessThanOrEqual(phone.width - 24);
      expect((await box()).left).toBeGreaterThanOrEqual(24);
    } finally {
      await o.close();
    }
  });
});
