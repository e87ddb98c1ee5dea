// Vite's client types: they declare the stylesheet import below.
/// <reference types="vite/client" />
// The Playwright provider types cdp() sessions (its `send`).
/// <reference types="@vitest/browser-playwright" />
import { AgentProvider, type AgentStore } from '@aguikit/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cdp, page, userEvent } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { AgentChat } from '../src/AgentChat.js';
import { preloadInterruptForm } from '../src/lazyChunks.js';
import { interruptChat } from '../src/storybook/chat.js';
import '../src/styles.css';

/**
 * The chat in real Chromium, given the whole window (as an app's page does):
 * the keyboard focus ring contrasts at least 3:1 with what is behind it in
 * both themes (WCAG 1.4.11), stays an outline in forced colors (2.4.7), and
 * at 320 CSS px, 200% and 400% zoom nothing scrolls sideways, the
 * conversation keeps a height and the composer and the decision's actions
 * can be reached (1.4.10).
 */

beforeAll(() => preloadInterruptForm());

afterEach(async () => {
  await cdp().send('Emulation.setEmulatedMedia', { features: [] });
  await page.viewport(1280, 800);
});

async function mountChat(store: AgentStore, theme: 'light' | 'dark' = 'light') {
  const host = document.createElement('div');
  host.setAttribute('data-theme', theme);
  host.style.height = '100vh';
  document.body.style.margin = '0';
  document.body.append(host);
  const screen = await render(
    <AgentProvider store={store}>
      <AgentChat />
    </AgentProvider>,
    { container: host },
  );
  await expect.poll(() => host.querySelector('.agk-interrupt__buttons button[data-variant="primary"]:not(:disabled)')).not.toBeNull();
  return { host, screen };
}

const button = (host: HTMLElement, name: string) => {
  const found = [...host.querySelectorAll('button')].find((b) => b.textContent === name);
  if (!found) throw new Error(`no ${name} button`);
  return found;
};

/** Focus on `target` the way a keyboard user gets there (Tab), so `:focus-visible` applies. */
async function tabTo(target: HTMLElement) {
  for (let i = 0; i < 40 && document.activeElement !== target; i++) await userEvent.keyboard('{Tab}');
  expect(document.activeElement).toBe(target);
  expect(target.matches(':focus-visible')).toBe(true);
}

function luminance(color: string) {
  const [r = 0, g = 0, b = 0] = (color.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
  const channel = (v: number) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}
const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
};

/** The first opaque background behind an element (its ancestors'). */
function backgroundBehind(el: Element) {
  for (let node = el.parentElement; node; node = node.parentElement) {
    const bg = getComputedStyle(node).backgroundColor;
    if (bg !== 'transparent' && !/rgba\(.*,\s*0\)$/.test(bg)) return bg;
  }
  return 'rgb(255, 255, 255)';
}

describe('the focus ring', () => {
  for (const theme of ['light', 'dark'] as const) {
    it(`${theme}: Approve, Reject, the text box and Send show a 2px outline with at least 3:1 contrast against what is behind`, async () => {
      const { host, screen } = await mountChat(await interruptChat(), theme);
      const box = host.querySelector<HTMLElement>('.agk-composer__input');
      for (const target of [button(host, 'Approve'), button(host, 'Reject'), box as HTMLElement, button(host, 'Send')]) {
        await tabTo(target);
        const style = getComputedStyle(target);
        expect(style.outlineStyle, target.textContent ?? target.className).toBe('solid');
        expect(Number.parseFloat(style.outlineWidth)).toBeGreaterThanOrEqual(2);
        expect(contrast(style.outlineColor, backgroundBehind(target))).toBeGreaterThanOrEqual(3);
      }
      screen.unmount();
      host.remove();
    });
  }

  it('forced colors: the focused Approve keeps an outline, which Reject does not have', async () => {
    const { host, screen } = await mountChat(await interruptChat());
    await cdp().send('Emulation.setEmulatedMedia', { features: [{ name: 'forced-colors', value: 'active' }] });
    expect(matchMedia('(forced-colors: active)').matches).toBe(true);
    const approve = button(host, 'Approve');
    await tabTo(approve);
    expect(getComputedStyle(approve).outlineStyle).not.toBe('none');
    expect(Number.parseFloat(getComputedStyle(approve).outlineWidth)).toBeGreaterThanOrEqual(1);
    expect(getComputedStyle(button(host, 'Reject')).outlineStyle).toBe('none');
    screen.unmount();
    host.remove();
  });
});

