/**
 * Every place that cuts a text short (a summary, a live announcement) cuts
 * between whole characters: never half of an emoji or a rare CJK character.
 */
import { AgentProvider } from '@aguikit/react';
import { render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { summarizeEvent } from '../src/eventSummary.js';
import { LONG_TEXT } from '../src/LongText.js';
import { announcementText } from '../src/liveAnnouncer.js';
import { en, localeValue } from '../src/locale.js';
import { MessageList } from '../src/Messages.js';
import { think } from '../src/storybook/conversations.js';
import { call, playedStore, runOf, say } from '../src/storybook/scripted.js';
import { textHead } from '../src/textCut.js';

/** Half of a surrogate pair, alone. */
const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const EMOJI = '😀';

describe('text cut short for a summary or an announcement', () => {
  it('the live announcement of a long reply (cut at 300 characters)', () => {
    // No space before 300 (CJK text, emoji): the cut is at 300 exactly, between the halves of the emoji.
    const text = `${'字'.repeat(299)}${EMOJI}${'字'.repeat(50)}`;
    const said = announcementText(localeValue(en), 'Assistant', text, false);
    expect(said).not.toMatch(LONE);
  });

  it('the event timeline summary of a delta (clipped at 160)', () => {
    const delta = `${'a'.repeat(158)}${EMOJI}${'b'.repeat(20)}`;
    const summary = summarizeEvent({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta });
    const texts = summary.lead.flatMap((p) => (p.kind === 'text' ? [p.text] : []));
    expect(texts.length).toBe(1);
    expect(texts[0]).not.toMatch(LONE);
  });

  it("a tool call chip's one-line argument summary (clipped at 60)", async () => {
    // "note: " is 6 characters: the emoji's first half is the 59th character of the summary, the last one kept.
    const store = await playedStore([
      {
        say: 'go',
        events: runOf([...say('a1', 'ok'), ...call('c1', 'save_note', { note: `${'a'.repeat(52)}${EMOJI}tail` }, { parent: 'a1' })]),
      },
    ]);
    const view = render(
      <AgentProvider store={store}>
        <MessageList />
      </AgentProvider>,
    );
    const summary = view.container.querySelector('.agk-toolcall__summary')?.textContent ?? '';
    expect(summary.endsWith('…')).toBe(true);
    expect(summary).not.toMatch(LONE);
    expect(screen.getByRole('button', { name: 'save_note' })).toBeInTheDocument();
  });

  it("a decision line's comment (clipped at 160)", async () => {
    const store = await playedStore([
      {
        say: 'refund',
        events: runOf(say('a1', 'Checking'), {
          outcome: { type: 'interrupt', interrupts: [{ id: 'i1', reason: 'confirmation', message: 'Refund 42 USD?' }] },
        }),
      },
      {
        resume: [{ interruptId: 'i1', status: 'resolved', payload: { approved: false, comment: `${'a'.repeat(158)}${EMOJI}more` } }],
        events: runOf(say('a2', 'Not refunded')),
      },
    ]);
    const view = render(
      <AgentProvider store={store}>
        <MessageList />
      </AgentProvider>,
    );
    const line = view.container.querySelector('[data-agk-decision]')?.textContent ?? '';
    expect(line).toContain('aaaa');
    expect(line).not.toMatch(LONE);
  });
});

describe('a long text the agent sends, wherever it shows, is cut as a long reply is', () => {
  const long = (what: string) => `${what} ${'字'.repeat(LONG_TEXT)} the end`;
  const shownText = (el: Element | null | undefined) => el?.textContent ?? '';

  it('a tool result, a tool message and reasoning past LONG_TEXT show their head, and Show all shows the rest', async () => {
    const store = await playedStore([
      {
        say: 'go',
        events: runOf([
          ...think('r1', long('thought')),
          ...say('a1', 'ok'),
          ...call('c1', 'export_orders', { month: '2026-11' }, { parent: 'a1', result: long('result') }),
          // A tool message whose call is not on screen is shown as a message of its own.
          { type: 'TOOL_CALL_RESULT', messageId: 'orphan', toolCallId: 'gone', content: long('orphan') },
        ]),
      },
    ]);
    const view = render(
      <AgentProvider store={store}>
        <MessageList />
      </AgentProvider>,
    );
    const reasoning = view.container.querySelector('.agk-reasoning__content');
    const card = view.container.querySelector('.agk-toolcall');
    const orphan = view.container.querySelector('[data-role="tool"]');
    for (const [name, el] of [
      ['reasoning', reasoning],
      ['card', card],
      ['tool message', orphan],
    ] as const) {
      expect(shownText(el).length, name).toBeLessThan(LONG_TEXT + 1_000);
      expect(shownText(el), name).not.toContain('the end');
      expect(el?.querySelector('.agk-longtext__note button'), name).not.toBeNull();
    }
    const showAll = card?.querySelector<HTMLButtonElement>('.agk-longtext__note button');
    if (!showAll) throw new Error('no Show all on the card');
    showAll.click();
    await waitFor(() => expect(shownText(card)).toContain('the end'));
  });
});

describe('a text cut short keeps whole graphemes (what a reader sees as one symbol)', () => {
  // A family (four people joined by ZWJ, 11 UTF-16 units), a flag (two regional indicators), a skin-toned thumb.
  const FAMILY = '👨‍👩‍👧‍👦';
  const FLAG = '🇸🇦';
  const THUMB = '👍🏽';

  it('textHead never ends inside an emoji sequence', () => {
    for (const symbol of [FAMILY, FLAG, THUMB]) {
      for (let at = 1; at < symbol.length; at++) {
        const text = `${'a'.repeat(100 - at)}${symbol}tail`;
        const head = textHead(text, 100);
        // The whole symbol or none of it: the text before it, or the text through it.
        expect([`${'a'.repeat(100 - at)}`, `${'a'.repeat(100 - at)}${symbol}`], `${symbol} cut after ${at}`).toContain(head);
      }
    }
  });

  it('textHead keeps the flags of a long row of flags whole, each its own country', () => {
    // Sixty Saudi flags: a cut that paired the letters from the middle of the row would show other flags (🇦🇸, American Samoa).
    for (let lead = 0; lead < 4; lead++) {
      for (let limit = lead + 60; limit < lead + 140; limit++) {
        const text = `${'a'.repeat(lead)}${FLAG.repeat(60)}`;
        const head = textHead(text, limit);
        expect((head.length - lead) % FLAG.length, `${lead} letters, cut at ${limit}`).toBe(0);
      }
    }
  });

  it('textHead cuts between two plain characters of a long text without segmenting it', () => {
    // It runs on every render of a long reply while it streams: a cut between letters (or CJK characters) needs no segmenter.
    const segment = vi.spyOn(Intl.Segmenter.prototype, 'segment');
    try {
      const text = 'lorem ipsum dolor sit amet, '.repeat(40_000);
      expect(textHead(text, 100_000)).toBe(text.slice(0, 100_000));
      expect(textHead('字'.repeat(5000), 4000)).toBe('字'.repeat(4000));
      expect(segment).not.toHaveBeenCalled();
      // Where a mark or a joiner follows, it still segments.
      expect(textHead(`${'a'.repeat(99)}e\u0301b`, 100)).toBe('a'.repeat(99));
    } finally {
      segment.mockRestore();
    }
  });

  it('textHead cuts between code points where there is no Intl.Segmenter, or no Intl at all', async () => {
    for (const intl of [{}, undefined]) {
      vi.resetModules();
      vi.stubGlobal('Intl', intl);
      try {
        const { textHead: head } = await import('../src/textCut.js');
        expect(head(`${'a'.repeat(99)}${EMOJI}b`, 100)).toBe('a'.repeat(99));
        expect(head(`${'a'.repeat(98)}é${FLAG}`, 100)).toBe(`${'a'.repeat(98)}é`);
      } finally {
        vi.unstubAllGlobals();
      }
    }
  });

  it('the live announcement of a long reply says the family, not a man and a woman', () => {
    // No space before 300: the cut falls inside the family.
    const text = `${'字'.repeat(295)}${FAMILY}${'字'.repeat(50)}`;
    const said = announcementText(localeValue(en), 'Assistant', text, false);
    expect(said).not.toContain('👨‍👩');
    expect(said).toContain('字'.repeat(295));
  });

  it('the event timeline summary of a delta keeps the flag whole', () => {
    // Clipped at 160 (159 characters and "…"): the cut falls between the flag's two letters.
    const delta = `${'a'.repeat(156)}${FLAG}${'b'.repeat(20)}`;
    const summary = summarizeEvent({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta });
    const texts = summary.lead.flatMap((p) => (p.kind === 'text' ? [p.text] : []));
    expect(texts).toEqual([`${'a'.repeat(156)}…`]);
  });
});
