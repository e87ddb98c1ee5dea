/**
 * What a person sees of the chat in Chromium, in the built playground (the
 * in-browser agent, so no server is needed): the keyboard focus ring has at
 * least 3:1 contrast against what is behind it in the light and the dark
 * theme (WCAG 1.4.11); in forced colors (Windows High Contrast) a focused
 * button still shows an outline, so a focused Approve looks different from
 * Reject (2.4.7), and the words of the selected tab and of the pressed theme
 * button are readable as drawn (1.4.3); and at 320 CSS px and at 200% zoom (a 1280x768 screen is
 * 640x384 CSS px then) nothing scrolls sideways, the conversation keeps a
 * height, and the composer is shown (1.4.10).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchChromium, type OpenOptions, openPlayground, runStatus, unexpected } from './harness.js';

const playgroundUrl = inject('playgroundUrl');
const FAST = 20;

let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

/** The refund scenario in the browser, run until its approval is open. */
async function openRefund(options: Omit<OpenOptions, 'params'> = {}) {
  const opened = await openPlayground(browser, playgroundUrl, { params: { mode: 'browser', scenario: 'refund', speed: FAST }, ...options });
  await opened.page.getByRole('button', { name: 'Send this' }).click();
  await runStatus(opened.page, 'interrupted').waitFor();
  await opened.page.locator('.agk-interrupt__buttons button[data-variant="primary"]:not(:disabled)').first().waitFor();
  return opened;
}

/** Moves focus to `name` with the keyboard (so `:focus-visible` applies as for a keyboard user). */
async function keyboardFocus(page: Page, name: string) {
  const button = page.getByRole('button', { name, exact: true });
  await button.focus();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  await expect.poll(() => button.evaluate((b) => b === document.activeElement && b.matches(':focus-visible'))).toBe(true);
  return button;
}

/** The focused element's outline, and the first opaque background behind it (its parents', the element's own excluded). */
function focusRing(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement;
    const style = getComputedStyle(el);
    let background = 'rgb(255, 255, 255)';
    for (let node = el.parentElement; node; node = node.parentElement) {
      const bg = getComputedStyle(node).backgroundColor;
      const alpha = bg.startsWith('rgba') ? Number(bg.slice(bg.lastIndexOf(',') + 1, -1)) : 1;
      if (bg !== 'transparent' && alpha > 0.99) {
        background = bg;
        break;
      }
    }
    return {
      tag: `${el.tagName.toLowerCase()}.${el.className}`,
      outlineStyle: style.outlineStyle,
      outlineWidth: Number.parseFloat(style.outlineWidth),
      outlineColor: style.outlineColor,
      background,
    };
  });
}

/** The WCAG 2 contrast ratio of two `rgb()`/`rgba()` colors (opaque ones; an alpha below 1 is treated as opaque). */
function contrast(a: string, b: string): number {
  const luminance = (color: string) => {
    const [r, g, bl] = (color.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
    const channel = (v = 0) => {
      const c = v / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(bl);
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

describe('the focus ring', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`${colorScheme}: a focused Approve and a focused Send have a solid outline with at least 3:1 contrast against what is behind them`, async () => {
      const o = await openRefund({ colorScheme });
      const { page } = o;
      await expect.poll(() => page.locator('.pg').getAttribute('data-theme')).toBe(colorScheme);
      for (const name of ['Approve', 'Send']) {
        await keyboardFocus(page, name);
        const ring = await focusRing(page);
        expect(ring.outlineStyle, `${name}: outline style (${ring.tag})`).toBe('solid');
        expect(ring.outlineWidth, `${name}: outline width`).toBeGreaterThanOrEqual(2);
        const ratio = contrast(ring.outlineColor, ring.background);
        expect(ratio, `${name}: ${ring.outlineColor} on ${ring.background}`).toBeGreaterThanOrEqual(3);
      }
      expect(unexpected(o.problems)).toEqual([]);
      await o.close();
    });
  }
});

describe('forced colors', () => {
  it('a focused button keeps a visible outline, and a focused Approve differs from Reject', async () => {
    const o = await openRefund();
    const { page } = o;
    await page.emulateMedia({ forcedColors: 'active' });
    expect(await page.evaluate(() => matchMedia('(forced-colors: active)').matches)).toBe(true);
    const approve = await keyboardFocus(page, 'Approve');
    const look = (name: string) =>
      page.getByRole('button', { name, exact: true }).evaluate((b) => {
        const s = getComputedStyle(b);
        return { outlineStyle: s.outlineStyle, outlineWidth: Number.parseFloat(s.outlineWidth), boxShadow: s.boxShadow };
      });
    const focused = await approve.evaluate((b) => {
      const s = getComputedStyle(b);
      return { outlineStyle: s.outlineStyle, outlineWidth: Number.parseFloat(s.outlineWidth) };
    });
    expect(focused.outlineStyle, 'the focused Approve: outline style').not.toBe('none');
    expect(focused.outlineWidth, 'the focused Approve: outline width').toBeGreaterThanOrEqual(1);
    const reject = await look('Reject');
    expect(
      reject.outlineStyle === 'none' || reject.outlineWidth === 0,
      `Reject (not focused) has no outline, so the focused Approve is told apart: ${JSON.stringify(reject)}`,
    ).toBe(true);
    // The same in the composer: Send focused has the outline too.
    await keyboardFocus(page, 'Send');
    expect((await look('Send')).outlineStyle).not.toBe('none');
    expect(unexpected(o.problems)).toEqual([]);
    await o.close();
  });
});

/**
 * The contrast of the words of `target` as drawn: the two colors most pixels of their box have (what is behind the
 * words, and the words), read from a screenshot, so that what the browser draws under text in forced colors (a
 * backplate in Canvas) counts.
 */
async function drawnContrast(page: Page, target: ReturnType<Page['locator']>): Promise<{ ratio: number; colors: string[] }> {
  const box = await target.evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    const r = range.getBoundingClientRect();
    return { x: r.left, y: r.top, width: r.width, height: r.height };
  });
  const png = (await page.screenshot({ clip: box, animations: 'disabled' })).toString('base64');
  const colors = await page.evaluate(async (data) => {
    const image = new Image();
    image.src = `data:image/png;base64,${data}`;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.width;
    canvas.height = image.height;
    const context = canvas.getContext('2d');
    if (!context) throw new Error('no 2d context');
    context.drawImage(image, 0, 0);
    const pixels = context.getImageData(0, 0, image.width, image.height).data;
    const counts = new Map<string, number>();
    for (let i = 0; i < pixels.length; i += 4) {
      const key = `rgb(${pixels[i]}, ${pixels[i + 1]}, ${pixels[i + 2]})`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return [...counts].sort((a, b) => b[1] - a[1]).map(([color]) => color);
  }, png);
  const [behind = '', words = behind] = colors;
  return { ratio: contrast(behind, words), colors: colors.slice(0, 2) };
}

