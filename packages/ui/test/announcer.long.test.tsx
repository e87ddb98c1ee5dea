/**
 * A long reply, once finished, is announced by its head: what is read out
 * is its first words and how many more there are, so only the head is
 * parsed as Markdown. Parsing all of a reply of 100,000 characters again
 * (it has just been rendered) would freeze the page for seconds.
 */
import { AgentProvider } from '@aguikit/react';
import { render, screen, waitFor } from '@testing-library/react';
import type { Options } from 'react-markdown';
import { describe, expect, it, vi } from 'vitest';
import { preloadMarkdown } from '../src/lazyChunks.js';
import { spokenText } from '../src/liveAnnouncer.js';
import { MessageList } from '../src/Messages.js';
import { drivenStore } from './support/drivenStore.js';

/** The length of every text the Markdown renderer was given, in order. */
const parsed: number[] = [];
vi.mock('react-markdown', async (original) => {
  const markdown = await original<typeof import('react-markdown')>();
  return {
    ...markdown,
    default: (options: Options) => {
      parsed.push((options.children ?? '').length);
      return markdown.default(options);
    },
  };
});

const item = (i: number) => `- 第 ${i} 项 item **${i}** with [a link](https://shop.example/${i}) and more words here\n`;

describe('a long reply is said by its head', () => {
  it('spokenText parses at most 4,000 characters, cut at a paragraph, and keeps the rest as rough words', () => {
    const seen: number[] = [];
    const toText = (markdown: string) => {
      seen.push(markdown.length);
      return markdown.replaceAll('**', '');
    };
    const paragraphs = Array.from({ length: 200 }, (_, i) => `Paragraph **${i}** has seven words in it.`).join('\n\n');
    const said = spokenText(paragraphs, toText);
    expect(Math.max(...seen)).toBeLessThanOrEqual(4_000);
    expect(said.startsWith('Paragraph 0 has seven words in it.')).toBe(true);
    expect(said.split(/\s+/u)).toHaveLength(200 * 7);
    expect(said).not.toContain('**');
    // A short reply is parsed whole.
    seen.length = 0;
    expect(spokenText('Your **refund** is issued.', toText)).toBe('Your refund is issued.');
    expect(seen).toEqual([26]);
  });

  it('a 50,000-character reply streamed as a list is announced without parsing it all again', async () => {
    await preloadMarkdown();
    const { store, push, start, end } = drivenStore();
    render(
      <AgentProvider store={store}>
        <MessageList />
      </AgentProvider>,
    );
    await start();
    await push({ type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' });
    const delta = Array.from({ length: 600 }, (_, i) => item(i)).join('');
    expect(delta.length).toBeGreaterThan(45_000);
    await push({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta });
    parsed.length = 0;
    await push({ type: 'TEXT_MESSAGE_END', messageId: 'm1' });
    await end();
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent(/^Assistant: 第 0 项 item 0 with a link/u));
    expect(Math.max(0, ...parsed)).toBeLessThanOrEqual(4_000);
  }, 60_000);
});
