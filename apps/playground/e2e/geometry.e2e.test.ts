/**
 * The playground's geometry from a phone to a wide screen, in Chromium,
 * against the real agent server: with an interrupt open, every decision
 * button (Approve, Reject, Close without answering, Yes, No, Save answer) is inside the viewport
 * and not covered by anything; nothing overflows the page horizontally; the
 * composer is on screen or reachable by scrolling the page, uncovered; and
 * with two interrupts open the message list keeps a usable share of the chat.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
// By path: the agent server is an app, not a dependency of the playground.
import type { AgentServer } from '../../agent-server/src/server.js';
import { launchChromium, type OpenOptions, openPlayground, runStatus, startOnAgentPort, unexpected } from './harness.js';

const playgroundUrl = inject('playgroundUrl');
const agentPort = inject('agentPort');
const FAST = 20;
/** "Close without answering" in the Chinese interface. */
const CLOSE_ZH = '不回答并关闭';

const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 1024, height: 768 },
  { width: 1280, height: 720 },
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
] as const;

let browser: Browser;
let server: AgentServer;
let dataDir: string;

beforeAll(async () => {
  browser = await launchChromium();
  dataDir = await mkdtemp(join(tmpdir(), 'aguikit-e2e-geometry-'));
  server = await startOnAgentPort({ port: agentPort, dataDir });
});

afterAll(async () => {
  await server?.close();
  await browser?.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** Where a button is and whether it can be clicked where it is drawn. */
interface ButtonGeometry {
  name: string;
  inViewport: boolean;
  covered: string | null;
}

/** Every button of every open (unanswered) interrupt: inside the viewport, and the topmost element at its centre. */
function actionButtons(page: Page): Promise<ButtonGeometry[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('.agk-interrupt[data-answer="none"] .agk-interrupt__buttons button')].map((b) => {
      const r = b.getBoundingClientRect();
      const inViewport = r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
      const hit = inViewport ? document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) : null;
      const covered = !inViewport ? 'outside the viewport' : hit && b.contains(hit) ? null : (hit?.className ?? 'nothing');
      return { name: b.textContent ?? '', inViewport, covered };
    }),
  );
}

/** The page's horizontal overflow in pixels (0 when nothing is wider than the viewport), and what sticks out. */
async function horizontalOverflow(page: Page): Promise<number> {
  const { over, wide } = await page.evaluate(() => ({
    over: document.documentElement.scrollWidth - innerWidth,
    wide: [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > innerWidth + 1)
      .slice(0, 5)
      .map((e) => `${e.tagName.toLowerCase()}.${e.className}`),
  }));
  if (over > 0) console.log(`horizontal overflow of ${over}px; sticking out: ${wide.join(', ')}`);
  return over;
}

/**
 * The composer's text box, scrolled into view by the page (as a user scrolls): inside the viewport and uncovered.
 * In a short window the chat is a scroll box of its own in the page (playground.css): scrolled there by both.
 */
async function composerReachable(page: Page, by: 'page' | 'page and chat' = 'page'): Promise<string | null> {
  // By its class: the name is the interface language's.
  return page.locator('textarea.agk-composer__input').evaluate((box, by) => {
    const scroller = document.scrollingElement ?? document.documentElement;
    if (by === 'page and chat') box.scrollIntoView({ block: 'nearest' });
    const before = box.getBoundingClientRect();
    // Else the page only (not the chat's own scroll boxes): the box must be reachable that way.
    scroller.scrollTop += Math.max(0, before.bottom - innerHeight);
    const r = box.getBoundingClientRect();
    // Scrolled by the browser to a box's edge: scroll offsets are whole pixels, positions in the page are not.
    const slack = by === 'page' ? 0 : 0.5;
    if (!(r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight + slack && r.right <= innerWidth)) {
      return `outside the viewport: ${JSON.stringify({ top: r.top, bottom: r.bottom, left: r.left, right: r.right })}`;
    }
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    scroller.scrollTop = 0;
    return hit && box.contains(hit) ? null : `covered by ${hit?.className ?? 'nothing'}`;
  }, by);
}

async function open(params: OpenOptions['params'], viewport: { width: number; height: number }) {
  const opened = await openPlayground(browser, playgroundUrl, { params, viewport });
  const { page } = opened;
  await page.getByRole('button', { name: params?.lang === 'zh-CN' ? '发送这句' : 'Send this' }).click();
  await runStatus(page, 'interrupted').waitFor();
  return opened;
}

