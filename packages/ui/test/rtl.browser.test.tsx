// Vite's client types: they declare the stylesheet import below.
/// <reference types="vite/client" />
import { AgentProvider, type AgentStore } from '@aguikit/react';
import { afterEach, describe, expect, it } from 'vitest';
import { userEvent } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { Composer } from '../src/Composer.js';
import inspectorCss from '../src/inspector.css?raw';
import interruptCss from '../src/interrupt.css?raw';
import { preloadMarkdown } from '../src/lazyChunks.js';
import { MessageList } from '../src/Messages.js';
import messagesCss from '../src/messages.css?raw';
import runCss from '../src/run.css?raw';
import { StateInspectorPanel } from '../src/StateInspector.js';
import { think } from '../src/storybook/conversations.js';
import { playedStore, runOf, say } from '../src/storybook/scripted.js';
import '../src/styles.css';
import stylesCss from '../src/styles.css?raw';

const sheets = {
  'styles.css': stylesCss,
  'messages.css': messagesCss,
  'interrupt.css': interruptCss,
  'inspector.css': inspectorCss,
  'run.css': runCss,
};

/**
 * A right-to-left page (Arabic, Hebrew, Persian) in real Chromium: what
 * marks the start of a line (a quote's rule, a nested value's guide, a
 * person's bubble at the end with its tail, a disclosure's chevron)
 * mirrors, because the stylesheets speak of start and end, not left and right.
 */

afterEach(() => {
  for (const el of document.body.querySelectorAll(':scope > div')) el.remove();
});

async function mount(store: AgentStore, dir: 'rtl' | 'ltr') {
  await preloadMarkdown();
  const host = document.createElement('div');
  host.dir = dir;
  host.lang = dir === 'rtl' ? 'ar' : 'en';
  document.body.append(host);
  const screen = await render(
    <AgentProvider store={store}>
      <div style={{ width: 480, height: 700, display: 'flex', flexDirection: 'column' }}>
        <MessageList />
      </div>
      <StateInspectorPanel />
      <Composer />
    </AgentProvider>,
    { container: host },
  );
  return screen.container;
}

const REPLY =
  '> اقتباس من سياسة الإرجاع\n\nيمكنك إرجاع الطلب خلال **٣٠ يومًا**، بالرمز `RET-30`:\n\n```json\n{"orderId": "A-1001", "days": 30}\n```';

async function conversation() {
  return playedStore([
    {
      say: 'أين طلبي؟',
      events: runOf([
        ...think('r-1', 'المستخدم يسأل عن طلبه.'),
        ...say('a-1', REPLY),
        { type: 'STATE_SNAPSHOT', snapshot: { order: { id: 'A-1001', items: ['كتاب'] } } },
      ]),
    },
  ]);
}

const px = (el: Element, property: string) => Number.parseFloat(getComputedStyle(el).getPropertyValue(property));

