// Vite's client types: they declare the stylesheet import below.
/// <reference types="vite/client" />
import { afterEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { JsonTree } from '../src/JsonTree.js';
import '../src/styles.css';

/**
 * A document nested sixty levels deep, opened to its leaf in a panel a
 * phone's width: each level keeps room for its keys and values, and the tree
 * scrolls sideways in its box, rather than the deepest levels being squeezed
 * to a character a line.
 */

function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: '改变了' };
  for (let i = depth; i >= 1; i--) value = { [`level${i}`]: value };
  return value;
}

afterEach(async () => {
  await page.viewport(414, 896);
});

describe('a JSON tree sixty levels deep', () => {
  for (const [width, height] of [
    [390, 844],
    [1366, 768],
  ] as const) {
    it(`keeps its deepest key and value on one line, the box scrolling sideways (${width}x${height})`, async () => {
      await page.viewport(width, height);
      await render(
        <div className="agk-root" style={{ width: Math.min(width, 480), overflowX: 'auto' }} data-testid="box">
          <JsonTree value={nested(60)} label="Deep document" expandDepth={70} />
        </div>,
      );
      await new Promise(requestAnimationFrame);
      const leaf = [...document.querySelectorAll('li')].find((li) => li.textContent?.startsWith('leaf')) as HTMLElement;
      expect(leaf, 'the leaf is drawn').toBeDefined();
      const lineHeight = Number.parseFloat(getComputedStyle(leaf).lineHeight) || 20;
      expect(leaf.getBoundingClientRect().height, 'the leaf on one line').toBeLessThan(lineHeight * 1.6);
      const box = document.querySelector('[data-testid="box"]') as HTMLElement;
      expect(box.scrollWidth).toBeGreaterThan(box.clientWidth);
    });
  }
});
