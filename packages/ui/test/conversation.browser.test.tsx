// Vite's client types: they declare the stylesheet import below.
/// <reference types="vite/client" />
// The Playwright provider types cdp() sessions (its `send`).
/// <reference types="@vitest/browser-playwright" />
import { AgentProvider, type AgentStore } from '@aguikit/react';
import { afterEach, describe, expect, it } from 'vitest';
import { cdp } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { MessageList } from '../src/Messages.js';
import { openRunStore } from '../src/storybook/conversations.js';
import { call, playedStore, runOf, say } from '../src/storybook/scripted.js';
import '../src/styles.css';

/**
 * The conversation in real Chromium, with real layout: at 320 CSS px (a
 * phone, or 400% zoom of a 1280 px window) nothing scrolls sideways, however
 * long a tool's name, its id or its badge; the streaming dots move only for a
 * reader who has not asked for reduced motion.
 */

const LONG_TOOL = 'crm_customer_relationship_lookup_by_external_reference_identifier_v2';
const LONG_ID = 'ext-ref-0b7d2c7e31f44f9fa3b68d1e4c2f9a70-0b7d2c7e31f44f9fa3b68d1e4c2f9a70';

async function mount(store: AgentStore, width: number) {
  const screen = await render(
    <AgentProvider store={store}>
      <div style={{ width, height: 600 }}>
        <MessageList />
      </div>
    </AgentProvider>,
  );
  return screen.container;
}

const overflowing = (root: HTMLElement) =>
  [...root.querySelectorAll<HTMLElement>('.agk-messages__viewport, .agk-message, .agk-toolcall, .agk-toolcall__header, .agk-decision')]
    .filter((el) => el.scrollWidth > el.clientWidth + 1)
    .map((el) => `${el.className}: ${el.scrollWidth} > ${el.clientWidth}`);

afterEach(async () => {
  await cdp().send('Emulation.setEmulatedMedia', { features: [] });
});

describe('the conversation in Chromium', () => {
  it('reflows at 320 px: long tool names, ids and badges wrap, nothing scrolls sideways', async () => {
    const store = await playedStore([
      {
        say: `Find the customer with reference ${LONG_ID}`,
        events: runOf(
          [
            ...say('a1', `Looking up \`${LONG_ID}\`.`),
            ...call('call-7f3e9a52-0c4b-4d1e-9b8a-2f6c1d0e5a93', LONG_TOOL, { externalReference: LONG_ID }, { parent: 'a1' }),
          ],
          {
            outcome: {
              type: 'interrupt',
              interrupts: [{ id: 'int-1', reason: 'tool_call', toolCallId: 'call-7f3e9a52-0c4b-4d1e-9b8a-2f6c1d0e5a93' }],
            },
          },
        ),
      },
      {
        resume: [{ interruptId: 'int-1', status: 'resolved', payload: { approved: false, comment: LONG_ID } }],
        events: runOf(say('a2', 'Not looked up.')),
      },
    ]);
    const root = await mount(store, 320);
    const card = root.querySelector('.agk-toolcall') as HTMLElement;
    expect(card.getAttribute('data-state')).toBe('denied');
    expect(root.querySelector('[data-agk-decision="int-1"]')).not.toBeNull();
    expect(overflowing(root)).toEqual([]);
    // Opened, its arguments wrap too.
    (card.querySelector('.agk-toolcall__trigger') as HTMLButtonElement).click();
    await new Promise((resolve) => requestAnimationFrame(resolve));
    expect(overflowing(root)).toEqual([]);
  });

  it('keeps the mark of a decision on the first line of its text when the line wraps, and its text inside its corners', async () => {
    const store = await playedStore([
      {
        say: 'Refund order A-1001, please.',
        events: runOf([...call('call-refund', 'refund_order', { orderId: 'A-1001' })], {
          outcome: { type: 'interrupt', interrupts: [{ id: 'int-refund', reason: 'tool_call', toolCallId: 'call-refund' }] },
        }),
      },
      {
        resume: [{ interruptId: 'int-refund', status: 'resolved', payload: { approved: true, comment: '客户说盖子裂了，照片已上传 ok' } }],
        events: runOf(say('a2', 'Refunded.')),
      },
    ]);
    const root = await mount(store, 320);
    const line = root.querySelector('[data-agk-decision="int-refund"]') as HTMLElement;
    const icon = (line.querySelector('.agk-decision__icon') as HTMLElement).getBoundingClientRect();
    const box = line.getBoundingClientRect();
    const style = getComputedStyle(line);
    const lineHeight = Number.parseFloat(style.lineHeight) || 1.25 * Number.parseFloat(style.fontSize);
    // It wraps: more than one line of text.
    expect(box.height).toBeGreaterThan(2 * lineHeight);
    // The mark sits on the first line, beside the text, not on a line of its own.
    const range = document.createRange();
    range.selectNodeContents(line);
    const first = [...range.getClientRects()].find((r) => r.width > 20 && !(r.left >= icon.left && r.right <= icon.right + 1));
    expect(first).toBeDefined();
    expect(Math.abs((first as DOMRect).top - icon.top)).toBeLessThan(lineHeight / 2);
    // The corners round no more than a line's half: wrapped text does not run under a curve.
    expect(Number.parseFloat(style.borderTopLeftRadius)).toBeLessThanOrEqual(lineHeight);
  });

  it('animates the streaming dots only without a reduced-motion preference', async () => {
    const store = await openRunStore([{ type: 'TEXT_MESSAGE_START', messageId: 'live', role: 'assistant' }]);
    const session = cdp();
    await session.send('Emulation.setEmulatedMedia', { features: [{ name: 'prefers-reduced-motion', value: 'no-preference' }] });
    const root = await mount(store, 480);
    const dot = () => root.querySelector('.agk-message[data-state="streaming"] .agk-message__dots > span') as HTMLElement;
    expect(getComputedStyle(dot()).animationName).toBe('agk-dot');
    await session.send('Emulation.setEmulatedMedia', { features: [{ name: 'prefers-reduced-motion', value: 'reduce' }] });
    expect(getComputedStyle(dot()).animationName).toBe('none');
  });
});