describe('forced colors: the selected tab and the pressed theme button', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`${colorScheme}: their words are readable (at least 4.5:1 as drawn)`, async () => {
      const o = await openPlayground(browser, playgroundUrl, { params: { mode: 'browser', scenario: 'refund', speed: FAST }, colorScheme });
      const { page } = o;
      await page.emulateMedia({ forcedColors: 'active' });
      await expect.poll(() => page.locator('.pg').getAttribute('data-theme')).toBe(colorScheme);
      const selected = page.locator('.pg__tabs [aria-selected="true"]');
      const tab = await drawnContrast(page, selected);
      expect(tab.ratio, `the selected tab "${await selected.textContent()}": ${tab.colors.join(' and ')}`).toBeGreaterThanOrEqual(4.5);
      // The theme button is pressed in the dark theme; in the light one it is pressed here for the check, then released.
      const theme = page.locator('.pg__actions [aria-pressed]');
      if (colorScheme === 'light') await theme.click();
      await expect.poll(() => theme.getAttribute('aria-pressed')).toBe('true');
      await page.mouse.move(0, 0);
      const pressed = await drawnContrast(page, theme);
      expect(pressed.ratio, `the pressed theme button: ${pressed.colors.join(' and ')}`).toBeGreaterThanOrEqual(4.5);
      expect(unexpected(o.problems)).toEqual([]);
      await o.close();
    });
  }
});

/** The document's horizontal overflow (px), the conversation's height, and whether the composer's text box is shown. */
function reflow(page: Page) {
  return page.evaluate(() => {
    const list = document.querySelector('.agk-chat > .agk-messages');
    const viewport = document.querySelector('.agk-chat .agk-messages__viewport');
    const box = document.querySelector<HTMLElement>('.agk-chat .agk-composer__input');
    const scroller = document.scrollingElement ?? document.documentElement;
    // Reached by scrolling the page, as a person would.
    box?.scrollIntoView({ block: 'nearest' });
    const r = box?.getBoundingClientRect();
    const hit = r ? document.elementFromPoint(r.left + r.width / 2, r.top + Math.min(r.height / 2, 10)) : null;
    // The page scrolls by whole pixels, the layout above the box may not: its edge may stop under a pixel past the window's.
    const composerShown = !!(r && r.width > 0 && r.height > 0 && r.top >= -1 && r.bottom <= innerHeight + 1 && box?.contains(hit));
    const result = {
      overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      wide: [...document.querySelectorAll('body *')]
        .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
        .slice(0, 5)
        .map((e) => `${e.tagName.toLowerCase()}.${e.className}`),
      conversation: Math.min(list?.getBoundingClientRect().height ?? 0, viewport?.getBoundingClientRect().height ?? 0),
      composerShown,
    };
    scroller.scrollTop = 0;
    return result;
  });
}

describe('the composer', () => {
  it('stays where it is as a run starts and ends (1366x768): the note it shows meanwhile has its room', async () => {
    const o = await openPlayground(browser, playgroundUrl, {
      params: { mode: 'browser', scenario: 'fast-stream', speed: 1 },
      viewport: { width: 1366, height: 768 },
    });
    const { page } = o;
    const top = () => page.locator('.agk-chat .agk-composer__input').evaluate((el) => Math.round(el.getBoundingClientRect().top));
    const idle = await top();
    await page.getByRole('button', { name: 'Send this' }).click();
    await runStatus(page, 'running').waitFor();
    await page.locator('.agk-chat .agk-composer__note').filter({ hasText: /\S/ }).waitFor();
    expect(await top(), 'while the run streams').toBe(idle);
    await runStatus(page, 'success').waitFor({ timeout: 30_000 });
    expect(await top(), 'once it has ended').toBe(idle);
    expect(unexpected(o.problems)).toEqual([]);
    await o.close();
  });
});