/** Waits until the buttons that act through the generated form are enabled (its code loaded). */
async function formReady(dialog: Locator) {
  await dialog.locator('.agk-interrupt__buttons button[data-variant="primary"]:not(:disabled)').first().waitFor();
}

async function expectLaidOut(page: Page, names: string[], what: string, composerBy: 'page' | 'page and chat' = 'page') {
  const buttons = await actionButtons(page);
  expect(
    buttons.map((b) => b.name),
    `${what}: the open interrupts' buttons`,
  ).toEqual(names);
  expect(
    buttons.filter((b) => b.covered !== null),
    `${what}: buttons off-screen or covered`,
  ).toEqual([]);
  expect(await horizontalOverflow(page), `${what}: horizontal overflow (px)`).toBeLessThanOrEqual(0);
  expect(await composerReachable(page, composerBy), `${what}: the composer`).toBeNull();
}

/** Whether an element can be read where it is: its top and bottom edges on screen and not under anything (null), or why not. */
function readable(target: Locator): Promise<string | null> {
  return target.evaluate((h) => {
    const r = h.getBoundingClientRect();
    // Its top and bottom edges, not its middle alone: a heading half under the held actions is not readable.
    for (const y of [r.top + 2, r.bottom - 2]) {
      const hit = document.elementFromPoint(r.left + Math.min(r.width, 40) / 2, y);
      if (y < 0 || y > innerHeight || !hit || !h.contains(hit)) return `covered at y=${Math.round(y)} by ${hit?.className ?? 'nothing'}`;
    }
    return null;
  });
}

const shot = (page: Page, name: string) => page.screenshot({ path: `/tmp/aguikit-geometry-${name}.png` });

