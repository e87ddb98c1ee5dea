/**
 * A streaming reply re-parses only what changed: one more token at the end
 * of a long list parses its last item, of a long table its last row, of a
 * long code block nothing at all. Each of these parsed the whole reply at
 * every token (800 ms a frame for a 100 KB list or table). A reply that is
 * not growing is parsed once, whole: pieces cost a parse each.
 */

import { act, render } from '@testing-library/react';
import { Activity } from 'react';
import type { Options } from 'react-markdown';
import { describe, expect, it, vi } from 'vitest';
import { AgentLocaleProvider, zhCN } from '../src/locale.js';
import { MarkdownBody } from '../src/MarkdownRenderer.js';
import { MessageText } from '../src/MessageContent.js';

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

const view = (text: string) => (
  <AgentLocaleProvider>
    <MarkdownBody text={text} idPrefix="m-" />
  </AgentLocaleProvider>
);

/**
 * Streams `before` (its first half, then all of it), then `after` as the next
 * frame; returns what that last frame parsed and the reply's element.
 */
function stream(before: string, after: string): { parsed: string[]; container: HTMLElement } {
  const { container, rerender } = render(view(before.slice(0, before.length / 2)));
  rerender(view(before));
  parsed.length = 0;
  rerender(view(after));
  return { parsed: [...parsed], container };
}

const steps = Array.from(
  { length: 200 },
  (_, i) => `- **Refund order A-${1000 + i}** (订单 ${i}): check the \`status\`, then issue it\n  - amount: ¥${i}.00`,
).join('\n');

