// Vite's client types: they declare the stylesheet import below.
/// <reference types="vite/client" />
import { AgentProvider } from '@aguikit/react';
import type * as React from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { AgentChat } from '../src/AgentChat.js';
import { InterruptDialog } from '../src/InterruptDialog.js';
import { preloadInterruptForm } from '../src/lazyChunks.js';
import { call, playedStore, runOf, type ScriptEvent, say } from '../src/storybook/scripted.js';
import '../src/styles.css';

/**
 * What a reviewer sees when an approval opens in the chat, at a laptop's and
 * a phone's size with the chat below a page's own header (as in the
 * playground), and on a tall screen: the question asked and the place focus
 * went are both in view in the decision area, neither under its held heading
 * nor its held actions.
 */

const CALL_ID = '5b0e8a4c-2f1d-4c3b-9e7a-6d8f0a1b2c3d';
const QUESTION = "Refund $42.00 to the customer's card for order A-1001?";

function approvalRun() {
  return runOf(
    [
      ...say(
        '7c9e6679-7425-40de-944b-e07fc1f90ae7',
        'Let me look up order A-1001 first. It was delivered on 26 November; the refund needs your approval.',
      ),
      ...call(CALL_ID, 'refund_order', { orderId: 'A-1001', amount: 42, currency: 'USD', reason: 'Arrived broken' }),
    ],
    {
      outcome: {
        type: 'interrupt',
        interrupts: [
          {
            id: 'a3bb189e-8bf9-3888-9912-ace4e6543002',
            reason: 'tool_call',
            toolCallId: CALL_ID,
            message: QUESTION,
            expiresAt: new Date(Date.now() + 2 * 60_000).toISOString(),
            responseSchema: {
              type: 'object',
              required: ['approved'],
              properties: { approved: { type: 'boolean' }, comment: { type: 'string', title: 'Comment for the customer record' } },
            },
          },
        ],
      },
    },
  );
}

/** The part of the decision area nothing is held over: below its heading, above the open interrupt's actions. */
function clearPart(): { top: number; bottom: number } {
  const heading = document.querySelector('.agk-chat > .agk-interrupts > .agk-interrupts__title')?.getBoundingClientRect();
  const actions = document.querySelector('.agk-interrupt__actions')?.getBoundingClientRect();
  if (!heading || !actions) throw new Error('no decision area');
  return { top: heading.bottom, bottom: actions.top };
}

const inside = (box: DOMRect, part: { top: number; bottom: number }) => box.top >= part.top - 0.5 && box.bottom <= part.bottom + 0.5;

/** Renders `layout` with a store, sends the refund request from the top of the page, and waits for the approval to take focus. */
async function openApproval(layout: React.ReactNode): Promise<void> {
  await preloadInterruptForm();
  const store = await playedStore([], { pending: [approvalRun()], now: () => Date.now() });
  const screen = await render(<AgentProvider store={store}>{layout}</AgentProvider>);
  window.scrollTo(0, 0);
  await store.getState().run('My teapot from order A-1001 arrived broken. Can I get a refund?');
  await expect.element(screen.getByRole('button', { name: 'Approve' })).toBeEnabled();
  await expect.poll(() => document.querySelector('.agk-interrupt')?.contains(document.activeElement)).toBe(true);
  await new Promise(requestAnimationFrame);
}

afterEach(async () => {
  await page.viewport(414, 896);
});

