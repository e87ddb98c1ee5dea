/**
 * What assistive technology is told about the fields of a generated form
 * beyond plain inputs: the selector rjsf draws for a `oneOf` / `anyOf`
 * field, the legends of objects and lists, and fields whose keys an agent
 * wrote with a "." or a space (ids and error paths are made of keys).
 */
import { AgentProvider } from '@aguikit/react';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { InterruptDialog } from '../src/InterruptDialog.js';
import { type AgentLocale, AgentLocaleProvider, en, zhCN } from '../src/locale.js';
import { playedStore, runOf } from '../src/storybook/scripted.js';
import { showForms } from './support/showForms.js';

/** The dialog with one open input_required interrupt asking for `schema`, its form loaded. */
async function formFor(schema: Record<string, unknown>, message = 'Answer this, please.') {
  const store = await playedStore([
    {
      say: 'Go ahead.',
      events: runOf([], {
        outcome: {
          type: 'interrupt',
          interrupts: [{ id: 'int-form', reason: 'input_required', message, responseSchema: schema }],
        },
      }),
    },
  ]);
  return showForms(store);
}

/** Each id a control's `aria-describedby` names that is not in the document. */
const missingDescriptions = (root: HTMLElement) =>
  [...root.querySelectorAll('input, select, textarea')].flatMap((field) =>
    (field.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .filter((id) => id && !root.ownerDocument.getElementById(id))
      .map((id) => `${field.id} -> ${id}`),
  );

const payment = {
  type: 'object',
  required: ['pay'],
  properties: {
    pay: {
      title: 'Payment',
      description: 'How the customer is paid back.',
      oneOf: [
        { title: 'Card', type: 'object', required: ['number'], properties: { number: { type: 'string', title: 'Card number' } } },
        { title: 'Bank', type: 'object', required: ['iban'], properties: { iban: { type: 'string', title: 'IBAN' } } },
      ],
    },
  },
};

describe('the option selector of a oneOf or anyOf field', () => {
  it("is named by the field's title, its label points at it, and it names only descriptions that exist", async () => {
    const user = userEvent.setup();
    const { container } = await formFor(payment);
    const selector = screen.getByRole('combobox', { name: 'Payment' });
    expect(selector).toHaveDisplayValue('Card');
    expect(container.querySelector(`label[for="${CSS.escape(selector.id)}"]`)).toHaveTextContent('Payment');
    expect(missingDescriptions(container)).toEqual([]);
    expect(selector).toHaveAccessibleDescription('How the customer is paid back.');
    // The chosen option's fields are a group named by the option, without the required marker.
    expect(screen.getByRole('group', { name: 'Card' })).toContainElement(screen.getByRole('textbox', { name: 'Card number' }));
    await user.selectOptions(selector, 'Bank');
    expect(screen.getByRole('group', { name: 'Bank' })).toContainElement(screen.getByRole('textbox', { name: 'IBAN' }));
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(missingDescriptions(container)).toEqual([]);
    expect(screen.getByRole('combobox', { name: 'Payment' })).toBe(selector);
  });

  it('of an anyOf field is named by its title too', async () => {
    const { container } = await formFor({
      type: 'object',
      properties: {
        v: {
          title: 'Value',
          anyOf: [
            { type: 'string', title: 'Text' },
            { type: 'number', title: 'Number' },
          ],
        },
      },
    });
    expect(screen.getByRole('combobox', { name: 'Value' })).toHaveDisplayValue('Text');
    expect(missingDescriptions(container)).toEqual([]);
  });

  it('of an object with fields of its own is named by its title, which its legend shows', async () => {
    const { container } = await formFor({
      type: 'object',
      properties: {
        pay: {
          type: 'object',
          title: 'Payment',
          properties: { amount: { type: 'number', title: 'Amount' } },
          oneOf: [
            { title: 'Card', properties: { number: { type: 'string', title: 'Card number' } } },
            { title: 'Bank', properties: { iban: { type: 'string', title: 'IBAN' } } },
          ],
        },
      },
    });
    expect(screen.getByRole('combobox', { name: 'Payment' })).toHaveDisplayValue('Card');
    expect(missingDescriptions(container)).toEqual([]);
  });

  it("of the whole answer, with no title, is named by the interrupt's heading", async () => {
    const { container } = await formFor({
      type: 'object',
      oneOf: [
        { title: 'By email', properties: { email: { type: 'string', title: 'Email' } } },
        { title: 'By phone', properties: { phone: { type: 'string', title: 'Phone' } } },
      ],
    });
    expect(screen.getByRole('combobox', { name: 'Input needed' })).toHaveDisplayValue('By email');
    expect(missingDescriptions(container)).toEqual([]);
  });
});

describe('legends', () => {
  it('name a required list and its entries without the required marker', async () => {
    await formFor({
      type: 'object',
      required: ['items'],
      properties: {
        items: {
          type: 'array',
          title: 'Line items',
          minItems: 1,
          items: {
            type: 'object',
            required: ['sku'],
            properties: { sku: { type: 'string', title: 'SKU' }, qty: { type: 'integer', title: 'Qty' } },
          },
        },
      },
    });
    const list = screen.getByRole('group', { name: 'Line items' });
    expect(within(list).getByRole('group', { name: 'Line items, item 1' })).toContainElement(screen.getByRole('textbox', { name: 'SKU' }));
    // The marker is still shown.
    expect(list.querySelector(':scope > legend')).toHaveTextContent('Line items*');
  });
});

describe('fields whose keys hold a "." or a space', () => {
  const contact = {
    type: 'object',
    required: ['contact.email', 'Full name'],
    properties: {
      'contact.email': { type: 'string', title: 'Email', minLength: 5 },
      'Full name': { type: 'string', description: 'As printed on the card' },
      x: { type: 'string' },
    },
  };

  it('shows the error of an empty required key with a "." under its field, marks it invalid, names it in the summary and focuses it', async () => {
    const user = userEvent.setup();
    const { container } = await formFor(contact);
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    const email = screen.getByRole('textbox', { name: 'Email' });
    expect(email).toHaveFocus();
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription('This field is required.');
    expect(screen.getByRole('alert')).toHaveTextContent('2 fields need attention: Email and Full name.');
    expect(missingDescriptions(container)).toEqual([]);
    // An answer given but too short: its error is under the field too, and goes once it is long enough.
    await user.type(email, 'a@b');
    expect(email).toHaveAccessibleDescription('Enter at least 5 characters.');
    expect(email).toHaveAttribute('aria-invalid', 'true');
    await user.type(email, '.io');
    expect(email).not.toHaveAttribute('aria-invalid');
    expect(email).not.toHaveAccessibleDescription();
  });

  it('describes a field whose key has a space by its description and its error, by ids that exist', async () => {
    const user = userEvent.setup();
    const { container } = await formFor(contact);
    const name = screen.getByRole('textbox', { name: 'Full name' });
    expect(name).toHaveAccessibleDescription('As printed on the card');
    for (const id of (name.getAttribute('aria-describedby') ?? '').split(' ')) expect(document.getElementById(id)).not.toBeNull();
    await user.type(screen.getByRole('textbox', { name: 'Email' }), 'ann@example.com');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(name).toHaveFocus();
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveAccessibleDescription('This field is required. As printed on the card');
    expect(screen.getByRole('alert')).toHaveTextContent('1 field needs attention: Full name.');
    expect(missingDescriptions(container)).toEqual([]);
  });

  it('finds a nested field under a key with a "."', async () => {
    const user = userEvent.setup();
    await formFor({
      type: 'object',
      required: ['billing.address'],
      properties: {
        'billing.address': {
          type: 'object',
          title: 'Billing address',
          required: ['post code'],
          properties: { 'post code': { type: 'string', title: 'Post code' }, city: { type: 'string', title: 'City' } },
        },
      },
    });
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    const code = screen.getByRole('textbox', { name: 'Post code' });
    expect(code).toHaveFocus();
    expect(code).toHaveAttribute('aria-invalid', 'true');
    expect(code).toHaveAccessibleDescription('This field is required.');
    expect(screen.getByRole('alert')).toHaveTextContent('1 field needs attention: Post code.');
  });
});

describe('the error summary names only fields the reader can see', () => {
  it('names the fields of the chosen option of a oneOf field, by their titles, and focuses the first of them', async () => {
    const user = userEvent.setup();
    await formFor(payment);
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(screen.getByRole('alert')).toHaveTextContent('2 fields need attention: Card number and Payment.');
    expect(screen.getByRole('textbox', { name: 'Card number' })).toHaveFocus();
    // The other option, chosen: its field is the one named and focused, and the first option's is not named.
    await user.selectOptions(screen.getByRole('combobox', { name: 'Payment' }), 'Bank');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(screen.getByRole('alert')).toHaveTextContent('2 fields need attention: IBAN and Payment.');
    expect(screen.getByRole('textbox', { name: 'IBAN' })).toHaveFocus();
  });

  it("never names an approval's hidden approved field: a decision the schema does not take is said as such", async () => {
    const user = userEvent.setup();
    const { container } = await formFor({
      type: 'object',
      required: ['approved'],
      properties: { approved: { type: 'boolean', const: true }, comment: { type: 'string', title: 'Comment' } },
    });
    await user.click(screen.getByRole('button', { name: 'Reject' }));
    const summary = screen.getByRole('alert');
    expect(summary).not.toHaveTextContent(/Approved/);
    expect(summary).toHaveTextContent('The answer needs attention: The agent does not take this decision.');
    expect(container.querySelector('[aria-invalid="true"]')).toBeNull();
  });
});

describe('the error summary names the field of the option chosen', () => {
  it('names a key two options of a oneOf both define by the title of the chosen option, as its field is labelled', async () => {
    const user = userEvent.setup();
    await formFor({
      type: 'object',
      required: ['pay'],
      properties: {
        pay: {
          title: 'Payment',
          oneOf: [
            { title: 'Card', type: 'object', required: ['number'], properties: { number: { type: 'string', title: 'Card number' } } },
            { title: 'Bank', type: 'object', required: ['number'], properties: { number: { type: 'string', title: 'Account number' } } },
          ],
        },
      },
    });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Payment' }), 'Bank');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    const field = screen.getByRole('textbox', { name: 'Account number' });
    expect(field).toHaveFocus();
    expect(screen.getByRole('alert')).toHaveTextContent('2 fields need attention: Account number and Payment.');
    expect(screen.getByRole('alert')).not.toHaveTextContent('Card number');
  });

  it('names it by the option chosen of an anyOf at the top of the form too', async () => {
    const user = userEvent.setup();
    await formFor({
      type: 'object',
      anyOf: [
        { title: 'Card', required: ['number'], properties: { number: { type: 'string', title: 'Card number', minLength: 12 } } },
        { title: 'Bank', required: ['number'], properties: { number: { type: 'string', title: 'Account number', minLength: 8 } } },
      ],
    });
    await user.selectOptions(screen.getByRole('combobox'), 'Bank');
    await user.type(screen.getByRole('textbox', { name: 'Account number' }), '123');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(screen.getByRole('alert')).toHaveTextContent(/Account number/);
    expect(screen.getByRole('alert')).not.toHaveTextContent('Card number');
  });
});

describe("an approval's decision the schema does not take, together with a field's error", () => {
  it('the summary names the field and says the agent does not take this decision', async () => {
    const user = userEvent.setup();
    await formFor({
      type: 'object',
      required: ['approved', 'comment'],
      properties: { approved: { type: 'boolean', const: true }, comment: { type: 'string', title: 'Comment' } },
    });
    await user.click(screen.getByRole('button', { name: 'Reject' }));
    const summary = screen.getByRole('alert');
    expect(summary).toHaveTextContent('1 field needs attention: Comment. The agent does not take this decision.');
    expect(summary).not.toHaveTextContent(/Approved/);
    expect(screen.getByRole('textbox', { name: 'Comment' })).toHaveFocus();
  });
});

/** The dialog asking for `schema` in `locale`, its form loaded. */
async function formIn(locale: AgentLocale, schema: Record<string, unknown>) {
  const store = await playedStore([
    {
      say: 'Go ahead.',
      events: runOf([], {
        outcome: {
          type: 'interrupt',
          interrupts: [{ id: 'int-lists', reason: 'input_required', message: 'Who?', responseSchema: schema }],
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

describe("the error summary names an item of a list by the list's title and its place in it", () => {
  const lists = (t: { contacts: string; people: string; email: string }) => ({
    type: 'object',
    properties: {
      contacts: { type: 'array', title: t.contacts, default: ['ana@example.com', 'x'], items: { type: 'string', minLength: 5 } },
      people: {
        type: 'array',
        title: t.people,
        default: [{ email: 'ana@example.com' }, { email: 'x' }],
        items: { type: 'object', properties: { email: { type: 'string', title: t.email, minLength: 5 } } },
      },
      tags: { type: 'array', default: ['a', 'bb'], items: { type: 'string', minLength: 2 } },
    },
  });

  it('in English: "item 2 of Contacts", a field of an item with the item, counted from 1', async () => {
    const user = userEvent.setup();
    await formIn(en, lists({ contacts: 'Contacts', people: 'People', email: 'Email' }));
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(screen.getByRole('alert')).toHaveTextContent(
      '3 fields need attention: item 2 of Contacts, Email in item 2 of People, and item 1 of Tags.',
    );
    // The first of them has focus: the second contact's field.
    expect(document.activeElement?.id).toMatch(/_contacts_1$/);
  });

  it('through an optional list of models, as pydantic writes one (anyOf a list or null, its items a $ref into $defs)', async () => {
    const user = userEvent.setup();
    await formIn(en, {
      type: 'object',
      $defs: {
        Person: { type: 'object', title: 'Person', properties: { email: { type: 'string', title: 'E-mail address', minLength: 5 } } },
      },
      properties: {
        people: {
          title: 'People',
          anyOf: [{ type: 'array', items: { $ref: '#/$defs/Person' } }, { type: 'null' }],
          default: [{ email: 'ana@example.com' }, { email: 'x' }],
        },
        owner: { $ref: '#/$defs/Person', default: { email: 'y' } },
      },
    });
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(screen.getByRole('alert')).toHaveTextContent(
      '3 fields need attention: E-mail address in item 2 of People, People, and E-mail address.',
    );
  });

  it('in Chinese: "联系人第 2 项"', async () => {
    const user = userEvent.setup();
    await formIn(zhCN, lists({ contacts: '联系人', people: '人员', email: '电子邮件' }));
    await user.click(screen.getByRole('button', { name: '提交' }));
    expect(screen.getByRole('alert')).toHaveTextContent('有 3 个字段需要处理：联系人第 2 项、人员第 2 项的电子邮件和Tags第 1 项。');
  });
});

// The heading of an item of a list in a generated form: the list's title and the item's place in it, in the reader's
// language, never rjsf's "Contacts-2". An item whose schema has a title of its own shows that title.
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
