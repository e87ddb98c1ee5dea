/**
 * The decisions with the keyboard alone, in the built playground in
 * Chromium against the real agent server: the refund approved and rejected,
 * a clarification, an escalation submitted empty first, and two interrupts
 * answered in one resume. After every step the test asserts where focus is
 * (never on <body>), and it records what the page's live regions said
 * (`aria-live`, `role=status`, `role=alert`, `role=log`) to assert the
 * announcements that matter: the interrupt announced while the user types,
 * the error summary of a failed submit, the answer saved, the answer sent.
 *
 * The playground's decision area, on the laptop-sized page these tests use,
 * cannot show an approval's question and its first field at once: the
 * interrupt itself takes focus with its question in view, and its first
 * field is the next Tab stop (InterruptGroup's focusWithQuestion); a short
 * one (a clarification's choice, the second of two interrupts) has its field
 * focused directly.
 *
 * The only pointer-free shortcut taken is the starting point: a test puts
 * focus on the control a Tab sequence would reach (the composer, the
 * scenario's "Send this" button) with `focus()`, then uses keys only.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scenarios } from '@aguikit/scenarios';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
// By path: the agent server is an app, not a dependency of the playground.
import type { AgentServer } from '../../agent-server/src/server.js';
import { launchChromium, type OpenPage, openPlayground, runStatus, startOnAgentPort, unexpected } from './harness.js';

const playgroundUrl = inject('playgroundUrl');
const agentPort = inject('agentPort');
const FAST = 20;

let browser: Browser;
let server: AgentServer | undefined;
let dataDir: string;
const pages: OpenPage[] = [];

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'aguikit-e2e-keys-'));
  server = await startOnAgentPort({ port: agentPort, dataDir });
});

afterEach(async () => {
  const opened = pages.splice(0);
  await server?.close();
  server = undefined;
  await rm(dataDir, { recursive: true, force: true });
  await Promise.all(opened.map((o) => o.close()));
  expect(
    opened.flatMap((o) => unexpected(o.problems)),
    'console errors and page errors',
  ).toEqual([]);
});

/** Records, from the first byte, every text a live region of the page says: the region's text when it changes. */
function recordLiveRegions(page: Page) {
  return page.addInitScript(() => {
    const said: string[] = [];
    (window as unknown as { __said: string[] }).__said = said;
    const LIVE = '[aria-live]:not([aria-live="off"]), [role="status"], [role="alert"], [role="log"]';
    const observer = new MutationObserver((records) => {
      const changed = new Set<Element>();
      for (const record of records) {
        const target = record.target instanceof Element ? record.target : record.target.parentElement;
        const region = target?.closest(LIVE);
        if (region?.getAttribute('role') === 'log') {
          // A log announces what is added to it, not its whole text.
          for (const node of record.addedNodes) if (node.textContent?.trim()) said.push(node.textContent.trim().slice(0, 300));
        } else if (region) changed.add(region);
        for (const node of record.addedNodes) {
          if (node instanceof Element && node.matches(LIVE) && node.getAttribute('role') !== 'log') changed.add(node);
        }
      }
      for (const region of changed) {
        const text = region.textContent?.trim() ?? '';
        if (text && said.at(-1) !== text) said.push(text);
      }
    });
    observer.observe(document, { subtree: true, childList: true, characterData: true });
  });
}

async function open(scenario: string, extra: Record<string, number> = {}): Promise<OpenPage> {
  const opened = await openPlayground(browser, playgroundUrl, { params: { mode: 'server', scenario, speed: FAST, ...extra } });
  pages.push(opened);
  // openPlayground has navigated already: the recorder goes in for the next load, and the page loads again.
  await recordLiveRegions(opened.page);
  await opened.page.reload();
  await opened.page.getByRole('heading', { name: 'aguikit playground' }).waitFor();
  return opened;
}

const said = (page: Page) => page.evaluate(() => [...(window as unknown as { __said: string[] }).__said]);

