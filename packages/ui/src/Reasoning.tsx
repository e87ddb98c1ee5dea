'use client';

import { useMessage } from '@aguikit/react';
import * as React from 'react';
import { contentText } from './MessageContent.js';
import { useOpenState } from './useOpenState.js';

/** Props of `Reasoning`: the reasoning message, and its open state (controlled or not). */
export interface ReasoningProps {
  /** The id of a reasoning message. */
  id: string;
  /** Controlled open state; leave undefined to let the disclosure keep its own. */
  open?: boolean;
  /** Initial open state when uncontrolled. Closed by default: reasoning is there on demand. */
  defaultOpen?: boolean;
  onOpenChange?: (open: boolean) => void;
}

/** Words in a text, as a reader counts them. */
function countWords(text: string): number {
  const trimmed = text.trim();
  return trimmed === '' ? 0 : trimmed.split(/\s+/).length;
}

function summary(text: string, streaming: boolean, encrypted: boolean): string {
  if (streaming) return 'Thinking…';
  if (text.trim() === '' && encrypted) return 'Thought (encrypted, not shown)';
  const words = countWords(text);
  return `Thought for ${words} ${words === 1 ? 'word' : 'words'}`;
}

/**
 * A reasoning message as a disclosure: "Thinking…" while it streams,
 * "Thought for N words" once done, the text inside. Closed by default,
 * controlled or not (`open` / `defaultOpen` / `onOpenChange`); the state is
 * `data-state="open|closed"` and `aria-expanded` on the trigger, the stream
 * `data-status="streaming|complete"`. Encrypted reasoning (no text, an
 * `encryptedValue`) says so instead of counting zero words.
 *
 * @example
 * <Reasoning id="reasoning-1" />
 */
export function Reasoning({ id, open, defaultOpen = false, onOpenChange }: ReasoningProps) {
  const message = useMessage(id);
  const [isOpen, setOpen] = useOpenState(open, defaultOpen, onOpenChange);
  const panelId = React.useId();
  if (!message) return null;
  const text = contentText(message.content);
  const state = isOpen ? 'open' : 'closed';
  return (
    <div className="agk-reasoning agk-root" data-state={state} data-status={message.streaming ? 'streaming' : 'complete'}>
      <button
        type="button"
        className="agk-reasoning__trigger"
        aria-expanded={isOpen}
        aria-controls={panelId}
        data-state={state}
        onClick={() => setOpen(!isOpen)}
      >
        <span className="agk-chevron" aria-hidden="true" />
        {summary(text, message.streaming, message.encryptedValue !== undefined)}
      </button>
      <div className="agk-reasoning__content" id={panelId} hidden={!isOpen}>
        {text}
      </div>
    </div>
  );
}
