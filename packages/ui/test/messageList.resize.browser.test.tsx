/// <reference types="vite/client" />
import type { Message as AgUiMessage } from '@aguikit/core';
import { AgentProvider, createAgentStore } from '@aguikit/react';
import { describe, expect, it } from 'vitest';
import { render } from 'vitest-browser-react';
import { preloadMarkdown } from '../src/lazyChunks.js';
import { MessageList } from '../src/Messages.js';
import '../src/styles.css';

/**
 * A long thread of messages of very different heights (one line to many, in
 * Chinese, Arabic and English, with emoji) read in the middle, in a list
 * whose width changes under the reader (a phone turned, a window resized).
 */

const THREAD = 10_000;
const texts = [
  '好的，我来查一下订单。',
  'سأتحقق من حالة الطلب الآن، لحظة من فضلك.',
  `Reply with a long paragraph: ${'the order ships this week and the refund follows. '.repeat(12)}`,
  `👨‍👩‍👧‍👦 ${'家庭套餐的详细说明。'.repeat(30)}`,
  'ok',
];
const thread: AgUiMessage[] = Array.from({ length: THREAD }, (_, i) =>
  i % 2
    ? { id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, role: 'assistant', content: `#${i} ${texts[i % texts.length]}` }
    : { id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, role: 'user', content: `#${i} ${texts[(i * 7) % texts.length]}` },
);

const nextFrame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));
async function settle(frames = 12) {
  for (let i = 0; i < frames; i++) await nextFrame();
}

/** The number (#n) of the first message whose top is in view, and where its top is from the viewport's top. */
function anchor(log: HTMLElement): { n: number; offset: number } | undefined {
  const view = log.getBoundingClientRect();
  const rows = [...log.querySelectorAll<HTMLElement>('article')]
    .map((a) => ({ a, box: a.getBoundingClientRect() }))
    .filter(({ box }) => box.bottom > view.top && box.top < view.bottom)
    .sort((x, y) => x.box.top - y.box.top);
  const first = rows[0];
  const n = Number(/#(\d+)/.exec(first?.a.textContent ?? '')?.[1]);
  return first && Number.isInteger(n) ? { n, offset: first.box.top - view.top } : undefined;
}

describe('MessageList in Chromium: a 10,000-message thread read in the middle while its width changes', () => {
  it('keeps the message the reader was at in view, and keeps not following', async () => {
    await preloadMarkdown();
    const store = createAgentStore({ source: { run: async function* () {} }, threadId: 't', initialMessages: thread });
    const screen = await render(
      <AgentProvider store={store}>
        <div data-frame="" style={{ width: 390, height: 700, display: 'flex', flexDirection: 'column' }}>
          <MessageList />
        </div>
      </AgentProvider>,
    );
    const frame = screen.container.querySelector<HTMLElement>('[data-frame]');
    const root = screen.container.querySelector<HTMLElement>('.agk-messages');
    const log = screen.container.querySelector<HTMLElement>('[role="log"]');
    if (!frame || !root || !log) throw new Error('no message list');
    await settle();
    expect(root).toHaveAttribute('data-virtualization', 'on');

    log.dispatchEvent(new WheelEvent('wheel', { deltaY: -400 }));
    log.scrollTop = Math.round(log.scrollHeight / 2);
    await settle();
    // Measured rows settle where they were estimated: scroll by small steps until the rows in view are still.
    for (let i = 0; i < 5; i++) {
      log.scrollTop -= 50;
      await settle(4);
    }
    expect(root).toHaveAttribute('data-scroll', 'paused');
    // The reader has stopped scrolling (the scroll has ended) before the width changes.
    await new Promise((resolve) => setTimeout(resolve, 400));
    const before = anchor(log);
    if (!before) throw new Error('no message in view');

    for (const width of [1366, 390, 900]) {
      frame.style.width = `${width}px`;
      await settle();
      const after = anchor(log);
      expect(root, `at ${width}px`).toHaveAttribute('data-scroll', 'paused');
      // The message the reader was in is still the one across the top of the view (not rows further on).
      expect(after?.n, `at ${width}px`).toBe(before.n);
    }
  });
});

describe('MessageList in Chromium: a very long reply across the top of the view while the list gets narrower', () => {
  it('keeps the reader as far through it as they were, not moved on by the rows after it', async () => {
    await preloadMarkdown();
    // Short rows, one reply of many paragraphs in the middle, short rows again.
    const long = Array.from(
      { length: 60 },
      (_, p) => `Paragraph ${p}: ${'the order ships this week and the refund follows. '.repeat(6)}`,
    ).join('\n\n');
    const messages: AgUiMessage[] = Array.from({ length: 400 }, (_, i) => ({
      id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      role: i % 2 ? 'assistant' : 'user',
      content: i === 201 ? `#${i} ${long}` : `#${i} ${texts[i % texts.length]}`,
    }));
    const store = createAgentStore({ source: { run: async function* () {} }, threadId: 't', initialMessages: messages });
    const screen = await render(
      <AgentProvider store={store}>
        <div data-frame="" style={{ width: 1200, height: 700, display: 'flex', flexDirection: 'column' }}>
          <MessageList />
        </div>
      </AgentProvider>,
    );
    const frame = screen.container.querySelector<HTMLElement>('[data-frame]');
    const root = screen.container.querySelector<HTMLElement>('.agk-messages');
    const log = screen.container.querySelector<HTMLElement>('[role="log"]');
    if (!frame || !root || !log) throw new Error('no message list');
    await settle();
    expect(root).toHaveAttribute('data-virtualization', 'on');
    const reply = () =>
      [...log.querySelectorAll<HTMLElement>('.agk-messages__row')].find((row) => row.textContent?.includes('#201 Paragraph'));
    /** How far through the long reply the top of the view is (0: its top, 1: its bottom). */
    const through = () => {
      const row = reply();
      if (!row) return undefined;
      const box = row.getBoundingClientRect();
      return (log.getBoundingClientRect().top - box.top) / box.height;
    };

    log.dispatchEvent(new WheelEvent('wheel', { deltaY: -400 }));
    // Bring the reply into view, measured, then its last tenth to the top of the view.
    for (let i = 0; i < 6; i++) {
      const row = reply();
      if (row) {
        const box = row.getBoundingClientRect();
        log.scrollTop += Math.round(box.top + box.height * 0.97 - log.getBoundingClientRect().top);
      } else log.scrollTop = Math.round((log.scrollHeight * 201) / 400);
      await settle(4);
    }
    expect(root).toHaveAttribute('data-scroll', 'paused');
    await new Promise((resolve) => setTimeout(resolve, 400));
    const before = through();
    expect(before).toBeGreaterThan(0.9);
    expect(before).toBeLessThan(0.99);

    frame.style.width = '420px';
    await settle();
    const after = through();
    expect(root).toHaveAttribute('data-scroll', 'paused');
    // Three times as tall now, the reader is as far through it (a row's worth off at most: 40 px of ~9,000).
    const height = reply()?.getBoundingClientRect().height ?? 0;
    expect(Math.abs((after ?? 0) - (before ?? 0)) * height).toBeLessThan(40);
  });
});