async function until<T>(find: () => T | null | undefined): Promise<T> {
  for (let i = 0; i < 100; i++) {
    const found = find();
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('not rendered');
}

describe('a right-to-left page, in Chromium', () => {
  for (const dir of ['rtl', 'ltr'] as const) {
    const [start, end] = dir === 'rtl' ? ['right', 'left'] : ['left', 'right'];

    it(`puts what marks the start of a line on the ${start} (dir="${dir}")`, async () => {
      const root = await mount(await conversation(), dir);
      const quote = await until(() => root.querySelector('.agk-message blockquote'));
      expect(px(quote, `border-${start}-width`)).toBeGreaterThan(0);
      expect(px(quote, `border-${end}-width`)).toBe(0);
      expect(px(quote, `padding-${start}`)).toBeGreaterThan(0);

      // Code reads left to right on any page: a JSON block keeps its punctuation where it belongs.
      const code = await until(() => root.querySelector('.agk-message pre'));
      expect(getComputedStyle(code).direction).toBe('ltr');
      expect(getComputedStyle(root.querySelector('.agk-message p code') as Element).direction).toBe('ltr');

      // JSON is code: the inspector's tree reads left to right on any page, its nesting guide on the left.
      const nested = await until(() => root.querySelector('.agk-inspector .agk-json__children'));
      expect(getComputedStyle(nested).direction).toBe('ltr');
      expect(px(nested, 'border-left-width')).toBeGreaterThan(0);

      // A closed disclosure's chevron points the way the line reads.
      const chevron = await until(() => root.querySelector('.agk-reasoning [data-state="closed"] > .agk-chevron'));
      const [a] = new DOMMatrix(getComputedStyle(chevron).transform).toFloat64Array();
      expect(Math.sign(a ?? 0)).toBe(dir === 'rtl' ? -1 : 1);
    });

    it(`puts a person's bubble at the end of the line, its tail at the bottom ${end} (dir="${dir}")`, async () => {
      const root = await mount(await conversation(), dir);
      const bubble = await until(() => root.querySelector<HTMLElement>('.agk-message[data-role="user"]'));
      const list = root.querySelector('.agk-messages') as HTMLElement;
      const box = bubble.getBoundingClientRect();
      const frame = list.getBoundingClientRect();
      // At the end side: nearer that edge of the list than the other.
      const toEnd = dir === 'rtl' ? box.left - frame.left : frame.right - box.right;
      const toStart = dir === 'rtl' ? frame.right - box.right : box.left - frame.left;
      expect(toEnd).toBeLessThan(toStart);
      expect(px(bubble, `border-bottom-${end}-radius`)).toBeLessThan(px(bubble, `border-bottom-${start}-radius`));
    });
  }

  it('gives each paragraph of a reply, a message sent and the text being typed the direction of their own first letters', async () => {
    const store = await playedStore([
      { say: 'Where is my order?', events: runOf(say('a-2', 'The order ships today.\n\nسيصل الطلب غدًا.\n\n- first item\n- البند الثاني')) },
    ]);
    const root = await mount(store, 'rtl');
    const paragraphs = await until(() => {
      const found = [...root.querySelectorAll('.agk-message[data-role="assistant"] :is(p, li)')];
      return found.length >= 4 ? found : null;
    });
    expect(paragraphs.map((p) => getComputedStyle(p).direction)).toEqual(['ltr', 'rtl', 'ltr', 'rtl']);
    const user = root.querySelector('.agk-message[data-role="user"] p') as HTMLElement;
    expect(getComputedStyle(user).direction).toBe('ltr');
    const input = root.querySelector('textarea') as HTMLTextAreaElement;
    // Empty, it follows the page (the caret and an Arabic placeholder on the right); typed English reads left to right.
    expect(getComputedStyle(input).direction).toBe('rtl');
    await userEvent.type(input, 'Where is my parcel?');
    expect(getComputedStyle(input).direction).toBe('ltr');
  });

  it('leaves a reply of no letters (a number, an emoji) in the direction of the page', async () => {
    const store = await playedStore([{ say: '👍', events: runOf(say('a-3', '42 👍\n\n- 3\n- 🙂')) }]);
    const root = await mount(store, 'rtl');
    const blocks = await until(() => {
      const found = [...root.querySelectorAll('.agk-message[data-role="assistant"] :is(p, li)')];
      return found.length >= 3 ? found : null;
    });
    expect(blocks.map((b) => getComputedStyle(b).direction)).toEqual(['rtl', 'rtl', 'rtl']);
    expect(getComputedStyle(root.querySelector('.agk-message[data-role="user"] p') as Element).direction).toBe('rtl');
  });

  it('writes no left or right in its stylesheets, only start and end (a centred or symmetric shape aside)', () => {
    const physical =
      /(?:^|[\s;{])((?:margin|padding|border)-(?:left|right)(?:-\w+)?|left|right)\s*:|\b(?:text-align|float|clear)\s*:\s*(left|right)\b/gm;
    // The jump button is centred (left: 50%, translateX(-50%)); the spinner's gap turns; the chevron is two borders, turned.
    const allowed = new Set(['run.css: border-right-color', 'messages.css: border-right', 'messages.css: left']);
    const found = Object.entries(sheets).flatMap(([name, css]) =>
      [...css.matchAll(physical)].map((m) => `${name}: ${m[1] ?? m[0].trim()}`),
    );
    expect(found.filter((hit) => !allowed.has(hit))).toEqual([]);
    expect(found.filter((hit) => hit === 'messages.css: left')).toHaveLength(1);
    expect(messagesCss).toMatch(/left: 50%;\s*transform: translateX\(-50%\)/);
  });
});
