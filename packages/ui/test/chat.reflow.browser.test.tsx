// Vite's client types: they declare the stylesheet import below.
/// <reference types="vite/client" />
// The Playwright provider types cdp() sessions (its `send`).
/// <reference types="@vitest/browser-playwright" />
import { AgentProvider } from '@aguikit/react';
import { afterEach, describe, expect, it } from 'vitest';
import { cdp, page } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { AgentChat } from '../src/AgentChat.js';
import { preloadMarkdown } from '../src/lazyChunks.js';
import { call, playedStore, runOf, say } from '../src/storybook/scripted.js';
import '../src/styles.css';
import { drivenStore } from './support/drivenStore.js';

/**
 * The chat as people with different needs read it, in real Chromium: at 320 CSS px (400% zoom of a 1280 px window)
 * long unbroken text wraps and nothing scrolls sideways but a table's frame (WCAG 1.4.10); with the text spacing of
 * WCAG 1.4.12 nothing is cut; in forced colors (Windows High Contrast) every box keeps an edge, badges and buttons
 * included; with reduced motion nothing moves while a reply streams.
 */

const URL300 = `https://shop.example.com/orders/A-1001/track?${'carrier=dhl&scan=hub&'.repeat(14)}end`;
const UUIDS = Array.from({ length: 6 }, (_, i) => `6ba7b81${i}-9dad-41d1-80b4-00c04fd430c8`).join('-');
const CHINESE = '您的订单已于二零二六年十一月二十五日从上海仓库发出，预计三个工作日内送达，请留意快递员的电话通知并保持手机畅通。';
const TABLE = [
  '| Order | Customer | Status | Carrier | Shipped | Delivered | Amount |',
  '|---|---|---|---|---|---|---|',
  '| A-1001 | Bellarossa Trading | Delivered | DHL Express | 2026-11-25 | 2026-11-27 | 249.00 EUR |',
].join('\n');
const CODE = ['```json', `{"trace":"${'x'.repeat(200)}","ok":true}`, '```'].join('\n');
const MARKDOWN = [`See ${URL300}`, UUIDS, CHINESE, TABLE, CODE].join('\n\n');
/** The text spacing WCAG 1.4.12 asks content to survive, as a reader's style sheet sets it. */
const SPACING =
  '* { line-height: 1.5 !important; letter-spacing: .12em !important; word-spacing: .16em !important; } p { margin-bottom: 2em !important; }';

afterEach(async () => {
  for (const el of document.body.querySelectorAll(':scope > div')) el.remove();
  for (const el of document.head.querySelectorAll('style[data-reader]')) el.remove();
  await cdp().send('Emulation.setEmulatedMedia', { features: [] });
  await page.viewport(414, 896);
});

const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 150));

/** A chat at 320x640 whose thread holds long unbroken text, a wide table, a code block, a tool call and a failed run. */
async function longChat() {
  await preloadMarkdown();
  await page.viewport(320, 640);
  const store = await playedStore([
    {
      say: `Where is ${URL300}?`,
      events: runOf([
        ...say('m1', MARKDOWN),
        ...call(
          'c1',
          `lookup_order_${'with_a_long_name_'.repeat(4)}`,
          { url: URL300, ids: UUIDS, note: CHINESE },
          { parent: 'm1', result: { url: URL300, ids: UUIDS } },
        ),
      ]),
    },
    { say: 'Again, please.', events: [...runOf([], null), { type: 'RUN_ERROR', message: `Upstream failed: ${URL300}` }] },
  ]);
  const host = document.createElement('div');
  host.style.height = '100vh';
  document.body.append(host);
  await render(
    <AgentProvider store={store}>
      <AgentChat />
    </AgentProvider>,
    { container: host },
  );
  await expect.poll(() => host.querySelector('.agk-markdown table')).not.toBeNull();
  // The tool call's arguments and result shown.
  for (const toggle of host.querySelectorAll<HTMLElement>('.agk-toolcall button[aria-expanded="false"]')) toggle.click();
  await expect.poll(() => host.querySelectorAll('.agk-toolcall .agk-code').length).toBeGreaterThanOrEqual(2);
  await settle();
  const list = host.querySelector<HTMLElement>('[role="log"]');
  if (!list) throw new Error('no conversation log');
  return { host, list };
}

/** Scrolls the conversation through its length, calling `check` at each screen (it is a virtualized list). */
async function eachScreen(list: HTMLElement, check: () => void) {
  for (let top = 0; ; top += list.clientHeight - 40) {
    list.scrollTop = top;
    await settle();
    check();
    if (list.scrollTop + list.clientHeight >= list.scrollHeight - 1) return;
  }
}

/** The right edge of what is drawn of `el`: its own, or that of the nearest box that clips it, if further left. */
function drawnRight(el: HTMLElement, root: HTMLElement): number {
  let right = el.getBoundingClientRect().right;
  for (let box = el.parentElement; box && box !== root; box = box.parentElement) {
    if (getComputedStyle(box).overflowX !== 'visible') right = Math.min(right, box.getBoundingClientRect().right);
  }
  return right;
}