describe('derived tokens', () => {
  it('follow the theme and a unit set on an ancestor: the legacy --agk-focus ring in dark, the spacing steps', async () => {
    const host = document.createElement('div');
    host.setAttribute('data-theme', 'dark');
    host.style.setProperty('--agk-space', '10px');
    host.innerHTML = '<div class="agk-root"><button class="agk-button">Send</button></div>';
    document.body.append(host);
    const root = host.querySelector('.agk-root') as HTMLElement;
    const probe = document.createElement('div');
    probe.style.boxShadow = 'var(--agk-focus)';
    probe.style.padding = 'var(--agk-space-3)';
    root.append(probe);
    expect(getComputedStyle(probe).boxShadow).toBe('rgb(157, 187, 255) 0px 0px 0px 2px');
    expect(getComputedStyle(probe).paddingTop).toBe('15px');
    host.remove();
  });
});

describe('motion tokens', () => {
  it('give durations, all 0ms under prefers-reduced-motion: reduce (a button stops easing)', async () => {
    const host = document.createElement('div');
    host.className = 'agk-root';
    host.innerHTML = '<button class="agk-button">Send</button>';
    document.body.append(host);
    const button = host.querySelector('button') as HTMLElement;
    const read = () => ({
      token: getComputedStyle(button).getPropertyValue('--agk-duration-fast').trim(),
      transition: getComputedStyle(button).transitionDuration.split(',')[0]?.trim(),
    });
    expect(read()).toEqual({ token: '120ms', transition: '0.12s' });
    await cdp().send('Emulation.setEmulatedMedia', { features: [{ name: 'prefers-reduced-motion', value: 'reduce' }] });
    expect(read()).toEqual({ token: '0ms', transition: '0s' });
    host.remove();
  });
});

describe('selected, pressed and current states in forced colors', () => {
  it('keep a mark of their own (an outline and an underline), not a background alone', async () => {
    const host = document.createElement('div');
    host.className = 'agk-root';
    host.innerHTML = `
      <div role="tablist"><button role="tab" aria-selected="true">State</button><button role="tab" aria-selected="false">Events</button></div>
      <button class="agk-button" aria-pressed="true">Dark theme</button><button class="agk-button" aria-pressed="false">Follow</button>
      <a href="#now" aria-current="step">Event 4</a>`;
    document.body.append(host);
    await cdp().send('Emulation.setEmulatedMedia', { features: [{ name: 'forced-colors', value: 'active' }] });
    const look = (selector: string) => {
      const s = getComputedStyle(host.querySelector(selector) as Element);
      return { outline: s.outlineStyle, underline: s.textDecorationLine };
    };
    for (const on of ['[aria-selected="true"]', '[aria-pressed="true"]', '[aria-current="step"]']) {
      expect(look(on), on).toEqual({ outline: 'solid', underline: 'underline' });
    }
    for (const off of ['[aria-selected="false"]', '[aria-pressed="false"]']) {
      expect(look(off).outline, off).toBe('none');
    }
    host.remove();
  });
});

/** What reflow needs, read from the page. */
function layout(host: HTMLElement) {
  const doc = document.documentElement;
  const list = host.querySelector('.agk-chat > .agk-messages') as HTMLElement;
  const chat = host.querySelector('.agk-chat') as HTMLElement;
  const reachable = (el: Element | null) => {
    if (!el) return false;
    el.scrollIntoView({ block: 'nearest' });
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + Math.min(r.height / 2, 8));
    return r.width > 0 && r.top >= 0 && r.bottom <= innerHeight + 0.5 && !!hit && el.contains(hit);
  };
  return {
    overflow: doc.scrollWidth - doc.clientWidth,
    chatOverflow: chat.scrollWidth - chat.clientWidth,
    list: list.getBoundingClientRect().height,
    composer: reachable(host.querySelector('.agk-composer__input')),
    approve: reachable(button(host, 'Approve')),
    reject: reachable(button(host, 'Reject')),
  };
}

describe('reflow', () => {
  for (const [what, width, height] of [
    ['320 CSS px', 320, 640],
    ['200% zoom', 640, 384],
    ['400% zoom', 320, 192],
  ] as const) {
    it(`${what} (${width}x${height}): no sideways scrolling, the conversation keeps a height, the composer and the decision are reachable`, async () => {
      await page.viewport(width, height);
      const { host, screen } = await mountChat(await interruptChat());
      const seen = layout(host);
      expect(seen.overflow, 'the page scrolls sideways').toBeLessThanOrEqual(0);
      expect(seen.chatOverflow, 'the chat scrolls sideways').toBeLessThanOrEqual(0);
      expect(seen.list, 'the conversation (px)').toBeGreaterThanOrEqual(100);
      expect(seen.composer, 'the composer').toBe(true);
      expect(seen.approve, 'Approve').toBe(true);
      expect(seen.reject, 'Reject').toBe(true);
      screen.unmount();
      host.remove();
    });
  }
});