describe('a streaming reply parses only what changed', () => {
  it('a long reply shown as it is (a conversation opened) parses once, whole', () => {
    const prose = Array.from({ length: 100 }, (_, i) => `Paragraph ${i}: the refund for order A-${1000 + i} was **approved** today.`).join(
      '\n\n',
    );
    for (const text of [prose, steps]) {
      parsed.length = 0;
      const { container, unmount } = render(view(text));
      expect(parsed).toEqual([text]);
      expect(container.textContent).toContain('A-1099');
      unmount();
    }
  });

  it('a token at the end of a 200-item list parses its last item; a new item parses the new item', () => {
    const longer = `${steps} and notify`;
    const frame = stream(steps, longer);
    expect(frame.parsed).toEqual([
      '- **Refund order A-1199** (订单 199): check the `status`, then issue it\n  - amount: ¥199.00 and notify',
    ]);
    expect(frame.container.querySelectorAll('div > ul > li')).toHaveLength(200);
    expect(frame.container.querySelector('div > ul > li:last-child')?.textContent).toContain('¥199.00 and notify');
    expect(stream(steps, `${steps}\n- Close the ticket`).parsed).toEqual(['- Close the ticket']);
  });

  it('a token at the end of 300 paragraphs that each start in bold parses the last paragraph', () => {
    // Each such paragraph after a blank line starts a block as one starting with a letter does: the whole reply was
    // parsed again at every token (1.2-2.2 s a token at 385 KB, 9-12 s for paragraphs of 800 emphasis marks).
    for (const lead of ['**', '_', '`', '*']) {
      const close = lead === '**' ? '**' : lead;
      const paragraphs = Array.from({ length: 300 }, (_, i) => `${lead}Step ${i}${close}: refund order A-${1000 + i}.`).join('\n\n');
      const frame = stream(paragraphs, `${paragraphs} Then`);
      expect(frame.parsed).toEqual([`${lead}Step 299${close}: refund order A-1299. Then`]);
      expect(frame.container.querySelectorAll('p')).toHaveLength(300);
    }
  });

  it('a token at the end of a 40 KB reply with a `<`, a `]:` or a `[^` in its first paragraph, or HTML in a fenced code block, parses its last paragraph', {
    timeout: 60_000,
  }, () => {
    // One `<`, `]:` or `[^` anywhere kept a reply whole: each token parsed all of it again (40,000 characters a token).
    // None of these can open HTML, an autolink, a link definition or a footnote: nothing they do reaches past their paragraph.
    const rest = Array.from(
      { length: 500 },
      (_, i) => `Order A-${1000 + i} was refunded **today**, see [the policy](https://shop.example/p).`,
    );
    for (const first of [
      'Refunds where a < b apply.',
      'If x<y and 2<3, refund.',
      'Keys: `d["k"]: int`, arr[0]: 1.',
      'A claim.[^1] Then [note] and [a][b].',
    ]) {
      const reply = [first, ...rest].join('\n\n');
      expect(reply.length).toBeGreaterThan(40_000);
      const frame = stream(reply, `${reply} Then`);
      expect(frame.parsed, first).toEqual(['Order A-1499 was refunded **today**, see [the policy](https://shop.example/p). Then']);
      expect(frame.container.querySelectorAll('p')).toHaveLength(501);
    }
    // HTML in a fence at column 0 is code: it opens no HTML block either.
    const sample = ['```html', '<div class="refund">', '  <!-- the amount -->', '</div>', '```', ...rest].join('\n\n');
    const frame = stream(sample, `${sample} Then`);
    expect(frame.parsed).toEqual(['Order A-1499 was refunded **today**, see [the policy](https://shop.example/p). Then']);
    expect(frame.container.querySelector('pre code')?.textContent).toContain('<div class="refund">');
  });

  it('a token at the end of a 40 KB reply with task boxes, lines that open with a bracket and a `]:` in a line, but no definition, parses its last paragraph', {
    timeout: 60_000,
  }, () => {
    // A `]:` anywhere with a line opening with `[` (a task box, a link) kept the reply whole: 40,000 characters a token.
    // Only a line that opens with a label closed by `]:` defines a link or a footnote.
    const rest = Array.from(
      { length: 500 },
      (_, i) => `Order A-${1000 + i} was refunded **today**, see [the policy](https://shop.example/p).`,
    );
    for (const first of [
      '- [ ] Refund order A-1000\n- [x] Notify the buyer: `arr[0]: 1`',
      '[The policy](https://shop.example/p) says: refunds[0]: approved.',
      '[Note] keys: `d["k"]: int`.',
      '> [!NOTE]\n> Keys: arr[0]: 1.',
    ]) {
      const reply = [first, ...rest].join('\n\n');
      expect(reply.length).toBeGreaterThan(40_000);
      const frame = stream(reply, `${reply} Then`);
      expect(frame.parsed, first).toEqual(['Order A-1499 was refunded **today**, see [the policy](https://shop.example/p). Then']);
      expect(frame.container.textContent).toContain('A-1499');
    }
  });

  it('a token on the last line of a paragraph of more than 1,000 emphasis marks, shown as text, parses nothing', () => {
    // Its marks were counted by a parse of its blocks at every token: 1.7-2.3 s a token at 500 KB.
    const lines = Array.from({ length: 30 }, (_, i) => `Line ${i}: ${'*a'.repeat(40)}`).join('\n');
    const frame = stream(lines, `${lines} and more`);
    expect(frame.parsed).toEqual([]);
    expect(frame.container.querySelector('.agk-markdown__plain')?.textContent).toBe(`${lines} and more`);
    // A new line may start a table or end the paragraph: it is checked again.
    expect(stream(lines, `${lines}\nmore`).parsed).toHaveLength(1);
  });

  it('a paragraph of more than 1,000 emphasis marks shown as text is Markdown once a code span closes on its last line', () => {
    // The marks were text while the span was open; the backtick that closes it, on the line that grows, makes them code.
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i}: ${'*a'.repeat(40)}`).join('\n');
    const open = `Run \`${lines}`;
    const closed = `${open}\` and done`;
    const { container, rerender } = render(view(open.slice(0, 600)));
    rerender(view(open));
    expect(container.querySelector('.agk-markdown__plain')?.textContent).toBe(open);
    rerender(view(closed));
    const fresh = render(view(closed)).container;
    expect(fresh.querySelector('code')?.textContent).toContain('*a*a');
    expect(container.innerHTML).toBe(fresh.innerHTML);
  });

  it('a paragraph of more than 1,000 emphasis marks shown as text is Markdown once its last line becomes a delimiter row', () => {
    // The delimiter row makes the line above a table's head: its marks leave the paragraph, which holds 1,000.
    const lines = Array.from({ length: 25 }, (_, i) => `line ${i}: ${'*a'.repeat(40)}`).join('\n');
    const head = `${lines}\nhead ${'*a'.repeat(20)} | ${'*a'.repeat(20)}\n`;
    const { container, rerender } = render(view(head.slice(0, 600)));
    rerender(view(`${head}|-|`));
    expect(container.querySelector('.agk-markdown__plain')).not.toBeNull();
    rerender(view(`${head}|-|-|`));
    const fresh = render(view(`${head}|-|-|`)).container;
    expect(fresh.querySelector('table')).not.toBeNull();
    expect(container.innerHTML).toBe(fresh.innerHTML);
  });

  it('a token at the end of a 50 KB quote nested 20 deep parses its last run of lines; a new line, marker by marker, parses as little', {
    timeout: 60_000,
  }, () => {
    // The quote was one piece: each token parsed all of it again (0.2-1.2 s a token at 50 KB, 2.2-3.0 s at 500 KB).
    const quotes = '> '.repeat(20);
    const intro = 'The customer wrote, forwarded many times:\n\n';
    const quote =
      intro + Array.from({ length: 800 }, (_, i) => `${quotes}Line ${i} of the refund request for order A-${1000 + i}`).join('\n');
    expect(quote.length).toBeGreaterThan(50_000);
    const frame = stream(quote, `${quote} today`);
    const parsedLength = (texts: string[]) => texts.reduce((sum, text) => sum + text.length, 0);
    expect(parsedLength(frame.parsed)).toBeLessThan(2_000);
    expect(frame.parsed.at(-1)).toMatch(/Line 799 of the refund request for order A-1799 today$/);
    let innermost = frame.container.querySelector('blockquote');
    for (let depth = 1; depth < 20; depth++) innermost = innermost?.querySelector(':scope > blockquote') ?? null;
    expect(innermost?.querySelectorAll(':scope > p')).toHaveLength(1);
    expect(innermost?.textContent).toContain('Line 0 of the refund request');
    expect(innermost?.textContent).toContain('order A-1799 today');
    // The next line arrives a mark at a time, then its words.
    const { container, rerender } = render(view(quote.slice(0, quote.length / 2)));
    rerender(view(quote));
    let text = quote;
    for (const token of ['\n', ...Array.from({ length: 20 }, () => '> '), 'Line', ' 800']) {
      text += token;
      parsed.length = 0;
      rerender(view(text));
      expect(parsedLength(parsed), JSON.stringify(token)).toBeLessThan(2_000);
    }
    expect(container.textContent).toContain('Line 800');
  });

  it('a token at the end of a 40 KB quote of many paragraphs parses its last paragraph; a new paragraph, line by line, parses as little', () => {
    // A quote of paragraphs (a forwarded email) was one piece: each token parsed all of it again (42 KB a token).
    const quotes = '> > ';
    const paragraph = (p: number) =>
      Array.from({ length: 20 }, (_, i) => `${quotes}Line ${p}-${i} of the refund request for order A-${1000 + i}`).join('\n');
    const quote = `The customer wrote:\n\n${Array.from({ length: 40 }, (_, p) => paragraph(p)).join('\n> >\n')}`;
    expect(quote.length).toBeGreaterThan(40_000);
    const frame = stream(quote, `${quote} today`);
    const parsedLength = (texts: string[]) => texts.reduce((sum, text) => sum + text.length, 0);
    expect(parsedLength(frame.parsed)).toBeLessThan(2_000);
    const inner = frame.container.querySelector('blockquote > blockquote');
    expect(inner?.querySelectorAll(':scope > p')).toHaveLength(40);
    expect(inner?.querySelector(':scope > p:last-child')?.textContent).toMatch(/Line 39-19 of the refund request for order A-1019 today$/);
    const { container, rerender } = render(view(quote.slice(0, quote.length / 2)));
    rerender(view(quote));
    let text = quote;
    for (const token of ['\n', '>', ' >', '\n', '>', ' >', ' Next', ' paragraph']) {
      text += token;
      parsed.length = 0;
      rerender(view(text));
      expect(parsedLength(parsed), JSON.stringify(token)).toBeLessThan(2_000);
    }
    expect(container.querySelector('blockquote > blockquote > p:last-child')?.textContent).toBe('Next paragraph');
  });

  it('a token at the end of a 40 KB quote whose paragraph opens with bold headers parses its last run of lines', () => {
    // Markup early in the quote's paragraph kept it whole: each token parsed all of it again (41,465 characters).
    const headers = '> **From:** Alice Example\n> **Subject:** Refund for `A-1001`, _urgent_\n> *Sent:* Monday';
    const lines = Array.from({ length: 820 }, (_, i) => `> Line ${i} of the refund request for order A-${1000 + i}`).join('\n');
    const quote = `The customer wrote:\n\n${headers}\n${lines}`;
    expect(quote.length).toBeGreaterThan(40_000);
    const frame = stream(quote, `${quote} today`);
    const parsedLength = frame.parsed.reduce((sum, text) => sum + text.length, 0);
    expect(parsedLength).toBeLessThan(2_000);
    const paragraph = frame.container.querySelector('blockquote > p');
    expect(frame.container.querySelectorAll('blockquote > p')).toHaveLength(1);
    expect(paragraph?.querySelector('strong')?.textContent).toBe('From:');
    expect(paragraph?.querySelector('code')?.textContent).toBe('A-1001');
    expect(paragraph?.textContent).toMatch(/Line 819 of the refund request for order A-1819 today$/);
  });

  it('a token at the end of a 40 KB quoted list parses its last item; a new item, marker by marker, parses as little', {
    timeout: 60_000,
  }, () => {
    // A quote of list items was one piece: each token parsed all of it again.
    const items = Array.from({ length: 740 }, (_, i) => `> - **Order A-${1000 + i}**: refunded ¥${i}.00 to the customer`).join('\n');
    const quote = `The customer wrote:\n\n${items}`;
    expect(quote.length).toBeGreaterThan(40_000);
    const frame = stream(quote, `${quote} today`);
    const parsedLength = (texts: string[]) => texts.reduce((sum, text) => sum + text.length, 0);
    expect(parsedLength(frame.parsed)).toBeLessThan(2_000);
    expect(frame.container.querySelectorAll('blockquote > ul > li')).toHaveLength(740);
    expect(frame.container.querySelector('blockquote > ul > li:last-child')?.textContent).toBe(
      'Order A-1739: refunded ¥739.00 to the customer today',
    );
    const { container, rerender } = render(view(quote.slice(0, quote.length / 2)));
    rerender(view(quote));
    let text = quote;
    for (const token of ['\n', '>', ' -', ' Next', ' item']) {
      text += token;
      parsed.length = 0;
      rerender(view(text));
      expect(parsedLength(parsed), JSON.stringify(token)).toBeLessThan(2_000);
    }
    expect(container.querySelector('blockquote > ul > li:last-child')?.textContent).toBe('Next item');
  });

  it('the next number of an ordered list, token by token, parses the item it goes on, then the new item', () => {
    const list = Array.from({ length: 60 }, (_, i) => `${i + 1}. Refund order A-${1000 + i} for ¥${i}.00`).join('\n');
    const tokens = ['\n', '61', '.', ' Close', ' the ticket'];
    const frames: string[][] = [];
    const { rerender } = render(view(list.slice(0, 500)));
    rerender(view(list));
    let text = list;
    for (const token of tokens) {
      text += token;
      parsed.length = 0;
      rerender(view(text));
      frames.push([...parsed]);
    }
    // Until its delimiter comes, "61" goes on item 60's paragraph, as Markdown reads it.
    expect(frames).toEqual([
      [],
      ['60. Refund order A-1059 for ¥59.00\n61'],
      ['60. Refund order A-1059 for ¥59.00', '61.'],
      ['61. Close'],
      ['61. Close the ticket'],
    ]);
  });

  it('a token at the end of a 300-row table parses its last row, under a header of its columns', () => {
    const head = '| Order | 金额 | Status |\n|:--|--:|:-:|';
    const table = `${head}\n${Array.from({ length: 300 }, (_, i) => `| A-${1000 + i} | ¥${i}.00 | **refunded** |`).join('\n')}`;
    const frame = stream(table, `${table.slice(0, -2)} today |`);
    expect(frame.parsed).toEqual(['|x|x|x|\n|:-|-:|:-:|\n| A-1299 | ¥299.00 | **refunded** today |']);
    expect(frame.container.querySelectorAll('tbody > tr')).toHaveLength(300);
    expect(frame.container.querySelector('tbody > tr:last-child')?.textContent).toBe('A-1299¥299.00refunded today');
  });

  it('a token at the end of a long loose list (a blank line between its items) parses its last item', () => {
    const items = Array.from({ length: 60 }, (_, i) => {
      const indent = ' '.repeat(`${i + 1}. `.length);
      return `${i + 1}. **Refund order A-${1000 + i}** (订单 ${i})\n\n${indent}Check the \`status\`, then issue ¥${i}.00.\n${indent}- amount: ¥${i}.00\n${indent}- reason: damaged`;
    }).join('\n\n');
    const frame = stream(items, `${items} today`);
    expect(frame.parsed).toEqual([
      '1. x\n\n60. **Refund order A-1059** (订单 59)\n\n    Check the `status`, then issue ¥59.00.\n    - amount: ¥59.00\n    - reason: damaged today',
    ]);
    expect(frame.container.querySelectorAll('ol > li')).toHaveLength(60);
    expect(frame.container.querySelector('ol > li:last-child > p')?.textContent).toBe('Refund order A-1059 (订单 59)');
  });

  it('a token at the end of a table right under the line that introduces it parses its last row', () => {
    const intro = 'Here are the refunds of this week,\nby order:';
    const head = '| Order | 金额 | Status |\n|:--|--:|:-:|';
    const table = `${intro}\n${head}\n${Array.from({ length: 300 }, (_, i) => `| A-${1000 + i} | ¥${i}.00 | **refunded** |`).join('\n')}`;
    const frame = stream(table, `${table.slice(0, -2)} today |`);
    expect(frame.parsed).toEqual(['|x|x|x|\n|:-|-:|:-:|\n| A-1299 | ¥299.00 | **refunded** today |']);
    expect(frame.container.querySelector('p')?.textContent).toBe('Here are the refunds of this week,\nby order:');
    expect(frame.container.querySelectorAll('tbody > tr')).toHaveLength(300);
  });

  it('a token at the end of a 2,000-line code block parses nothing: its lines are its code', () => {
    const code = `\`\`\`ts\n${Array.from({ length: 2_000 }, (_, i) => `const refund${i} = await api.refund("A-${i}");`).join('\n')}`;
    const frame = stream(code, `${code} // done`);
    expect(frame.parsed).toEqual([]);
    const shown = frame.container.querySelector('pre > code.language-ts')?.textContent ?? '';
    expect(shown.split('\n')).toHaveLength(2_001);
    expect(shown.endsWith('await api.refund("A-1999"); // done\n')).toBe(true);
  });
});

