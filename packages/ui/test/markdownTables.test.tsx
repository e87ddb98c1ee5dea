/**
 * A table's cells cost most of its rendering: remark-gfm parses a cell in
 * tens of microseconds and React makes an element of each, so an 88 KB table
 * of 10 columns and 4,000 rows held the page for 4–7 s, a header of 16,000
 * columns for 2–6 s, where 94 KB of prose takes 0.15 s. A table of more than
 * 1,000 cells (its columns times its rows, the header's among them) shows as
 * the text it is, and is never parsed; a table up to that renders as one.
 */
import { act, render } from '@testing-library/react';
import type { Options } from 'react-markdown';
import { describe, expect, it, vi } from 'vitest';
import { AgentLocaleProvider } from '../src/locale.js';
import { MarkdownBody, markdownToText } from '../src/MarkdownRenderer.js';
import { tableTooLarge } from '../src/markdownPieces.js';

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

/** A table of `columns` columns and `rows` rows under its header, each cell `cell`. */
const table = (columns: number, rows: number, cell = 'a') =>
  [
    `|${Array.from({ length: columns }, (_, i) => (columns > 1_000 ? 'h' : `h${i}`)).join('|')}|`,
    `|${'-|'.repeat(columns)}`,
    ...Array.from({ length: rows }, () => `|${`${cell}|`.repeat(columns)}`),
  ].join('\n');

const parsedTables = () => parsed.filter((text) => text.includes('|-|'));

describe('a table of more than 1,000 cells', () => {
  it.each([
    ['10 columns and 4,000 rows (88 KB)', table(10, 4_000)],
    ['10 columns and 100 rows (1,010 cells)', table(10, 100)],
    ['a header of 16,000 columns (64 KB)', table(16_000, 0)],
    ['a column of 1,001 rows', table(1, 1_000)],
    ['in a quote', table(10, 100).replace(/^/gm, '> ')],
    ['in a list item', `- Orders:\n\n${table(10, 100).replace(/^/gm, '  ')}`],
    // A fence a list item or an HTML block holds ends with it: the table after it is no code.
    ['after a fence its list item ends', `- Run:\n  \`\`\`sh\n  make\n\n${table(10, 100)}`],
    ['after a fence in an HTML block', `<div>\n\`\`\`\n</div>\n\n${table(10, 100)}`],
  ])('%s: shows as plain text, every character kept, never parsed', (_, text) => {
    for (const piecedAtOnce of [false, true]) {
      parsed.length = 0;
      const { container, unmount } = render(view(`Here are the orders.\n\n${text}`, piecedAtOnce));
      expect(container.querySelector('table, td, th')).toBeNull();
      expect(container.textContent).toContain(text);
      expect(parsedTables()).toEqual([]);
      unmount();
    }
    expect(markdownToText(text)).toBe(text);
  });

  it('while it streams, the reply around it stays Markdown and the table turns to text once past 1,000 cells', () => {
    const intro = `${'Here are **the orders** of this week, as the shop listed them. '.repeat(20)}\n\n`;
    const { container, rerender } = render(view(intro + table(10, 10)));
    rerender(view(intro + table(10, 50)));
    expect(container.querySelectorAll('td')).toHaveLength(500);
    parsed.length = 0;
    act(() => rerender(view(`${intro}${table(10, 100)}\n\nThat is all.`)));
    expect(container.querySelector('table')).toBeNull();
    expect(container.querySelector('strong')).toHaveTextContent('the orders');
    expect(container.textContent).toContain(table(10, 100));
    expect(parsedTables()).toEqual([]);
  });
});

describe('a table of up to 1,000 cells', () => {
  it.each([
    ['10 columns and 99 rows', table(10, 99), 10, 990],
    ['1,000 columns, no rows', table(1_000, 0), 1_000, 0],
    ['4 columns and 249 rows of words', table(4, 249, ' Order A-1001 refunded '), 4, 996],
  ])('%s: renders as a table', (_, text, columns, cells) => {
    for (const piecedAtOnce of [false, true]) {
      const { container, unmount } = render(view(`Here are the orders.\n\n${text}`, piecedAtOnce));
      expect(container.querySelector('.agk-markdown__plain')).toBeNull();
      expect(container.querySelectorAll('td')).toHaveLength(cells);
      expect(container.querySelectorAll('th')).toHaveLength(columns);
      unmount();
    }
  });

  it('a table of more than 1,000 cells in a fenced code block is code', () => {
    const { container } = render(view(`The table's Markdown:\n\n\`\`\`md\n${table(10, 100)}\n\`\`\`\n\nThat is **all**.`));
    expect(container.querySelector('pre code')).toHaveTextContent('|a|a|');
    expect(container.querySelector('strong')).toHaveTextContent('all');
  });

  it('a table of more than 1,000 cells in the fenced code block of a list item is code', () => {
    const text = `1. The table's Markdown:\n\n   \`\`\`md\n${table(10, 100).replace(/^/gm, '   ')}\n   \`\`\`\n\nThat is **all**.`;
    const { container } = render(view(text));
    expect(container.querySelector('.agk-markdown__plain')).toBeNull();
    expect(container.querySelector('li pre code')).toHaveTextContent('|a|a|');
    expect(container.querySelector('strong')).toHaveTextContent('all');
  });

  it('a setext heading or a thematic break over a long run of lines is no table', () => {
    const lines = Array.from({ length: 1_100 }, (_, i) => `Line ${i} of the log.`).join('\n');
    for (const text of [`Log\n---\n${lines}`, `Log.\n\n---\n${lines}`]) {
      const { container, unmount } = render(view(text));
      expect(container.querySelector('.agk-markdown__plain')).toBeNull();
      expect(container.querySelector('h4, hr')).not.toBeNull();
      unmount();
    }
  });
});

describe("the count of a table's cells", () => {
  it('takes one pass over a line of dashes and pipes that is no delimiter row', () => {
    const began = performance.now();
    for (const line of ['- '.repeat(50_000), '-|'.repeat(50_000), ':-'.repeat(50_000)])
      expect(tableTooLarge(`a | b\n${line}x\n| c |`)).toBe(false);
    expect(performance.now() - began).toBeLessThan(1_000);
  });
});
