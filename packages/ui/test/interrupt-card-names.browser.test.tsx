import { AgentProvider } from '@aguikit/react';
import { describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { InterruptDialog } from '../src/InterruptDialog.js';
import { type AgentLocale, AgentLocaleProvider, en, zhCN } from '../src/locale.js';
import { arabic } from '../src/storybook/arabic.js';
import { call, playedStore, runOf } from '../src/storybook/scripted.js';

/**
 * Two approvals of the same tool open together (two payments): each card's accessible name, as Chromium's
 * accessibility tree gives it, tells it from the other, in every locale.
 */

const approval = (id: string, toolCallId: string) => ({
  id,
  reason: 'tool_call',
  toolCallId,
  responseSchema: { type: 'object', properties: { approved: { type: 'boolean' } } },
});

async function twoPayments(locale: AgentLocale): Promise<string[]> {
  const store = await playedStore([
    {
      say: 'Pay both invoices',
      events: runOf(
        [...call('c1', 'send_payment', { amount: 42, to: 'ACME' }), ...call('c2', 'send_payment', { amount: 1900, to: 'Globex' })],
        { outcome: { type: 'interrupt', interrupts: [approval('int-pay-1', 'c1'), approval('int-pay-2', 'c2')] } },
      ),
    },
  ]);
  await render(
    <AgentLocaleProvider locale={locale}>
      <AgentProvider store={store}>
        <InterruptDialog />
      </AgentProvider>
    </AgentLocaleProvider>,
  );
  await expect.poll(() => document.querySelectorAll('article.agk-interrupt').length).toBe(2);
  const names: string[] = [];
  for (const card of document.querySelectorAll<HTMLElement>('article.agk-interrupt')) {
    // The name Chromium computes: the card is found by it, and by it alone.
    const name = card.getAttribute('aria-label') ?? '';
    await expect.element(page.getByRole('article', { name, exact: true })).toBe(card);
    names.push(name);
  }
  return names;
}

describe('two approvals of the same tool open together', () => {
  it.each([
    ['en', en, 'Approval needed'],
    ['zh-CN', zhCN, '需要批准'],
    ['ar', arabic, 'مطلوب موافقة'],
  ] as const)('have distinct accessible names (%s)', async (_lang, locale, heading) => {
    const names = await twoPayments(locale);
    expect(names).toHaveLength(2);
    expect(new Set(names).size).toBe(2);
    for (const name of names) {
      expect(name).toContain(heading);
      expect(name).toContain('send_payment');
    }
  });
});
