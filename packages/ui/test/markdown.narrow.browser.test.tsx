import { afterEach, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { preloadMarkdown } from '../src/lazyChunks.js';
import { SafeMarkdown } from '../src/Markdown.js';
import '../src/styles.css';

/**
 * A reply's Markdown on a phone (390 px wide, real Chromium), where an
 * application shows it on its own (`SafeMarkdown` in a card of its own rather
 * than in the conversation): a long address, code span, heading or a link's
 * destination wraps inside it, never pushes the page sideways.
 */

afterEach(() => {
  for (const el of document.body.querySelectorAll(':scope > div')) el.remove();
});

const long = `${'a1b2c3d4e5'.repeat(40)}`;
const replies = {
  'a bare address': `Track it on https://parcelo.example/track/${long}`,
  'a code span': `Run \`${long}\` now.`,
  'a heading': `# ${long}`,
  'a quote': `> ${long}`,
  'a link’s words': `[${long}](https://example.com)`,
  'a link’s destination': `[bank.example.com](https://${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.example.net/)`,
  'a footnote': `See the note.[^1]\n\n[^1]: ${long}`,
  'a nested list item': `- a\n  - b\n    - ${long}`,
  'an image’s name': `![${long}](https://example.com/i.png)`,
  'an email address': `${long}@example.com`,
};

it.each(Object.entries(replies))('%s wraps within a reply shown on its own', async (_, text) => {
  await preloadMarkdown();
  await page.viewport(390, 844);
  const host = document.createElement('div');
  host.style.cssText = 'width: 390px; padding: 0; margin: 0; overflow: auto';
  document.body.append(host);
  await render(<SafeMarkdown>{text}</SafeMarkdown>, { container: host });
  await expect.poll(() => host.querySelector('[data-markdown="ready"]')).not.toBeNull();
  expect(host.scrollWidth).toBeLessThanOrEqual(host.clientWidth);
});
