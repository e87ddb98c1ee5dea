// Vite's client types: they declare the stylesheet import below.
/// <reference types="vite/client" />
import { AgentProvider } from '@aguikit/react';
import { afterEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { AgentChat } from '../src/AgentChat.js';
import '../src/styles.css';
import { drivenStore } from './support/drivenStore.js';

/**
 * A run starting puts Stop beside Send: the text box narrows, and a hint that fitted its line would wrap to a second
 * one, the composer growing and the conversation above it jumping as the user starts to type. An empty composer is as
 * tall whatever its hint, idle or while a run streams (run.css: the hint is one line, cut with an ellipsis).
 */

afterEach(async () => {
  for (const el of document.body.querySelectorAll(':scope > div')) el.remove();
  await page.viewport(414, 896);
});

const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

/** The composer's height idle, then while a run streams, in a chat of the window's size. */
async function heights(hint: string | undefined) {
  const host = document.createElement('div');
  host.style.height = '100vh';
  document.body.append(host);
  const driven = drivenStore([{ id: 'u1', role: 'user', content: 'Where is my order?' }]);
  await render(
    <AgentProvider store={driven.store}>
      <AgentChat {...(hint === undefined ? {} : { placeholder: hint })} />
    </AgentProvider>,
    { container: host },
  );
  const composer = host.querySelector<HTMLElement>('.agk-composer');
  if (!composer) throw new Error('no composer');
  await frame();
  const idle = composer.getBoundingClientRect().height;
  await driven.start();
  await expect.poll(() => composer.dataset.state).toBe('busy');
  await frame();
  const streaming = composer.getBoundingClientRect().height;
  // The first letter typed replaces the hint: one line still.
  await userEvent.type(host.querySelector('textarea') as HTMLTextAreaElement, 'W');
  const typed = composer.getBoundingClientRect().height;
  host.remove();
  return { idle, streaming, typed };
}

// Short enough for its line beside Send alone at 390 px, too long beside Stop and Send.
const FITS_IDLE = 'Summarise our conversation.';
const LONG = 'Ask about an order, a refund or a delivery: type the order number and what went wrong';

describe('an empty composer', () => {
  for (const [width, height] of [
    [390, 844],
    [320, 640],
  ] as const)
    it(`keeps its height as a run starts, whatever its hint (${width}x${height})`, async () => {
      await page.viewport(width, height);
      const plain = await heights(undefined);
      expect(plain.streaming, 'the default hint: streaming against idle').toBe(plain.idle);
      for (const hint of [FITS_IDLE, LONG]) {
        const { idle, streaming, typed } = await heights(hint);
        expect(streaming, `${hint}: streaming against idle`).toBe(idle);
        expect(typed, `${hint}: a letter typed against the hint`).toBe(idle);
        expect(idle, `${hint}: against the default hint`).toBe(plain.idle);
      }
    });
});
