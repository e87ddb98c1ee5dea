/**
 * The playground's own layout on a laptop (1366x768) and a phone (390x844),
 * in English and Simplified Chinese, in *Agent server* and *AG-UI URL* mode:
 * nothing wider than the screen, the devtools beside the chat on the laptop
 * and below it under 900 px (holding what they show), the composer on the
 * first screen, the header's controls (language, theme) reachable and at
 * least 24 px each, the devtools' focus rings drawn whole, and on a phone the
 * devtools reached by scrolling on past the end of the conversation.
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

describe("the header's controls as targets for a finger or a pointer", () => {
  for (const viewport of VIEWPORTS) {
    const size = `${viewport.width}x${viewport.height}`;
    it.each(['en', 'zh-CN'])(`${size}, %s: every control of the header, with its label, is at least 24 px tall and wide`, async (lang) => {
      const o = await openPlayground(browser, playgroundUrl, { params: { mode: 'url', scenario: 'refund', lang }, viewport });
      const { page } = o;
      try {
        await page.locator('.agk-composer__input').waitFor();
        // What a finger or a pointer hits: the control with its label (a radio's name is its label, and clicks on it).
        const small = await page.locator('.pg__bar').evaluate((bar) =>
          [...bar.querySelectorAll('button, select, input')]
            .filter((e) => !(e instanceof HTMLInputElement && e.type === 'file'))
            .map((e) => {
              const target = e.closest('label') ?? e;
              const r = target.getBoundingClientRect();
              return { name: target.textContent?.trim() || (e as HTMLInputElement).value, width: r.width, height: r.height };
            })
            .filter((t) => t.width < 24 || t.height < 24),
        );
        expect(small, `${size}, ${lang}: targets under 24 px`).toEqual([]);
      } finally {
        await o.close();
      }
    });
  }

  for (const viewport of VIEWPORTS) {
    const size = `${viewport.width}x${viewport.height}`;
    it.each(['en', 'zh-CN'])(
      `${size}, %s: the list of local agents (URL mode) is at least 24 px tall, as tall as the header's selects`,
      async (lang) => {
        const o = await openPlayground(browser, playgroundUrl, { params: { mode: 'url', scenario: 'refund', lang }, viewport });
        const { page } = o;
        try {
          const agents = page.locator('.pg__urlhelp select');
          await agents.waitFor();
          const height = (e: Element) => e.getBoundingClientRect().height;
          const list = await agents.evaluate(height);
          const header = await page.locator('.pg__bar select').evaluateAll((all) => all.map((e) => e.getBoundingClientRect().height));
          expect(list, `${size}, ${lang}: the agent list's height (px)`).toBeGreaterThanOrEqual(24);
          for (const select of header)
            expect(list, `${size}, ${lang}: the agent list beside a select of the header (px)`).toBeCloseTo(select, 0);
        } finally {
          await o.close();
        }
      },
    );
  }

  it('"Load events…" is as tall as the buttons beside it', async () => {
    const o = await openPlayground(browser, playgroundUrl, {
      params: { mode: 'server', scenario: 'refund', lang: 'en' },
      viewport: { width: 1366, height: 768 },
    });
    const { page } = o;
    try {
      const height = (e: Element) => e.getBoundingClientRect().height;
      const file = await page.locator('.pg__file').evaluate(height);
      const buttons = await page.locator('.pg__actions > button').evaluateAll((all) => all.map((e) => e.getBoundingClientRect().height));
      expect(buttons.length).toBeGreaterThan(1);
      for (const button of buttons) expect(file, '"Load events…" beside a button of the header (px)').toBeCloseTo(button, 0);
    } finally {
      await o.close();
    }
  });
});

describe('the devtools below the chat on a phone', () => {
  it('390x844: the devtools hold what they show, and scrolled to its end the page keeps its padding under them', async () => {
    const o = await openPlayground(browser, playgroundUrl, {
      params: { mode: 'server', scenario: 'refund', lang: 'en' },
      viewport: { width: 390, height: 844 },
    });
    const { page } = o;
    try {
      await page.getByRole('tab', { name: 'Events' }).click();
      await page.locator('.agk-timeline:visible').waitFor();
      const seen = await page.locator('.pg__main').evaluate((main) => {
        main.scrollTop = main.scrollHeight;
        const side = main.querySelector('.pg__side') as HTMLElement;
        // The last box the devtools draw: the timeline's (its list, or the hint under it to pick an event).
        const content = [...side.querySelectorAll('.pg__panel:not([hidden]) *')].reduce(
          (bottom, e) => Math.max(bottom, e.getBoundingClientRect().bottom),
          Number.NEGATIVE_INFINITY,
        );
        return {
          side: side.getBoundingClientRect().bottom,
          content,
          main: main.getBoundingClientRect().bottom,
          padding: Number.parseFloat(getComputedStyle(main).paddingBottom),
        };
      });
      await page.screenshot({ path: '/tmp/aguikit-phone-devtools-end.png' });
      expect(seen.content, 'what the devtools draw ends inside their box').toBeLessThanOrEqual(seen.side + 0.5);
      expect(seen.main - seen.content, "room under the devtools at the page's end (px)").toBeGreaterThanOrEqual(seen.padding - 0.5);
      expect(unexpected(o.problems)).toEqual([]);
    } finally {
      await o.close();
    }
  });

  it('390x844: scrolling down over the conversation, once it is at its end, goes on down to the devtools', async () => {
    const o = await openPlayground(browser, playgroundUrl, {
      params: { mode: 'browser', scenario: 'activity', speed: 20, lang: 'en' },
      viewport: { width: 390, height: 844 },
    });
    const { page } = o;
    try {
      await page.locator('.pg__hint button').click();
      await page.locator('.agk-chat .agk-runstatus[data-status="success"]').waitFor();
      const list = await page.locator('.agk-messages__viewport').boundingBox();
      if (!list) throw new Error('The conversation is not drawn.');
      const before = await page.locator('.pg__side').evaluate((side) => side.getBoundingClientRect().top);
      expect(before, 'the devtools start below the first screen').toBeGreaterThanOrEqual(844);
      // The wheel over the middle of the conversation, as a finger's swipe up over the screen's largest part.
      await page.mouse.move(list.x + list.width / 2, list.y + list.height / 2);
      await page.mouse.wheel(0, 1500);
      await expect
        .poll(() => page.locator('.pg__side').evaluate((side) => side.getBoundingClientRect().top), {
          message: 'the devtools come onto the screen (their top, px)',
          timeout: 2_000,
        })
        .toBeLessThan(844);
      expect(unexpected(o.problems)).toEqual([]);
    } finally {
      await o.close();
    }
  });
});

/**
 * Where the focus ring of the focused element is cut by a box that clips what overflows it (a scroll box): the
 * sides cut, as `left`, `top`, `right`, `bottom`; empty when the whole ring is drawn. Fails when no ring shows.
 */
