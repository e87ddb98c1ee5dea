// Vite's client types: they declare the stylesheet import below.
/// <reference types="vite/client" />
import { AgentProvider, type AgentStore } from '@aguikit/react';
import { afterEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { AgentChat } from '../src/AgentChat.js';
import { InterruptDialog } from '../src/InterruptDialog.js';
import { preloadInterruptForm } from '../src/lazyChunks.js';
import { AgentLocaleProvider, zhCN } from '../src/locale.js';
import { arabic } from '../src/storybook/arabic.js';
import { call, playedStore, runOf, say } from '../src/storybook/scripted.js';
import '../src/styles.css';

/**
 * A decision made with the keyboard alone: on a phone (390x844) in the chat, and at 200% zoom of a 1366x768 screen
 * (683x384 CSS px), with Chinese and Arabic words and long field labels. Every Tab stop is on screen and not under the
 * held actions, and nothing scrolls sideways.
 */

const LONG_LABEL =
  'Kundenbeziehungsverwaltungsreferenznummer für die Rückerstattung an den Kunden (如有，请填写客户关系管理系统中的参考编号)';

async function payment(): Promise<AgentStore> {
  await preloadInterruptForm();
  return playedStore(
    [
      {
        say: '请把发票 INV-2291 的款项付给 ACME',
        events: runOf(
          call('9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b', 'send_payment', { amount: 1900, to: 'ACME GmbH', invoice: 'INV-2291' }),
          {
            outcome: {
              type: 'interrupt',
              interrupts: [
                {
                  id: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
                  reason: 'tool_call',
                  toolCallId: '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b',
                  message: 'هل تريد دفع 1,900.00 يورو إلى ACME GmbH؟ 向 ACME GmbH 支付 1,900.00 欧元？',
                  responseSchema: {
                    type: 'object',
                    title: '付款审批 / الموافقة على الدفع',
                    required: ['approved'],
                    properties: {
                      approved: { type: 'boolean' },
                      comment: { type: 'string', title: '给会计的备注 — ملاحظة للمحاسب' },
                      reference: { type: 'string', title: LONG_LABEL },
                    },
                  },
                },
              ],
            },
          },
        ),
      },
    ],
    { now: () => Date.now(), pending: [runOf(say('after', '已付款。'))] },
  );
}

/** What of the focused element (and its 4px ring) is off screen or under its interrupt's held actions, or null. */
function hiddenFocus(): string | null {
  const focused = document.activeElement as HTMLElement;
  const box = focused.getBoundingClientRect();
  // The interrupt itself (focus lands on it when its field and question do not both fit): its start is in view.
  if (focused.tagName === 'ARTICLE') return box.top >= -0.5 && box.top < innerHeight ? null : `the interrupt starts at ${box.top}`;
  if (box.top - 4 < -0.5 || box.bottom + 4 > innerHeight + 0.5) return `${focused.outerHTML.slice(0, 80)} at ${box.top}-${box.bottom}`;
  const actions = focused.closest('.agk-interrupt')?.querySelector('.agk-interrupt__actions');
  if (!actions || actions.contains(focused) || getComputedStyle(actions).position !== 'sticky') return null;
  const held = actions.getBoundingClientRect();
  return box.bottom + 4 > held.top + 0.5 && box.top < held.bottom
    ? `${focused.outerHTML.slice(0, 80)} under the actions at ${held.top}`
    : null;
}

/** Where the page or something in the interrupts is wider than the window (a sideways scroll), or null. */
function sideways(): string | null {
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth) return `page ${root.scrollWidth} > ${root.clientWidth}`;
  for (const el of document.querySelectorAll<HTMLElement>('.agk-interrupts, .agk-interrupt, .agk-interrupt *')) {
    if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible')
      return `${el.className} ${el.scrollWidth} > ${el.clientWidth}`;
    const r = el.getBoundingClientRect();
    if (r.width > 0 && (r.right > root.clientWidth + 0.5 || r.left < -0.5)) return `${el.tagName}.${el.className} at ${r.left}-${r.right}`;
  }
  return null;
}

afterEach(async () => {
  await page.viewport(414, 896);
});

describe('a keyboard-only decision', () => {
  for (const [width, height, what, where] of [
    [390, 844, 'a phone', 'chat'],
    [683, 384, '200% zoom of 1366x768', 'chat'],
    [683, 384, '200% zoom of 1366x768', 'page'],
  ] as const) {
    for (const [lang, locale] of [
      ['zh-CN', zhCN],
      ['ar', arabic],
    ] as const) {
      it(`approves with a comment, every Tab stop in view, nothing sideways, on ${what} in the ${where} (${lang})`, async () => {
        await page.viewport(width, height);
        const store = await payment();
        await render(
          <AgentLocaleProvider locale={locale}>
            <div dir={lang === 'ar' ? 'rtl' : 'ltr'} style={where === 'chat' ? { height: '100vh' } : undefined}>
              <AgentProvider store={store}>{where === 'chat' ? <AgentChat /> : <InterruptDialog />}</AgentProvider>
            </div>
          </AgentLocaleProvider>,
        );
        const approve = lang === 'ar' ? 'موافقة' : '批准';
        await expect.poll(() => document.querySelector('.agk-interrupt')?.contains(document.activeElement)).toBe(true);
        await new Promise(requestAnimationFrame);
        expect(sideways()).toBeNull();
        const stops: string[] = [];
        // Tab from where focus landed to Approve, checking each stop; the comment is typed on the way.
        for (let i = 0; i < 12; i++) {
          const focused = document.activeElement as HTMLElement;
          expect(hiddenFocus(), `stop ${i}`).toBeNull();
          stops.push(focused.getAttribute('aria-label') ?? focused.id ?? focused.tagName);
          if (focused.matches('textarea, input[type="text"], input:not([type])') && focused.id.endsWith('comment'))
            await userEvent.keyboard('同意付款');
          if (focused.textContent === approve && focused.matches('button')) break;
          await userEvent.tab();
          await new Promise(requestAnimationFrame);
          await new Promise(requestAnimationFrame);
        }
        expect((document.activeElement as HTMLElement).textContent, stops.join(' → ')).toBe(approve);
        await userEvent.keyboard('{Enter}');
        await expect.poll(() => store.getState().decisions.length).toBe(1);
        expect(store.getState().decisions[0]).toMatchObject({ status: 'resolved', payload: { approved: true, comment: '同意付款' } });
        expect(sideways()).toBeNull();
      });
    }
  }
});
