/**
 * A reply that streams while the Markdown renderer is still on its way: what
 * shows once it comes is what `MarkdownBody` shows of that text. A reply
 * already past LONG_TEXT stays cut as plain text (Show all), as MarkdownBody
 * cuts a text it first meets that long; one the renderer met shorter stays
 * Markdown as it grows past it. StrictMode renders twice with no loop.
 */
import { act, render, screen } from '@testing-library/react';
import * as React from 'react';
import { beforeEach, expect, it, vi } from 'vitest';
import { LONG_TEXT } from '../src/LongText.js';
import { lazyModule } from '../src/lazyModule.js';
import { SafeMarkdown } from '../src/Markdown.js';

/** The renderer's chunk, new for each test, held until `open` is called. */
const chunk = vi.hoisted(() => ({ module: undefined as unknown, open: (() => undefined) as () => void }));
vi.mock('../src/lazyChunks.js', async (original) => {
  const real = await original<typeof import('../src/lazyChunks.js')>();
  return {
    ...real,
    get markdownChunk() {
      return chunk.module;
    },
  };
});

beforeEach(() => {
  const held = new Promise<void>((resolve) => (chunk.open = resolve));
  chunk.module = lazyModule(async () => {
    await held;
    return import('../src/MarkdownRenderer.js');
  });
});

/** A reply of about `chars` characters, growing at its end. */
const reply = (chars: number) => `**Start** ${'word '.repeat(Math.ceil(chars / 5))}`;

function streamed() {
  let update!: (text: string) => void;
  function Reply() {
    const [text, setText] = React.useState(reply(1_000));
    update = setText;
    return <SafeMarkdown>{text}</SafeMarkdown>;
  }
  const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  const view = render(
    <React.StrictMode>
      <Reply />
    </React.StrictMode>,
  );
  const state = () => view.container.querySelector('[data-markdown]')?.getAttribute('data-markdown');
  return { ...view, state, errors, grow: (chars: number) => act(() => update(reply(chars))) };
}

const arrives = async (state: () => string | null | undefined) => {
  await act(async () => chunk.open());
  await vi.waitFor(() => expect(state()).toBe('ready'), { timeout: 20_000 });
};

it('a reply past LONG_TEXT before the renderer came stays cut as text as it comes and as the reply grows on', {
  timeout: 30_000,
}, async () => {
  const r = streamed();
  expect(r.state()).toBe('loading');
  r.grow(LONG_TEXT + 5_000);
  expect(screen.getByRole('button', { name: 'Show all' })).toBeInTheDocument();
  await arrives(r.state);
  // What MarkdownBody shows of a text it first meets that long: its beginning as text, Show all.
  expect(r.container.querySelector('strong')).toBeNull();
  expect(screen.getByRole('button', { name: 'Show all' })).toBeInTheDocument();
  r.grow(LONG_TEXT + 10_000);
  expect(r.container.querySelector('.agk-longtext__note')?.textContent).toContain(reply(LONG_TEXT + 10_000).length.toLocaleString('en'));
  expect(r.container.querySelector('strong')).toBeNull();
  expect(r.errors).not.toHaveBeenCalled();
  r.errors.mockRestore();
});

it('a reply the renderer came to shorter than LONG_TEXT stays Markdown as it grows past it', { timeout: 30_000 }, async () => {
  const r = streamed();
  await arrives(r.state);
  expect(r.container.querySelector('strong')?.textContent).toBe('Start');
  r.grow(LONG_TEXT - 1_000);
  r.grow(LONG_TEXT + 5_000);
  expect(r.state()).toBe('ready');
  expect(r.container.querySelector('strong')?.textContent).toBe('Start');
  expect(screen.queryByRole('button', { name: 'Show all' })).toBeNull();
  expect(r.errors).not.toHaveBeenCalled();
  r.errors.mockRestore();
});
