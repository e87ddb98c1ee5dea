/**
 * A `responseSchema` that applies itself to the same value without end (`if: { $ref: '#' }` with a `then`, an
 * `allOf` back to the root): no answer can ever be checked against it (the check runs out of stack), so the form
 * says as it opens that the question can only be closed, rather than refuse every Submit as "not valid". A schema
 * that refers to itself only for values inside the answer (a tree) is a form like any other.
 */
import { AgentProvider, createAgentStore } from '@aguikit/react';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { endlessAt } from '../src/formSchema.js';
import { InterruptDialog } from '../src/InterruptDialog.js';
import { runOf, STORY_THREAD, scriptedSource } from '../src/storybook/scripted.js';
import { askedFor } from './support/showForms.js';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const note = { note: { type: 'string', title: 'Note' } };

describe('a schema that applies itself to the same value without end', () => {
  it.each([
    [
      'an `if` that is the schema itself',
      {
        type: 'object',
        properties: note,
        if: { $ref: '#' },
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then, not a thenable
        then: { required: ['note'] },
      },
      '/if',
    ],
    [
      'a `then` that is the schema itself',
      {
        type: 'object',
        properties: note,
        if: { properties: { note: { const: 'x' } } },
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then, not a thenable
        then: { $ref: '#' },
      },
      '/then',
    ],
    ['a `not` of the schema itself', { type: 'object', properties: note, not: { $ref: '#' } }, '/not'],
    [
      'an `allOf` back to the root through a definition',
      { type: 'object', properties: note, allOf: [{ $ref: '#/$defs/base' }], $defs: { base: { anyOf: [{ $ref: '#' }] } } },
      '/$defs/base/anyOf/0',
    ],
    [
      'a `$ref` to its own `$id`',
      { $id: 'https://example.com/answer.json', type: 'object', properties: note, anyOf: [{ $ref: 'https://example.com/answer.json' }] },
      '/anyOf/0',
    ],
  ])('%s leaves Close without answering only, and says why', async (_name, schema, at) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await askedFor(schema);
    expect(screen.queryByRole('button', { name: 'Submit' })).toBeNull();
    expect(screen.getByText(/You can only close it without answering/)).toBeInTheDocument();
    expect(screen.getByText("The agent's description of the answer cannot be checked.")).toBeInTheDocument();
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(new RegExp(`without end.*at ${at.replace(/\$/g, '\\$')}`)));
  });
});

/** The dialog of a thread asking for an answer to `responseSchema`, whose agent takes the resume; the store too. */
async function answering(responseSchema: Record<string, unknown>) {
  const store = createAgentStore({
    threadId: STORY_THREAD,
    source: scriptedSource([
      runOf([], { outcome: { type: 'interrupt', interrupts: [{ id: 'int-5a1c', reason: 'input_required', responseSchema }] } }),
      runOf([]),
    ]),
    scheduler: (flush) => {
      queueMicrotask(flush);
      return () => undefined;
    },
  });
  await store.getState().run('File the note');
  const show = () => {
    const view = render(
      <AgentProvider store={store}>
        <InterruptDialog />
      </AgentProvider>,
    );
    return waitFor(() => expect(view.container.querySelector('.agk-interrupt__form-placeholder')).toBeNull(), { timeout: 10_000 }).then(
      () => view,
    );
  };
  return { store, show };
}

const resumed = (store: ReturnType<typeof createAgentStore>) =>
  store.session.entries.flatMap((entry) => (entry.type === 'resume' ? entry.resume : []));

describe('a schema that refers to itself for values inside the answer', () => {
  it('a tree (`items: { $ref: "#" }`) and an `if` without `then` or `else` (never applied) are forms that send', async () => {
    const user = userEvent.setup();
    const { store, show } = await answering({
      type: 'object',
      properties: { ...note, children: { type: 'array', items: { $ref: '#' } } },
      if: { $ref: '#' },
    });
    await show();
    await user.type(screen.getByRole('textbox', { name: 'Note' }), 'root');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(resumed(store)).toEqual([expect.objectContaining({ status: 'resolved', payload: { note: 'root' } })]));
  });

  it('a draft-07 schema whose `dependentSchemas` names itself (a keyword draft-07 has not, ajv ignores it) is a form that sends', async () => {
    const user = userEvent.setup();
    const { store, show } = await answering({ type: 'object', properties: note, dependentSchemas: { note: { $ref: '#' } } });
    await show();
    await user.type(screen.getByRole('textbox', { name: 'Note' }), 'kept');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(resumed(store)).toEqual([expect.objectContaining({ status: 'resolved', payload: { note: 'kept' } })]));
  });

  it('with an `$id`, checked once and drawn again (the card mounted again), is a form that sends', async () => {
    const user = userEvent.setup();
    const { store, show } = await answering({
      $id: 'https://example.com/tree.json',
      type: 'object',
      required: ['note'],
      properties: { ...note, children: { type: 'array', items: { $ref: '#' } } },
    });
    const first = await show();
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('This field is required.')).toBeInTheDocument();
    first.unmount();
    await show();
    expect(screen.queryByText(/You can only close it without answering/)).toBeNull();
    await user.type(screen.getByRole('textbox', { name: 'Note' }), 'again');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(resumed(store)).toEqual([expect.objectContaining({ status: 'resolved', payload: { note: 'again' } })]));
  });
});

