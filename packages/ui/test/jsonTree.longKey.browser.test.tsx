// Vite's client types: they declare the stylesheet import below.
/// <reference types="vite/client" />
import { afterEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { JsonTree } from '../src/JsonTree.js';
import '../src/styles.css';

/**
 * A key longer than the panel is wide, with no spaces (a UUID chain, a URL,
 * Chinese text): its toggle's chevron stays at the start of the key's first
 * line, where every other toggle has it, never on a line of its own.
 */

const KEYS = {
  ids: `order-${Array.from({ length: 6 }, () => '0b7c1a2e-5f1e-4c2a-9d3b-8e7f6a5b4c3d').join('_')}`,
  url: 'https://shop.example.com/api/v2/customers/7f3c2a91-4b6e-4d0f-9a85-2e1b7c6d9f40/orders/A-1001/refunds?expand=items',
  chinese: '客户订单退款记录与物流跟踪信息汇总表格包含所有历史数据和备注说明以及相关的处理人员名单和审批流程',
};

afterEach(async () => {
  await page.viewport(414, 896);
});

describe('a collapsed node with a very long key', () => {
  for (const [name, key] of Object.entries(KEYS)) {
    it(`keeps its chevron on the key's first line (${name}, 390x844)`, async () => {
      await page.viewport(390, 844);
      await render(
        <div className="agk-root" style={{ width: 320 }}>
          <JsonTree value={{ [key]: { status: 'refunded', amount: 42 } }} label="Shared state" expandDepth={1} />
        </div>,
      );
      const toggle = [...document.querySelectorAll<HTMLButtonElement>('.agk-json__toggle')].find(
        (button) => button.getAttribute('aria-expanded') === 'false',
      ) as HTMLButtonElement;
      expect(toggle, 'the collapsed node is drawn').toBeDefined();
      const chevron = toggle.querySelector('.agk-json__chevron') as HTMLElement;
      const firstLine = (toggle.querySelector('.agk-json__key') as HTMLElement).getClientRects()[0] as DOMRect;
      const top = chevron.getBoundingClientRect().top;
      expect(Math.abs(firstLine.top - top), 'the key starts on the chevron line').toBeLessThan(4);
      expect(firstLine.left, 'the key starts after the chevron').toBeGreaterThanOrEqual(chevron.getBoundingClientRect().right - 1);
      expect(toggle.getBoundingClientRect().right, 'the toggle stays in its box').toBeLessThanOrEqual(320 + 1);
    });
  }
});