describe('the composer text box', () => {
  // A user's next message, in English and Chinese, with an order's id: twelve lines, more than the box shows.
  const lines = (n: number) =>
    Array.from({ length: n }, (_, i) =>
      i % 2
        ? `第 ${i + 1} 行：订单 0d9c4f1e-7a2b-4c3d-8e5f-6a7b8c9d0e1f 的茶壶到货时已经碎了。`
        : `Line ${i + 1}: the teapot arrived broken.`,
    ).join('\n');

  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1366, height: 768 },
  ]) {
    const size = `${viewport.width}x${viewport.height}`;
    it(`${size}: grows with what is typed up to six lines, then scrolls, idle and while the agent waits; the conversation keeps its top`, async () => {
      const o = await openPlayground(browser, playgroundUrl, { params: { mode: 'browser', scenario: 'refund', speed: FAST }, viewport });
      const { page } = o;
      const box = page.locator('.agk-chat .agk-composer__input');
      // The lines shown: the box's height less its padding, in lines of its text.
      const shown = () =>
        box.evaluate((el) => {
          const style = getComputedStyle(el);
          const padding = Number.parseFloat(style.paddingTop) + Number.parseFloat(style.paddingBottom);
          return { lines: (el.clientHeight - padding) / Number.parseFloat(style.lineHeight), hidden: el.scrollHeight - el.clientHeight };
        });
      const listTop = () => page.locator('.agk-chat > .agk-messages').evaluate((el) => el.getBoundingClientRect().top);
      for (const state of ['idle', 'waiting']) {
        if (state === 'waiting') {
          await box.fill('');
          await page.getByRole('button', { name: 'Send this' }).click();
          await runStatus(page, 'interrupted').waitFor();
        }
        const top = await listTop();
        await box.fill('Order A-1001\n茶壶碎了。\nThanks!');
        const three = await shown();
        expect(three.lines, `${size}, ${state}: three lines typed, the lines shown`).toBeGreaterThanOrEqual(2.9);
        expect(three.hidden, `${size}, ${state}: three lines, none scrolled out of sight (px)`).toBeLessThanOrEqual(1);
        await box.fill(lines(12));
        const twelve = await shown();
        expect(twelve.lines, `${size}, ${state}: twelve lines typed, the lines shown`).toBeGreaterThanOrEqual(5.9);
        expect(twelve.lines, `${size}, ${state}: twelve lines typed, the lines shown`).toBeLessThanOrEqual(6.1);
        expect(twelve.hidden, `${size}, ${state}: the rest scrolls in the box (px)`).toBeGreaterThan(0);
        expect(await listTop(), `${size}, ${state}: the conversation's top edge`).toBe(top);
        await box.press('Shift+Enter');
        expect(await box.inputValue(), `${size}, ${state}: Shift+Enter makes a new line`).toBe(`${lines(12)}\n`);
      }
      expect(unexpected(o.problems)).toEqual([]);
      await o.close();
    });
  }
});

describe('reflow', () => {
  for (const [what, viewport] of [
    ['320 CSS px', { width: 320, height: 640 }],
    ['200% zoom', { width: 640, height: 384 }],
  ] as const) {
    it(`${what} (${viewport.width}x${viewport.height}): no sideways scrolling, the conversation has a height, the composer is shown`, async () => {
      const o = await openPlayground(browser, playgroundUrl, { params: { mode: 'browser', scenario: 'refund', speed: FAST }, viewport });
      const { page } = o;
      const idle = await reflow(page);
      expect(idle.overflow, `idle: horizontal overflow (${idle.wide.join(', ')})`).toBeLessThanOrEqual(0);
      expect(idle.conversation, 'idle: the conversation (px)').toBeGreaterThan(0);
      expect(idle.composerShown, 'idle: the composer').toBe(true);

      await page.getByRole('button', { name: 'Send this' }).click();
      await runStatus(page, 'interrupted').waitFor();
      // The interrupt takes focus as it opens, which scrolls the page: the composer is measured once that is done.
      await page.waitForFunction(() => document.activeElement?.closest('.agk-interrupt') !== null);
      await expect.poll(async () => (await reflow(page)).composerShown, { timeout: 5_000 }).toBe(true);
      const open = await reflow(page);
      expect(open.overflow, `interrupt open: horizontal overflow (${open.wide.join(', ')})`).toBeLessThanOrEqual(0);
      expect(open.conversation, 'interrupt open: the conversation (px)').toBeGreaterThan(0);
      expect(open.composerShown, 'interrupt open: the composer').toBe(true);
      expect(unexpected(o.problems)).toEqual([]);
      await o.close();
    });
  }
});