describe('the playground laid out from 390 to 1920 px, with interrupts open', () => {
  for (const viewport of VIEWPORTS) {
    const size = `${viewport.width}x${viewport.height}`;

    it(`${size}: the refund's Approve, Reject and Close without answering are on screen and uncovered; no horizontal overflow`, async () => {
      const o = await open({ mode: 'server', scenario: 'refund', speed: FAST }, viewport);
      const dialog = o.page.getByRole('dialog', { name: 'The agent is waiting for your answer' });
      await formReady(dialog);
      await shot(o.page, `refund-${size}`);
      await expectLaidOut(o.page, ['Approve', 'Reject', 'Close without answering'], `refund at ${size}`);
      expect(unexpected(o.problems)).toEqual([]);
      await o.close();
    });

    it(`${size}: two interrupts: each one's buttons on screen once it is in view, and the message list keeps its room`, async () => {
      const o = await open({ mode: 'server', scenario: 'two-interrupts', speed: FAST }, viewport);
      const { page } = o;
      const dialog = page.getByRole('dialog', { name: 'The agent is waiting for 2 answers' });
      await formReady(dialog);
      await shot(page, `two-${size}`);
      const share = await page.evaluate(() => {
        const chat = document.querySelector('.agk-chat')?.getBoundingClientRect();
        const list = document.querySelector('.agk-chat > .agk-messages')?.getBoundingClientRect();
        return chat && list ? list.height / chat.height : 0;
      });
      expect(share, 'the message list over the chat, in height').toBeGreaterThanOrEqual(0.34);
      // The first interrupt is the one focused: its buttons without any scrolling.
      const first = (await actionButtons(page)).filter((b) => b.name === 'Yes' || b.name === 'No').slice(0, 2);
      expect(
        first.filter((b) => b.covered !== null),
        `two at ${size}: the first interrupt's buttons`,
      ).toEqual([]);
      expect(await horizontalOverflow(page), `two at ${size}: horizontal overflow (px)`).toBeLessThanOrEqual(0);
      // No interrupt's held actions show before its question: buttons on screen are under a heading that can be read.
      const ahead = await dialog.locator('.agk-interrupt').evaluateAll((cards) =>
        cards
          .filter((card) =>
            [...card.querySelectorAll('.agk-interrupt__buttons button')].some((b) => {
              const r = b.getBoundingClientRect();
              const hit =
                r.height > 0 && r.top >= 0 && r.bottom <= innerHeight ? document.elementFromPoint(r.left + 4, r.top + r.height / 2) : null;
              return !!hit && b.contains(hit);
            }),
          )
          .filter((card) => {
            // The heading's text, where it is drawn (the box's padding may be under the dialog's own heading).
            const header = card.querySelector('.agk-interrupt__header');
            if (!header) return true;
            const range = document.createRange();
            range.selectNodeContents(header);
            const h = range.getBoundingClientRect();
            // Its glyphs: a line box's top and bottom quarters are mostly leading.
            return [h.top + h.height / 4, h.bottom - h.height / 4].some((y) => {
              const hit = document.elementFromPoint(h.left + 8, y);
              return y < 0 || y > innerHeight || !hit || !header.contains(hit);
            });
          })
          .map((card) => card.getAttribute('data-reason')),
      );
      expect(ahead, `two at ${size}: interrupts whose buttons show before their heading`).toEqual([]);
      // The second, brought into view as focus or a user would: its buttons too.
      const second = dialog.locator('.agk-interrupt[data-reason="input_required"]');
      await second.evaluate((el) => el.scrollIntoView({ block: 'start' }));
      // Its actions hold once its heading is on screen, which the scroll it made tells (in the next frame).
      const secondButtons = () =>
        second.evaluate((el) =>
          [...el.querySelectorAll('.agk-interrupt__buttons button')].map((b) => {
            const r = b.getBoundingClientRect();
            const inViewport = r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
            const hit = inViewport ? document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) : null;
            return { name: b.textContent, ok: inViewport && !!hit && b.contains(hit) };
          }),
        );
      await expect.poll(secondButtons).toEqual([
        { name: 'Save answer', ok: true },
        { name: 'Close without answering', ok: true },
      ]);
      expect(await composerReachable(page), `two at ${size}: the composer`).toBeNull();
      expect(unexpected(o.problems)).toEqual([]);
      await o.close();
    });
  }

  for (const [viewport, lang] of [
    [{ width: 1440, height: 900 }, 'en'],
    [{ width: 1366, height: 768 }, 'zh-CN'],
    [{ width: 390, height: 844 }, 'en'],
  ] as const) {
    const size = `${viewport.width}x${viewport.height}`;
    it(`${size}, ${lang}: after expiry, Close without answering (the only button left) is on screen and uncovered`, async () => {
      const o = await open({ mode: 'server', scenario: 'refund', speed: FAST, approvalWindowMs: 2500, lang }, viewport);
      await o.page.locator('.agk-interrupt[data-state="expired"]').waitFor({ timeout: 5000 });
      // The refund's card in the conversation says so too: no longer waiting for a decision.
      await o.page.locator('.agk-toolcall[data-tool="refund_order"][data-state="expired"]').waitFor({ timeout: 2000 });
      await shot(o.page, `expired-${size}`);
      await expectLaidOut(o.page, [lang === 'en' ? 'Close without answering' : CLOSE_ZH], `expired at ${size}`);
      // What expired is said where it can be read: the card's heading (its title and the Expired badge) is not under the sticky header.
      expect(
        await readable(o.page.locator('.agk-interrupt[data-state="expired"] .agk-interrupt__title')),
        `expired at ${size}: the card's heading`,
      ).toBeNull();
      expect(unexpected(o.problems)).toEqual([]);
      await o.close();
    });
  }

  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1366, height: 768 },
  ]) {
    it(`${viewport.width}x${viewport.height}: a long draft in the composer leaves the refund its room: its question readable, its buttons on screen`, async () => {
      const opened = await openPlayground(browser, playgroundUrl, {
        params: { mode: 'server', scenario: 'refund', speed: FAST },
        viewport,
      });
      const { page } = opened;
      // A draft of about 2,000 characters typed while the agent works, a pasted link in it: the composer grows to its tallest.
      const link = `https://shop.example.com/orders/0d9c4f1e-7a2b-4c3d-8e5f-6a7b8c9d0e1f?${'track=1&'.repeat(40)}`;
      await page
        .locator('textarea.agk-composer__input')
        .fill(`${'The teapot arrived broken, the lid in three pieces. '.repeat(32)}\n${link}\n退款的原因：茶壶破损。`);
      await page.getByRole('button', { name: 'Send this' }).click();
      await runStatus(page, 'interrupted').waitFor();
      const dialog = page.getByRole('dialog', { name: 'The agent is waiting for your answer' });
      await formReady(dialog);
      await shot(page, `refund-draft-${viewport.width}x${viewport.height}`);
      expect(await readable(dialog.locator('.agk-interrupt__title')), 'the question').toBeNull();
      expect(await readable(dialog.locator('.agk-interrupt__message')), "the question's text").toBeNull();
      await expectLaidOut(page, ['Approve', 'Reject', 'Close without answering'], 'refund with a long draft');
      expect(unexpected(opened.problems)).toEqual([]);
      await opened.close();
    });
  }

  // 200% zoom on a 1366x768 laptop: the page is 683x384 CSS pixels; and a wide window made short (developer tools docked below).
  // The wide one keeps its bar held and its composer on the first screen; the narrow one's bar (one row that scrolls
  // sideways, as on a phone) scrolls away with the page: its composer is a scroll down.
  for (const [what, viewport, firstScreen] of [
    ['a laptop at 200%', { width: 683, height: 384 }, false],
    ['a short wide window', { width: 1366, height: 450 }, true],
  ] as const) {
    const size = `${viewport.width}x${viewport.height}`;
    it(`${size} (${what}): the composer ${firstScreen ? 'on the first screen' : 'a scroll away'}; the refund's question and its Approve, Reject and Close without answering on screen`, async () => {
      const opened = await openPlayground(browser, playgroundUrl, {
        params: { mode: 'server', scenario: 'refund', speed: FAST },
        viewport,
      });
      const { page } = opened;
      // Before anything is asked.
      if (firstScreen) expect(await readable(page.locator('textarea.agk-composer__input')), 'the composer, idle').toBeNull();
      else expect(await composerReachable(page, 'page and chat'), 'the composer, idle').toBeNull();
      await page.getByRole('button', { name: 'Send this' }).click();
      await runStatus(page, 'interrupted').waitFor();
      const dialog = page.getByRole('dialog', { name: 'The agent is waiting for your answer' });
      await formReady(dialog);
      await shot(page, `refund-${size}`);
      expect(await readable(dialog.locator('.agk-interrupt__title')), 'the question').toBeNull();
      await expectLaidOut(page, ['Approve', 'Reject', 'Close without answering'], `refund at ${size}`, 'page and chat');
      expect(unexpected(opened.problems)).toEqual([]);
      await opened.close();
    });
  }

  it("390x844: a recording's long file name wraps inside the page", async () => {
    const viewport = { width: 390, height: 844 };
    const o = await openPlayground(browser, playgroundUrl, { params: { mode: 'server', scenario: 'refund', speed: FAST }, viewport });
    const threadId = '0d9c4f1e-7a2b-4c3d-8e5f-6a7b8c9d0e1f';
    const stream = [
      { type: 'RUN_STARTED', threadId, runId: 'run-1' },
      { type: 'RUN_FINISHED', threadId, runId: 'run-1' },
    ];
    const name = `退款会话-${threadId}-${'a'.repeat(120)}.jsonl`;
    await o.page
      .locator('input[type="file"]')
      .setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(stream)) });
    await o.page.getByRole('region', { name: 'Replay' }).waitFor();
    await shot(o.page, 'replay-long-name-390x844');
    expect(await horizontalOverflow(o.page), 'horizontal overflow (px)').toBeLessThanOrEqual(0);
    expect(unexpected(o.problems)).toEqual([]);
    await o.close();
  });
});

