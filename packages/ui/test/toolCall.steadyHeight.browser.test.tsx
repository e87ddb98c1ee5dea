/// <reference types="vite/client" />
import { loadEngine } from '@aguikit/core';
import { AgentProvider } from '@aguikit/react';
import type * as React from 'react';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { AgentChat } from '../src/AgentChat.js';
import { preloadMarkdown } from '../src/lazyChunks.js';
import { type AgentLocale, AgentLocaleProvider, en, zhCN } from '../src/locale.js';
import { ToolCallCard } from '../src/ToolCall.js';
import '../src/styles.css';
import { drivenStore } from './support/drivenStore.js';

/**
 * A tool-call card keeps its height while it streams, in real Chromium: its
 * status badge changes words (and width) from "Declared" through "Receiving
 * arguments" and "Ready" to "Succeeded", and the card must not grow a row
 * for the wider words and give it back for the narrower ones (a layout shift
 * under the reader's eyes). Also in a narrow sidebar and in a parent that
 * sizes to its content, where the card must keep its name, summary and badge
 * readable and inside its border.
 */

// The engine and the Markdown renderer load on first need; the driven store flushes only when a test pushes.
beforeAll(() => Promise.all([loadEngine(), preloadMarkdown()]));

afterEach(() => {
  for (const el of document.body.querySelectorAll(':scope > div')) el.remove();
});

const CITIES = ['Lisbon', 'Oslo', 'Tokyo'];
/** The three cards on their own, outside a conversation. */
const cards = CITIES.map((_, i) => `w${i}`).map((id) => <ToolCallCard key={id} id={id} data-call={id} />);

type Driven = ReturnType<typeof drivenStore>;

/** Each card's height and status after every step of a stream like the playground's "Parallel tool calls". */
async function heightsThrough(driven: Driven, root: HTMLElement, names = CITIES.map(() => 'get_weather')) {
  const seen = new Map<string, { status: string; height: number }[]>();
  const measure = () => {
    const cards = [...root.querySelectorAll<HTMLElement>('.agk-toolcall')];
    for (const card of cards) {
      const id = card.getAttribute('data-call') ?? card.querySelector('button')?.id ?? '';
      const list = seen.get(id) ?? [];
      list.push({ status: card.getAttribute('data-status') ?? '', height: Math.round(card.getBoundingClientRect().height * 2) / 2 });
      seen.set(id, list);
    }
  };
  await driven.start();
  await driven.push(
    { type: 'TEXT_MESSAGE_START', messageId: 'intro', role: 'assistant' },
    { type: 'TEXT_MESSAGE_CONTENT', messageId: 'intro', delta: 'Checking three cities at once.' },
    { type: 'TEXT_MESSAGE_END', messageId: 'intro' },
  );
  for (const [i, name] of names.entries()) {
    await driven.push({ type: 'TOOL_CALL_START', toolCallId: `w${i}`, toolCallName: name, parentMessageId: 'intro' });
  }
  await expect.poll(() => root.querySelectorAll('.agk-toolcall').length).toBe(names.length);
  measure();
  const args = CITIES.map((city) => JSON.stringify({ city, units: 'metric' }));
  for (let at = 0; at < Math.max(...args.map((a) => a.length)); at += 6) {
    for (const [i, a] of args.entries()) {
      const delta = a.slice(at, at + 6);
      if (!delta) continue;
      await driven.push({ type: 'TOOL_CALL_ARGS', toolCallId: `w${i}`, delta });
      measure();
    }
  }
  for (const i of CITIES.keys()) {
    await driven.push({ type: 'TOOL_CALL_END', toolCallId: `w${i}` });
    measure();
  }
  for (const i of [2, 0, 1]) {
    await driven.push({
      type: 'TOOL_CALL_RESULT',
      messageId: `r${i}`,
      toolCallId: `w${i}`,
      content: JSON.stringify({ city: CITIES[i], tempC: 11, sky: 'cloudy' }),
    });
    measure();
  }
  return seen;
}

