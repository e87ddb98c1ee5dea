// Vite's client types: they declare the stylesheet import below.
/// <reference types="vite/client" />
import * as React from 'react';
import { flushSync } from 'react-dom';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, expect, it } from 'vitest';
import { Listbox } from '../src/Listbox.js';
import '../src/styles.css';

/**
 * A listbox of 10,000 rows mounted in the browser, not hydrated: its first
 * commit (before any frame is painted) already draws only a window of rows,
 * each in its place and as tall as it is meant to be, over a spacer as tall
 * as all the rows. Hydrated from a server's HTML (rows with no `style`), it
 * ends as that same markup.
 */

afterEach(() => {
  for (const el of document.body.querySelectorAll(':scope > div')) el.remove();
});

const ROWS = 10_000;
const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

function Rows({ chosen, length = ROWS }: { chosen?: number; length?: number }) {
  const [selected, setSelected] = React.useState<number | undefined>(chosen);
  return (
    <Listbox
      label="Events"
      items={{ length, at: (i) => (i >= 0 && i < length ? i : undefined) }}
      selected={selected}
      onSelect={setSelected}
      rowHeight={40}
      renderItem={(i) => `#${i}`}
    />
  );
}

function host(): HTMLElement {
  const el = document.createElement('div');
  el.style.height = '600px';
  document.body.append(el);
  return el;
}

/** What each row and the spacer look like: their place and height as laid out. */
function layout(el: HTMLElement) {
  const list = el.querySelector<HTMLElement>('[role="listbox"]') as HTMLElement;
  const top = list.getBoundingClientRect().top;
  const rows = [...list.querySelectorAll<HTMLElement>('[role="option"]')].map((row) => {
    const box = row.getBoundingClientRect();
    return {
      item: Number(row.dataset.item),
      top: Math.round(box.top - top - list.clientTop + list.scrollTop),
      height: Math.round(box.height),
    };
  });
  const spacer = list.querySelector<HTMLElement>('.agk-listbox__spacer');
  return {
    rows,
    spacer: spacer ? Math.round(spacer.getBoundingClientRect().height) : undefined,
    scrollHeight: list.scrollHeight,
    scrollTop: list.scrollTop,
  };
}

it('mounted in the browser, its first commit draws a window of rows, each in its place, over a spacer as tall as all rows', () => {
  const el = host();
  const root = createRoot(el);
  // Synchronously: what is read here is what the first paint shows.
  flushSync(() => root.render(<Rows />));
  const first = layout(el);
  expect(first.rows.length).toBeGreaterThan(0);
  expect(first.rows.length).toBeLessThan(100);
  expect(first.rows.map((r) => r.height)).toEqual(first.rows.map(() => 40));
  expect(first.rows.map((r) => r.top)).toEqual(first.rows.map((r) => r.item * 40));
  expect(first.spacer).toBe(ROWS * 40);
  root.unmount();
});

it('hydrated from a server’s HTML (no style attribute), it ends as the markup a browser mount gives', async () => {
  const html = renderToString(<Rows />);
  expect(html).not.toMatch(/ style="/);
  const hydratedHost = host();
  hydratedHost.innerHTML = html;
  const errors: unknown[] = [];
  const hydrated = hydrateRoot(hydratedHost, <Rows />, { onRecoverableError: (e) => errors.push(e) });
  await frame();
  await frame();
  const mountedHost = host();
  const mounted = createRoot(mountedHost);
  flushSync(() => mounted.render(<Rows />));
  await frame();
  expect(errors).toEqual([]);
  // useId differs between the roots; the rest is the same.
  const ids = (s: string) => s.replace(/id="[^"]*"|aria-activedescendant="[^"]*"/g, '');
  expect(ids(hydratedHost.innerHTML)).toBe(ids(mountedHost.innerHTML));
  expect(layout(hydratedHost)).toEqual(layout(mountedHost));
  hydrated.unmount();
  mounted.unmount();
});

/** Whether `item`'s row is wholly in view in its list. */
function inView(el: HTMLElement, item: number): boolean {
  const list = el.querySelector<HTMLElement>('[role="listbox"]') as HTMLElement;
  const row = list.querySelector(`[data-item="${item}"]`);
  if (!row) return false;
  const r = row.getBoundingClientRect();
  const l = list.getBoundingClientRect();
  return r.top >= l.top - 0.5 && r.bottom <= l.bottom + 0.5;
}

for (const [kind, length, chosen] of [
  ['virtual', ROWS, 5_000],
  ['plain', 100, 60],
] as const) {
  it(`hydrated with a row chosen far down (${kind} rows), the chosen row is in view, scrolled as a browser mount scrolls`, async () => {
    const html = renderToString(<Rows chosen={chosen} length={length} />);
    const hydratedHost = host();
    hydratedHost.innerHTML = html;
    const hydrated = hydrateRoot(hydratedHost, <Rows chosen={chosen} length={length} />);
    await frame();
    await frame();
    const mountedHost = host();
    const mounted = createRoot(mountedHost);
    flushSync(() => mounted.render(<Rows chosen={chosen} length={length} />));
    await frame();
    expect(inView(mountedHost, chosen)).toBe(true);
    expect(inView(hydratedHost, chosen)).toBe(true);
    expect(layout(hydratedHost)).toEqual(layout(mountedHost));
    hydrated.unmount();
    mounted.unmount();
  });
}