const DRAFT_2020 = 'https://json-schema.org/draft/2020-12/schema';
const DRAFT_2019 = 'https://json-schema.org/draft/2019-09/schema';

describe('endlessAt', () => {
  it('finds where a schema applies itself again, through in-place keywords and $refs only', () => {
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then, not a thenable
    expect(endlessAt({ if: { $ref: '#' }, then: {} })).toBe('/if');
    expect(endlessAt({ $defs: { a: { $ref: '#/$defs/b' }, b: { oneOf: [{ $ref: '#/$defs/a' }] } }, allOf: [{ $ref: '#/$defs/a' }] })).toBe(
      '/$defs/b/oneOf/0',
    );
    expect(endlessAt({ $schema: DRAFT_2020, dependentSchemas: { note: { $ref: '#' } } })).toBe('/dependentSchemas/note');
    expect(endlessAt({ dependencies: { note: { $ref: '#' } } })).toBe('/dependencies/note');
    expect(endlessAt({ type: 'object', $ref: '#' })).toBe('');
    expect(endlessAt({ $defs: { 'a/b': { not: { $ref: '#/$defs/a~1b' } } }, anyOf: [{ $ref: '#/$defs/a~1b' }] })).toBe('/$defs/a~1b/not');
    // A tree's fields and items are values inside the one checked, and a `then` without an `if` is never applied.
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then, not a thenable
    expect(endlessAt({ properties: { next: { $ref: '#' } }, items: { $ref: '#' }, then: { $ref: '#' } })).toBeUndefined();
    // A nested resource (`$id`) reads `#` as itself: its own `$ref: "#/…"` to a definition is no way back to the root.
    expect(
      endlessAt({
        allOf: [{ $id: 'https://example.com/part.json', $ref: '#/$defs/leaf', $defs: { leaf: { type: 'string' } } }],
        $defs: { leaf: { $ref: '#' } },
      }),
    ).toBeUndefined();
  });

  it('reads a field or definition named like a data keyword (`default`, `enum`, `const`) as a schema: its `$id` and where it is', () => {
    expect(endlessAt({ properties: { default: { allOf: [{ $ref: '#/properties/default' }] } } })).toBe('/properties/default/allOf/0');
    expect(
      endlessAt({ properties: { const: { $id: 'https://example.com/const.json', not: { $ref: 'https://example.com/const.json' } } } }),
    ).toBe('/properties/const/not');
    expect(
      endlessAt({ $defs: { enum: { $id: 'https://example.com/enum.json', anyOf: [{ $ref: '#' }] } }, allOf: [{ $ref: '#/$defs/enum' }] }),
    ).toBe('/$defs/enum/anyOf/0');
    // A `default` or `enum` of the schema itself is data: a `$ref` inside it is never followed.
    expect(endlessAt({ default: { allOf: [{ $ref: '#' }] }, enum: [{ not: { $ref: '#' } }] })).toBeUndefined();
  });

  it('follows `dependentSchemas`, `$recursiveRef` and `$dynamicRef` in the drafts that have them only (draft-07 ignores them)', () => {
    const schema = { dependentSchemas: { note: { $ref: '#' } }, allOf: [{ $recursiveRef: '#' }, { $dynamicRef: '#' }] };
    expect(endlessAt(schema)).toBeUndefined();
    expect(endlessAt({ ...schema, $schema: 'http://json-schema.org/draft-07/schema#' })).toBeUndefined();
    expect(endlessAt({ $schema: DRAFT_2019, allOf: [{ $recursiveRef: '#' }] })).toBe('/allOf/0');
    expect(endlessAt({ $schema: DRAFT_2020, not: { $dynamicRef: '#' } })).toBe('/not');
  });

  it('reads a `$dynamicRef` or `$recursiveRef` no dynamic anchor answers as ajv does: the schema checked from its root again', () => {
    // An `$anchor` or a JSON Pointer is no dynamic anchor: ajv applies the whole schema again.
    expect(endlessAt({ $schema: DRAFT_2020, $defs: { a: { $anchor: 'm', type: 'object' } }, allOf: [{ $dynamicRef: '#m' }] })).toBe(
      '/allOf/0',
    );
    expect(endlessAt({ $schema: DRAFT_2020, $defs: { a: { type: 'object' } }, anyOf: [{ $dynamicRef: '#/$defs/a' }] })).toBe('/anyOf/0');
    expect(
      endlessAt({
        $schema: DRAFT_2019,
        $defs: { p: { $id: 'https://example.com/p.json', type: 'object', $defs: { d: { anyOf: [{ $recursiveRef: '#' }] } } } },
        allOf: [{ $ref: 'https://example.com/p.json#/$defs/d' }],
      }),
    ).toBe('/$defs/p/$defs/d/anyOf/0');
    // A tree of them (the reference for the values inside) ends with the answer.
    expect(
      endlessAt({
        $schema: DRAFT_2020,
        $dynamicAnchor: 'node',
        properties: { kids: { items: { $dynamicRef: '#node' } } },
        allOf: [{ $ref: '#/$defs/a' }],
        $defs: { a: { items: { $dynamicRef: '#/$defs/a' } } },
      }),
    ).toBeUndefined();
    expect(
      endlessAt({ $schema: DRAFT_2019, $recursiveAnchor: true, properties: { kids: { items: { $recursiveRef: '#' } } } }),
    ).toBeUndefined();
  });
});
