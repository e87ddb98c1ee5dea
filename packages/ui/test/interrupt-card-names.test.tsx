/**
 * Each interrupt's accessible name says what it is about: two approvals open
 * together are told apart by the tool each would run, in every locale.
 */
import { AgentProvider, type AgentStore } from '@aguikit/react';
import { render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { InterruptDialog } from '../src/InterruptDialog.js';
import { type AgentLocale, AgentLocaleProvider, en, zhCN } from '../src/locale.js';
import { arabic } from '../src/storybook/arabic.js';
import { call, playedStore, runOf } from '../src/storybook/scripted.js';

const approval = (id: string, toolCallId: string) => ({
  id,
  reason: 'tool_call',
  toolCallId,
  responseSchema: { type: 'object', properties: { approved: { type: 'boolean' } } },
});

/** The names of the two cards the dialog shows for `store`'s interrupts, in `locale`. */
async function twoCardNames(store: AgentStore, locale: AgentLocale = en) {
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

async function twoApprovals(locale: AgentLocale) {
  const store = await playedStore([
    {
      say: 'Pay the invoice and clean up',
      events: runOf([...call('c1', 'send_payment', { amount: 42 }), ...call('c2', 'delete_file', { path: '/tmp/a' })], {
        outcome: { type: 'interrupt', interrupts: [approval('int-pay', 'c1'), approval('int-delete', 'c2')] },
      }),
    },
  ]);
  return twoCardNames(store, locale);
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

describe('two questions open together, each with a long message and no title', () => {
  it('are named by the start of their message, not all of it (the name is read each time focus enters the card)', async () => {
    const log = (n: number) => Array.from({ length: 80 }, (_, i) => `Parcel ${n}, scan ${i + 1}: held at the depot. `).join('');
    const question = (id: string, message: string) => ({ id, reason: 'input_required', message, responseSchema: { type: 'boolean' } });
    const store = await playedStore([
      {
        say: 'Check both parcels',
        events: runOf([], { outcome: { type: 'interrupt', interrupts: [question('int-1', log(1)), question('int-2', log(2))] } }),
      },
    ]);
    const names = await twoCardNames(store);
    expect(log(1).length).toBeGreaterThan(3_000);
    expect(new Set(names).size).toBe(2);
    for (const [i, name] of names.entries()) {
      expect(name.startsWith(`Input needed: Parcel ${i + 1}, scan 1: held at the depot.`)).toBe(true);
      expect(name.length).toBeLessThan(200);
    }
  });
});

describe('two questions open together, each with a long form title or a long custom reason', () => {
  const ok = { type: 'object', properties: { ok: { type: 'boolean' } } };
  const asked = (interrupts: Record<string, unknown>[]) =>
    playedStore([{ say: 'Export and review', events: runOf([], { outcome: { type: 'interrupt', interrupts } }) }]);

  it('are named by the start of their form title, not all of it', async () => {
    const url = `https://files.example.com/exports/${'9f8e7d6c5b4a'.repeat(30)}.csv`;
    const titled = (id: string, title: string) => ({ id, reason: 'input_required', responseSchema: { ...ok, title } });
    const store = await asked([
      titled('0c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f', url),
      titled('1d2e3f4a-5b6c-4d7e-8f90-a1b2c3d4e5f6', '导出文件校验'.repeat(60)),
    ]);
    const [first = '', second = ''] = await twoCardNames(store);
    expect(first.startsWith('Input needed: https://files.example.com/exports/9f8e7d6c5b4a')).toBe(true);
    expect(second.startsWith('Input needed: 导出文件校验导出文件校验')).toBe(true);
    for (const name of [first, second]) expect(name.length).toBeLessThan(200);
  });

  it('are named by the start of their custom reason, and told apart by their place', async () => {
    const reason = `risk:${'manual_review_of_refunds_over_the_daily_limit_'.repeat(8)}`;
    const store = await asked([
      { id: '2e3f4a5b-6c7d-4e8f-9a01-b2c3d4e5f607', reason, responseSchema: ok },
      { id: '3f4a5b6c-7d8e-4f90-a1b2-c3d4e5f60718', reason, responseSchema: ok },
    ]);
    const names = await twoCardNames(store);
    expect(new Set(names).size).toBe(2);
    for (const name of names) {
      expect(name.startsWith('Action needed: risk:manual_review_of_refunds')).toBe(true);
      expect(name.length).toBeLessThan(200);
    }
  });
});

describe('two payments by the same tool in Arabic', () => {
  it('name each by its place in Arabic, not with an English "of"', async () => {
    const store = await playedStore([
      {
        say: 'ادفع الفاتورتين',
        events: runOf([...call('c1', 'send_payment', { amount: 42 }), ...call('c2', 'send_payment', { amount: 1900 })], {
          outcome: { type: 'interrupt', interrupts: [approval('int-pay-1', 'c1'), approval('int-pay-2', 'c2')] },
        }),
      },
    ]);
    const names = await twoCardNames(store, arabic);
    expect(new Set(names).size).toBe(2);
    for (const name of names) {
      expect(name).toContain('مطلوب موافقة');
      expect(name).toContain(' من ');
      expect(name).not.toMatch(/\bof\b/);
    }
  });
});

describe('two confirmations open together with neither a message nor a title', () => {
  it.each([
    ['en', en, 'Confirmation needed'],
    ['zh-CN', zhCN, '需要确认'],
  ] as const)('are named by their place among them (%s)', async (_name, locale, heading) => {
    const bare = (id: string) => ({ id, reason: 'confirmation', responseSchema: { type: 'boolean' } });
    const store = await playedStore([
      { say: 'Go ahead twice', events: runOf([], { outcome: { type: 'interrupt', interrupts: [bare('int-a'), bare('int-b')] } }) },
    ]);
    const names = await twoCardNames(store, locale);
    expect(new Set(names).size).toBe(2);
    for (const name of names) expect(name).toContain(heading);
    expect(names[0]).toContain('1');
    expect(names[1]).toContain('2');
  });
});
