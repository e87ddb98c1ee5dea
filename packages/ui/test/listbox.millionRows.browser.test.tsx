// Vite's client types: they declare the stylesheet import below.
/// <reference types="vite/client" />
import * as React from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { userEvent } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { Listbox } from '../src/Listbox.js';
import '../src/styles.css';

/**
 * A listbox of 1,000,000 rows 52 px tall, 52 million pixels in all, past
 * the height a browser lays an element out to (near 33.5 million in
 * Chromium): End, the arrows, Home and the scrollbar still reach every row,
 * drawn one below the other; focus taken with nothing chosen points at a
 * row in view; a reader in the middle stays there as rows arrive.
 */

afterEach(() => {
  for (const el of document.body.querySelectorAll(':scope > div')) el.remove();
});

const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
const ROWS = 1_000_000;

/** Rows appended from outside, as a log's events arrive. */
let grow: (more: number) => void = () => undefined;

function Rows() {
  const [selected, setSelected] = React.useState<number | undefined>(undefined);
  const [length, setLength] = React.useState(ROWS);
  grow = (more) => setLength((n) => n + more);
  return (
    <Listbox
      label="Events"
      items={{ length, at: (i) => (i < length ? i : undefined) }}
      selected={selected}
      onSelect={setSelected}
      rowHeight={52}
      renderItem={(i) => `#${i}`}
    />
  );
}

/** The rows wholly in view, top to bottom. */
function inView(list: HTMLElement): number[] {
  const view = list.getBoundingClientRect();
  return [...list.querySelectorAll('[role="option"]')]
    .map((row) => ({ item: Number(row.getAttribute('data-item')), box: row.getBoundingClientRect() }))
    .filter(({ box }) => box.top >= view.top - 0.5 && box.bottom <= view.bottom + 0.5)
    .sort((a, b) => a.box.top - b.box.top)
    .map(({ item }) => item);
}

/** Whether the rows in view follow one another, each just below the one before. */
function inOrder(list: HTMLElement): boolean {
  const boxes = [...list.querySelectorAll('[role="option"]')]
    .map((row) => ({ item: Number(row.getAttribute('data-item')), top: row.getBoundingClientRect().top }))
    .sort((a, b) => a.item - b.item);
  const view = list.getBoundingClientRect();
  const shown = boxes.filter((b) => b.top >= view.top - 52 && b.top <= view.bottom);
  return shown.every(
    (b, i) => i === 0 || (b.item === (shown[i - 1]?.item ?? 0) + 1 && Math.abs(b.top - (shown[i - 1]?.top ?? 0) - 52) < 1),
  );
}

describe('Listbox of 1,000,000 rows', () => {
  it('End, ArrowUp, PageUp, Home and the scrollbar show the rows they reach', async () => {
    const host = document.createElement('div');
    host.style.height = '800px';
    document.body.append(host);
    await render(<Rows />, { container: host });
    const list = host.querySelector<HTMLElement>('[role="listbox"]') as HTMLElement;
    list.focus();
    const selected = () => Number(list.querySelector('[aria-selected="true"]')?.getAttribute('data-item'));

    await userEvent.keyboard('{End}');
    await expect.poll(selected).toBe(ROWS - 1);
    await frame();
    expect(inView(list), 'the rows in view after End').toContain(ROWS - 1);
    expect(inOrder(list)).toBe(true);

    await userEvent.keyboard('{ArrowUp}{PageUp}');
    await expect.poll(selected).toBe(ROWS - 12);
    await frame();
    expect(inView(list), 'after ArrowUp and PageUp').toContain(ROWS - 12);
    expect(inOrder(list)).toBe(true);

    list.scrollTop = (list.scrollHeight - list.clientHeight) / 2;
    await frame();
    const middle = inView(list);
    expect(middle.length, 'rows in view at the middle').toBeGreaterThan(5);
    expect(Math.abs((middle[0] ?? 0) - ROWS / 2), 'the first row in view, from the middle row').toBeLessThan(ROWS / 100);
    expect(inOrder(list)).toBe(true);
    // The chosen row, far below, is drawn where it lies among the rows: past the spacer, it makes the list no taller.
    expect(list.scrollHeight, 'the list’s scroll height').toBeLessThan(20_000_000);
    const active = list.getAttribute('aria-activedescendant') ?? '';
    expect(document.getElementById(active)).not.toBeNull();

    await userEvent.keyboard('{Home}');
    await expect.poll(selected).toBe(0);
    await frame();
    expect(inView(list)[0], 'the first row in view after Home').toBe(0);
    expect(list.scrollHeight, 'the list’s scroll height').toBeLessThan(20_000_000);
  });

  it('focus taken in the middle, nothing chosen, points at the first row in view', async () => {
    const host = document.createElement('div');
    host.style.height = '800px';
    document.body.append(host);
    await render(<Rows />, { container: host });
    const list = host.querySelector<HTMLElement>('[role="listbox"]') as HTMLElement;
    list.scrollTop = (list.scrollHeight - list.clientHeight) / 2;
    await frame();
    list.focus();
    await expect.poll(() => list.getAttribute('aria-activedescendant')).toBeTruthy();
    const pointed = document.getElementById(list.getAttribute('aria-activedescendant') ?? '');
    expect(Number(pointed?.getAttribute('data-item'))).toBe(inView(list)[0]);
  });

  it('a reader in the middle stays on the rows read as 5,000 more arrive', async () => {
    const host = document.createElement('div');
    host.style.height = '800px';
    document.body.append(host);
    await render(<Rows />, { container: host });
    const list = host.querySelector<HTMLElement>('[role="listbox"]') as HTMLElement;
    list.scrollTop = (list.scrollHeight - list.clientHeight) / 2;
    await frame();
    const read = inView(list)[0];
    expect(Math.abs((read ?? 0) - ROWS / 2)).toBeLessThan(ROWS / 100);
    for (let i = 0; i < 5; i++) {
      grow(1000);
      await frame();
    }
    expect(list.querySelector('[role="option"]:last-child')?.getAttribute('aria-setsize')).toBe(String(ROWS + 5000));
    expect(inView(list)[0], 'the first row in view').toBe(read);
    expect(inOrder(list)).toBe(true);
  });
});
