/**
 * A reply's Markdown as the words a screen reader says (`markdownToText`):
 * a text the parser takes time out of proportion to its length to read is
 * said as the text it is, in about the time a count of its lines takes.
 */

import { describe, expect, it } from 'vitest';
import { markdownToText } from '../src/MarkdownRenderer.js';

/** How long `run` takes, in milliseconds: the shortest of three runs, so that a pause of the machine counts once at most. */
function timeOf(run: () => void): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 3; i++) {
    const began = performance.now();
    run();
    best = Math.min(best, performance.now() - began);
  }
  return best;
}

/** Prose as long as `length`: what the parser reads in linear time, the yardstick of the timings below. */
const proseOf = (length: number) => 'The refund for order A-1001 was approved today. '.repeat(Math.ceil(length / 48)).slice(0, length);

describe('a reply spoken as plain text', () => {
  it('a list of 1,500 items each holding one of its own is said as its text, in about the time of prose as long', {
    timeout: 120_000,
  }, () => {
    // The parser takes time that grows with the square of such a list's items: 0.8 s at 10 KB, 12-15 s at 40 KB.
    const list = Array.from({ length: 1_500 }, (_, i) => `- Order A-${1000 + i}\n  - refunded`).join('\n');
    const prose = timeOf(() => markdownToText(proseOf(list.length)));
    expect(markdownToText(list)).toBe(list);
    expect(timeOf(() => markdownToText(list))).toBeLessThan(5 * prose + 50);
  });

  it('a text past 100,000 characters (500 KB of quotes nested 20 deep) is said as its text, in about the time of prose of 40 KB', {
    timeout: 120_000,
  }, () => {
    // Parsed, such a text took 3-13 s.
    const quotes = `${'> '.repeat(20)}the refund request for order A-1001\n`.repeat(Math.ceil(500_000 / 76));
    const prose = timeOf(() => markdownToText(proseOf(40_000)));
    expect(markdownToText(quotes)).toBe(quotes);
    expect(timeOf(() => markdownToText(quotes))).toBeLessThan(5 * prose + 50);
  });

  it('a list of 300 items, each holding one of its own, is said without its markers', () => {
    const list = Array.from({ length: 300 }, (_, i) => `- **Order A-${1000 + i}**\n  - refunded`).join('\n');
    const said = markdownToText(list);
    expect(said).not.toMatch(/\*\*|(^| )- /);
    expect(said).toContain('Order A-1000 refunded Order A-1001 refunded');
    expect(said).toContain('Order A-1299 refunded');
  });

  it('indented code and thematic breaks of 1,500 lines that start as list items are said without their markup', () => {
    // Such lines were counted as list items: past 1,000 the reply was said as its text, indents and breaks and all.
    const code = `The change:\n\n${Array.from({ length: 1_500 }, (_, i) => `    - old line ${i}`).join('\n')}`;
    const saidCode = markdownToText(code);
    expect(saidCode).toContain('The change: - old line 0 - old line 1 - old line 2');
    expect(saidCode).not.toContain('    ');
    const parts = Array.from({ length: 1_500 }, (_, i) => `Part ${i}\n\n- - -`).join('\n\n');
    const saidParts = markdownToText(parts);
    expect(saidParts).toContain('Part 0 Part 1 Part 2');
    expect(saidParts).not.toContain('- - -');
  });

  it('a list of 1,500 items after indented code is still said as its text', () => {
    const list = Array.from({ length: 1_500 }, (_, i) => `- Order A-${1000 + i}\n      - refunded`).join('\n');
    const text = `The change:\n\n    - old line\n\n${list}`;
    expect(markdownToText(text)).toBe(text);
  });

  it('a fenced diff of 1,500 lines that start as list items is said without its fence', () => {
    const diff = `The change:\n\n\`\`\`diff\n${Array.from({ length: 1_500 }, (_, i) => `- old line ${i}`).join('\n')}\n\`\`\``;
    const said = markdownToText(diff);
    expect(said).not.toContain('```');
    expect(said).toContain('The change: - old line 0 - old line 1');
  });
});
