/**
 * Some short texts make the parser go over the same characters again and
 * again: each run of backticks that no run as long closes is followed to the
 * end of its paragraph (runs of 1 to 400 backticks in 81 KB took 7 s), each
 * `]` that no `[` opened looks back to the paragraph's start, and thousands
 * of footnotes took 5 s. Such a piece shows as the text it is, and stays so
 * while it streams; a reply shown whole that such a piece, or a table too
 * large, would turn to text is cut into its pieces at once, as it was while
 * it streamed.
 */
import { render } from '@testing-library/react';
import type { Options } from 'react-markdown';
import { describe, expect, it, vi } from 'vitest';
import { AgentLocaleProvider } from '../src/locale.js';
import { MarkdownBody } from '../src/MarkdownRenderer.js';
import { footnotesTooMany, rescansTooMuch } from '../src/markdownPieces.js';

const parsed: string[] = [];
vi.mock('react-markdown', async (original) => {
  const markdown = await original<typeof import('react-markdown')>();
  return {
    ...markdown,
    default: (options: Options) => {
      parsed.push(options.children ?? '');
      return markdown.default(options);
    },
  };
});

const view = (text: string, piecedAtOnce = false) => (
  <AgentLocaleProvider>
    <MarkdownBody text={text} idPrefix="m-" piecedAtOnce={piecedAtOnce} />
  </AgentLocaleProvider>
);

const joined = (n: number, f: (i: number) => string, sep: string) => Array.from({ length: n }, (_, i) => f(i)).join(sep);
const backticks = `Runs: ${joined(400, (i) => '`'.repeat(i + 1), ' x ')}`;
const closers = `Closed: ${joined(20_000, () => 'a]', '\n')}`;
const footnotes = `${joined(3_000, (i) => `See [^${i}].`, ' ')}\n\n${joined(3_000, (i) => `[^${i}]: Note ${i}.`, '\n')}`;
const longest = () => Math.max(0, ...parsed.map((text) => text.length));

describe('a text the parser would go over again and again', () => {
  it.each([
    ['runs of 1 to 400 backticks (81 KB)', backticks],
    ['20,000 lines of a `]` no `[` opened (60 KB)', closers],
    ['3,000 footnotes (93 KB)', footnotes],
  ])('%s: shows as plain text, every character kept, never parsed', (_, text) => {
    for (const piecedAtOnce of [false, true]) {
      parsed.length = 0;
      const { container, unmount } = render(view(`Here it is.\n\n${text}`, piecedAtOnce));
      expect(container.textContent).toContain(text);
      expect(container.querySelector('.agk-markdown__plain')).not.toBeNull();
      expect(longest()).toBeLessThan(2_000);
      unmount();
    }
  });

  it('is found in one pass', () => {
    const began = performance.now();
    expect(rescansTooMuch(backticks)).toBe(true);
    expect(rescansTooMuch(closers)).toBe(true);
    expect(footnotesTooMany(footnotes)).toBe(true);
    expect(performance.now() - began).toBeLessThan(500);
  });

  it('streamed token by token, turns to text once and stays so', { timeout: 60_000 }, () => {
    const text = `Intro paragraph.\n\n${backticks}`;
    const { container, rerender } = render(view(text.slice(0, 20)));
    const plain: boolean[] = [];
    for (let end = 40; end < text.length + 2_000; end += 1_997) {
      parsed.length = 0;
      rerender(view(text.slice(0, end)));
      plain.push(container.querySelector('.agk-markdown__plain') !== null);
      expect(longest()).toBeLessThan(40_000);
    }
    const first = plain.indexOf(true);
    expect(first).toBeGreaterThan(0);
    expect(plain.slice(first).every(Boolean)).toBe(true);
    expect(container.textContent).toContain(backticks);
  });

  it('a one-line paragraph of `]` no `[` opened, shown whole, is cut into runs as while it streamed: Markdown, each run parsed alone', () => {
    const text = `Closed: ${joined(20_000, () => 'a]', ' ')}`;
    parsed.length = 0;
    const { container } = render(view(text));
    expect(container.querySelector('.agk-markdown__plain')).toBeNull();
    expect(container.querySelector('p')?.textContent).toBe(text);
    expect(longest()).toBeLessThan(2_000);
  });
});

describe('an ordinary reply', () => {
  const ordinary = [
    'Run `npm ci`, then ``a`b`` and the [guide](https://docs.example/guide) [^1].',
    ...Array.from({ length: 300 }, (_, i) => `- step ${i}: \`make ${i}\` [link](https://a.example/${i}) arr[${i}] 订单`),
    '',
    '```sh\nmake\n```',
    '',
    ...Array.from({ length: 50 }, (_, i) => `[^${i + 1}]: Note ${i}.`),
  ].join('\n');

  it('renders as before: code, links and footnotes', () => {
    expect(rescansTooMuch(ordinary)).toBe(false);
    expect(footnotesTooMany(ordinary)).toBe(false);
    const { container } = render(view(ordinary));
    expect(container.querySelector('.agk-markdown__plain')).toBeNull();
    expect(container.querySelectorAll('li code')).toHaveLength(300);
    expect(container.querySelector('pre code')).toHaveTextContent('make');
    expect(container.querySelector('sup')).toHaveTextContent('1');
  });
});

