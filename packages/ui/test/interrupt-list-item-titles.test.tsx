/**
 * The heading of an item of a list in a generated form: the list's title and
 * the item's place in it, in the reader's language, never rjsf's "Contacts-2".
 * An item whose schema has a title of its own shows that title.
 */
import { AgentProvider } from '@aguikit/react';
import { act, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { InterruptDialog } from '../src/InterruptDialog.js';
import { type AgentLocale, AgentLocaleProvider, en, zhCN } from '../src/locale.js';
import { playedStore, runOf } from '../src/storybook/scripted.js';

const contacts = (list: string, email: string, itemTitle?: string) => ({
  type: 'object',
  properties: {
    contacts: {
      type: 'array',
      title: list,
      default: [{ email: 'ana@example.com' }, { email: 'bo@example.com' }],
      items: { type: 'object', ...(itemTitle ? { title: itemTitle } : {}), properties: { email: { type: 'string', title: email } } },
    },
    tags: { type: 'array', title: list === 'Contacts' ? 'Tags' : '标签', default: ['a', 'b'], items: { type: 'string' } },
  },
});

/** The dialog asking for `schema` in `locale`, its form loaded. */
async function formIn(locale: AgentLocale, schema: Record<string, unknown>) {
  const store = await playedStore([
    {
      say: 'Go ahead.',
      events: runOf([], {
        outcome: {
          type: 'interrupt',
          interrupts: [{ id: 'int-items', reason: 'input_required', message: 'Who?', responseSchema: schema }],
        },
      }),
    },
  ]);
  const view = render(
    <AgentLocaleProvider locale={locale}>
      <AgentProvider store={store}>
        <InterruptDialog />
      </AgentProvider>
    </AgentLocaleProvider>,
  );
  await waitFor(() => expect(view.container.querySelector('.agk-interrupt__form-placeholder')).toBeNull(), { timeout: 10_000 });
  await act(async () => undefined);
  return view;
}

describe('an item of a list is headed by the list and its place in it', () => {
  it('in English: "Contacts, item 2", a plain item labelled the same way', async () => {
    const view = await formIn(en, contacts('Contacts', 'Email'));
    expect(screen.getByRole('group', { name: 'Contacts, item 2' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Tags, item 2' })).toBeInTheDocument();
    expect(view.container.textContent).not.toMatch(/Contacts-\d|Tags-\d/);
    expect(view.container.innerHTML).not.toMatch(/Contacts-\d|Tags-\d/);
  });

  it('in Chinese: "联系人第 2 项"', async () => {
    const view = await formIn(zhCN, contacts('联系人', '电子邮件'));
    expect(screen.getByRole('group', { name: '联系人第 2 项' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: '标签第 2 项' })).toBeInTheDocument();
    expect(view.container.innerHTML).not.toMatch(/联系人-\d|标签-\d/);
  });

  it('an item whose schema has a title shows that title', async () => {
    await formIn(en, contacts('Contacts', 'Email', 'Contact'));
    expect(screen.getAllByRole('group', { name: 'Contact' })).toHaveLength(2);
  });
});
