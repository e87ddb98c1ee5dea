'use client';

import { useAgentRun } from '@aguikit/react';
import type { FormEvent, KeyboardEvent } from 'react';
import * as React from 'react';
import { useLocale } from './locale.js';

export interface ComposerProps {
  placeholder?: string;
  /** The visible label of the input (also its accessible name). */
  label?: string;
  /**
   * Which key sends. `'enter'` (the default): Enter sends, Shift+Enter makes a
   * new line. `'mod-enter'`: Ctrl+Enter (Cmd+Enter on a Mac) sends, and Enter
   * makes a new line — for long, multi-line messages.
   *
   * @example
   * <Composer sendOn="mod-enter" />
   */
  sendOn?: 'enter' | 'mod-enter';
}

/**
 * The user's input: type, send with Enter (Shift+Enter for a new line; or
 * Ctrl/Cmd+Enter with `sendOn="mod-enter"`), stop the run in flight with a
 * Stop button of its own, next to Send. The sent text clears as soon as the
 * run starts, so a follow-up can be drafted while it streams. A refused send
 * (a run in flight, interrupts open) keeps the text and says why.
 *
 * @example
 * <Composer placeholder="Ask about an order" sendOn="mod-enter" />
 */
export function Composer({ placeholder, label, sendOn = 'enter' }: ComposerProps) {
  const agent = useAgentRun();
  const t = useLocale().messages.chat.composer;
  const [text, setText] = React.useState('');
  // Why this composer's last send was refused; shown only while that reason holds (see `note`).
  const [refused, setRefused] = React.useState<{ code: string; message: string } | undefined>(undefined);
  const inputRef = React.useRef<HTMLTextAreaElement>(null);
  const refocus = React.useRef(false);
  const inputId = React.useId();
  const noteId = React.useId();
  const busy = agent.inFlight !== undefined;
  const waiting = agent.interrupts.length > 0;
  const empty = text.trim() === '';

  const send = () => {
    const message = text.trim();
    if (!message) return;
    // The store is the judge: it refuses while a run is in flight or interrupts are open.
    const before = agent.store.getState().inFlight;
    const result = agent.run(message);
    // An accepted run is claimed synchronously (`inFlight` set); a refused one leaves it as it was.
    const accepted = before === undefined && agent.store.getState().inFlight !== undefined;
    if (accepted) {
      setRefused(undefined);
      setText('');
      return;
    }
    // How an accepted run ends is the run's status to show, not the composer's; only a refusal is.
    void result.then((r) => {
      if (!r.ok) setRefused({ code: r.code, message: r.message });
    });
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    send();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key !== 'Enter' || e.nativeEvent.isComposing) return;
    const mod = e.ctrlKey || e.metaKey;
    if (sendOn === 'mod-enter' ? mod : !e.shiftKey) {
      e.preventDefault();
      send();
    }
  };

  // Stop leaves the page when the run ends: if it had focus, the text box takes it (never <body>).
  // Detached (called with null) while still in the document, on React 18 and 19 alike.
  const stopNode = React.useRef<HTMLButtonElement | null>(null);
  const stopRef = React.useCallback((node: HTMLButtonElement | null) => {
    const previous = stopNode.current;
    if (!node && previous?.ownerDocument.activeElement === previous) refocus.current = true;
    stopNode.current = node;
  }, []);
  React.useLayoutEffect(() => {
    if (!busy && refocus.current) {
      refocus.current = false;
      inputRef.current?.focus();
    }
  }, [busy]);

  const note = waiting
    ? t.waiting
    : busy
      ? refused?.code === 'RUN_IN_PROGRESS'
        ? refused.message
        : t.inFlight
      : refused && refused.code !== 'RUN_IN_PROGRESS' && refused.code !== 'INTERRUPTS_OPEN'
        ? refused.message
        : undefined;
  const unavailable = busy || waiting || empty;
  return (
    <form className="agk-composer agk-root" onSubmit={onSubmit} data-state={busy ? 'busy' : waiting ? 'waiting' : 'ready'}>
      <label htmlFor={inputId} className="agk-label">
        {label ?? t.label}
      </label>
      <div className="agk-composer__row">
        <textarea
          ref={inputRef}
          id={inputId}
          className="agk-composer__input"
          value={text}
          placeholder={placeholder ?? t.placeholder}
          rows={2}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          aria-describedby={note ? noteId : undefined}
        />
        {busy ? (
          <button ref={stopRef} type="button" className="agk-button agk-composer__stop" data-variant="danger" onClick={agent.stop}>
            {t.stop}
          </button>
        ) : null}
        {/* Last in the row, so it stays where it is when Stop appears; focusable while unavailable (aria-disabled), so focus on it is never dropped. */}
        <button
          type="submit"
          className="agk-button agk-composer__send"
          data-variant="primary"
          aria-disabled={unavailable ? true : undefined}
          aria-describedby={note && (busy || waiting) ? noteId : undefined}
        >
          {t.send}
        </button>
      </div>
      {note ? (
        <p id={noteId} className="agk-composer__note">
          {note}
        </p>
      ) : null}
    </form>
  );
}