/** Every card went through the lifecycle (so the test measured something) at one height throughout. */
function expectSteady(seen: Map<string, { status: string; height: number }[]>) {
  expect(seen.size).toBe(CITIES.length);
  for (const steps of seen.values()) {
    expect(new Set(steps.map((s) => s.status))).toEqual(new Set(['declared', 'args_streaming', 'ready', 'succeeded']));
    const heights = [...new Set(steps.map((s) => s.height))];
    expect(heights, steps.map((s) => `${s.status} ${s.height}`).join(', ')).toHaveLength(1);
  }
}

function wrap(driven: Driven, locale: AgentLocale, children: React.ReactNode) {
  return (
    <AgentLocaleProvider locale={locale}>
      <AgentProvider store={driven.store}>{children}</AgentProvider>
    </AgentLocaleProvider>
  );
}

for (const [width, height] of [
  [390, 844],
  [1366, 768],
] as const) {
  for (const locale of [en, zhCN]) {
    it(`a streaming card keeps its height through its statuses at ${width} px (${locale.lang})`, async () => {
      await page.viewport(width, height);
      const host = document.createElement('div');
      host.style.height = '100vh';
      document.body.append(host);
      const driven = drivenStore();
      await render(wrap(driven, locale, <AgentChat />), { container: host });
      expectSteady(await heightsThrough(driven, host));
    });
  }
}

/** Nothing of a card spills out of its border, and its badge and name are whole. */
function expectWhole(card: HTMLElement) {
  const box = card.getBoundingClientRect();
  for (const el of [card, ...card.querySelectorAll<HTMLElement>('.agk-toolcall__header, .agk-toolcall__header *')]) {
    const r = el.getBoundingClientRect();
    if (r.width === 0) continue;
    expect(r.right, el.className).toBeLessThanOrEqual(box.right + 0.5);
    expect(r.left, el.className).toBeGreaterThanOrEqual(box.left - 0.5);
  }
  const badge = card.querySelector<HTMLElement>('.agk-badge');
  const name = card.querySelector<HTMLElement>('.agk-toolcall__name');
  if (!badge || !name) throw new Error('no badge or no name');
  expect(badge.scrollWidth).toBeLessThanOrEqual(badge.clientWidth + 1);
  expect(name.scrollWidth).toBeLessThanOrEqual(name.clientWidth + 1);
  expect(card.scrollWidth).toBeLessThanOrEqual(card.clientWidth + 1);
}

const LONG_TOOL = 'crm_customer_relationship_lookup_by_external_reference_identifier_v2';

for (const locale of [en, zhCN]) {
  it(`in a 240 px sidebar, a card keeps its height and stays whole, with a long tool name too (${locale.lang})`, async () => {
    await page.viewport(390, 844);
    const host = document.createElement('div');
    host.style.width = '240px';
    document.body.append(host);
    const driven = drivenStore();
    await render(wrap(driven, locale, cards), { container: host });
    const seen = await heightsThrough(driven, host, ['get_weather', LONG_TOOL, 'get_weather']);
    expectSteady(seen);
    for (const card of host.querySelectorAll<HTMLElement>('.agk-toolcall')) {
      expectWhole(card);
      // The summary keeps a share of the line: it is cut, not gone.
      expect(card.querySelector<HTMLElement>('.agk-toolcall__summary')?.clientWidth).toBeGreaterThan(40);
    }
  });

  it(`in a parent that sizes to its content (inline-block), a card is as wide as what it holds, and steady (${locale.lang})`, async () => {
    await page.viewport(390, 844);
    const host = document.createElement('div');
    host.style.display = 'inline-block';
    document.body.append(host);
    const driven = drivenStore();
    await render(wrap(driven, locale, cards), { container: host });
    expectSteady(await heightsThrough(driven, host));
    for (const card of host.querySelectorAll<HTMLElement>('.agk-toolcall')) {
      expectWhole(card);
      // Not collapsed around its name: the short summary is shown whole.
      const summary = card.querySelector<HTMLElement>('.agk-toolcall__summary');
      expect(summary?.textContent).toMatch(/^city: \w+, units: metric$/);
      expect(summary && summary.scrollWidth <= summary.clientWidth + 1).toBe(true);
    }
  });
}