describe('an approval opening in the chat', () => {
  for (const [width, height, header, what] of [
    [1366, 768, 190, 'a laptop'],
    [390, 844, 160, 'a phone'],
    [1440, 1200, 0, 'a tall screen'],
  ] as const) {
    it(`shows its question with the focus it takes on ${what} (${width}x${height})`, async () => {
      await page.viewport(width, height);
      await openApproval(
        <div style={{ height: `calc(100vh - ${header}px)`, marginTop: header, display: 'flex', flexDirection: 'column' }}>
          <AgentChat />
        </div>,
      );
      const part = clearPart();
      const question = document.querySelector('.agk-interrupt__message');
      expect(question?.textContent).toBe(QUESTION);
      expect(inside(question?.getBoundingClientRect() as DOMRect, part), 'the question is in view').toBe(true);
      const focused = document.activeElement as HTMLElement;
      const box = focused.getBoundingClientRect();
      // Focus is never hidden: what holds it shows at least its first lines (the interrupt itself may be taller than the area).
      expect(box.top >= part.top - 0.5 && box.top < part.bottom, `${focused.tagName} is in view`).toBe(true);
      if (focused.matches('textarea, input, select, button')) expect(inside(box, part), 'the focused field is whole').toBe(true);
      // Where the area shows the question and the first field at once, the field takes focus; else the interrupt does, the field next in Tab order.
      expect(focused.tagName).toBe(height - header > 1000 ? 'TEXTAREA' : 'ARTICLE');
    });
  }

  for (const [width, height, header, what] of [
    [1366, 768, 190, 'a laptop'],
    [390, 844, 160, 'a phone'],
  ] as const) {
    it(`shows a field Tab reaches with its label, neither under the held heading nor the actions, on ${what}`, async () => {
      await page.viewport(width, height);
      await openApproval(
        <div style={{ height: `calc(100vh - ${header}px)`, marginTop: header, display: 'flex', flexDirection: 'column' }}>
          <AgentChat />
        </div>,
      );
      for (let i = 0; i < 12 && !(document.activeElement instanceof HTMLTextAreaElement); i++) await userEvent.tab();
      const field = document.activeElement as HTMLElement;
      expect(field.tagName).toBe('TEXTAREA');
      await new Promise(requestAnimationFrame);
      const label = document.querySelector(`label[for="${field.id}"]`)?.getBoundingClientRect();
      const part = clearPart();
      expect(label && inside(label, part), `label ${label?.top}-${label?.bottom} within ${part.top}-${part.bottom}`).toBe(true);
      const box = field.getBoundingClientRect();
      expect(inside(box, part), `the field ${box.top}-${box.bottom}, whole within ${part.top}-${part.bottom}`).toBe(true);
    });
  }

  it('brings the chat into view when the page has it below the fold: focus is never on something off screen', async () => {
    await page.viewport(1000, 800);
    await openApproval(
      <>
        <div style={{ height: 900 }}>The page above the chat.</div>
        <div style={{ height: 600, display: 'flex', flexDirection: 'column' }}>
          <AgentChat />
        </div>
      </>,
    );
    const box = (document.activeElement as HTMLElement).getBoundingClientRect();
    expect(box.top >= 0 && box.top < window.innerHeight, `focus at ${box.top} of a ${window.innerHeight}px window`).toBe(true);
    const question = document.querySelector('.agk-interrupt__message')?.getBoundingClientRect();
    expect(question && question.top >= 0 && question.bottom <= window.innerHeight, 'the question is on screen').toBe(true);
  });

  it("on a page with a fixed header (the page's scroll-padding-top), scrolls the question to below it, not under it", async () => {
    await page.viewport(1000, 800);
    document.documentElement.style.scrollPaddingTop = '120px';
    try {
      await openApproval(
        <>
          <header style={{ position: 'fixed', top: 0, left: 0, right: 0, height: 120, background: 'white', zIndex: 10 }}>Shop</header>
          <div style={{ height: 1500 }}>The order page.</div>
          <InterruptDialog />
          <div style={{ height: 1500 }}>The rest of the page.</div>
        </>,
      );
      const question = document.querySelector('.agk-interrupt__message')?.getBoundingClientRect();
      expect(question && question.top >= 120 && question.bottom <= window.innerHeight, `the question at ${question?.top}`).toBe(true);
    } finally {
      document.documentElement.style.scrollPaddingTop = '';
    }
  });
});

/**
 * Why `el` is not wholly seen, or null: it must be inside the window and every box that clips it, and on top at
 * its top, middle and bottom (not under the decision's held heading or held actions).
 */
function unseen(el: Element | null | undefined): string | null {
  if (!el) return 'not there';
  const r = el.getBoundingClientRect();
  if (r.top < -0.5 || r.bottom > innerHeight + 0.5) return `at ${r.top}-${r.bottom}, outside a ${innerHeight}px window`;
  for (let box = el.parentElement; box; box = box.parentElement) {
    if (getComputedStyle(box).overflowY === 'visible') continue;
    const top = box.getBoundingClientRect().top + box.clientTop;
    if (r.top < top - 0.5 || r.bottom > top + box.clientHeight + 0.5) return `at ${r.top}-${r.bottom}, clipped by .${box.className}`;
  }
  for (const y of [r.top + 1, (r.top + r.bottom) / 2, r.bottom - 1]) {
    const hit = document.elementFromPoint(r.left + r.width / 2, y);
    if (!hit || !el.contains(hit)) return `covered at ${y} by .${hit?.className}`;
  }
  return null;
}