/** What has focus, described: tag, class, accessible-ish name. */
async function focused(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { tag: 'body', cls: '', name: '' };
    // The text a name is computed from, without what is hidden from assistive technology (aria-hidden).
    const text = (node: Element | null | undefined) => {
      if (!node) return '';
      const copy = node.cloneNode(true) as Element;
      for (const hidden of copy.querySelectorAll('[aria-hidden="true"]')) hidden.remove();
      return copy.textContent ?? '';
    };
    const labelled = el.getAttribute('aria-labelledby');
    const name =
      el.getAttribute('aria-label') ??
      (labelled ? text(document.getElementById(labelled.split(' ')[0] ?? '')) : null) ??
      (text((el as HTMLInputElement).labels?.[0]) || el.textContent || '');
    return { tag: el.tagName.toLowerCase(), cls: el.className, name: name.trim() };
  });
}

/**
 * Focus after a step, checked twice (at once and once the page settled): never <body>, and what `expected`
 * says; returns the description.
 */
async function focusIs(page: Page, expected: (f: { tag: string; cls: string; name: string }) => boolean, step: string) {
  let last = await focused(page);
  for (let i = 0; i < 40 && !expected(last); i++) {
    expect(last.tag, `${step}: focus on <body>`).not.toBe('body');
    await page.waitForTimeout(25);
    last = await focused(page);
  }
  expect(expected(last), `${step}: focus is on ${JSON.stringify(last)}`).toBe(true);
  await page.waitForTimeout(150);
  const after = await focused(page);
  expect(after, `${step}: focus moved on by itself`).toEqual(last);
  return last;
}

const isComposer = (f: { cls: string }) => f.cls.split(' ').includes('agk-composer__input');
const named = (tag: string, name: string | RegExp) => (f: { tag: string; name: string }) =>
  f.tag === tag && (typeof name === 'string' ? f.name === name : name.test(f.name));

/** Waits until the run has finished and checks focus did not drop meanwhile. */
async function settled(page: Page, step: string, expected: (f: { tag: string; cls: string; name: string }) => boolean) {
  await runStatus(page, 'success').waitFor();
  await focusIs(page, expected, `${step}, once the run ended`);
}

