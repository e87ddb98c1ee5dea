// Vite's client types: they declare the stylesheet import below.
/// <reference types="vite/client" />
import { afterEach, describe, expect, it } from 'vitest';
import { render } from 'vitest-browser-react';
import { Listbox } from '../src/Listbox.js';
import '../src/styles.css';

/**
 * A listbox whose page's font size changes after it is shown (the reader
 * picks larger text): its rows grow with the font, as they would had the
 * page opened with it, so their second line is not cut off; a long list
 * still renders the rows in view.
 */

afterEach(() => {
  for (const el of document.body.querySelectorAll(':scope > div')) el.remove();
  document.documentElement.style.fontSize = '';
});

const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

async function mount(length: number) {
  const host = document.createElement('div');
  host.style.cssText = 'height: 100vh; font-size: 1rem';
  document.body.append(host);
  await render(
    <Listbox
      label="Events"
      items={{ length, at: (i) => (i < length ? i : undefined) }}
      selected={undefined}
      onSelect={() => undefined}
      rowHeight={52}
      renderItem={(i) => (
        <>
          <span className="line">#{i} TEXT_MESSAGE_CONTENT</span>
          <span className="line">您的订单已经发货</span>
        </>
      )}
    />,
    { container: host },
  );
  return host.querySelector<HTMLElement>('[role="listbox"]') as HTMLElement;
}

/** Rows whose last line ends below the row's own bottom (cut off), by index. */
const cut = (list: HTMLElement) =>
  [...list.querySelectorAll('[role="option"]')]
    .filter((row) => (row.lastElementChild as HTMLElement).getBoundingClientRect().bottom > row.getBoundingClientRect().bottom + 0.5)
    .map((row) => row.getAttribute('data-item'));

describe('Listbox: the page font grows after the list is shown', () => {
  for (const length of [40, 100_000]) {
    it(`${length.toLocaleString('en')} rows, 16px then 24px: rows grow to 78px and show both lines`, async () => {
      const list = await mount(length);
      await frame();
      expect((list.querySelector('[role="option"]') as HTMLElement).offsetHeight).toBe(52);
      expect(cut(list)).toEqual([]);
      document.documentElement.style.fontSize = '24px';
      await frame();
      await frame();
      expect((list.querySelector('[role="option"]') as HTMLElement).offsetHeight, 'a row’s height').toBe(78);
      expect(cut(list), 'rows whose second line is cut off').toEqual([]);
      if (length > 300) {
        list.scrollTop = 50_000 * 78;
        await frame();
        const view = list.getBoundingClientRect();
        const shown = [...list.querySelectorAll('[role="option"]')].filter((row) => {
          const r = row.getBoundingClientRect();
          return r.bottom > view.top && r.top < view.bottom;
        });
        expect(shown.map((row) => row.getAttribute('data-item'))).toContain('50001');
      }
    });
  }
});
