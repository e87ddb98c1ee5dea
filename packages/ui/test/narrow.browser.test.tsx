import type { Message as AgUiMessage } from '@aguikit/core';
import { AgentProvider } from '@aguikit/react';
import { afterEach, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { AgentChat } from '../src/AgentChat.js';
import { preloadMarkdown } from '../src/lazyChunks.js';
import '../src/styles.css';
import { drivenStore } from './support/drivenStore.js';

/**
 * What an agent writes, at a phone's width (390 px) in real Chromium: wide
 * content scrolls inside its own frame, never the conversation sideways, and
 * words stay whole where a frame can scroll.
 */

afterEach(() => {
  for (const el of document.body.querySelectorAll(':scope > div')) el.remove();
});

async function mountAtPhoneWidth(messages: AgUiMessage[]) {
  await preloadMarkdown();
  await page.viewport(390, 844);
  const host = document.createElement('div');
  host.style.height = '100vh';
  document.body.append(host);
  const driven = drivenStore(messages);
  await render(
    <AgentProvider store={driven.store}>
      <AgentChat />
    </AgentProvider>,
    { container: host },
  );
  const list = host.querySelector<HTMLElement>('[role="log"]');
  if (!list) throw new Error('no conversation log');
  return { host, list, driven };
}

it('a table scrolls in its frame, its words whole, and the conversation does not scroll sideways', async () => {
  const table = [
    '| Order | Customer | Status | Carrier | Shipped | Delivered | Amount |',
    '|---|---|---|---|---|---|---|',
    '| A-1001 | Bellarossa Trading | Delivered | DHL Express | 2026-11-25 | 2026-11-27 | 249.00 EUR |',
    '| A-1002 | 上海茶具贸易有限公司 | 退款中 | 顺丰速运 | 2026-11-26 | 2026-11-28 | 1,299.00 CNY |',
  ].join('\n');
  const { host, list } = await mountAtPhoneWidth([{ id: 'a1', role: 'assistant', content: table }]);
  await expect.poll(() => host.querySelector('.agk-markdown table')).not.toBeNull();
  const frame = host.querySelector<HTMLElement>('.agk-markdown__table');
  expect((frame?.scrollWidth ?? 0) > (frame?.clientWidth ?? 0)).toBe(true);
  // Each header on one line: a word is not broken letter by letter to squeeze the table into the width.
  for (const th of host.querySelectorAll<HTMLElement>('.agk-markdown th')) {
    const line = Number.parseFloat(getComputedStyle(th).lineHeight);
    const padding = Number.parseFloat(getComputedStyle(th).paddingTop) + Number.parseFloat(getComputedStyle(th).paddingBottom);
    expect(th.getBoundingClientRect().height - padding, th.textContent ?? '').toBeLessThan(line * 1.5);
  }
  expect(list.scrollWidth).toBeLessThanOrEqual(list.clientWidth);
});

it('a long address in a table cell wraps within its column, which leaves the other columns room to read', async () => {
  const address = `https://parcelo.example/track/${'0d9c4f1e7a2b4c3d8e5f6a7b8c9d0e1f'.repeat(4)}?${'x'.repeat(60)}`;
  const table = [
    '| Link | Note |',
    '|---|---|',
    `| ${address} | 包裹已经到达本地配送中心，预计明天上午送达，请保持电话畅通。 |`,
    `| [${address}](${address}) | \`${'trace_'.repeat(30)}\` |`,
  ].join('\n');
  const { host, list } = await mountAtPhoneWidth([{ id: 'a1', role: 'assistant', content: table }]);
  await expect.poll(() => host.querySelector('.agk-markdown table')).not.toBeNull();
  const frame = host.querySelector<HTMLElement>('.agk-markdown__table');
  if (!frame) throw new Error('no table frame');
  // The address breaks inside its cell: the table is not as wide as the address, a screen or more to scroll through.
  expect(frame.scrollWidth).toBeLessThanOrEqual(frame.clientWidth);
  // The note beside it keeps a column several characters wide, not one or two characters a line.
  const note = host.querySelector<HTMLElement>('.agk-markdown tbody tr td:nth-child(2)');
  const em = Number.parseFloat(getComputedStyle(note as HTMLElement).fontSize);
  expect(note?.getBoundingClientRect().width ?? 0).toBeGreaterThan(4 * em);
  expect(list.scrollWidth).toBeLessThanOrEqual(list.clientWidth);
});

it("a message's details with a long key and a long value wrap within the conversation", async () => {
  const metadata = { [`trace_${'k'.repeat(300)}`]: 'v'.repeat(2_000), 模型: 'agent-7b-中文-2026-12-01' };
  const { host, list } = await mountAtPhoneWidth([{ id: 'a1', role: 'assistant', content: 'Done.', metadata } as AgUiMessage]);
  await expect.poll(() => host.querySelector('.agk-message__details-toggle')).not.toBeNull();
  // A target a finger can hit: at least 24 px high (WCAG 2.2 target size).
  expect(host.querySelector('.agk-message__details-toggle')?.getBoundingClientRect().height).toBeGreaterThanOrEqual(24);
  host.querySelector<HTMLElement>('.agk-message__details-toggle')?.click();
  await expect.poll(() => host.querySelector('.agk-message__details:not([hidden])')).not.toBeNull();
  expect(list.scrollWidth).toBeLessThanOrEqual(list.clientWidth);
  const details = host.querySelector<HTMLElement>('.agk-message__details');
  expect(details?.scrollWidth).toBeLessThanOrEqual(details?.clientWidth ?? 0);
});

it('stops following a slow scroll up (a trackpad: a few pixels at a time, each still near the end) while a reply streams', async () => {
  const history = Array.from({ length: 12 }, (_, i) => ({
    id: `h${i}`,
    role: i % 2 ? ('assistant' as const) : ('user' as const),
    content: `Message ${i}: ${'the carrier scanned the parcel at the hub. '.repeat(4)}`,
  }));
  const { host, list, driven } = await mountAtPhoneWidth(history);
  await driven.start();
  // The run has started once its first event is in (on a cold machine it starts after the first push).
  await expect
    .poll(async () => {
      await driven.push();
      return driven.store.getState().eventCount;
    })
    .toBeGreaterThan(0);
  await driven.push({ type: 'TEXT_MESSAGE_START', messageId: 's', role: 'assistant' });
  for (let i = 0; i < 10; i++) await driven.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: 's', delta: `w${i} ` });
  const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  await frame();
  const root = host.querySelector('.agk-messages');
  expect(root).toHaveAttribute('data-scroll', 'following');
  for (let i = 0; i < 20; i++) {
    list.dispatchEvent(new WheelEvent('wheel', { deltaY: -6, bubbles: true }));
    list.scrollTop -= 6;
    await new Promise((resolve) => requestAnimationFrame(resolve));
    await driven.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: 's', delta: `t${i} ` });
    await frame();
  }
  expect(root).toHaveAttribute('data-scroll', 'paused');
  expect(list.scrollHeight - list.scrollTop - list.clientHeight).toBeGreaterThan(60);
  // Back at the end, it follows again.
  list.scrollTop = list.scrollHeight;
  await frame();
  await driven.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: 's', delta: 'more ' });
  await frame();
  expect(root).toHaveAttribute('data-scroll', 'following');
});

it('a pasted link without spaces wraps inside the composer, which stays as wide as the chat', async () => {
  const { host } = await mountAtPhoneWidth([{ id: 'u1', role: 'user', content: 'Where is my order?' }]);
  const box = host.querySelector<HTMLTextAreaElement>('textarea.agk-composer__input');
  if (!box) throw new Error('no composer');
  await userEvent.fill(box, `https://shop.example.com/orders/0d9c4f1e-7a2b-4c3d-8e5f-6a7b8c9d0e1f?${'track=1&'.repeat(200)}`);
  const chat = host.querySelector<HTMLElement>('.agk-chat')?.getBoundingClientRect();
  const row = host.querySelector<HTMLElement>('.agk-composer__row')?.getBoundingClientRect();
  expect(row && chat && row.right <= chat.right).toBe(true);
  expect(box.getBoundingClientRect().right).toBeLessThanOrEqual(390);
  // It wraps: the text goes down, not sideways.
  expect(box.scrollWidth).toBeLessThanOrEqual(box.clientWidth);
});