describe('decisions with the keyboard alone, in Chromium', () => {
  it('refund, approved: announced while typing, Alt+Shift+D, comment, Approve; focus back in the composer', async () => {
    const { page } = await open('refund');
    const composer = page.locator('form.agk-composer .agk-composer__input');
    await composer.focus();
    await page.keyboard.type(scenarios.refund.prompt);
    await page.keyboard.press('Enter');
    await runStatus(page, 'interrupted').waitFor();
    await page.locator('.agk-interrupt [data-agk-action="dismiss"]').waitFor();
    // The user was in the composer: focus stays there, the interrupt is announced with its shortcut.
    await focusIs(page, isComposer, 'interrupt opened while typing');
    await expect.poll(() => said(page)).toContain('The agent needs your decision. Press Alt+Shift+D to go to it.');

    // Typing on is not stolen by the interrupt.
    await page.keyboard.type('and thanks');
    expect(await composer.inputValue()).toBe('and thanks');
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');

    await page.keyboard.press('Alt+Shift+D');
    // The decision area cannot show the question and the comment field at once here: the interrupt takes focus, its question in view.
    await focusIs(page, named('article', 'Approval needed'), 'Alt+Shift+D');
    await page.keyboard.press('Tab');
    await focusIs(page, named('textarea', 'Comment for the customer record'), 'Tab to the comment');
    await page.keyboard.type('Photo on file.');
    await page.keyboard.press('Tab');
    await focusIs(page, named('button', 'Approve'), 'Tab to Approve');
    await page.keyboard.press('Enter');
    await focusIs(page, isComposer, 'after Approve');
    await settled(page, 'after Approve', isComposer);
    await expect.poll(() => said(page)).toContain('Answer sent: Approved, with the comment “Photo on file.”.');
  });

  it('refund, rejected: Reject with a comment; focus back in the composer, the outcome announced', async () => {
    const { page } = await open('refund');
    await page.locator('form.agk-composer .agk-composer__input').focus();
    await page.keyboard.type(scenarios.refund.prompt);
    await page.keyboard.press('Enter');
    await page.locator('.agk-interrupt [data-agk-action="dismiss"]').waitFor();
    await page.keyboard.press('Alt+Shift+D');
    await focusIs(page, named('article', 'Approval needed'), 'Alt+Shift+D');
    await page.keyboard.press('Tab');
    await focusIs(page, named('textarea', 'Comment for the customer record'), 'Tab to the comment');
    await page.keyboard.type('A replacement was accepted.');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await focusIs(page, named('button', 'Reject'), 'Tab to Reject');
    await page.keyboard.press('Enter');
    await focusIs(page, isComposer, 'after Reject');
    await settled(page, 'after Reject', isComposer);
    await expect.poll(() => said(page)).toContain('Answer sent: Rejected, with the comment “A replacement was accepted.”.');
  });

  it('clarification: focus on the choice, arrow to a value, Submit; focus to the composer', async () => {
    const { page } = await open('clarification');
    await page.getByRole('button', { name: 'Send this' }).focus();
    await page.keyboard.press('Enter');
    await runStatus(page, 'interrupted').waitFor();
    // Not typing anywhere: focus goes to the first field once the form is there.
    await focusIs(page, named('select', 'Contact channel'), 'interrupt opened');
    await page.keyboard.press('ArrowDown');
    expect(await page.getByLabel('Contact channel').inputValue()).toBe('1');
    await page.keyboard.press('Tab');
    await focusIs(page, named('button', 'Submit'), 'Tab to Submit');
    await page.keyboard.press('Enter');
    await focusIs(page, isComposer, 'after Submit');
    await settled(page, 'after Submit', isComposer);
    await expect.poll(() => said(page)).toContain('Answer sent: Contact channel: sms.');
  });

  it('escalation: an empty submit focuses the invalid field and announces the summary; then it is sent', async () => {
    const { page } = await open('escalation');
    await page.getByRole('button', { name: 'Send this' }).focus();
    await page.keyboard.press('Enter');
    await runStatus(page, 'interrupted').waitFor();
    await focusIs(page, named('article', 'Action needed'), 'interrupt opened');
    await page.keyboard.press('Tab');
    const decision = await focusIs(page, named('select', 'Decision'), 'Tab to the decision');
    expect(decision.name, 'the required marker is not part of the name').toBe('Decision');
    expect(await page.locator('.agk-interrupt dl').first().textContent()).toContain('Risk score');
    expect(await page.getByLabel('Decision').getAttribute('aria-invalid')).not.toBe('true');

    await page.keyboard.press('Tab');
    await focusIs(page, named('textarea', 'Note for the audit trail'), 'Tab to the note');
    await page.keyboard.press('Tab');
    await focusIs(page, named('button', 'Submit'), 'Tab to Submit');
    await page.keyboard.press('Enter');
    await focusIs(page, named('select', 'Decision'), 'after the empty submit');
    expect(await page.getByLabel('Decision').getAttribute('aria-invalid')).toBe('true');
    await expect.poll(() => said(page)).toContain('1 field needs attention: Decision.');
    expect(await runStatus(page, 'interrupted').count(), 'nothing was sent').toBe(1);

    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await focusIs(page, named('button', 'Submit'), 'Tab to Submit again');
    await page.keyboard.press('Enter');
    await focusIs(page, isComposer, 'after Submit');
    await settled(page, 'after Submit', isComposer);
    await expect.poll(() => said(page)).toContain('Answer sent: Decision: approve.');
  });

  it('two interrupts: Yes, then the reason, Save answer, Send answers; focus moves on at each step', async () => {
    const { page, requests } = await open('two-interrupts');
    await page.getByRole('button', { name: 'Send this' }).focus();
    await page.keyboard.press('Enter');
    await runStatus(page, 'interrupted').waitFor();
    // The first interrupt has no field: it takes focus itself (never a button, so Enter does not answer).
    await focusIs(page, named('article', 'Confirmation needed'), 'interrupts opened');
    await page.keyboard.press('Tab');
    await focusIs(page, named('button', 'Yes'), 'Tab to Yes');
    await page.keyboard.press('Enter');
    await focusIs(page, named('select', 'Reason'), 'after Yes, the next interrupt');
    await expect.poll(() => said(page)).toContain('Saved: Yes. 1 of 2 answered.');

    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Tab');
    await focusIs(page, named('button', 'Save answer'), 'Tab to Save answer');
    await page.keyboard.press('Enter');
    await focusIs(page, named('button', 'Send answers'), 'after Save answer');
    await expect.poll(() => said(page)).toContain('Saved: Reason: too expensive. 2 of 2 answered.');
    expect(requests.filter((r) => r.body.resume?.length)).toEqual([]);

    await page.keyboard.press('Enter');
    await focusIs(page, isComposer, 'after Send answers');
    await settled(page, 'after Send answers', isComposer);
    await expect.poll(() => said(page)).toContain('2 answers sent.');
    expect(requests.filter((r) => r.body.resume?.length)).toHaveLength(1);
  });

  it('Escape in an interrupt goes back to where focus was, without answering', async () => {
    const { page, requests } = await open('clarification');
    await page.getByRole('button', { name: 'Send this' }).focus();
    await page.keyboard.press('Enter');
    await runStatus(page, 'interrupted').waitFor();
    await focusIs(page, named('select', 'Contact channel'), 'interrupt opened');
    await page.keyboard.press('Escape');
    await focusIs(page, named('button', 'Send this'), 'after Escape');
    expect(requests.filter((r) => r.body.resume?.length)).toEqual([]);
    await page.keyboard.press('Alt+Shift+D');
    await focusIs(page, named('select', 'Contact channel'), 'Alt+Shift+D');
  });

  it('expiry while Approve is focused: focus moves to Close without answering, the expiry is announced', async () => {
    const { page } = await open('refund', { approvalWindowMs: 4000 });
    await page.getByRole('button', { name: 'Send this' }).focus();
    await page.keyboard.press('Enter');
    await runStatus(page, 'interrupted').waitFor();
    await focusIs(page, named('article', 'Approval needed'), 'interrupt opened');
    await page.keyboard.press('Tab');
    await focusIs(page, named('textarea', 'Comment for the customer record'), 'Tab to the comment');
    await page.keyboard.press('Tab');
    await focusIs(page, named('button', 'Approve'), 'Tab to Approve');
    await page.locator('.agk-interrupt[data-state="expired"]').waitFor({ timeout: 8000 });
    await focusIs(page, named('button', 'Close without answering'), 'at expiry');
    await expect
      .poll(() => said(page))
      .toContainEqual(expect.stringMatching(/^This request expired at .+: it can no longer be answered, only closed\.$/));
    await page.keyboard.press('Enter');
    await focusIs(page, isComposer, 'after Close without answering');
    await settled(page, 'after Close without answering', isComposer);
    await expect.poll(() => said(page)).toContain('Answer sent: none, closed without answering.');
  });
});

