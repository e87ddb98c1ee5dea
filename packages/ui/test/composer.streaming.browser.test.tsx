// Vite's client types: they declare the stylesheet import below.
/// <reference types="vite/client" />
// The Playwright provider types cdp() sessions (its `send`).
/// <reference types="@vitest/browser-playwright" />
import { AgentProvider } from '@aguikit/react';
import { afterEach, describe, expect, it } from 'vitest';
import { cdp, page, userEvent } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { AgentChat } from '../src/AgentChat.js';
import { preloadInterruptForm } from '../src/lazyChunks.js';
import { call, playedStore, runOf } from '../src/storybook/scripted.js';
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
async function heights(hint: string | undefined, style = '') {
  const host = document.createElement('div');
  host.style.cssText = `height: 100vh; ${style}`;
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
  const input = host.querySelector('textarea') as HTMLTextAreaElement;
  const empty = input.getBoundingClientRect().height;
  // How far the hint's line and the padding reach below the empty box's edge (more than a pixel: the hint is cut).
  const hintBelow = input.scrollHeight - input.clientHeight;
  await driven.start();
  await expect.poll(() => composer.dataset.state).toBe('busy');
  await frame();
  const streaming = composer.getBoundingClientRect().height;
  // The first letter typed replaces the hint: one line still.
  await userEvent.type(input, 'W');
  const typed = composer.getBoundingClientRect().height;
  const line = input.getBoundingClientRect().height;
  host.remove();
  return { idle, streaming, typed, box: { empty, line, hintBelow } };
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

  it('keeps its height as a run starts in a chat of a larger font (20px, 360x780)', async () => {
    await page.viewport(360, 780);
    const { idle, streaming } = await heights(LONG, 'font-size: 20px');
    expect(streaming, 'streaming against idle').toBe(idle);
  });

  it('is as tall as a line typed in it, its hint whole, in a theme with more room (--agk-space: 12px)', async () => {
    await page.viewport(390, 844);
    const { box } = await heights(LONG, '--agk-space: 12px');
    expect(box.line, 'the text box, a letter typed against the hint').toBe(box.empty);
    expect(box.hintBelow, 'the hint’s line past the empty box’s edge').toBeLessThanOrEqual(1);
  });

  it('made taller by hand, then emptied, can be made shorter by hand again', async () => {
    await page.viewport(390, 844);
    const host = document.createElement('div');
    host.style.height = '100vh';
    document.body.append(host);
    const driven = drivenStore([{ id: 'u1', role: 'user', content: 'Where is my order?' }]);
    await render(
      <AgentProvider store={driven.store}>
        <AgentChat placeholder={LONG} />
      </AgentProvider>,
      { container: host },
    );
    const input = host.querySelector('textarea') as HTMLTextAreaElement;
    // The test page is a frame of the runner's, maybe scaled: the mouse is moved in the runner's coordinates.
    const frameBox = (window.frameElement as HTMLElement | null)?.getBoundingClientRect();
    const scale = frameBox ? frameBox.width / innerWidth : 1;
    /** Drags the text box's resize grip (its bottom right corner) by `dy` CSS px. */
    const drag = async (dy: number) => {
      const box = input.getBoundingClientRect();
      const x = (frameBox?.left ?? 0) + (box.right - 3) * scale;
      const y = (frameBox?.top ?? 0) + (box.bottom - 3) * scale;
      const mouse = (type: 'mouseMoved' | 'mousePressed' | 'mouseReleased', at: number) =>
        cdp().send('Input.dispatchMouseEvent', { type, x, y: at, button: 'left', buttons: 1, clickCount: 1 });
      await mouse('mouseMoved', y);
      await mouse('mousePressed', y);
      for (let i = 1; i <= 5; i++) await mouse('mouseMoved', y + (i * dy * scale) / 5);
      await mouse('mouseReleased', y + dy * scale);
      await frame();
    };
    await userEvent.type(input, 'Hello');
    await drag(100);
    const taller = input.getBoundingClientRect().height;
    expect(taller, 'made taller by hand').toBeGreaterThan(100);
    await userEvent.clear(input);
    await frame();
    await drag(-60);
    expect(input.getBoundingClientRect().height, 'empty, made shorter by hand').toBeLessThan(taller - 30);
  });

  it('is as tall as a line typed in it while the agent waits, in a theme with more room (--agk-space: 12px)', async () => {
    await page.viewport(414, 896);
    await preloadInterruptForm();
    const callId = '2f4e6a8c-0b1d-4e3f-9a5b-7c9d1e3f5a7b';
    const interrupt = {
      id: '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b',
      reason: 'tool_call',
      toolCallId: callId,
      message: 'Refund $42.00?',
      responseSchema: { type: 'object', required: ['approved'], properties: { approved: { type: 'boolean' } } },
    };
    const run = runOf(call(callId, 'refund_order', { orderId: 'A-1001', amount: 42 }), {
      outcome: { type: 'interrupt', interrupts: [interrupt] },
    });
    const store = await playedStore([], { pending: [run], now: () => Date.now() });
    const host = document.createElement('div');
    host.style.cssText = 'height: 100vh; --agk-space: 12px';
    document.body.append(host);
    const screen = await render(
      <AgentProvider store={store}>
        <AgentChat placeholder={LONG} />
      </AgentProvider>,
      { container: host },
    );
    await store.getState().run('Refund order A-1001, please.');
    await expect.element(screen.getByRole('button', { name: 'Approve' })).toBeEnabled();
    const input = host.querySelector<HTMLTextAreaElement>('.agk-composer[data-state="waiting"] .agk-composer__input');
    if (!input) throw new Error('no waiting composer');
    const empty = input.getBoundingClientRect().height;
    await userEvent.type(input, 'W');
    expect(input.getBoundingClientRect().height, 'the text box, a letter typed against the hint').toBe(empty);
  });
});

const ARABIC = 'اسأل عن طلب أو استرداد أو توصيل: اكتب رقم الطلب وما الذي حدث خطأ في التوصيل';

describe('an empty composer’s hint cut to its line', () => {
  for (const [hint, pageDir, own] of [
    [ARABIC, 'ltr', 'rtl'],
    [LONG, 'rtl', 'ltr'],
  ] as const)
    it(`shows its start, written ${own} on a ${pageDir} page, as on a page of its own direction`, async () => {
      await page.viewport(390, 844);
      document.documentElement.dir = pageDir;
      const host = document.createElement('div');
      host.style.height = '100vh';
      document.body.append(host);
      const driven = drivenStore([{ id: 'u1', role: 'user', content: 'Where is my order?' }]);
      try {
        await render(
          <AgentProvider store={driven.store}>
            <AgentChat placeholder={hint} />
          </AgentProvider>,
          { container: host },
        );
        const input = host.querySelector('textarea') as HTMLTextAreaElement;
        // Its grip, at the corner where the line ends, is not compared.
        input.style.resize = 'none';
        await frame();
        // The hint is drawn inside the browser's own shadow tree: what is drawn is compared with the box set to the hint's direction.
        const shot = () => page.screenshot({ element: input, save: false });
        const drawn = await shot();
        input.dir = own;
        await frame();
        expect(drawn, 'the hint as drawn against the hint in a box of its direction').toBe(await shot());
      } finally {
        document.documentElement.removeAttribute('dir');
      }
    });
});
