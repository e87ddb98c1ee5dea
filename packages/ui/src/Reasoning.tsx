'use client';

import { useAgentStore, useMessage } from '@aguikit/react';
import * as React from 'react';
import { LONG_TEXT, LongText } from './LongText.js';
import { useLocale } from './locale.js';
import { contentText } from './MessageContent.js';
import { useOpenState } from './useOpenState.js';

/** Props of `Reasoning`: the reasoning message, its open state (controlled or not), and any prop of its `div`. */
export interface ReasoningProps extends Omit<React.HTMLAttributes<HTMLDivElement>, 'id'> {
  /** The id of a reasoning message. */
  id: string;
  /** Controlled open state; leave undefined to let the disclosure keep its own. */
  open?: boolean;
  /** Initial open state when uncontrolled. Closed by default: reasoning is there on demand. */
  defaultOpen?: boolean;
  onOpenChange?: (open: boolean) => void;
}

type Segmenter = { segment(text: string): Iterable<{ isWordLike?: boolean }> };
const segmenters = new Map<string, Segmenter | null>();

/** Scripts written without spaces between words (Chinese, Japanese, Thai...), where words are found by `Intl.Segmenter`. */
const UNSPACED = /[\u0e00-\u0e7f\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]/;

/**
 * Words in a text, as a reader counts them: separated by spaces, and in a
 * script without spaces (Chinese), as `Intl.Segmenter` finds them for `lang`.
 */
export function countWords(text: string, lang: string): number {
  const trimmed = text.trim();
  if (trimmed === '') return 0;
  if (!UNSPACED.test(trimmed)) return trimmed.split(/\s+/).length;
  let segmenter = segmenters.get(lang);
  if (segmenter === undefined) {
    const Ctor = (Intl as unknown as { Segmenter?: new (lang: string, options: { granularity: 'word' }) => Segmenter }).Segmenter;
    try {
      segmenter = Ctor ? new Ctor(lang, { granularity: 'word' }) : null;
    } catch {
      segmenter = null;
    }
    segmenters.set(lang, segmenter);
  }
  if (!segmenter) return trimmed.split(/\s+/).length;
  let count = 0;
  // In pieces: ICU's time for one long run of Chinese grows far faster than its length (70,000 characters: 20 s).
  for (let at = 0; at < trimmed.length; ) {
    const end = pieceEnd(trimmed, at);
    for (const part of segmenter.segment(trimmed.slice(at, end))) if (part.isWordLike) count += 1;
    at = end;
  }
  return count;
}

/** How much of a text `countWords` segments at once. */
const PIECE = 4_096;
/** A break no word runs across: a space or a punctuation mark. */
const BREAK = /[\s\p{P}]/u;

/** Where the piece that starts at `at` ends: after the last space or punctuation near its end, else between two code points. */
function pieceEnd(text: string, at: number): number {
  let end = at + PIECE;
  if (end >= text.length) return text.length;
  for (let i = end; i > end - 256; i--) if (BREAK.test(text[i - 1] ?? '')) return i;
  // No break near: a word may be counted twice here. Never between the halves of a surrogate pair.
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return end;
}

/** A second at least: a shorter span says nothing a reader can use, and the length does. */
const MIN_DURATION_MS = 1000;

/**
 * A reasoning message as a disclosure: "Thinking…" while it streams; once
 * done, how long it took ("Thought for 12 seconds") when its start and end
 * are known and at least a second apart, else "Reasoning, 32 words" (words
 * counted for the locale's language, numbers through `Intl`); the text
 * inside. Closed by default, controlled or not (`open` / `defaultOpen` /
 * `onOpenChange`); the state is `data-state="open|closed"` and
 * `aria-expanded` on the trigger, the stream
 * `data-status="streaming|complete"`. Encrypted reasoning (no text, an
 * `encryptedValue`) says so instead of counting zero words. Forwards its ref
 * to its root and takes `className`, `style` and DOM props.
 *
 * @example
 * <Reasoning id="reasoning-1" />
 */
export const Reasoning = React.forwardRef<HTMLDivElement, ReasoningProps>(function Reasoning(
  { id, open, defaultOpen = false, onOpenChange, className, ...rest },
  ref,
) {
  useAgentStore('<Reasoning>');
  const message = useMessage(id);
  const { messages, format, lang } = useLocale();
  const [isOpen, setOpen] = useOpenState(open, defaultOpen, onOpenChange);
  const panelId = React.useId();
  if (!message) return null;
  const text = contentText(message.content);
  const state = isOpen ? 'open' : 'closed';
  const strings = messages.messages.reasoning;
  let summary: string;
  if (message.streaming) summary = strings.thinking;
  else if (text.trim() === '' && message.encryptedValue !== undefined) summary = strings.encrypted;
  else {
    const took = message.startedAt !== undefined && message.endedAt !== undefined ? message.endedAt - message.startedAt : 0;
    if (took >= MIN_DURATION_MS) summary = strings.took(format.duration(took / 1000));
    else {
      const words = countWords(text, lang);
      summary = strings.words(words, format.number(words));
    }
  }
  return (
    <div
      {...rest}
      ref={ref}
      className={['agk-reasoning agk-root', className].filter(Boolean).join(' ')}
      data-state={state}
      data-status={message.streaming ? 'streaming' : 'complete'}
    >
      <button
        type="button"
        className="agk-reasoning__trigger"
        aria-expanded={isOpen}
        aria-controls={panelId}
        data-state={state}
        onClick={() => setOpen(!isOpen)}
      >
        <span className="agk-chevron" aria-hidden="true" />
        {summary}
      </button>
      <div className="agk-reasoning__content" id={panelId} hidden={!isOpen}>
        {text.length > LONG_TEXT ? <LongText text={text} /> : text}
      </div>
    </div>
  );
});
