import { describe, expect, it } from 'vitest';
import { roughText } from '../src/liveAnnouncer.js';

describe('roughText: what the live region says of a reply when the Markdown renderer could not load', () => {
  it('says the words, not the syntax', () => {
    const reply = [
      '## Refund',
      '',
      'The **teapot** was [refunded](https://shop.example/r?id=1).',
      '',
      '| Item | Amount |',
      '|---|---:|',
      '| Teapot | 42 |',
      '',
      '- one',
      '- two',
      '1. first',
    ].join('\n');
    expect(roughText(reply)).toBe('Refund The teapot was refunded., Item, Amount, , Teapot, 42, one two first');
    expect(roughText('![茶壶](a.png) 见 `code` 和 ~~旧~~ _斜体_')).toBe('茶壶 见 code 和 旧 斜体');
    expect(roughText('  > quote\n>> nested')).toBe('quote >> nested');
    // Windows line endings, and a link whose address holds parentheses.
    expect(roughText('| Item | Amount |\r\n|---|---:|\r\n| Teapot | 42 |')).toBe(', Item, Amount, , Teapot, 42,');
    expect(roughText('See [Teapot](https://en.wikipedia.org/wiki/Teapot_(vessel)) now.')).toBe('See Teapot now.');
  });

  it.each([
    ['2,000 spaces, then a letter', `${' '.repeat(2_000)}x`],
    ['30,000 brackets never closed', '['.repeat(30_000)],
    ['30,000 links never closed', '[a]('.repeat(30_000)],
    ['a link whose address opens 30,000 parentheses', `[a](${'x('.repeat(30_000)}`],
    ['30,000 spaces between two words, and no pipe', `x${' '.repeat(30_000)}x`],
    ['300,000 spaces, then a pipe', `${' '.repeat(300_000)}|`],
  ])('reads %s in linear time', (_name, text) => {
    const started = performance.now();
    roughText(text);
    // The old patterns backtracked: 11.6 s for 2,000 spaces and a letter, over a second for the others.
    expect(performance.now() - started).toBeLessThan(250);
  });
});