async function ringCut(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const e = document.activeElement as HTMLElement;
    const style = getComputedStyle(e);
    const width = Number.parseFloat(style.outlineWidth);
    if (style.outlineStyle === 'none' || !(width > 0)) return ['no ring'];
    const reach = width + Number.parseFloat(style.outlineOffset || '0');
    const r = e.getBoundingClientRect();
    const ring = { left: r.left - reach, top: r.top - reach, right: r.right + reach, bottom: r.bottom + reach };
    const cut = new Set<string>();
    for (let box = e.parentElement; box; box = box.parentElement) {
      if (getComputedStyle(box).overflow === 'visible') continue;
      const b = box.getBoundingClientRect();
      const inner = {
        left: b.left + box.clientLeft,
        top: b.top + box.clientTop,
        right: b.left + box.clientLeft + box.clientWidth,
        bottom: b.top + box.clientTop + box.clientHeight,
      };
      if (ring.left < inner.left - 0.5) cut.add('left');
      if (ring.top < inner.top - 0.5) cut.add('top');
      if (ring.right > inner.right + 0.5) cut.add('right');
      if (ring.bottom > inner.bottom + 0.5) cut.add('bottom');
    }
    return [...cut];
  });
}

describe("the devtools' focus rings beside the chat on a laptop", () => {
  const laptop = { width: 1366, height: 768 } as const;

  it('1366x768: the selected tab, reached with Tab, shows its whole focus ring', async () => {
    const o = await openPlayground(browser, playgroundUrl, {
      params: { mode: 'server', scenario: 'refund', lang: 'en' },
      viewport: laptop,
    });
    const { page } = o;
    try {
      await page.locator('.agk-composer__send').focus();
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('tab');
      expect(await ringCut(page), "the sides of the tab's ring that are cut").toEqual([]);
    } finally {
      await o.close();
    }
  });

  it('1366x768: in a replay, the state history, the event filter and the event list, reached with Tab, show their whole focus rings', async () => {
    const o = await openPlayground(browser, playgroundUrl, {
      params: { mode: 'server', scenario: 'refund', lang: 'en' },
      viewport: laptop,
    });
    const { page } = o;
    try {
      const threadId = 'thread-1';
      const stream = [
        { type: 'RUN_STARTED', threadId, runId: 'run-1' },
        { type: 'STATE_SNAPSHOT', snapshot: { order: { id: 'A-1001', status: 'delivered' } } },
        { type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/order/status', value: 'refunded' }] },
        { type: 'RUN_FINISHED', threadId, runId: 'run-1' },
      ];
      await page
        .locator('input[type="file"]')
        .setInputFiles({ name: 'refund.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(stream)) });
      await page.getByRole('region', { name: 'Replay' }).waitFor();
      await page.getByRole('button', { name: 'Back to live' }).focus();
      const seen: Record<string, string[]> = {};
      for (let i = 0; i < 30 && Object.keys(seen).length < 3; i++) {
        await page.keyboard.press('Tab');
        const which = await page.evaluate(() => {
          const e = document.activeElement;
          if (e?.matches('.agk-inspector__history [role="listbox"]')) return 'state history';
          if (e?.matches('.agk-timeline [role="listbox"]')) return 'event list';
          if (e?.matches('.agk-timeline input:not([type="checkbox"])')) return 'event filter';
          return undefined;
        });
        if (which) seen[which] = await ringCut(page);
      }
      await page.screenshot({ path: '/tmp/aguikit-replay-rings-1366.png' });
      expect(seen, 'the sides of each ring that are cut').toEqual({ 'state history': [], 'event filter': [], 'event list': [] });
    } finally {
      await o.close();
    }
  });
});