describe('an approval opening in the chat on a small screen (a phone, a short laptop window)', () => {
  for (const [width, height, header] of [
    [320, 568, 0],
    [320, 568, 56],
    [390, 664, 0],
    [390, 844, 0],
    // A laptop's browser window under its toolbars and taskbar: the box in a box, as on a taller one.
    [1366, 620, 0],
    [1280, 600, 64],
  ] as const) {
    it(`shows what is asked and Approve and Reject at once, without scrolling (${width}x${height}, a page header of ${header}px)`, async () => {
      await page.viewport(width, height);
      await openApproval(
        <div style={{ height: `calc(100vh - ${header}px)`, marginTop: header, display: 'flex', flexDirection: 'column' }}>
          <AgentChat />
        </div>,
      );
      const question = document.querySelector('.agk-interrupt__message');
      expect(question?.textContent).toBe(QUESTION);
      expect(unseen(question), 'the question').toBeNull();
      for (const name of ['Approve', 'Reject']) {
        const button = [...document.querySelectorAll('.agk-interrupt__buttons button')].find((b) => b.textContent === name);
        expect(unseen(button), name).toBeNull();
      }
      // Focus is where the reader is: on something whose start is seen.
      const focused = document.activeElement as HTMLElement;
      expect(focused.closest('.agk-interrupt')).not.toBeNull();
      const top = focused.getBoundingClientRect().top;
      expect(document.elementFromPoint(focused.getBoundingClientRect().left + 8, top + 4)?.closest('.agk-interrupt')).toBe(
        focused.closest('.agk-interrupt'),
      );
    });
  }
});

describe('an answer changed among two questions', () => {
  for (const [width, height, header, what] of [
    [1366, 768, 190, 'a laptop'],
    [390, 844, 160, 'a phone'],
  ] as const) {
    it(`puts the question it reopens below the held heading, not under it, on ${what}`, async () => {
      await page.viewport(width, height);
      await preloadInterruptForm();
      const run = runOf(say('0d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6', 'Two things before I go ahead.'), {
        outcome: {
          type: 'interrupt',
          interrupts: [
            {
              id: 'c0ffee00-1111-4222-8333-944455556666-confirm',
              reason: 'confirmation',
              message: 'Cancel the Pro subscription at the end of this month?',
            },
            {
              id: 'c0ffee00-1111-4222-8333-944455556666-reason',
              reason: 'input_required',
              message: 'Why are you leaving? (optional)',
              responseSchema: {
                type: 'object',
                properties: { reason: { type: 'string', title: 'Reason', enum: ['too expensive', 'missing features', 'other'] } },
              },
            },
          ],
        },
      });
      const store = await playedStore([], { pending: [run], now: () => Date.now() });
      const screen = await render(
        <AgentProvider store={store}>
          <div style={{ height: `calc(100vh - ${header}px)`, marginTop: header, display: 'flex', flexDirection: 'column' }}>
            <AgentChat />
          </div>
        </AgentProvider>,
      );
      await store.getState().run('Cancel my subscription and refund the last month.');
      await expect.element(screen.getByRole('button', { name: 'No' })).toBeEnabled();
      await screen.getByRole('button', { name: 'No' }).click();
      await screen.getByRole('button', { name: /Change answer/u }).click();
      await expect
        .poll(() => document.activeElement?.closest('.agk-interrupt')?.textContent ?? '')
        .toContain('Cancel the Pro subscription');
      await new Promise(requestAnimationFrame);
      const card = (document.activeElement as HTMLElement).closest('.agk-interrupt') as HTMLElement;
      const heading = document.querySelector('.agk-chat > .agk-interrupts > .agk-interrupts__title')?.getBoundingClientRect();
      const title = card.querySelector('.agk-interrupt__title, h3, h4')?.getBoundingClientRect() ?? card.getBoundingClientRect();
      const question = [...card.querySelectorAll('p')].find((p) => p.textContent?.includes('Cancel the Pro subscription'));
      expect(heading, 'the decision area has its held heading').toBeDefined();
      expect(title.top, `the card's title at ${title.top}, the heading's bottom at ${heading?.bottom}`).toBeGreaterThanOrEqual(
        (heading?.bottom ?? 0) - 0.5,
      );
      expect(question?.getBoundingClientRect().top ?? 0).toBeGreaterThanOrEqual((heading?.bottom ?? 0) - 0.5);
    });
  }
});