/**
 * At 200% zoom of a 1280x768 screen (640x384 CSS px) the page is the scroll box and the chat a screen tall under the
 * bar: focus in the composer's field, given back after a decision or reached with Tab, brings the whole composer on
 * screen, its field with its focus ring and Send, not only the line of the caret (what the browser itself scrolls to).
 */
describe('the composer, focused at 200% zoom', () => {
  const viewport = { width: 640, height: 384 };
  /** How many px of the composer's field (its focus ring included) and of Send are off the screen's edges (0: none). */
  const offScreen = (page: Page) =>
    page.evaluate(() => {
      const off = (el: Element | null, ring = 0) => {
        if (!el) return Number.POSITIVE_INFINITY;
        const r = el.getBoundingClientRect();
        return Math.max(0, r.bottom + ring - innerHeight, ring - r.top);
      };
      const field = document.querySelector('.agk-composer__input');
      const style = field ? getComputedStyle(field) : undefined;
      const ring = style ? Number.parseFloat(style.outlineWidth) + Number.parseFloat(style.outlineOffset) : 0;
      return { field: Math.round(off(field, ring)), send: Math.round(off(document.querySelector('.agk-composer__send'))) };
    });

  it('640x384: after a clarification is answered with the keyboard, the composer that takes focus is wholly on screen', async () => {
    const opened = await openPlayground(browser, playgroundUrl, {
      params: { mode: 'server', scenario: 'clarification', speed: FAST },
      viewport,
    });
    pages.push(opened);
    const { page } = opened;
    await page.getByRole('button', { name: 'Send this' }).focus();
    await page.keyboard.press('Enter');
    await runStatus(page, 'interrupted').waitFor();
    await focusIs(page, named('select', 'Contact channel'), 'interrupt opened');
    await page.keyboard.press('Tab');
    await focusIs(page, named('button', 'Submit'), 'Tab to Submit');
    await page.keyboard.press('Enter');
    await focusIs(page, isComposer, 'after Submit');
    await settled(page, 'after Submit', isComposer);
    expect(await offScreen(page)).toEqual({ field: 0, send: 0 });
  });

  it('640x384: Tab from the conversation to the composer brings it wholly on screen', async () => {
    const opened = await openPlayground(browser, playgroundUrl, { params: { mode: 'server', scenario: 'refund', speed: FAST }, viewport });
    pages.push(opened);
    const { page } = opened;
    await page.getByRole('log', { name: 'Conversation' }).focus();
    await page.keyboard.press('Tab');
    await focusIs(page, isComposer, 'Tab to the composer');
    expect(await offScreen(page)).toEqual({ field: 0, send: 0 });
  });
});

