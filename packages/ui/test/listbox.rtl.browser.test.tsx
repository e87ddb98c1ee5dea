// Vite's client types: they declare the stylesheet import below.
/// <reference types="vite/client" />
import { afterEach, describe, expect, it } from 'vitest';
import { render } from 'vitest-browser-react';
import { Listbox } from '../src/Listbox.js';
import '../src/styles.css';

/**
 * The event timeline's rows in a right-to-left page: the bar that marks a
 * row with diagnostics, and the chosen row's, run down the row's start, on
 * the right, as in a left-to-right page they run down its left.
 */

afterEach(() => {
  for (const el of document.body.querySelectorAll(':scope > div')) el.remove();
});

const DIAGNOSTICS = ['error', 'warning', 'none', 'error'];

describe('Listbox rows with diagnostics, right to left', () => {
  for (const dir of ['ltr', 'rtl'] as const) {
    it(`${dir}: each marked row's bar is at its start`, async () => {
      const host = document.createElement('div');
      host.dir = dir;
      document.body.append(host);
      await render(
        <Listbox
          label="الأحداث"
          items={[0, 1, 2, 3]}
          selected={3}
          onSelect={() => undefined}
          rowHeight={52}
          itemData={(i) => ({ 'data-diagnostics': DIAGNOSTICS[i] ?? 'none' })}
          renderItem={(i) => `#${i}`}
        />,
        { container: host },
      );
      const bars = [...host.querySelectorAll('[role="option"]')].map((row) => getComputedStyle(row).boxShadow);
      const start = dir === 'rtl' ? /\) -4px 0px 0px 0px inset$/ : /\) 4px 0px 0px 0px inset$/;
      for (const i of [0, 1, 3]) expect(bars[i], `row ${i}'s bar (${DIAGNOSTICS[i]}${i === 3 ? ', chosen' : ''})`).toMatch(start);
    });
  }
});