describe('a manual review with a note, on a phone', () => {
  it.each([160, 260])('scrolls the note field Tab reaches clear of the held actions (a page header of %ipx)', async (header) => {
    await page.viewport(390, 844);
    await preloadInterruptForm();
    const run = runOf(say('5d2c1e0f-9a8b-4c7d-8e6f-5a4b3c2d1e0f', 'This refund needs a manual review.'), {
      outcome: {
        type: 'interrupt',
        interrupts: [
          {
            id: 'b1946ac9-2492-4d2f-8c3e-6a1f0e9d8c7b-review',
            reason: 'risk:manual_review',
            message: 'Review a $1,900.00 refund to a card added today.',
            responseSchema: {
              type: 'object',
              properties: {
                decision: { type: 'string', title: 'Decision', enum: ['approve', 'deny', 'request more information'] },
                note: { type: 'string', title: 'Note for the audit trail' },
              },
              required: ['decision'],
            },
            metadata: { queue: 'fraud-review', riskScore: 0.87, slaMinutes: 30, signals: ['new card', 'amount over limit'] },
          },
        ],
      },
    });
    const store = await playedStore([], { pending: [run], now: () => Date.now() });
    const screen = await render(
      <AgentProvider store={store}>
        <div style={{ height: `calc(100vh - ${header}px)`, marginTop: header, display: 'flex', flexDirection: 'column' }}>
          <AgentChat />
        </div>
      </AgentProvider>,
    );
    await store.getState().run('Refund $1,900 for order B-7 to a new card, please.');
    await expect.element(screen.getByRole('button', { name: 'Submit' })).toBeVisible();
    await expect.poll(() => document.querySelector('.agk-interrupt')?.contains(document.activeElement)).toBe(true);
    for (let i = 0; i < 12 && !(document.activeElement instanceof HTMLTextAreaElement); i++) await userEvent.tab();
    const field = document.activeElement as HTMLElement;
    expect(field.tagName).toBe('TEXTAREA');
    await new Promise(requestAnimationFrame);
    const box = field.getBoundingClientRect();
    const part = clearPart();
    expect(inside(box, part), `the note at ${box.top}-${box.bottom}, the clear part ${part.top}-${part.bottom}`).toBe(true);
  });
});