/** Elements of `root` drawn past the window's right edge, or scrolling sideways, but a table's frame. */
function sideways(root: HTMLElement): string[] {
  return [...root.querySelectorAll<HTMLElement>('*')]
    .filter((el) => !el.closest('.agk-visually-hidden'))
    .filter((el) => {
      const { overflowX } = getComputedStyle(el);
      const scrolls = (overflowX === 'auto' || overflowX === 'scroll') && el.scrollWidth > el.clientWidth + 1;
      return drawnRight(el, root) > innerWidth + 0.5 || (scrolls && !el.matches('.agk-markdown__table'));
    })
    .map(
      (el) =>
        `${el.tagName.toLowerCase()}.${el.className} (right ${el.getBoundingClientRect().right}, ${el.scrollWidth} > ${el.clientWidth})`,
    );
}

/** Elements of `root` that clip their text (hidden overflow) where no ellipsis or "Show all" says so. */
function clipped(root: HTMLElement): string[] {
  return [...root.querySelectorAll<HTMLElement>('*')]
    .filter((el) => !el.closest('.agk-visually-hidden'))
    .filter((el) => {
      const style = getComputedStyle(el);
      const hidesX = style.overflowX === 'hidden' || style.overflowX === 'clip';
      const hidesY = style.overflowY === 'hidden' || style.overflowY === 'clip';
      const cutX = hidesX && el.scrollWidth > el.clientWidth + 1 && style.textOverflow !== 'ellipsis';
      // A detail cut to its lines with "Show all" beside it (the run's status) says it goes on.
      const clamped = style.webkitLineClamp !== 'none' && style.webkitLineClamp !== '';
      const cutY = hidesY && el.scrollHeight > el.clientHeight + 1 && !clamped;
      return cutX || cutY;
    })
    .map(
      (el) => `${el.tagName.toLowerCase()}.${el.className} (${el.scrollWidth}x${el.scrollHeight} in ${el.clientWidth}x${el.clientHeight})`,
    );
}

describe('the chat at 320 CSS px', () => {
  it('wraps a long link, a chain of ids, Chinese, a code block and a tool call’s arguments; only the table scrolls sideways', async () => {
    const { host, list } = await longChat();
    await eachScreen(list, () => {
      expect(sideways(host)).toEqual([]);
      expect(document.documentElement.scrollWidth, 'the page').toBeLessThanOrEqual(320);
    });
    const status = host.querySelector<HTMLElement>('.agk-runstatus');
    expect(status?.getBoundingClientRect().right).toBeLessThanOrEqual(320);
  });

  it('with the text spacing of WCAG 1.4.12 nothing is cut or scrolls sideways', async () => {
    const { host, list } = await longChat();
    const reader = document.createElement('style');
    reader.dataset.reader = '';
    reader.textContent = SPACING;
    document.head.append(reader);
    await eachScreen(list, () => {
      expect(sideways(host)).toEqual([]);
      expect(clipped(host)).toEqual([]);
    });
  });
});

describe('the chat in forced colors', () => {
  it('keeps an edge on each box that loses its background: code, badges, cards and buttons', async () => {
    const { host } = await longChat();
    await cdp().send('Emulation.setEmulatedMedia', { features: [{ name: 'forced-colors', value: 'active' }] });
    expect(matchMedia('(forced-colors: active)').matches).toBe(true);
    const edgeless = [...host.querySelectorAll<HTMLElement>('.agk-code, .agk-badge, .agk-toolcall, .agk-button')]
      .filter((el) => {
        const style = getComputedStyle(el);
        return style.borderTopStyle === 'none' || Number.parseFloat(style.borderTopWidth) < 1;
      })
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}`);
    expect(host.querySelectorAll('.agk-code').length, 'the code block, the arguments and the result').toBeGreaterThanOrEqual(3);
    expect(edgeless).toEqual([]);
  });
});

describe('the chat with reduced motion', () => {
  async function streaming() {
    const host = document.createElement('div');
    host.style.height = '100vh';
    document.body.append(host);
    const driven = drivenStore([{ id: 'u1', role: 'user', content: 'Where is my order?' }]);
    await render(
      <AgentProvider store={driven.store}>
        <AgentChat />
      </AgentProvider>,
      { container: host },
    );
    await driven.start();
    await driven.push({ type: 'TEXT_MESSAGE_START', messageId: 's', role: 'assistant' });
    await driven.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: 's', delta: 'Looking it up ' });
    await driven.push({ type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'lookup_order', parentMessageId: 's' });
    await settle();
    const running = document.getAnimations().filter((a) => a.playState === 'running').length;
    host.remove();
    return running;
  }

  it('nothing moves while a reply streams (and something does without the preference)', async () => {
    await cdp().send('Emulation.setEmulatedMedia', { features: [{ name: 'prefers-reduced-motion', value: 'reduce' }] });
    expect(await streaming(), 'animations running, reduced').toBe(0);
    await cdp().send('Emulation.setEmulatedMedia', { features: [{ name: 'prefers-reduced-motion', value: 'no-preference' }] });
    expect(await streaming(), 'animations running, no preference').toBeGreaterThan(0);
  });
});
