/**
 * Emphasis marks (`*`, `_`, `~`) are paired within one paragraph, heading or
 * table cell in time that grows with the square of their count: a reply of
 * 80 KB in one paragraph of `*a*a*a*a` lines held the page for over half a
 * minute. A paragraph, heading or cell holding more than 1,000 of them is
 * shown as plain text (and spoken as it is); a long reply whose marks are
 * spread over its paragraphs, items and cells is Markdown as before.
 */
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AgentLocaleProvider } from '../src/locale.js';
import { MarkdownBody, markdownToText } from '../src/MarkdownRenderer.js';

const show = (text: string, piecedAtOnce = false) =>
  render(
    <AgentLocaleProvider>
      <MarkdownBody text={text} idPrefix="m-" piecedAtOnce={piecedAtOnce} />
    </AgentLocaleProvider>,
  ).container;

// 1,200 marks, four to a line: a line never holds many, the paragraph does.
const starLines = '*a*a*a*a\n'.repeat(300);
const tildeLines = '~a~a~a~a\n'.repeat(300);
const mixedLines = '*a_a~a*a\n'.repeat(300);

describe('a paragraph of more than 1,000 emphasis marks', () => {
  it.each([
    ['asterisks', starLines],
    ['tildes', tildeLines],
    ['asterisks, underscores and tildes', mixedLines],
    ['tildes on one line', '~a'.repeat(1_200)],
    ['asterisks in a heading', `# ${'*a'.repeat(1_200)}`],
    ['tildes in a table cell', `| a | b |\n|---|---|\n| ${'~a'.repeat(1_200)} | b |`, `| ${'~a'.repeat(1_200)} | b |`],
    ['asterisks in a list item', `- ${'*a*a*a*a\n  '.repeat(300)}`],
  ])('%s: shows as plain text, every character kept', (_, text, kept = text.trim()) => {
    for (const piecedAtOnce of [false, true]) {
      const container = show(`Here is the summary.\n\n${text}`, piecedAtOnce);
      expect(container.querySelector('em, del, strong')).toBeNull();
      expect(container.textContent).toContain(kept);
    }
  });

  it('is spoken as the text it is', () => {
    expect(markdownToText(starLines)).toBe(starLines);
    expect(markdownToText(tildeLines)).toBe(tildeLines);
  });
});

describe('marks spread over a long reply', () => {
  it('a list of 260 items in bold, paragraphs and cells of a few marks each (1,520 in all), render as Markdown', () => {
    const list = Array.from({ length: 260 }, (_, i) => `- **Order A-${1000 + i}**: refunded`).join('\n');
    const paragraphs = '*a*a*a*a\n\n'.repeat(60);
    const table = `| a | b |\n|---|---|\n${'| *x* | ~y~ |\n'.repeat(60)}`;
    for (const piecedAtOnce of [false, true]) {
      const container = show(`${list}\n\n${paragraphs}\n${table}`, piecedAtOnce);
      expect(container.querySelectorAll('strong')).toHaveLength(260);
      expect(container.querySelectorAll('p em')).toHaveLength(120);
      expect(container.querySelectorAll('td del')).toHaveLength(60);
    }
    expect(markdownToText(list)).not.toContain('**');
  });
});

describe('marks that are not emphasis', () => {
  // Inside a code span or escaped with a backslash, a mark pairs with nothing: a paragraph of them costs no more than
  // one of letters, and was shown as plain text, its code spans and bold lost.
  it.each([
    ['a code span of 1,200 asterisks (a glob)', `Match \`${'*'.repeat(1_200)}\` with **care**.`],
    [
      '400 code spans of snake_case names',
      `Fields: ${Array.from({ length: 400 }, (_, i) => `\`a_b_c_${i}\``).join(', ')}, all **required**.`,
    ],
    ['1,200 escaped asterisks', `${'\\*a'.repeat(1_200)} and **care**.`],
  ])('%s: a paragraph renders as Markdown', (_, text) => {
    for (const piecedAtOnce of [false, true]) {
      const container = show(text, piecedAtOnce);
      expect(container.querySelector('.agk-markdown__plain')).toBeNull();
      expect(container.querySelector('strong')).toHaveTextContent(/^(care|required)$/);
    }
    expect(markdownToText(text)).toMatch(/ (care|required)\.$/);
  });

  it('a code span of 60,000 marks renders in linear time', () => {
    const container = show(`Pattern \`${'*a_'.repeat(30_000)}\` and **care**.`);
    expect(container.querySelector('code')?.textContent).toHaveLength(90_000);
    expect(container.querySelector('strong')).toHaveTextContent('care');
  }, 3_000);

  it('a backslash that is itself escaped leaves the mark after it counted', () => {
    const container = show(`Here.\n\n${'\\\\*a'.repeat(1_200)}`);
    expect(container.querySelector('em, strong')).toBeNull();
    expect(container.textContent).toContain('\\\\*a\\\\*a');
  });
});

describe('marks that only look as if they were in code', () => {
  // The line check pairs backticks on each line alone; the parse of a paragraph, heading or cell counts what the
  // parser reads as code: a backtick in an HTML tag, or a code span a line before closes, hides no mark from it.
  it.each([
    ['a backtick in an HTML tag', `<span title="\`">x</span> ${'*a'.repeat(1_200)} \` end`],
    ['a code span a line before closes', `Start \`code\nends\` ${'*a'.repeat(1_200)} \` end`],
    ['a backtick run one longer than its closer', `\`\` ${'*a'.repeat(1_200)} \` end`],
    ['an escaped backtick', `\\\` ${'*a'.repeat(1_200)} \` end`],
  ])('%s: shows as plain text, quickly', (_, text) => {
    for (const piecedAtOnce of [false, true]) {
      const began = performance.now();
      const container = show(`Intro.\n\n${text}`, piecedAtOnce);
      expect(performance.now() - began).toBeLessThan(2_000);
      expect(container.querySelector('em, strong')).toBeNull();
      expect(container.querySelector('.agk-markdown__plain')).not.toBeNull();
    }
    expect(markdownToText(text)).toBe(text);
  });
});
