// The Playwright provider types cdp() sessions (its `send`).
/// <reference types="@vitest/browser-playwright" />
import { AgentProvider } from '@aguikit/react';
import { describe, expect, it } from 'vitest';
import { cdp } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { InterruptDialog } from '../src/InterruptDialog.js';
import { type AgentLocale, AgentLocaleProvider, en, zhCN } from '../src/locale.js';
import { playedStore, runOf } from '../src/storybook/scripted.js';

/**
 * An interrupt's message of 10 KB (an agent pasting a log or a policy): the card's accessible description, which a
 * screen reader reads out whenever focus enters the card, is its start and a word that the rest is in the card, not
 * all of it; the whole message is still in the card to read.
 */

const line = (i: number) => `Line ${i}: the carrier's scan log and the customer's photos were checked against section 4.${i}. `;
const LONG = Array.from({ length: 120 }, (_, i) => line(i + 1)).join('');

type AXNode = { role?: { value?: string }; name?: { value?: string }; description?: { value?: string } };

type Frame = { frame: { id: string }; childFrames?: Frame[] };

/** The accessible description Chromium gives the interrupt's card (the test runs in a frame of the page). */
async function cardDescription(): Promise<string> {
  const session = cdp();
  const { frameTree } = await session.send('Page.getFrameTree');
  const frames: string[] = [];
  const walk = (frame: Frame) => {
    frames.push(frame.frame.id);
    for (const child of frame.childFrames ?? []) walk(child);
  };
  walk(frameTree as Frame);
  for (const frameId of frames) {
    const { nodes } = (await session.send('Accessibility.getFullAXTree', { frameId })) as { nodes: AXNode[] };
    const card = nodes.find((node) => node.role?.value === 'article');
    if (card) return card.description?.value ?? '';
  }
  throw new Error('no article in the accessibility tree');
}

async function longQuestion(locale: AgentLocale, message: string) {
  const store = await playedStore([
    {
      say: 'Check the claim',
      events: runOf([], {
        outcome: {
          type: 'interrupt',
          interrupts: [{ id: 'int-claim', reason: 'confirmation', message, responseSchema: { type: 'object', properties: {} } }],
        },
      }),
    },
  ]);
  await render(
    <AgentLocaleProvider locale={locale}>
      <AgentProvider store={store}>
        <InterruptDialog />
      </AgentProvider>
    </AgentLocaleProvider>,
  );
  await expect.poll(() => document.querySelector('.agk-interrupt__message')?.textContent?.length).toBe(message.length);
}

describe('the accessible description of an interrupt with a long message', () => {
  it.each([
    ['en', en],
    ['zh-CN', zhCN],
  ] as const)('is the message’s start, not its 10 KB (%s)', async (_lang, locale) => {
    expect(LONG.length).toBeGreaterThan(10_000);
    await longQuestion(locale, LONG);
    const description = await cardDescription();
    expect(description.length).toBeGreaterThan(100);
    expect(description.length).toBeLessThan(500);
    expect(description.startsWith(line(1))).toBe(true);
    // The whole message is in the card all the same.
    expect(document.querySelector('.agk-interrupt__message')?.textContent).toBe(LONG);
  });

  it('is the whole message when it is short', async () => {
    const message = 'Delete the 3 draft invoices of November? This cannot be undone.';
    await longQuestion(en, message);
    expect(await cardDescription()).toBe(message);
  });
});