describe('a clarification of several fields, on a phone', () => {
  const properties = {
    name: { type: 'string', title: '收件人姓名 (recipient)' },
    phone: { type: 'string', title: 'Phone number for the courier' },
    channel: { type: 'string', title: 'Contact channel', enum: ['email', 'sms', 'phone call'] },
    address: { type: 'string', title: 'Delivery address for order 0d9c4f1e-7a2b-4c3d-8e5f-6a7b8c9d0e1f' },
    note: { type: 'string', title: 'Anything the courier should know' },
  };

  async function openClarification(header: number, viewport: [number, number] = [390, 844], after: ScriptEvent[][] = []): Promise<void> {
    await page.viewport(...viewport);
    await preloadInterruptForm();
    const run = runOf(say('6e3d2c1b-0a9f-4e8d-8c7b-6a5f4e3d2c1b', 'I need a few details for the replacement.'), {
      outcome: {
        type: 'interrupt',
        interrupts: [
          {
            id: 'c2b1a0f9-8e7d-4c6b-9a5f-4e3d2c1b0a9f-details',
            reason: 'input_required',
            message: '请补充配送信息 — where should the replacement teapot go?',
            responseSchema: { type: 'object', properties, required: ['name', 'channel'] },
          },
        ],
      },
    });
    const store = await playedStore([], { pending: [run, ...after], now: () => Date.now() });
    const screen = await render(
      <AgentProvider store={store}>
        <div style={{ height: `calc(100vh - ${header}px)`, marginTop: header, display: 'flex', flexDirection: 'column' }}>
          <AgentChat />
        </div>
      </AgentProvider>,
    );
    await store.getState().run('Please send a replacement for order 0d9c4f1e-7a2b-4c3d-8e5f-6a7b8c9d0e1f.');
    await expect.element(screen.getByRole('button', { name: 'Submit' })).toBeEnabled();
    await expect.poll(() => document.querySelector('.agk-interrupt')?.contains(document.activeElement)).toBe(true);
  }

  const fields = () => [...document.querySelectorAll<HTMLElement>('.agk-interrupt__form :is(input, select, textarea)')];

  it.each([160, 260])('each field Tab reaches is whole above the held actions (a page header of %ipx)', async (header) => {
    await openClarification(header);
    const seen: string[] = [];
    for (let i = 0; i < 20 && seen.length < Object.keys(properties).length; i++) {
      await userEvent.tab();
      await new Promise(requestAnimationFrame);
      const field = document.activeElement as HTMLElement;
      if (!fields().includes(field)) continue;
      seen.push(field.id);
      const box = field.getBoundingClientRect();
      const part = clearPart();
      expect(inside(box, part), `${field.id} at ${box.top}-${box.bottom}, the clear part ${part.top}-${part.bottom}`).toBe(true);
    }
    expect(seen).toHaveLength(Object.keys(properties).length);
  });

  it.each([160, 260])(
    'each field the browser brings into view (find in page, a screen reader) is whole above the held actions (a page header of %ipx)',
    async (header) => {
      await openClarification(header);
      const area = document.querySelector('.agk-chat > .agk-interrupts') as HTMLElement;
      for (const field of fields()) {
        // From the top of the area, the field below: scrolled to by the browser, as far as the area's scroll padding says.
        area.scrollTop = 0;
        field.scrollIntoView({ block: 'nearest' });
        await new Promise(requestAnimationFrame);
        const box = field.getBoundingClientRect();
        const part = clearPart();
        expect(inside(box, part), `${field.id} at ${box.top}-${box.bottom}, the clear part ${part.top}-${part.bottom}`).toBe(true);
      }
    },
  );

  it('scrolled to its end, the last field is whole above the held actions', async () => {
    await openClarification(160);
    const area = document.querySelector('.agk-chat > .agk-interrupts') as HTMLElement;
    area.scrollTop = area.scrollHeight;
    await new Promise(requestAnimationFrame);
    const last = fields().at(-1)?.getBoundingClientRect();
    const part = clearPart();
    expect(last && inside(last, part), `the last field at ${last?.top}-${last?.bottom}, the clear part ${part.top}-${part.bottom}`).toBe(
      true,
    );
  });

  // A short window (a small phone, a phone held sideways): the chat is the one scroll box and the actions are held at
  // its bottom edge (run.css), so the chat's scroll padding, not the area's, is what the browser scrolls by.
  it.each([
    [320, 568],
    [844, 390],
  ])(
    "in a %ix%i window, each field the browser brings into view is whole above the actions held at the chat's edge",
    async (width, height) => {
      await openClarification(0, [width, height]);
      const chat = document.querySelector('.agk-chat') as HTMLElement;
      for (const field of fields()) {
        chat.scrollTop = 0;
        field.scrollIntoView({ block: 'nearest' });
        await new Promise(requestAnimationFrame);
        const box = field.getBoundingClientRect();
        const actions = document.querySelector('.agk-interrupt__actions')?.getBoundingClientRect();
        expect(
          actions && box.bottom <= actions.top + 0.5,
          `${field.id} at ${box.top}-${box.bottom}, the actions from ${actions?.top}`,
        ).toBe(true);
      }
    },
  );

  it('answered, it leaves no scroll padding behind on the chat or the area', async () => {
    await openClarification(0, [320, 568], [runOf(say('5d4c3b2a-1f0e-4d9c-8b7a-695847362514', 'No replacement, then.'))]);
    const chat = document.querySelector('.agk-chat') as HTMLElement;
    expect(chat.style.getPropertyValue('--agk-held-bottom'), 'held while open').not.toBe('');
    await userEvent.click(page.getByRole('button', { name: 'Close without answering' }));
    await expect.poll(() => document.querySelector('.agk-interrupt__actions button')).toBeNull();
    const styled = [chat, ...chat.querySelectorAll<HTMLElement>('*')].filter((e) => /--agk-held/.test(e.getAttribute('style') ?? ''));
    expect(styled.map((e) => e.className)).toEqual([]);
    expect(getComputedStyle(chat).scrollPaddingBottom).toBe('auto');
  });
});