describe('a table of more than 1,000 cells after a quote or a list', () => {
  const table = [`|${'h|'.repeat(10)}`, `|${'-|'.repeat(10)}`, ...Array.from({ length: 100 }, () => `|${'a|'.repeat(10)}`)].join('\n');
  it.each([
    ['a quote', `> Here are **the orders**.\n\n${table}`],
    ['a list', `- Here are **the orders**.\n\n${table}`],
  ])('after %s: shown whole, only the table is text, as in pieces', (_, text) => {
    const shown: string[] = [];
    for (const piecedAtOnce of [false, true]) {
      const { container, unmount } = render(view(text, piecedAtOnce));
      expect(container.querySelector('strong')).toHaveTextContent('the orders');
      expect(container.querySelector('.agk-markdown__plain')?.textContent).toBe(table);
      expect(container.querySelector('table')).toBeNull();
      shown.push(container.innerHTML);
      unmount();
    }
    expect(shown[0]).toBe(shown[1]);
  });
});

describe('ordinary replies with many `]` or code spans render as Markdown', () => {
  const item = (i: number) => `option ${i}: choose a) b) or c] as needed for the step`;
  it.each([
    ['a list of 400 items, each with a `]` no `[` opened (22 KB)', joined(400, (i) => `- ${item(i)}`, '\n'), 'ul > li'],
    ['a numbered list of 400 such items', joined(400, (i) => `${i + 1}. ${item(i)}`, '\n'), 'ol > li'],
    ['a quoted list of 400 such items', joined(400, (i) => `> - ${item(i)}`, '\n'), 'blockquote li'],
  ])('%s', (_, text, selector) => {
    expect(rescansTooMuch(text)).toBe(false);
    const { container } = render(view(text));
    expect(container.querySelector('.agk-markdown__plain')).toBeNull();
    expect(container.querySelectorAll(selector)).toHaveLength(400);
  });

  it('a long paragraph of 400 lines, each with a `]` no `[` opened (18 KB)', () => {
    const text = joined(400, (i) => `${item(i)}, see array[${i}] and [${i}]`, '\n');
    expect(rescansTooMuch(text)).toBe(false);
    const { container } = render(view(text));
    expect(container.querySelector('.agk-markdown__plain')).toBeNull();
    expect(container.querySelectorAll('p')).toHaveLength(1);
  });

  it('a 60 KB technical answer: code spans of a few lengths, shell fences, brackets, citations, 100 footnotes', { timeout: 30_000 }, () => {
    const section = (i: number) =>
      [
        `## Step ${i}`,
        '',
        `Run \`make ${i}\`, then \`\`a\`b\`\` over array[${i}] and the range (0, ${i}] as in [1] and [${i}]; 见【${i}】 and note[^${(i % 100) + 1}].`,
        `Check \`x\`, \`y\` and \`\`\`z\`\`\` a) first b) second c] third, then \`npm test -- ${i}\`.`,
        '',
        ...joined(6, (j) => `- \`cmd ${j}\` for part ${j} of ${i}: a) b) c]`, '\n').split('\n'),
        '',
        '```sh',
        `for f in *.ts; do echo "$f[${i}]"; done`,
        '```',
        '',
      ].join('\n');
    const text = `${joined(140, section, '\n')}\n${joined(100, (i) => `[^${i + 1}]: Source ${i}.`, '\n')}`;
    expect(text.length).toBeGreaterThan(60_000);
    expect(rescansTooMuch(text)).toBe(false);
    expect(footnotesTooMany(text)).toBe(false);
    const { container } = render(view(text));
    expect(container.querySelector('.agk-markdown__plain')).toBeNull();
    expect(container.querySelectorAll('pre code')).toHaveLength(140);
    expect([...container.querySelectorAll('sup')].filter((sup) => !sup.closest('section.footnotes'))).toHaveLength(140);
    expect(container.querySelectorAll('section.footnotes li')).toHaveLength(100);
  });
});

describe('the count only grows as a text does', () => {
  // Runs of 2 to 40 backticks, then words: the count sits at the bound, give or take the last line's growth.
  const runs = joined(39, (i) => '`'.repeat(i + 2), ' x ');
  const near = (tail: (filler: string) => [string, string]) => {
    const flips: number[] = [];
    for (let n = 48_000; n < 54_000; n += 7) {
      const [before, after] = tail(`${runs} ${'word '.repeat(n / 5)}`);
      if (rescansTooMuch(before) && !rescansTooMuch(after)) flips.push(n);
    }
    return flips;
  };

  it('a last run of backticks that grows into a length seen before', () => {
    expect(near((filler) => [`${filler}\``, `${filler}\`\``])).toEqual([]);
  });

  it('a last line that grows into a fence', () => {
    expect(near((filler) => [`${filler}\n\`\``, `${filler}\n\`\`\``])).toEqual([]);
  });

  it('a list item line that grows: still text, whatever its last token', () => {
    const hostile = joined(3_000, () => 'a]', '\n');
    for (const tail of ['\n-', '\n- ', '\n1', '\n1.', '\n2. ', '\n>']) {
      expect(rescansTooMuch(hostile + tail)).toBe(true);
      expect(rescansTooMuch(`${hostile + tail}b]`)).toBe(true);
    }
  });
});

describe('hostile texts still show as text', () => {
  it.each([
    ['3,000 lines of `a]`', joined(3_000, () => 'a]', '\n')],
    ['2,000 lines of ten words and a `]`', joined(2_000, () => 'a b c d e f g h i j]', '\n')],
    ['lines of `]` a later list item line does not hide: `2.` continues a paragraph', `x\n${joined(3_000, () => '2. a]', '\n')}`],
    ['`]` after a list in a quote: the line outside continues the quote`s paragraph', `> 1. x\n${joined(3_000, () => '2. a]', '\n')}`],
    ['`]` deeper than a code indent in a list item', `- x\n${joined(3_000, () => '      - a]', '\n')}`],
  ])('%s', (_, text) => {
    expect(rescansTooMuch(text)).toBe(true);
  });
});