/**
 * Where the bar is one row that scrolls sideways (a phone; a laptop at 200% zoom), each field's name is beside its
 * control, the agent's radios too: a name above them would make the whole bar a line taller, out of the chat's height.
 */
describe('the one-row bar', () => {
  for (const viewport of [
    { width: 390, height: 844 },
    { width: 683, height: 384 },
  ]) {
    it(`${viewport.width}x${viewport.height}: the agent's name sits beside its radios, and the bar is one line of controls tall`, async () => {
      const o = await openPlayground(browser, playgroundUrl, { params: { mode: 'browser', scenario: 'refund', speed: FAST }, viewport });
      const { legend, radio, bar, select } = await o.page.evaluate(() => {
        const box = (s: string) => {
          const r = document.querySelector(s)?.getBoundingClientRect();
          return r ? { top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height } : undefined;
        };
        return { legend: box('.pg__modes legend'), radio: box('.pg__modes label'), bar: box('.pg__bar'), select: box('.pg__bar select') };
      });
      if (!legend || !radio || !bar || !select) throw new Error('no bar, legend, radio or select');
      // Beside: the name ends before the first radio starts, and they share a line.
      expect(legend.right).toBeLessThanOrEqual(radio.left);
      expect(legend.bottom).toBeGreaterThan(radio.top);
      expect(legend.top).toBeLessThan(radio.bottom);
      // One line of controls (the selects are the tallest), with the bar's padding: not two.
      expect(bar.height).toBeLessThan(select.height * 1.5 + 16);
      expect(unexpected(o.problems)).toEqual([]);
      await o.close();
    });
  }
});

