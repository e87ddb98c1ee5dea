// Vite's client types: they declare the stylesheet import below.
/// <reference types="vite/client" />
// The Playwright provider types cdp() sessions (its `send`).
/// <reference types="@vitest/browser-playwright" />
import { AgentProvider, createAgentStore } from '@aguikit/react';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { cdp } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { Composer } from '../src/Composer.js';
import { RunStatus } from '../src/RunStatus.js';
import { StateInspectorPanel } from '../src/StateInspector.js';
import { playedStore, runOf, scriptedSource } from '../src/storybook/scripted.js';
import '../src/styles.css';

/**
 * The theme in real Chromium, on a page that sets its own font (Times) and
 * colors and wraps the components in nothing of aguikit's: each component's
 * root takes the theme's font and colors itself; data-theme="dark" on any
 * ancestor turns them dark, data-theme="auto" follows the system; a variable
 * overridden on an ancestor wins; the .agk-theme wrapper still works.
 */
const LIGHT_FG = 'rgb(22, 24, 29)';
const DARK_FG = 'rgb(236, 238, 242)';
const DARK_BG = 'rgb(18, 20, 24)';

function page(attributes: Record<string, string> = {}) {
  const host = document.createElement('div');
  host.style.fontFamily = '"Times New Roman", serif';
  host.style.color = 'rgb(200, 0, 0)';
  for (const [name, value] of Object.entries(attributes)) host.setAttribute(name, value);
  document.body.append(host);
  return host;
}

afterEach(() => {
  for (const el of document.body.querySelectorAll(':scope > div')) el.remove();
});

async function mount(host: HTMLElement) {
  const store = createAgentStore({ source: scriptedSource([]) });
  const screen = await render(
    <AgentProvider store={store}>
      <RunStatus />
      <StateInspectorPanel />
    </AgentProvider>,
    { container: host },
  );
  const status = screen.container.querySelector<HTMLElement>('.agk-runstatus');
  const inspector = screen.container.querySelector<HTMLElement>('.agk-inspector');
  if (!status || !inspector) throw new Error('not rendered');
  return { status, inspector };
}

const style = (el: Element) => getComputedStyle(el);

describe('theming without a wrapper, in Chromium', () => {
  it('gives each component root the theme font and text color instead of the page’s', async () => {
    const { status, inspector } = await mount(page());
    for (const root of [status, inspector]) {
      expect(style(root).fontFamily).toMatch(/^system-ui/);
      expect(style(root).color).toBe(LIGHT_FG);
    }
    // A panel takes the background too; nested parts inherit and set nothing of their own.
    expect(style(inspector).backgroundColor).toBe('rgb(255, 255, 255)');
    expect(style(status.querySelector('.agk-badge') as Element).fontFamily).toMatch(/^system-ui/);
  });

  it('turns dark under data-theme="dark" on any ancestor, and back to light under data-theme="light"', async () => {
    const dark = await mount(page({ 'data-theme': 'dark' }));
    expect(style(dark.status).color).toBe(DARK_FG);
    expect(style(dark.inspector).backgroundColor).toBe(DARK_BG);
    expect(style(dark.status).colorScheme).toBe('dark');

    const outer = page({ 'data-theme': 'dark' });
    const inner = document.createElement('div');
    inner.setAttribute('data-theme', 'light');
    outer.append(inner);
    const light = await mount(inner);
    expect(style(light.status).color).toBe(LIGHT_FG);
  });

  it('follows the system under data-theme="auto"', async () => {
    const session = cdp();
    try {
      await session.send('Emulation.setEmulatedMedia', { features: [{ name: 'prefers-color-scheme', value: 'dark' }] });
      expect(style((await mount(page({ 'data-theme': 'auto' }))).status).color).toBe(DARK_FG);
      await session.send('Emulation.setEmulatedMedia', { features: [{ name: 'prefers-color-scheme', value: 'light' }] });
      expect(style((await mount(page({ 'data-theme': 'auto' }))).status).color).toBe(LIGHT_FG);
      // Without the opt-in, a dark system does not turn the components dark.
      await session.send('Emulation.setEmulatedMedia', { features: [{ name: 'prefers-color-scheme', value: 'dark' }] });
      expect(style((await mount(page())).status).color).toBe(LIGHT_FG);
    } finally {
      await session.send('Emulation.setEmulatedMedia', { features: [] });
    }
  });

  it('takes a variable overridden on an ancestor', async () => {
    const host = page();
    host.style.setProperty('--agk-fg', 'rgb(1, 2, 3)');
    host.style.setProperty('--agk-font', 'monospace');
    const { status } = await mount(host);
    expect(style(status).color).toBe('rgb(1, 2, 3)');
    expect(style(status).fontFamily).toBe('monospace');
  });

  it('still themes through the .agk-theme wrapper, dark included', async () => {
    const wrapper = document.createElement('div');
    wrapper.className = 'agk-theme';
    wrapper.setAttribute('data-theme', 'dark');
    page().append(wrapper);
    const { status } = await mount(wrapper);
    expect(style(status).color).toBe(DARK_FG);
    expect(style(status).fontFamily).toMatch(/^system-ui/);
  });
});

