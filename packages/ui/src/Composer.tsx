'use client';

import { useAgentRun, useAgentSelector, useAgentStore } from '@aguikit/react';
import type { FormEvent, KeyboardEvent } from 'react';
import * as React from 'react';
import { useLocale } from './locale.js';
import { autoDir } from './textDirection.js';
import { useBrowserLayoutEffect } from './useBrowserLayoutEffect.js';
import { useStoreSwitch } from './useStoreSwitch.js';

export interface ComposerProps extends Omit<React.ComponentPropsWithoutRef<'form'>, 'onSubmit' | 'children'> {
  /** The text box's placeholder (the locale's by default). */
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

/** What the composer is doing, for styling (`data-state`): `ready`, `busy` (a run streams) or `waiting` (interrupts open). */
export type ComposerState = 'ready' | 'busy' | 'waiting';

/** Characters a reader cannot see that `trim` keeps: zero-width spaces and joiners, the word joiner, a byte order mark. */
const INVISIBLE = /[\u200b-\u200d\u2060\ufeff]/g;
/** A text with nothing a reader can see: nothing is sent for it. */
const blank = (text: string) => text.replace(INVISIBLE, '').trim() === '';
/** Spaces and invisible characters at either end, which `trim` alone leaves: a message starts and ends with what a reader sees. */
const EDGES = /^[\s\u200b-\u200d\u2060\ufeff]+|[\s\u200b-\u200d\u2060\ufeff]+$/g;

/**
 * The user's input: type, send with Enter (Shift+Enter for a new line; or
 * Ctrl/Cmd+Enter with `sendOn="mod-enter"`), stop the run in flight with a
 * Stop button of its own, next to Send. The sent text clears as soon as the
 * run starts, so a follow-up can be drafted while it streams. A refused send
 * (a run in flight, interrupts open) keeps the text and says why. The
 * root is a `form.agk-composer` with `data-state` (see `ComposerState`); the
 * ref, `className`, `style` and other props go to it.
 *
 * @example
 * <Composer placeholder="Ask about an order" sendOn="mod-enter" />
 */
export const Composer = React.forwardRef<HTMLFormElement, ComposerProps>(function Composer(
  { placeholder, label, sendOn = 'enter', className, ...props },
  ref,
) {
  useAgentStore('<Composer>');
  const agent = useAgentRun();
  const { messages, lang } = useLocale();
  const t = messages.chat.composer;
  const [text, setText] = React.useState('');
  // Why this composer's last send was refused; shown only while that reason holds (see `note`).
  const [refused, setRefused] = React.useState<{ code: string } | undefined>(undefined);
  // A refusal is of the thread it was sent to: another one shown starts without it (the draft stays: it is the user's).
  useStoreSwitch(agent.store, () => setRefused(undefined));
  const inputRef = React.useRef<HTMLTextAreaElement>(null);
  const refocus = React.useRef(false);
  const inputId = React.useId();
  const noteId = React.useId();
  const busy = agent.inFlight !== undefined;
  const waiting = agent.interrupts.length > 0;
  // A resumed run whose stream has closed but whose tools the browser still runs stays in flight: its answers were
  // sent long ago, and a question it raised is open (waited for, not being sent).
  const toolsRunning = useAgentSelector((s) => {
    if (s.inFlight !== 'resume') return false;
    for (const c of s.thread.toolCalls) if (c.status === 'executing') return true;
    return false;
  });
  const empty = blank(text);

  const send = () => {
    const message = text.replace(EDGES, '');
    if (blank(message)) return;
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
      if (!r.ok) setRefused({ code: r.code });
    });
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    send();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    // The Enter that confirms an input method's composition (Chinese, Japanese) is not a send: Safari reports
    // it after the composition ended, with isComposing false, and keyCode 229 the only sign.
    if (e.key !== 'Enter' || e.nativeEvent.isComposing || e.keyCode === 229) return;
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
  useBrowserLayoutEffect(() => {
    if (!busy && refocus.current) {
      refocus.current = false;
      inputRef.current?.focus();
    }
  }, [busy]);

  // Why a send was refused, in the locale's words (the store's own message is English).
  const refusedText = (code: string) =>
    code === 'RUN_IN_PROGRESS' ? t.refusedInFlight : code === 'DESTROYED' ? t.refusedClosed : t.refused;
  // Answers given and on their way (not yet recorded, which closes their questions): no stream of the resume is open yet.
  const note = waiting
    ? agent.inFlight === 'resume' && agent.connection !== 'open' && agent.connection !== 'connecting' && !toolsRunning
      ? t.sending
      : t.waiting
    : busy
      ? refused?.code === 'RUN_IN_PROGRESS'
        ? refusedText(refused.code)
        : t.inFlight
      : refused && refused.code !== 'RUN_IN_PROGRESS' && refused.code !== 'INTERRUPTS_OPEN'
        ? refusedText(refused.code)
        : undefined;
  const unavailable = busy || waiting || empty;
  const state: ComposerState = busy ? 'busy' : waiting ? 'waiting' : 'ready';
  return (
    <form
      ref={ref}
      lang={lang}
      {...props}
      className={className ? `agk-composer agk-root ${className}` : 'agk-composer agk-root'}
      onSubmit={onSubmit}
      data-state={state}
    >
      <label htmlFor={inputId} className="agk-label">
        {label ?? t.label}
      </label>
      <div className="agk-composer__row">
        <textarea
          ref={inputRef}
          id={inputId}
          className="agk-composer__input"
          dir={autoDir(text)}
          value={text}
          placeholder={placeholder ?? t.placeholder}
          rows={2}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          aria-describedby={note ? noteId : undefined}
        />
        <div className="agk-composer__actions">
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
      </div>
      {/*
       * Always there, empty while idle: the lines it takes are kept (as many as the note of a run in progress wraps
       * to, `data-room`, drawn unseen: run.css), so the box does not move as a run starts and ends.
       */}
      <p id={noteId} className="agk-composer__note" data-room={t.inFlight}>
        <span>{note}</span>
      </p>
    </form>
  );
});