describe('the way past the bar, with the keyboard', () => {
  it.each([
    ['a laptop', { width: 1366, height: 768 }, 'en', 'Skip to the conversation'],
    ['a phone', { width: 390, height: 844 }, 'zh-CN', '跳到对话'],
  ] as const)(
    'on %s: the first Tab shows a skip link in view; Enter takes focus past the bar, into the conversation',
    async (_name, viewport, lang, label) => {
      const opened = await openPlayground(browser, playgroundUrl, { viewport, params: { mode: 'server', scenario: 'refund', lang } });
      pages.push(opened);
      const { page } = opened;
      await page.locator('form.agk-composer').waitFor();
      await page.keyboard.press('Tab');
      await focusIs(page, named('a', label), 'the first Tab');
      const box = await page.evaluate(() => {
        const r = (document.activeElement as HTMLElement).getBoundingClientRect();
        return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height };
      });
      // Seen where the user looks, whole: not a 1 px clip, not off the page.
      expect(box.width).toBeGreaterThan(40);
      expect(box.height).toBeGreaterThan(16);
      expect(box.left).toBeGreaterThanOrEqual(0);
      expect(box.top).toBeGreaterThanOrEqual(0);
      expect(box.right).toBeLessThanOrEqual(viewport.width);
      await page.keyboard.press('Enter');
      await focusIs(page, (f) => f.tag === 'main', 'Enter on the skip link');
      // The settings in the address stay as they were.
      expect(new URL(page.url()).searchParams.get('scenario')).toBe('refund');
      await page.keyboard.press('Tab');
      const next = await page.evaluate(() => ({
        inMain: document.activeElement?.closest('main') !== null,
        inBar: document.activeElement?.closest('.pg__bar') !== null,
      }));
      expect(next).toEqual({ inMain: true, inBar: false });
      // Unfocused, it is out of sight, takes no room and widens nothing.
      const hidden = await page.getByRole('link', { name: label }).evaluate((a) => a.getBoundingClientRect().width);
      expect(hidden).toBeLessThanOrEqual(1);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    },
  );
});