/**
 * The composer's height while idle and while a run streams: its note (a run in progress) and Stop appear, and
 * nothing above it moves.
 */
describe('the composer as a run starts and ends', () => {
  for (const [viewport, font] of [
    [{ width: 320, height: 568 }, 16],
    [{ width: 390, height: 844 }, 16],
    [{ width: 390, height: 844 }, 24],
    [{ width: 1366, height: 768 }, 16],
  ] as const) {
    const size = `${viewport.width}x${viewport.height}${font === 16 ? '' : `, a default font of ${font}px`}`;
    it(`${size}: the composer keeps its height while a run streams (its note and Stop take no new row), so the thread above does not move`, async () => {
      // Slow enough to be seen streaming; the refund's lookup streams before it asks.
      const opened = await openPlayground(browser, playgroundUrl, { params: { mode: 'server', scenario: 'refund', speed: 1 }, viewport });
      const { page } = opened;
      // The browser's own font size setting (what rem in a media or container query is measured by), not a page style.
      if (font !== 16) {
        const cdp = await page.context().newCDPSession(page);
        await cdp.send('Page.setFontSizes', { fontSizes: { standard: font, fixed: font - 3 } });
      }
      const height = () => page.locator('.agk-chat__composer').evaluate((c) => Math.round(c.getBoundingClientRect().height * 10) / 10);
      const idle = await height();
      await page.getByRole('button', { name: 'Send this' }).click();
      await page.locator('.agk-composer[data-state="busy"]').waitFor();
      await page.getByRole('button', { name: 'Stop' }).waitFor();
      const streaming = await height();
      await shot(page, `composer-streaming-${viewport.width}x${viewport.height}-${font}px`);
      expect(streaming, `the composer idle ${idle}px, streaming ${streaming}px`).toBe(idle);
      expect(unexpected(opened.problems)).toEqual([]);
      await opened.close();
    });
  }
});

/**
 * A laptop whose browser is set to a large default font: the bar is one row that scrolls sideways, as on a phone,
 * not three rows over the chat, so a long draft leaves the conversation lines to read.
 */
describe('a large default font on a laptop', () => {
  it('1366x768, a default font of 24px: the bar and the hint take under a quarter of the height; with a long draft the conversation keeps over a quarter', async () => {
    const viewport = { width: 1366, height: 768 };
    const opened = await openPlayground(browser, playgroundUrl, { params: { mode: 'server', scenario: 'refund', speed: FAST }, viewport });
    const { page } = opened;
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Page.setFontSizes', { fontSizes: { standard: 24, fixed: 21 } });
    await page.locator('textarea.agk-composer__input').fill('The teapot arrived broken, the lid in three pieces. '.repeat(32));
    const { chatTop, conversation } = await page.evaluate(() => ({
      chatTop: Math.round(document.querySelector('.agk-chat')?.getBoundingClientRect().top ?? Number.NaN),
      conversation: Math.round(document.querySelector('.agk-chat > .agk-messages')?.getBoundingClientRect().height ?? Number.NaN),
    }));
    await shot(page, 'large-font-draft-1366x768');
    expect(chatTop, `the chat starts ${chatTop}px down`).toBeLessThanOrEqual(viewport.height / 4);
    expect(conversation, `the conversation is ${conversation}px tall beside the draft`).toBeGreaterThanOrEqual(viewport.height / 4);
    expect(await horizontalOverflow(page), 'horizontal overflow (px)').toBeLessThanOrEqual(0);
    expect(unexpected(opened.problems)).toEqual([]);
    await opened.close();
  });
});
