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
import { type AgentServer, startAgentServer } from '../../agent-server/src/server.js';
import { launchChromium, openPlayground, unexpected } from './harness.js';

const playgroundUrl = inject('playgroundUrl');
const agentPort = inject('agentPort');

let browser: Browser;
let server: AgentServer;

beforeAll(async () => {
  [browser, server] = await Promise.all([launchChromium(), startAgentServer({ host: '127.0.0.1', port: agentPort })]);
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