describe("on a page with its own text styles (create-vite's index.css)", () => {
  it('keeps its own alignment, and history rows grow to fit their text at an 18 px base', async () => {
    // On the document, as create-vite's :root rule does: rem is 18 px too.
    const root = document.documentElement;
    root.style.font = '18px/145% system-ui, sans-serif';
    onTestFinished(() => {
      root.style.font = '';
    });
    const host = page();
    host.style.textAlign = 'center';
    const store = await playedStore([
      {
        say: 'Fill the cart',
        events: runOf([
          { type: 'STATE_SNAPSHOT', snapshot: { cart: ['A-1001'], note: '你好' } },
          { type: 'STATE_DELTA', delta: [{ op: 'add', path: '/cart/-', value: 'A-1002' }] },
          { type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/note', value: 'done' }] },
        ]),
      },
    ]);
    const screen = await render(
      <AgentProvider store={store}>
        <StateInspectorPanel />
      </AgentProvider>,
      { container: host },
    );
    const inspector = screen.container.querySelector<HTMLElement>('.agk-inspector');
    const tree = screen.container.querySelector<HTMLElement>('.agk-json');
    const options = [...screen.container.querySelectorAll<HTMLElement>('.agk-listbox__option')];
    if (!inspector || !tree) throw new Error('not rendered');
    expect(style(inspector).textAlign).toBe('start');
    expect(style(tree).textAlign).toBe('start');
    expect(options.length).toBeGreaterThan(1);
    // A row of fixed height squeezes its lines (each clips its own text) or spills them over its edges: check both.
    const clipped = options.flatMap((o) => {
      const row = o.getBoundingClientRect();
      return [...o.children]
        .filter((line) => {
          const box = line.getBoundingClientRect();
          return line.scrollHeight > line.clientHeight + 1 || box.top < row.top - 0.5 || box.bottom > row.bottom + 0.5;
        })
        .map((line) => `${line.textContent}: ${line.scrollHeight} in ${line.clientHeight}`);
    });
    expect(clipped).toEqual([]);
  });
});

describe('text for screen readers only, in Chromium', () => {
  it('never makes the page scroll, inside a scroll box that is not positioned', async () => {
    const host = page();
    const store = await playedStore([{ events: runOf([{ type: 'STATE_SNAPSHOT', snapshot: { order: { id: 'A-1001' } } }]) }]);
    await render(
      <AgentProvider store={store}>
        <div style={{ height: 300, overflow: 'auto' }}>
          <div style={{ height: 2_000 }}>A long page of the app.</div>
          <RunStatus />
          <StateInspectorPanel />
        </div>
      </AgentProvider>,
      { container: host },
    );
    await new Promise(requestAnimationFrame);
    expect(host.querySelectorAll('.agk-visually-hidden').length).toBeGreaterThan(0);
    const doc = document.scrollingElement as HTMLElement;
    expect(doc.scrollHeight).toBeLessThanOrEqual(window.innerHeight);
  });
});

describe('the composer placeholder, in Chromium', () => {
  const rgb = (color: string) => (color.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map(Number);
  const luminance = (color: string) => {
    const [r = 0, g = 0, b = 0] = rgb(color).map((c) => {
      const v = c / 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const contrast = (a: string, b: string) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return ((hi ?? 0) + 0.05) / ((lo ?? 0) + 0.05);
  };

  for (const theme of ['light', 'dark']) {
    it(`${theme}: reads as a hint, not as typed text, and is still legible (4.5:1)`, async () => {
      const store = createAgentStore({ source: scriptedSource([]) });
      const screen = await render(
        <AgentProvider store={store}>
          <Composer placeholder="Ask about an order" />
        </AgentProvider>,
        { container: page({ 'data-theme': theme }) },
      );
      const input = screen.container.querySelector('textarea') as HTMLTextAreaElement;
      const hint = getComputedStyle(input, '::placeholder').color;
      const text = getComputedStyle(input).color;
      const behind = getComputedStyle(input.closest('.agk-composer__row') ?? input).backgroundColor;
      expect(contrast(hint, behind)).toBeGreaterThanOrEqual(4.5);
      // Far enough from the text's own color to tell the two apart.
      expect(contrast(hint, text)).toBeGreaterThanOrEqual(2.5);
    });
  }
});
