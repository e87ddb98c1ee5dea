// Vite's client types: they declare the stylesheet import below.
/// <reference types="vite/client" />
import { AgentProvider } from '@aguikit/react';
import { afterEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { AgentChat } from '../src/AgentChat.js';
import { call, playedStore, runOf, say } from '../src/storybook/scripted.js';
import '../src/styles.css';

/**
 * A reader at the end of a finished thread opens a tool call's card: the card
 * opens downward under its header, which stays where it was, under the
 * reader's pointer and focus, instead of the list following the growth to its
 * end and taking the header out of view.
 */

const nextFrame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));

async function finishedThread() {
  const cities = ['上海', 'Lisbon', 'Buenos Aires', 'Reykjavík'];
  return playedStore([
    {
      say: 'What is the weather in four cities?',
      events: runOf([
        ...say('2f9d1c1e-6b7a-4e55-9a0c-1d2e3f4a5b6c', 'Looking up the weather in each city, all at once.'),
        ...cities.flatMap((city, i) =>
          call(
            `8c1b7d2e-0f3a-4b5c-9d6e-7f8a9b0c1d2${i}`,
            'get_weather',
            { city, days: 7, units: 'metric', detail: 'x'.repeat(400) },
            { result: `Sunny in ${city}` },
          ),
        ),
        ...say('3a4b5c6d-7e8f-4a0b-8c1d-2e3f4a5b6c7d', 'It is sunny everywhere today.'),
      ]),
    },
  ]);
}

afterEach(async () => {
  await page.viewport(414, 896);
});

describe('opening a tool card at the end of the thread', () => {
  for (const [width, height, by] of [
    [1366, 768, 'click'],
    [1366, 768, 'keyboard'],
    [390, 844, 'click'],
  ] as const) {
    it(`keeps its header where it was and in view (${width}x${height}, by ${by})`, async () => {
      await page.viewport(width, height);
      const store = await finishedThread();
      await render(
        <AgentProvider store={store}>
          <div style={{ height: '100vh', display: 'flex', flexDirection: 'column' }}>
            <AgentChat />
          </div>
        </AgentProvider>,
      );
      await nextFrame();
      await nextFrame();
      const headers = [...document.querySelectorAll<HTMLElement>('.agk-toolcall button[aria-expanded]')];
      const header = headers.at(-2) as HTMLElement;
      expect(header.getAttribute('aria-expanded')).toBe('false');
      const viewport = header.closest<HTMLElement>('.agk-messages__viewport') as HTMLElement;
      const before = header.getBoundingClientRect().top;
      if (by === 'click') await userEvent.click(header);
      else {
        header.focus();
        await userEvent.keyboard('{Enter}');
      }
      await expect.poll(() => header.getAttribute('aria-expanded')).toBe('true');
      await nextFrame();
      await nextFrame();
      const after = header.getBoundingClientRect();
      const view = viewport.getBoundingClientRect();
      expect(Math.abs(after.top - before), `the header moved from ${before} to ${after.top}`).toBeLessThanOrEqual(1);
      expect(after.top >= view.top - 0.5 && after.bottom <= view.bottom + 0.5, 'the header is in view').toBe(true);
    });
  }
});

describe('the reader scrolls right after opening a card', () => {
  for (const how of ['wheel', 'keys', 'touch', 'scrollbar'] as const) {
    it(`keeps their scroll when the list changes in the moments after (by ${how})`, async () => {
      await page.viewport(1366, 768);
      const store = await finishedThread();
      await render(
        <AgentProvider store={store}>
          <div style={{ height: '100vh', display: 'flex', flexDirection: 'column' }}>
            <AgentChat />
          </div>
        </AgentProvider>,
      );
      await nextFrame();
      await nextFrame();
      const header = [...document.querySelectorAll<HTMLElement>('.agk-toolcall button[aria-expanded]')].at(-2) as HTMLElement;
      const viewport = header.closest<HTMLElement>('.agk-messages__viewport') as HTMLElement;
      await userEvent.click(header);
      await expect.poll(() => header.getAttribute('aria-expanded')).toBe('true');
      await nextFrame();
      // The reader scrolls up within the moments the card's growth is counted as theirs.
      if (how === 'wheel') header.dispatchEvent(new WheelEvent('wheel', { deltaY: -120, bubbles: true }));
      else if (how === 'keys') viewport.dispatchEvent(new KeyboardEvent('keydown', { key: 'PageUp', bubbles: true }));
      else if (how === 'touch') {
        const at = (y: number) => [new Touch({ identifier: 1, target: header, clientY: y })];
        header.dispatchEvent(new TouchEvent('touchstart', { touches: at(100), bubbles: true }));
        header.dispatchEvent(new TouchEvent('touchmove', { touches: at(400), bubbles: true }));
      } else viewport.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
      viewport.scrollTop -= 120;
      const theirs = viewport.scrollTop;
      await nextFrame();
      // Then the list changes (a card's body drawn late, a token): the reader's scroll stays.
      header.closest('.agk-toolcall')?.append(document.createElement('p'));
      await nextFrame();
      await nextFrame();
      expect(Math.abs(viewport.scrollTop - theirs), `scrolled from ${theirs} to ${viewport.scrollTop}`).toBeLessThanOrEqual(1);
    });
  }
});