describe('a reply too long to lay out at once', () => {
  const huge = Array.from({ length: 40_000 }, (_, i) => `**第 ${i} 行** refund A-${1000 + i}\n`).join('');

  it('opened whole, shows its first 100,000 characters as text, parses nothing, and shows the rest on demand', async () => {
    expect(huge.length).toBeGreaterThan(1_000_000);
    parsed.length = 0;
    const { container } = render(view(huge));
    expect(parsed).toEqual([]);
    const shown = container.querySelector('.agk-longtext__text')?.textContent ?? '';
    expect(shown.length).toBeLessThanOrEqual(100_001);
    expect(huge.startsWith(shown.replace(/…$/, ''))).toBe(true);
    expect(container.textContent).toContain(`Showing the first 100,000 of ${huge.length.toLocaleString('en')} characters`);
    const all = container.querySelector('button');
    expect(all?.textContent).toBe('Show all');
    await act(async () => all?.click());
    expect(container.querySelector('.agk-longtext__text')?.textContent).toBe(huge);
    expect(container.querySelector('button')).toBeNull();
    expect(parsed).toEqual([]);
  });

  it("what a person wrote, verbatim, is cut the same way, in the reader's language", () => {
    const { container } = render(
      <AgentLocaleProvider locale={zhCN}>
        <MessageText text={huge} format="plain" />
      </AgentLocaleProvider>,
    );
    expect(container.querySelector('.agk-longtext__text')?.textContent?.length).toBeLessThanOrEqual(100_001);
    expect(container.textContent).toContain(`仅以纯文本显示前 100,000 个字符，共 ${huge.length.toLocaleString('zh-CN')} 个。`);
    expect(container.querySelector('button')?.textContent).toBe('全部显示');
    expect(parsed).toEqual([]);
  });

  it('cuts no character in two: an emoji astride the limit is left out whole', () => {
    const text = `${'a'.repeat(99_999)}😀${'b'.repeat(200_000)}`;
    const { container } = render(view(text));
    expect(container.querySelector('.agk-longtext__text')?.textContent).toBe(`${'a'.repeat(99_999)}…`);
  });

  // The limit lowered so that jsdom parses what streams past it in time.
  const limited = (text: string, longFrom = 10_000) => (
    <AgentLocaleProvider>
      <MarkdownBody text={text} idPrefix="m-" longFrom={longFrom} />
    </AgentLocaleProvider>
  );

  it('a streaming reply that grows past the limit stays Markdown, in pieces', () => {
    expect(steps.length).toBeGreaterThan(11_000);
    const { container, rerender } = render(limited(steps.slice(0, 5_000)));
    for (const end of [9_000, 9_900, 10_300, 10_600]) rerender(limited(steps.slice(0, end)));
    expect(container.querySelector('.agk-longtext__text')).toBeNull();
    expect(container.querySelector('li strong')?.textContent).toBe('Refund order A-1000');
    parsed.length = 0;
    rerender(limited(steps.slice(0, 10_700)));
    expect(container.querySelector('.agk-longtext__text')).toBeNull();
    expect(parsed.join('').length).toBeLessThan(200);
  });

  it('streamed past the limit, a step back of more than the limit (the replay scrubber) stays Markdown, and so does the way forward', () => {
    const { container, rerender } = render(limited(steps.slice(0, 2_000), 4_000));
    for (let end = 5_000; end <= 17_000; end += 3_000) rerender(limited(steps.slice(0, end), 4_000));
    expect(container.querySelector('.agk-longtext__text')).toBeNull();
    rerender(limited(steps.slice(0, 5_000), 4_000));
    expect(container.querySelector('.agk-longtext__text')).toBeNull();
    rerender(limited(steps.slice(0, 8_000), 4_000));
    expect(container.querySelector('.agk-longtext__text')).toBeNull();
    expect(container.querySelector('li strong')?.textContent).toBe('Refund order A-1000');
  });

  it('streamed past the limit while hidden (a devtools tab in a hidden Activity), it is Markdown when shown', () => {
    const at = (end: number, mode: 'visible' | 'hidden') => <Activity mode={mode}>{limited(steps.slice(0, end), 4_000)}</Activity>;
    const { container, rerender } = render(at(2_000, 'visible'));
    rerender(at(2_000, 'hidden'));
    for (let end = 3_000; end <= 8_000; end += 1_000) rerender(at(end, 'hidden'));
    rerender(at(8_000, 'visible'));
    expect(container.querySelector('.agk-longtext__text')).toBeNull();
    expect(container.querySelector('li strong')?.textContent).toBe('Refund order A-1000');
  });

  it('shown cut, it stays cut when its text changes: the replay scrubber stepping back parses nothing', () => {
    const { container, rerender } = render(view(huge));
    parsed.length = 0;
    rerender(view(huge.slice(0, -30)));
    rerender(view(`${huge}**more**`));
    expect(parsed).toEqual([]);
    expect(container.querySelector('.agk-longtext__text')?.textContent?.length).toBeLessThanOrEqual(100_001);
  });

  it('a short text that becomes a megabyte at once (one frame brought it all) is cut, not parsed', () => {
    const { container, rerender } = render(view('a'));
    parsed.length = 0;
    rerender(view(huge));
    expect(parsed).toEqual([]);
    expect(container.querySelector('.agk-longtext__text')).not.toBeNull();
  });

  it('shown whole (Show all), a token more keeps it whole and plain', async () => {
    const { container, rerender } = render(view(huge));
    await act(async () => container.querySelector('button')?.click());
    parsed.length = 0;
    rerender(view(`${huge}done`));
    expect(parsed).toEqual([]);
    expect(container.querySelector('.agk-longtext__text')?.textContent).toBe(`${huge}done`);
  });
});
