/**
 * Each interrupt's accessible name says what it is about: two approvals open
 * together are told apart by the tool each would run, in every locale.
 */
import { AgentProvider } from '@aguikit/react';
import { render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { InterruptDialog } from '../src/InterruptDialog.js';
import { type AgentLocale, AgentLocaleProvider, en, zhCN } from '../src/locale.js';
import { call, playedStore, runOf } from '../src/storybook/scripted.js';

const approval = (id: string, toolCallId: string) => ({
  id,
  reason: 'tool_call',
  toolCallId,
  responseSchema: { type: 'object', properties: { approved: { type: 'boolean' } } },
});

async function twoApprovals(locale: AgentLocale) {
  const store = await playedStore([
    {
      say: 'Pay the invoice and clean up',
      events: runOf([...call('c1', 'send_payment', { amount: 42 }), ...call('c2', 'delete_file', { path: '/tmp/a' })], {
        outcome: { type: 'interrupt', interrupts: [approval('int-pay', 'c1'), approval('int-delete', 'c2')] },
      }),
    },
  ]);
  render(
    <AgentLocaleProvider locale={locale}>
      <AgentProvider store={store}>
        <InterruptDialog />
      </AgentProvider>
    </AgentLocaleProvider>,
  );
  await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(2));
  return screen.getAllByRole('article').map((card) => card.getAttribute('aria-label') ?? accessibleNameOf(card));
}

/** The name `card` gets from the elements it is labelled by (or its own label). */
function accessibleNameOf(card: Element): string {
  const ids = card.getAttribute('aria-labelledby')?.split(/\s+/) ?? [];
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
}

describe('two approvals open together', () => {
  it.each([
    ['en', en, 'Approval needed'],
    ['zh-CN', zhCN, '需要批准'],
  ] as const)('have distinct names naming the tool each would run (%s)', async (_name, locale, heading) => {
    const [first = '', second = '', ...more] = await twoApprovals(locale);
    const names = [first, second, ...more];
    expect(new Set(names).size).toBe(2);
    expect(names[0]).toContain(heading);
    expect(names[0]).toContain('send_payment');
    expect(names[1]).toContain('delete_file');
    // The same names as the accessibility tree computes them.
    expect(screen.getByRole('article', { name: first })).toBeInTheDocument();
    expect(screen.getByRole('article', { name: second })).toBeInTheDocument();
  });
});
